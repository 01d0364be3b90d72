// FlowTable: the bookkeeping of active flows for the flow solver: each flow's route, and for
// each link the flows on it (the paper's LinkSetIn(f) and FlowSetOn(l); c_k is the size of
// FlowSetOn(l_k)). Slots are reused, and a flow's vectors keep their capacity, so a steady run
// allocates nothing per flow once warmed up.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <unordered_map>
#include <vector>

#include "netwarp/validation/flow_solver.hpp"

namespace netwarp::validation::flow_detail {

using Slot = std::uint32_t;
inline constexpr Slot kNoSlot = std::numeric_limits<Slot>::max();

struct LinkEntry {
  Slot slot = 0;
  std::uint32_t hop = 0;  // index of the link in the flow's route
};

struct FlowSlot {
  FlowId id = 0;
  std::uint64_t sequence = 0;  // add order: breaks completion ties
  std::vector<FlowLinkId> route;
  std::vector<std::uint32_t> position;  // position[h]: index of this flow in on_link(route[h])
  std::uint32_t active_index = 0;       // index in FlowTable::active()
  bool is_active = false;
  // Lazy progress: `remaining` bytes were left at `updated_s`; since then the flow ran at
  // `rate` bytes/s and is due to finish at finish_s.
  double remaining = 0;
  double updated_s = 0;
  double rate = 0;
  double finish_s = std::numeric_limits<double>::infinity();

  double remaining_at(double t_s) const {
    const double left = remaining - rate * (t_s - updated_s);
    return left > 0 ? left : 0;
  }
};

class FlowTable {
 public:
  explicit FlowTable(std::size_t link_count);

  // Throws std::invalid_argument for a known id, an empty route, a link out of range or a
  // link named twice.
  Slot add(FlowId id, std::span<const FlowLinkId> route);
  void remove(Slot slot);
  Slot find(FlowId id) const;  // kNoSlot if not active

  FlowSlot& flow(Slot slot) { return slots_[slot]; }
  const FlowSlot& flow(Slot slot) const { return slots_[slot]; }
  std::span<const LinkEntry> on_link(FlowLinkId k) const { return on_link_[k]; }
  std::uint32_t count_on(FlowLinkId k) const {
    return static_cast<std::uint32_t>(on_link_[k].size());
  }
  std::span<const Slot> active() const { return active_; }
  std::span<const FlowLinkId> loaded_links() const { return loaded_; }  // links with flows
  std::size_t slot_count() const { return slots_.size(); }
  std::size_t link_count() const { return on_link_.size(); }

 private:
  void check_route(std::span<const FlowLinkId> route);
  Slot take_free_slot();

  std::vector<FlowSlot> slots_;
  std::vector<Slot> free_;
  std::vector<Slot> active_;
  std::vector<std::vector<LinkEntry>> on_link_;
  std::vector<FlowLinkId> loaded_;           // links with at least one flow
  std::vector<std::uint32_t> loaded_index_;  // per link: index in loaded_
  std::unordered_map<FlowId, Slot> by_id_;
  std::vector<std::uint64_t> seen_;  // per link: stamp of the last route check that saw it
  std::uint64_t stamp_ = 0;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace netwarp::validation::flow_detail
