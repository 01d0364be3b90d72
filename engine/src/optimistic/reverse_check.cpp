// The reverse check mode: every event is handled forward, rolled back, and handled again. The
// state after rollback must equal the state before, and the second run must leave the same
// state, send the same events and emit the same records as the first. A model that changes
// state outside the reversible primitives fails here, with the LP, event and fields named.
#include <algorithm>

#include "time_warp_pe.hpp"

namespace netwarp::engine {
namespace {

// Records the events a handler sends; forwards them to `next` when there is one.
class CapturingRouter final : public EventRouter {
 public:
  explicit CapturingRouter(EventRouter* next) : next_(next) {}
  void route(const Event& event) override {
    sent_.push_back(event);
    if (next_) next_->route(event);
  }
  const std::vector<Event>& sent() const { return sent_; }

 private:
  EventRouter* next_;
  std::vector<Event> sent_;
};

bool same_events(const std::vector<Event>& a, const std::vector<Event>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Event& x, const Event& y) {
    return x.key == y.key && x.dest == y.dest && x.tag == y.tag && x.size == y.size &&
           std::equal(x.payload, x.payload + x.size, y.payload);
  });
}

std::string differing_fields(const std::vector<FieldHash>& a, const std::vector<FieldHash>& b) {
  std::string names;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i < a.size() && i < b.size() && a[i] == b[i]) continue;
    if (!names.empty()) names += ", ";
    names += i < a.size() ? a[i].name : b[i].name;
  }
  return names.empty() ? "(none)" : names;
}

[[noreturn]] void fail(const LpBase& lp, const Event& event, std::string_view what) {
  throw ModelError(fmt::format(
      "reverse check failed: LP {} ({}), event (t={} ps, creator {}, #{}, payload tag {:#x}): {}",
      event.dest, lp.type_name(), event.key.time.ps(), event.key.creator, event.key.counter,
      event.tag, what));
}

}  // namespace

void TimeWarpPe::execute_checked(EventId id) {
  const Event& event = pool_[id];
  LpSlot& slot = slot_of(event.dest);
  const std::uint64_t undo_mark = undo_.mark();
  const std::uint64_t records_mark = records_.mark();
  const std::uint64_t counter_before = slot.send_counter;
  const std::vector<FieldHash> before = field_hashes(*slot.lp);

  CapturingRouter first(nullptr);
  run_handler(*slot.lp, event, scope_for(slot, event, &first));
  const std::vector<FieldHash> after_first = field_hashes(*slot.lp);
  const auto first_records = records_.bytes_since(records_mark);
  const std::vector<std::byte> records_first(first_records.begin(), first_records.end());

  undo_.undo_to(undo_mark);
  records_.truncate(records_mark);
  slot.send_counter = counter_before;
  const std::vector<FieldHash> after_undo = field_hashes(*slot.lp);
  if (after_undo != before)
    fail(*slot.lp, event,
         "state after rollback differs from before the event in: " +
             differing_fields(before, after_undo));

  CapturingRouter second(this);
  execute(id, &second);
  const auto second_records = records_.bytes_since(records_mark);
  if (field_hashes(*slot.lp) != after_first)
    fail(*slot.lp, event,
         "handling the event again left a different state in: " +
             differing_fields(after_first, field_hashes(*slot.lp)));
  if (!same_events(first.sent(), second.sent()))
    fail(*slot.lp, event, "handling the event again sent different events");
  if (!std::equal(records_first.begin(), records_first.end(), second_records.begin(),
                  second_records.end()))
    fail(*slot.lp, event, "handling the event again emitted different records");
}

}  // namespace netwarp::engine
