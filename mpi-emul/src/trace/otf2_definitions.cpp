// Otf2Definitions: which locations are the ranks and which model communicator an OTF2
// communicator is.
#include "otf2_definitions.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace netwarp::mpiemul {

namespace {

const Otf2Group* mpi_group_of_type(const Otf2Definitions& definitions, OTF2_GroupType type) {
  for (const auto& [ref, group] : definitions.groups)
    if (group.type == type && group.paradigm == OTF2_PARADIGM_MPI) return &group;
  return nullptr;
}

std::vector<OTF2_LocationRef> first_location_per_process(const Otf2Definitions& definitions) {
  std::map<OTF2_LocationGroupRef, OTF2_LocationRef> first;
  for (const auto& [ref, location] : definitions.locations) {
    const auto group = definitions.location_groups.find(location.group);
    if (group == definitions.location_groups.end() ||
        group->second != OTF2_LOCATION_GROUP_TYPE_PROCESS)
      continue;
    first.emplace(location.group, ref);  // the map is ordered: the lowest location id stays
  }
  std::vector<OTF2_LocationRef> ranks;
  for (const auto& [group, location] : first) ranks.push_back(location);
  return ranks;
}

bool is_every_rank_in_order(const Otf2Group& group, std::uint32_t ranks) {
  if (group.members.size() != ranks) return false;
  for (std::uint32_t r = 0; r < ranks; ++r)
    if (group.members[r] != r) return false;
  return true;
}

}  // namespace

std::string Otf2Definitions::string(OTF2_StringRef ref) const {
  const auto at = strings.find(ref);
  return at == strings.end() ? fmt::format("(string {})", ref) : at->second;
}

std::string Otf2Definitions::location_name(OTF2_LocationRef location) const {
  const auto at = locations.find(location);
  return at == locations.end() ? fmt::format("{}", location) : string(at->second.name);
}

std::vector<OTF2_LocationRef> mpi_rank_locations(const Otf2Definitions& definitions) {
  if (const Otf2Group* world = mpi_group_of_type(definitions, OTF2_GROUP_TYPE_COMM_LOCATIONS)) {
    std::vector<OTF2_LocationRef> ranks(world->members.begin(), world->members.end());
    for (const OTF2_LocationRef location : ranks)
      if (definitions.locations.count(location) == 0)
        throw Otf2Unsupported(fmt::format(
            "the MPI locations group lists location {}, which has no definition", location));
    if (!ranks.empty()) return ranks;
  }
  std::vector<OTF2_LocationRef> ranks = first_location_per_process(definitions);
  if (ranks.empty())
    throw Otf2Unsupported(
        "no MPI ranks: the archive defines neither an MPI locations group nor process "
        "location groups");
  return ranks;
}

std::uint32_t Otf2CommInfo::world_rank(std::uint32_t comm_rank) const {
  if (comm_rank >= members.size())
    throw Otf2Unsupported(fmt::format("rank {} is out of range ('{}' has ranks 0 to {})", comm_rank,
                                      name, members.size() - 1));
  return members[comm_rank];
}

std::int32_t Otf2CommInfo::rank_of(std::uint32_t world) const {
  for (std::size_t i = 0; i < members.size(); ++i)
    if (members[i] == world) return static_cast<std::int32_t>(i);
  return -1;
}

Otf2CommInfo comm_info(const Otf2Definitions& definitions, OTF2_CommRef comm, std::uint32_t ranks) {
  const auto at = definitions.comms.find(comm);
  if (at == definitions.comms.end())
    throw Otf2Unsupported(fmt::format("communicator {} has no definition", comm));
  Otf2CommInfo info;
  info.name = definitions.string(at->second.name);
  info.parent = at->second.parent;
  const auto group = definitions.groups.find(at->second.group);
  if (group == definitions.groups.end())
    throw Otf2Unsupported(fmt::format("communicator '{}' has no group definition", info.name));
  if (group->second.type == OTF2_GROUP_TYPE_COMM_SELF) {
    info.kind = CommKind::self;
    return info;
  }
  for (const std::uint64_t member : group->second.members) {
    if (member >= ranks)
      throw Otf2Unsupported(
          fmt::format("communicator '{}' lists rank {}, beyond the archive's {} ranks", info.name,
                      member, ranks));
    info.members.push_back(static_cast<std::uint32_t>(member));
  }
  info.kind = is_every_rank_in_order(group->second, ranks) ? CommKind::world : CommKind::sub;
  return info;
}

bool announces_creations(const Otf2Definitions& definitions, OTF2_CommRef parent) {
  for (const auto& [ref, comm] : definitions.comms)
    if (comm.parent == parent && (comm.flags & OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS) != 0)
      return true;
  return false;
}

std::vector<OTF2_CommRef> created_by_call(const Otf2Definitions& definitions, OTF2_CommRef parent,
                                          std::uint32_t n, std::uint32_t ranks) {
  std::vector<std::vector<OTF2_CommRef>> calls;
  std::vector<bool> taken(ranks, false);
  for (const auto& [ref, comm] : definitions.comms) {
    if (comm.parent != parent || parent == OTF2_UNDEFINED_COMM) continue;
    const Otf2CommInfo info = comm_info(definitions, ref, ranks);
    if (info.kind == CommKind::self) continue;
    const bool overlaps = std::any_of(info.members.begin(), info.members.end(),
                                      [&](std::uint32_t m) { return taken[m]; });
    if (calls.empty() || overlaps) {
      calls.emplace_back();
      taken.assign(ranks, false);
    }
    calls.back().push_back(ref);
    for (const std::uint32_t m : info.members) taken[m] = true;
  }
  return n < calls.size() ? calls[n] : std::vector<OTF2_CommRef>{};
}

}  // namespace netwarp::mpiemul
