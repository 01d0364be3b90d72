// MaxMinFilling: max-min fair rates by progressive filling (water-filling), our reading of
// step 5 of MFS's Mode N (docs/models/flow-mfs.md). Each round takes the link with the least
// fair share (residual bandwidth / flows not yet frozen on it), freezes those flows at that
// share and takes it off the other links on their routes.
//
// A link's share only grows as flows freeze (they freeze at the global least share), so the
// levels popped only rise (a monotone queue: RadixHeap) and a queued key is a lower bound of its
// link's share: a popped entry whose share has grown goes back in with the new key, one whose
// share is current is the bottleneck. Freezing touches no queue entry, and the loop stops once
// every flow is frozen. A link carrying a single flow does
// not couple flows: it only caps that flow, so those links enter as one entry per flow (its
// least such capacity) instead of one per link. Scratch vectors persist between solves.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "flow/flow_table.hpp"
#include "flow/radix_heap.hpp"

namespace netwarp::validation::flow_detail {

class MaxMinFilling {
 public:
  // Rates of every active flow of `table`; capacity[k] is link k's bandwidth. Returns the
  // number of rounds: distinct rate levels at which links saturated.
  std::uint32_t solve(const FlowTable& table, std::span<const double> capacity);
  double rate(Slot slot) const { return rate_[slot]; }

 private:
  // A shared link, or (is_flow) the private cap of one flow.
  struct Candidate {
    std::uint32_t id;  // link id, or slot if is_flow
    bool is_flow;
  };

  void load(const FlowTable& table, std::span<const double> capacity);
  double share(FlowLinkId k) const;
  void freeze(const FlowTable& table, Slot slot, double rate);
  // Freezes what `c` bounds at `share`; returns the number of flows frozen.
  std::size_t saturate(const FlowTable& table, Candidate c, double share);

  std::vector<double> residual_;         // per link: bandwidth not yet given to frozen flows
  std::vector<std::uint32_t> unfrozen_;  // per link: flows on it not yet frozen
  std::vector<std::uint8_t> frozen_;     // per slot
  std::vector<double> rate_;             // per slot
  std::vector<double> cap_;              // per slot: least capacity of its single-flow links
  RadixHeap<Candidate> queue_;           // by share
};

}  // namespace netwarp::validation::flow_detail
