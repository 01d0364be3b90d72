// FlowTable: active flows by slot, the flows on each link, removal by swapping with the last.
#include "flow/flow_table.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace netwarp::validation::flow_detail {

FlowTable::FlowTable(std::size_t link_count)
    : on_link_(link_count), loaded_index_(link_count, 0), seen_(link_count, 0) {}

void FlowTable::check_route(std::span<const FlowLinkId> route) {
  if (route.empty()) throw std::invalid_argument("flow route is empty");
  ++stamp_;
  for (const FlowLinkId k : route) {
    if (k >= on_link_.size())
      throw std::invalid_argument(
          fmt::format("flow route: link {} out of range (0..{})", k, on_link_.size() - 1));
    if (seen_[k] == stamp_)
      throw std::invalid_argument(fmt::format("flow route: link {} named twice", k));
    seen_[k] = stamp_;
  }
}

Slot FlowTable::take_free_slot() {
  if (free_.empty()) {
    slots_.emplace_back();
    return static_cast<Slot>(slots_.size() - 1);
  }
  const Slot slot = free_.back();
  free_.pop_back();
  return slot;
}

Slot FlowTable::add(FlowId id, std::span<const FlowLinkId> route) {
  if (by_id_.count(id) != 0)
    throw std::invalid_argument(fmt::format("flow {} is already active", id));
  check_route(route);
  const Slot slot = take_free_slot();
  FlowSlot& f = slots_[slot];
  f.id = id;
  f.sequence = next_sequence_++;
  f.route.assign(route.begin(), route.end());
  f.position.resize(route.size());
  for (std::uint32_t h = 0; h < route.size(); ++h) {
    auto& list = on_link_[route[h]];
    if (list.empty()) {
      loaded_index_[route[h]] = static_cast<std::uint32_t>(loaded_.size());
      loaded_.push_back(route[h]);
    }
    f.position[h] = static_cast<std::uint32_t>(list.size());
    list.push_back(LinkEntry{slot, h});
  }
  f.active_index = static_cast<std::uint32_t>(active_.size());
  active_.push_back(slot);
  f.is_active = true;
  by_id_.emplace(id, slot);
  return slot;
}

void FlowTable::remove(Slot slot) {
  FlowSlot& f = slots_[slot];
  for (std::uint32_t h = 0; h < f.route.size(); ++h) {
    auto& list = on_link_[f.route[h]];
    const LinkEntry moved = list.back();
    list[f.position[h]] = moved;
    slots_[moved.slot].position[moved.hop] = f.position[h];
    list.pop_back();
    if (list.empty()) {
      const FlowLinkId last_link = loaded_.back();
      loaded_[loaded_index_[f.route[h]]] = last_link;
      loaded_index_[last_link] = loaded_index_[f.route[h]];
      loaded_.pop_back();
    }
  }
  const Slot last = active_.back();
  active_[f.active_index] = last;
  slots_[last].active_index = f.active_index;
  active_.pop_back();
  by_id_.erase(f.id);
  f.is_active = false;
  f.rate = 0;
  free_.push_back(slot);
}

Slot FlowTable::find(FlowId id) const {
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? kNoSlot : it->second;
}

}  // namespace netwarp::validation::flow_detail
