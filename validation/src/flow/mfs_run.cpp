// run_mfs: MFS's cycle (steps 1-8) as an event loop over the FlowSolver: each cycle advances
// to the next completion or delayed start, takes the finished messages, releases what waited on
// them (the sender's next message; with synchronised sends, messages waiting on receives) and
// starts the messages due. Rates are recomputed by the solver only when the flow set changed.
#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <stdexcept>

#include "flow/sender_queues.hpp"
#include "netwarp/validation/flow_run.hpp"

namespace netwarp::validation {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct DueStart {
  double time_s;
  std::uint32_t message;
  bool operator>(const DueStart& o) const {
    return time_s > o.time_s || (time_s == o.time_s && message > o.message);
  }
};

class MfsRun {
 public:
  MfsRun(const FlowNetwork& network, const FlowPattern& pattern, const MfsOptions& options)
      : network_(network),
        messages_(pattern.messages),
        options_(options),
        solver_(network, options.mode),
        queues_(flow_detail::sender_queues(pattern, network.host_count())),
        position_(messages_.size()),
        is_done_(messages_.size(), 0),
        timing_(messages_.size()) {
    for (const auto& queue : queues_)
      for (std::uint32_t p = 0; p < queue.size(); ++p) position_[queue[p]] = p;
    if (options_.synchronised_sends) build_receive_lists();
  }

  MfsResult run();

 private:
  void build_receive_lists();
  bool has_received_before(netmodels::NodeId node, std::uint64_t order) const;
  void release(std::uint32_t m, double t);
  void schedule(std::uint32_t m, double t);
  void start_due();
  void finish(std::uint32_t m);
  void release_blocked(netmodels::NodeId node);
  double next_event();

  const FlowNetwork& network_;
  const std::vector<PatternMessage>& messages_;
  MfsOptions options_;
  FlowSolver solver_;
  std::vector<std::vector<std::uint32_t>> queues_;
  std::vector<std::uint32_t> position_;  // index of a message in its sender's queue
  std::vector<std::uint8_t> is_done_;
  std::vector<MessageTiming> timing_;
  std::vector<DueStart> due_;  // min-heap of delayed starts
  // Synchronised sends: per host, messages to it by order, how many of those (in that order)
  // are received, and its messages held until their receives are done (ascending order).
  std::vector<std::vector<std::uint32_t>> receives_;
  std::vector<std::uint32_t> received_prefix_;
  std::vector<std::vector<std::uint32_t>> blocked_;
  std::vector<FlowId> finished_;
  double now_ = 0;
};

void MfsRun::build_receive_lists() {
  receives_.assign(queues_.size(), {});
  received_prefix_.assign(queues_.size(), 0);
  blocked_.assign(queues_.size(), {});
  for (std::uint32_t m = 0; m < messages_.size(); ++m) receives_[messages_[m].dest].push_back(m);
  for (auto& list : receives_)
    std::stable_sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) {
      return messages_[a].order < messages_[b].order;
    });
}

// Every message to `node` with an order below `order` has been received.
bool MfsRun::has_received_before(netmodels::NodeId node, std::uint64_t order) const {
  const auto& list = receives_[node];
  const std::uint32_t done = received_prefix_[node];
  return done == list.size() || messages_[list[done]].order >= order;
}

// The message's predecessor (if it waits for one) is sent and t is now.
void MfsRun::release(std::uint32_t m, double t) {
  const PatternMessage& msg = messages_[m];
  if (options_.synchronised_sends && !has_received_before(msg.sender, msg.order)) {
    auto& held = blocked_[msg.sender];
    const auto at = std::upper_bound(held.begin(), held.end(), m, [&](auto a, auto b) {
      return messages_[a].order < messages_[b].order;
    });
    held.insert(at, m);
    return;
  }
  schedule(m, t);
}

void MfsRun::schedule(std::uint32_t m, double t) {
  const PatternMessage& msg = messages_[m];
  double start = std::max(t, msg.not_before.to_seconds()) + msg.delay.to_seconds();
  if (options_.route_latency) start += network_.route_latency_s(msg.sender, msg.dest);
  due_.push_back(DueStart{start, m});
  std::push_heap(due_.begin(), due_.end(), std::greater<>{});
}

void MfsRun::start_due() {
  while (!due_.empty() && due_.front().time_s <= now_ + kTimeTolerance_s) {
    std::pop_heap(due_.begin(), due_.end(), std::greater<>{});
    const std::uint32_t m = due_.back().message;
    due_.pop_back();
    const PatternMessage& msg = messages_[m];
    timing_[m].start_s = now_;
    solver_.add_flow(m, msg.sender, msg.dest, static_cast<double>(msg.bytes));
  }
}

void MfsRun::release_blocked(netmodels::NodeId node) {
  auto& held = blocked_[node];
  std::size_t n = 0;
  while (n < held.size() && has_received_before(node, messages_[held[n]].order)) ++n;
  for (std::size_t i = 0; i < n; ++i) schedule(held[i], now_);
  held.erase(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(n));
}

void MfsRun::finish(std::uint32_t m) {
  is_done_[m] = 1;
  timing_[m].end_s = now_;
  const PatternMessage& msg = messages_[m];
  const auto& queue = queues_[msg.sender];
  const std::uint32_t next = position_[m] + 1;
  if (next < queue.size() && messages_[queue[next]].after_previous) release(queue[next], now_);
  if (!options_.synchronised_sends) return;
  const auto& list = receives_[msg.dest];
  std::uint32_t& prefix = received_prefix_[msg.dest];
  while (prefix < list.size() && is_done_[list[prefix]]) ++prefix;
  release_blocked(msg.dest);
}

double MfsRun::next_event() {
  const auto completion = solver_.next_completion();
  double t = completion ? completion->time_s : kNever;
  if (!due_.empty()) t = std::min(t, due_.front().time_s);
  if (t != kNever && options_.resolution_s > 0 && solver_.active_flows() > 0)
    t = std::max(t, now_ + options_.resolution_s);
  return t;
}

MfsResult MfsRun::run() {
  for (const auto& queue : queues_)
    for (std::uint32_t p = 0; p < queue.size(); ++p)
      if (p == 0 || !messages_[queue[p]].after_previous) release(queue[p], 0);
  start_due();
  MfsResult result;
  for (double t = next_event(); t != kNever; t = next_event()) {
    now_ = t;
    solver_.advance_to(now_);
    ++result.cycles;
    finished_.clear();
    solver_.take_finished(finished_);
    for (const FlowId m : finished_) finish(static_cast<std::uint32_t>(m));
    start_due();
  }
  if (std::find(is_done_.begin(), is_done_.end(), 0) != is_done_.end())
    throw std::logic_error("flow model: messages left unsent with nothing in flight");
  for (MessageTiming& t : timing_) {
    t.start_ps = seconds_to_ps(t.start_s);
    t.end_ps = seconds_to_ps(t.end_s);
    result.completion_s = std::max(result.completion_s, t.end_s);
  }
  result.completion_ps = seconds_to_ps(result.completion_s);
  result.messages = std::move(timing_);
  result.solver = solver_.stats();
  return result;
}

}  // namespace

MfsResult run_mfs(const FlowNetwork& network, const FlowPattern& pattern,
                  const MfsOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  if (!network.has_topology())
    throw std::invalid_argument("run_mfs: the flow network needs a topology to route messages");
  if (!(options.resolution_s >= 0)) throw std::invalid_argument("run_mfs: resolution must be >= 0");
  MfsResult result = MfsRun(network, pattern, options).run();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace netwarp::validation
