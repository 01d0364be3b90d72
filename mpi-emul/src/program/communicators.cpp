// Communicators: the members of each communicator, made by the creation calls at build time.
#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "netwarp/engine/check.hpp"
#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {

std::int32_t Communicator::rank_of(RankId world) const {
  auto it = std::lower_bound(by_world.begin(), by_world.end(), std::pair<RankId, RankId>{world, 0});
  if (it == by_world.end() || it->first != world) return -1;
  return static_cast<std::int32_t>(it->second);
}

Communicators::Communicators(RankId world_size) {
  std::vector<RankId> all(world_size);
  for (RankId r = 0; r < world_size; ++r) all[r] = r;
  add(std::move(all), "MPI_COMM_WORLD");
}

const Communicator& Communicators::operator[](CommId id) const {
  if (id >= comms_.size())
    throw std::invalid_argument("communicator " + std::to_string(id) + " does not exist");
  return comms_[id];
}

CommId Communicators::add(std::vector<RankId> members, std::string origin) {
  if (comms_.size() >= kMaxComms)
    throw std::invalid_argument("more than " + std::to_string(kMaxComms) + " communicators");
  Communicator c;
  c.members = std::move(members);
  c.origin = std::move(origin);
  for (RankId i = 0; i < c.size(); ++i) c.by_world.emplace_back(c.members[i], i);
  std::sort(c.by_world.begin(), c.by_world.end());
  comms_.push_back(std::move(c));
  return static_cast<CommId>(comms_.size() - 1);
}

std::vector<CommId> Communicators::split(CommId parent, std::span<const std::int32_t> colors,
                                         std::span<const std::int32_t> keys) {
  const Communicator& p = (*this)[parent];
  if (colors.size() != p.size() || keys.size() != p.size())
    throw std::invalid_argument("comm_split of communicator " + std::to_string(parent) +
                                ": one color and key per rank needed");
  // (color, key, parent rank): MPI orders each new communicator by key, ties by parent rank.
  std::vector<std::tuple<std::int32_t, std::int32_t, RankId>> order;
  for (RankId i = 0; i < p.size(); ++i)
    if (colors[i] >= 0) order.emplace_back(colors[i], keys[i], i);
  std::sort(order.begin(), order.end());
  const std::vector<RankId> parent_members = p.members;  // add() may move comms_
  std::vector<CommId> result(colors.size(), kNoComm);
  for (std::size_t first = 0; first < order.size();) {
    const std::int32_t color = std::get<0>(order[first]);
    std::size_t last = first;
    std::vector<RankId> members;
    for (; last < order.size() && std::get<0>(order[last]) == color; ++last)
      members.push_back(parent_members[std::get<2>(order[last])]);
    const CommId id = add(std::move(members), "split of communicator " + std::to_string(parent) +
                                                  " (color " + std::to_string(color) + ")");
    for (std::size_t k = first; k < last; ++k) result[std::get<2>(order[k])] = id;
    first = last;
  }
  return result;
}

CommId Communicators::dup(CommId parent) {
  std::vector<RankId> members = (*this)[parent].members;
  return add(std::move(members), "dup of communicator " + std::to_string(parent));
}

CommId Communicators::create(CommId parent, std::span<const RankId> group) {
  const Communicator& p = (*this)[parent];
  std::vector<RankId> members;
  std::vector<bool> seen(p.size(), false);
  for (RankId r : group) {
    if (r >= p.size() || seen[r])
      throw std::invalid_argument("comm_create of communicator " + std::to_string(parent) +
                                  ": group rank " + std::to_string(r) +
                                  " is out of range or repeated");
    seen[r] = true;
    members.push_back(p.members[r]);
  }
  return add(std::move(members), "create from communicator " + std::to_string(parent));
}

}  // namespace netwarp::mpiemul
