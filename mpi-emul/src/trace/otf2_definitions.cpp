// Otf2Definitions: which locations are the ranks and which model communicator an OTF2
// communicator is.
#include "otf2_definitions.hpp"

#include <fmt/format.h>

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

ModelComm model_communicator(const Otf2Definitions& definitions, OTF2_CommRef comm,
                             std::uint32_t ranks) {
  const auto at = definitions.comms.find(comm);
  if (at == definitions.comms.end())
    throw Otf2Unsupported(fmt::format("communicator {} has no definition", comm));
  const std::string name = definitions.string(at->second.name);
  const auto group = definitions.groups.find(at->second.group);
  if (group == definitions.groups.end())
    throw Otf2Unsupported(fmt::format("communicator '{}' has no group definition", name));
  if (group->second.type == OTF2_GROUP_TYPE_COMM_SELF) return ModelComm::self;
  if (group->second.type == OTF2_GROUP_TYPE_COMM_GROUP &&
      is_every_rank_in_order(group->second, ranks))
    return ModelComm::world;
  throw Otf2Unsupported(fmt::format(
      "communicator '{}' ({} of the {} ranks) is a sub-communicator: netwarp's program model "
      "replays MPI_COMM_WORLD and MPI_COMM_SELF only",
      name, group->second.members.size(), ranks));
}

std::int32_t world_rank(ModelComm comm, std::uint32_t comm_rank, std::uint32_t own_rank,
                        std::uint32_t ranks) {
  if (comm == ModelComm::self) {
    if (comm_rank != 0)
      throw Otf2Unsupported(
          fmt::format("rank {} of MPI_COMM_SELF (it has rank 0 only)", comm_rank));
    return static_cast<std::int32_t>(own_rank);
  }
  if (comm_rank >= ranks)
    throw Otf2Unsupported(fmt::format("rank {} is out of range (MPI_COMM_WORLD has ranks 0 to {})",
                                      comm_rank, ranks - 1));
  return static_cast<std::int32_t>(comm_rank);
}

}  // namespace netwarp::mpiemul
