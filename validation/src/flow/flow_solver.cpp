// FlowSolver: active flows, lazily recomputed rates and a heap of finish times. Progress is
// lazy: a flow's remaining bytes are brought up to date only when its rate changes, so
// advancing the clock costs nothing per flow. Mode F recomputes only the flows on links whose
// flow count changed; Mode N re-solves max-min fairness over all flows (any change can move
// any rate) and updates the flows whose rate moved.
#include "netwarp/validation/flow_solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "flow/finish_heap.hpp"
#include "flow/flow_table.hpp"
#include "flow/max_min_filling.hpp"

namespace netwarp::validation {

using flow_detail::FlowSlot;
using flow_detail::kNoSlot;
using flow_detail::Slot;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::vector<double> link_capacities(const FlowNetwork& network) {
  std::vector<double> capacity(network.link_count());
  for (FlowLinkId k = 0; k < capacity.size(); ++k) capacity[k] = network.link(k).bytes_per_second;
  return capacity;
}

}  // namespace

struct FlowSolver::State {
  State(const FlowNetwork& net, FlowMode m)
      : network(&net),
        mode(m),
        capacity(link_capacities(net)),
        table(net.link_count()),
        link_changed(net.link_count(), 0) {}

  const FlowNetwork* network;
  FlowMode mode;
  std::vector<double> capacity;
  flow_detail::FlowTable table;
  flow_detail::FinishHeap heap;
  flow_detail::MaxMinFilling filling;
  double now = 0;
  bool is_changed = false;
  std::vector<FlowLinkId> changed_links;  // Mode F: links whose flow count changed
  std::vector<std::uint8_t> link_changed;
  std::vector<Slot> dirty;  // Mode F: flows to recompute
  std::vector<std::uint8_t> slot_dirty;
  std::vector<FlowLinkId> route_buffer;  // a route being looked up for add_flow
  FlowSolverStats stats;

  void mark_links(const std::vector<FlowLinkId>& route) {
    is_changed = true;
    if (mode != FlowMode::fair_share) return;
    for (const FlowLinkId k : route) {
      if (link_changed[k]) continue;
      link_changed[k] = 1;
      changed_links.push_back(k);
    }
  }

  Slot slot_of(FlowId id) const {
    const Slot s = table.find(id);
    if (s == kNoSlot) throw std::invalid_argument(fmt::format("flow {} is not active", id));
    return s;
  }

  // Brings the flow's progress up to now and gives it a new rate and finish time.
  void set_rate(Slot s, double rate) {
    FlowSlot& f = table.flow(s);
    ++stats.rate_updates;
    if (rate == f.rate) return;
    f.remaining = f.remaining_at(now);
    f.updated_s = now;
    f.rate = rate;
    f.finish_s = f.remaining == 0 ? now : rate > 0 ? now + f.remaining / rate : kInfinity;
    heap.update(s, f.finish_s, f.sequence);
  }

  double fair_share_rate(Slot s) const {
    double rate = kInfinity;
    for (const FlowLinkId k : table.flow(s).route)
      rate = std::min(rate, capacity[k] / table.count_on(k));
    return rate;
  }

  void refresh_fair_share() {
    if (slot_dirty.size() < table.slot_count()) slot_dirty.resize(table.slot_count(), 0);
    for (const FlowLinkId k : changed_links) {
      link_changed[k] = 0;
      for (const auto& e : table.on_link(k)) {
        if (slot_dirty[e.slot]) continue;
        slot_dirty[e.slot] = 1;
        dirty.push_back(e.slot);
      }
    }
    changed_links.clear();
    for (const Slot s : dirty) {
      slot_dirty[s] = 0;
      set_rate(s, fair_share_rate(s));
    }
    dirty.clear();
  }

  void refresh_max_min() {
    const std::uint32_t rounds = filling.solve(table, capacity);
    stats.max_min_rounds += rounds;
    stats.max_min_rounds_max = std::max(stats.max_min_rounds_max, rounds);
    for (const Slot s : table.active()) set_rate(s, filling.rate(s));
  }

  void refresh() {
    if (!is_changed) return;
    is_changed = false;
    ++stats.rate_solves;
    if (mode == FlowMode::fair_share)
      refresh_fair_share();
    else
      refresh_max_min();
  }

  void remove(Slot s) {
    mark_links(table.flow(s).route);  // only records link ids: the table may change after
    heap.erase(s);
    table.remove(s);
  }
};

FlowMode parse_flow_mode(std::string_view name) {
  if (name == "F" || name == "f") return FlowMode::fair_share;
  if (name == "N" || name == "n") return FlowMode::max_min;
  throw std::invalid_argument(fmt::format("unknown flow mode '{}' (known: F, N)", name));
}

std::string_view flow_mode_name(FlowMode mode) {
  return mode == FlowMode::fair_share ? "F" : "N";
}

std::int64_t seconds_to_ps(double seconds) {
  return std::llround(seconds * 1e12);
}

FlowSolver::FlowSolver(const FlowNetwork& network, FlowMode mode)
    : state_(std::make_unique<State>(network, mode)) {}
FlowSolver::~FlowSolver() = default;
FlowSolver::FlowSolver(FlowSolver&&) noexcept = default;
FlowSolver& FlowSolver::operator=(FlowSolver&&) noexcept = default;

FlowMode FlowSolver::mode() const {
  return state_->mode;
}
double FlowSolver::now_s() const {
  return state_->now;
}
std::size_t FlowSolver::active_flows() const {
  return state_->table.active().size();
}
const FlowSolverStats& FlowSolver::stats() const {
  return state_->stats;
}

void FlowSolver::add_flow(FlowId id, std::span<const FlowLinkId> route, double bytes) {
  if (!(bytes >= 0))
    throw std::invalid_argument(fmt::format("flow {}: bytes must be >= 0, got {}", id, bytes));
  State& st = *state_;
  const Slot s = st.table.add(id, route);
  FlowSlot& f = st.table.flow(s);
  f.remaining = bytes;
  f.updated_s = st.now;
  f.rate = 0;
  f.finish_s = bytes == 0 ? st.now : kInfinity;
  st.heap.update(s, f.finish_s, f.sequence);
  st.mark_links(f.route);
}

void FlowSolver::add_flow(FlowId id, netmodels::NodeId src, netmodels::NodeId dst, double bytes) {
  State& st = *state_;
  st.route_buffer.clear();
  st.network->append_route(src, dst, st.route_buffer);
  add_flow(id, st.route_buffer, bytes);
}

void FlowSolver::remove_flow(FlowId id) {
  state_->remove(state_->slot_of(id));
}

std::optional<FlowCompletion> FlowSolver::next_completion() {
  State& st = *state_;
  st.refresh();
  if (st.heap.empty()) return std::nullopt;
  const FlowSlot& f = st.table.flow(st.heap.top());
  return FlowCompletion{f.id, std::max(f.finish_s, st.now)};
}

void FlowSolver::advance_to(double t_s) {
  State& st = *state_;
  if (t_s < st.now - kTimeTolerance_s || std::isnan(t_s))
    throw std::invalid_argument(
        fmt::format("flow solver: cannot go back in time from {} s to {} s", st.now, t_s));
  st.refresh();
  st.now = std::max(st.now, t_s);
}

std::size_t FlowSolver::take_finished(std::vector<FlowId>& out) {
  State& st = *state_;
  st.refresh();
  std::size_t taken = 0;
  while (!st.heap.empty() && st.heap.top_finish() <= st.now + kTimeTolerance_s) {
    const Slot s = st.heap.top();
    out.push_back(st.table.flow(s).id);
    st.remove(s);
    ++taken;
  }
  return taken;
}

double FlowSolver::rate(FlowId id) {
  state_->refresh();
  return state_->table.flow(state_->slot_of(id)).rate;
}

double FlowSolver::remaining_bytes(FlowId id) {
  State& st = *state_;
  st.refresh();
  return st.table.flow(st.slot_of(id)).remaining_at(st.now);
}

}  // namespace netwarp::validation
