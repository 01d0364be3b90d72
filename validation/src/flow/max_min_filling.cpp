// Progressive filling to max-min fair rates (Mode N); see max_min_filling.hpp.
#include "flow/max_min_filling.hpp"

#include <algorithm>
#include <limits>

namespace netwarp::validation::flow_detail {
namespace {

constexpr double kNoCap = std::numeric_limits<double>::infinity();
// Two saturation levels closer than this (relative) count as one round.
constexpr double kSameLevel = 1e-12;

}  // namespace

double MaxMinFilling::share(FlowLinkId k) const {
  return std::max(residual_[k], 0.0) / unfrozen_[k];
}

void MaxMinFilling::load(const FlowTable& table, std::span<const double> capacity) {
  if (residual_.size() < table.link_count()) {
    residual_.resize(table.link_count());
    unfrozen_.resize(table.link_count());
  }
  if (frozen_.size() < table.slot_count()) {
    frozen_.resize(table.slot_count());
    rate_.resize(table.slot_count());
    cap_.resize(table.slot_count());
  }
  queue_.clear();
  for (const Slot s : table.active()) {
    frozen_[s] = 0;
    cap_[s] = kNoCap;
  }
  for (const FlowLinkId k : table.loaded_links()) {
    residual_[k] = capacity[k];
    unfrozen_[k] = table.count_on(k);
    if (unfrozen_[k] == 1) {
      const Slot s = table.on_link(k)[0].slot;
      cap_[s] = std::min(cap_[s], capacity[k]);
    } else {
      queue_.push(share(k), Candidate{k, false});
    }
  }
  for (const Slot s : table.active())
    if (cap_[s] != kNoCap) queue_.push(cap_[s], Candidate{s, true});
}

void MaxMinFilling::freeze(const FlowTable& table, Slot slot, double rate) {
  frozen_[slot] = 1;
  rate_[slot] = rate;
  for (const FlowLinkId k : table.flow(slot).route) {
    residual_[k] -= rate;
    --unfrozen_[k];
  }
}

std::size_t MaxMinFilling::saturate(const FlowTable& table, Candidate c, double share) {
  if (c.is_flow) {
    freeze(table, c.id, share);
    return 1;
  }
  std::size_t frozen = 0;
  for (const LinkEntry& e : table.on_link(c.id)) {
    if (frozen_[e.slot]) continue;
    freeze(table, e.slot, share);
    ++frozen;
  }
  return frozen;
}

std::uint32_t MaxMinFilling::solve(const FlowTable& table, std::span<const double> capacity) {
  load(table, capacity);
  std::size_t unfrozen_flows = table.active().size();
  std::uint32_t rounds = 0;
  double level = -1;
  while (unfrozen_flows > 0 && !queue_.empty()) {
    const auto [key, c] = queue_.pop();
    if (c.is_flow ? frozen_[c.id] != 0 : unfrozen_[c.id] == 0) continue;
    const double current = c.is_flow ? key : share(c.id);
    if (key < current) {  // a stale lower bound: back in at its current share
      queue_.push(current, c);
      continue;
    }
    if (rounds == 0 || current > level * (1 + kSameLevel)) {
      ++rounds;
      level = current;
    }
    unfrozen_flows -= saturate(table, c, current);
  }
  return rounds;
}

}  // namespace netwarp::validation::flow_detail
