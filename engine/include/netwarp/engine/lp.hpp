// Logical processes. A model's LP is a plain class checked by the LogicalProcess concept:
//
//   class SwitchLp {
//    public:
//     using Handles = EventSet<PacketArrived, CreditReturned>;
//     void init(InitCtx& ctx);                              // first events
//     void on(const PacketArrived& ev, EventCtx& ctx);      // one overload per payload
//     void on(const CreditReturned& ev, EventCtx& ctx);
//     void visit_state(StateVisitor& v) const;              // every reversible field, once
//     // optional: void finish(FinishCtx& ctx);             // final records after the run
//   };
//
// There is no reverse handler: undo comes from the reversible fields. There is no commit
// handler either: a handler's output is the records it emits (ctx.emit), which the kernel
// keeps with the event and writes to the RecordSink only when the event commits, in key
// order per LP. LpAdapter wraps such a class behind the virtual LpBase the kernels hold.
#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "netwarp/engine/event_ctx.hpp"

namespace netwarp::engine {

// What finish() may do: read the end time and emit final records.
class FinishCtx {
 public:
  FinishCtx(LpId self, SimTime end, RecordBuffer& records)
      : self_(self), end_(end), records_(records) {}
  LpId self() const { return self_; }
  SimTime end_time() const { return end_; }
  template <Record R>
  void emit(const R& record) {
    records_.append(record);
  }

 private:
  LpId self_;
  SimTime end_;
  RecordBuffer& records_;
};

template <class Lp, class P>
concept HandlesPayload = requires(Lp& lp, const P& payload, EventCtx& ctx) {
  lp.on(payload, ctx);
};

namespace detail {
template <class Lp, class Set>
struct HandlesAll : std::false_type {};
template <class Lp, class... Ps>
struct HandlesAll<Lp, EventSet<Ps...>> : std::bool_constant<(HandlesPayload<Lp, Ps> && ...)> {};
}  // namespace detail

template <class Lp>
concept LogicalProcess = requires(Lp& lp, const Lp& clp, InitCtx& init, StateVisitor& visitor) {
  typename Lp::Handles;
  lp.init(init);
  clp.visit_state(visitor);
}
&&detail::HandlesAll<Lp, typename Lp::Handles>::value;

class LpBase {
 public:
  virtual ~LpBase() = default;
  virtual void init(InitCtx& ctx) = 0;
  virtual void handle(const Event& event, EventCtx& ctx) = 0;
  virtual void finish(FinishCtx& ctx) = 0;
  virtual void visit_state(StateVisitor& visitor) const = 0;
  virtual std::string_view type_name() const = 0;
};

template <LogicalProcess Lp>
class LpAdapter final : public LpBase {
 public:
  template <class... Args>
  explicit LpAdapter(Args&&... args) : lp_(std::forward<Args>(args)...) {}

  void init(InitCtx& ctx) override { lp_.init(ctx); }
  void handle(const Event& event, EventCtx& ctx) override {
    dispatch(event, ctx, static_cast<typename Lp::Handles*>(nullptr));
  }
  void finish(FinishCtx& ctx) override {
    if constexpr (requires { lp_.finish(ctx); }) lp_.finish(ctx);
  }
  void visit_state(StateVisitor& visitor) const override { lp_.visit_state(visitor); }
  std::string_view type_name() const override { return engine::type_name<Lp>(); }

 private:
  template <class... Ps>
  void dispatch(const Event& event, EventCtx& ctx, EventSet<Ps...>*) {
    static_assert(tags_are_distinct<Ps...>(), "two payload types hash to the same tag");
    const bool handled =
        ((event.tag == tag_of<Ps> ? (lp_.on(event.as<Ps>(), ctx), true) : false) || ...);
    NW_CHECK(handled, "LP type {} does not handle payload tag {:#x}", type_name(), event.tag);
  }
  Lp lp_;
};

template <LogicalProcess Lp, class... Args>
std::unique_ptr<LpBase> make_lp(Args&&... args) {
  return std::make_unique<LpAdapter<Lp>>(std::forward<Args>(args)...);
}

}  // namespace netwarp::engine
