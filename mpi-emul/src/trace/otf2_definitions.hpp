// The global definitions of an OTF2 archive that the replay needs: the clock, strings,
// regions (which are MPI calls), locations, groups and communicators; which locations are the
// MPI ranks; and which of the program model's communicators an OTF2 communicator is.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace netwarp::mpiemul {

// An archive feature the replay does not support; the reader adds where it was found.
class Otf2Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Otf2Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  std::vector<std::uint64_t> members;
};

struct Otf2Comm {
  OTF2_StringRef name = OTF2_UNDEFINED_STRING;
  OTF2_GroupRef group = OTF2_UNDEFINED_GROUP;
  OTF2_CommRef parent = OTF2_UNDEFINED_COMM;
  OTF2_CommFlag flags = OTF2_COMM_FLAG_NONE;
};

struct Otf2Location {
  OTF2_StringRef name = OTF2_UNDEFINED_STRING;
  OTF2_LocationType type = OTF2_LOCATION_TYPE_UNKNOWN;
  OTF2_LocationGroupRef group = OTF2_UNDEFINED_LOCATION_GROUP;
};

struct Otf2Definitions {
  std::uint64_t timer_resolution = 0;  // ticks per second
  std::map<OTF2_StringRef, std::string> strings;
  std::map<OTF2_RegionRef, bool> region_is_mpi;  // paradigm MPI: a call the replay simulates
  std::map<OTF2_LocationGroupRef, OTF2_LocationGroupType> location_groups;
  std::map<OTF2_LocationRef, Otf2Location> locations;
  std::map<OTF2_GroupRef, Otf2Group> groups;
  std::map<OTF2_CommRef, Otf2Comm> comms;

  std::string string(OTF2_StringRef ref) const;
  std::string location_name(OTF2_LocationRef location) const;
};

// The MPI ranks' locations, rank r at [r]: the MPI group of type COMM_LOCATIONS when the
// archive has one (OTF2 defines its member i as MPI_COMM_WORLD rank i); otherwise the first
// location of every process location group, by group id (OTF2: the group id is then the rank).
// Throws Otf2Unsupported when neither gives a rank.
std::vector<OTF2_LocationRef> mpi_rank_locations(const Otf2Definitions& definitions);

// How the replay takes an OTF2 communicator:
//   world  every rank in rank order: MPI_COMM_WORLD, or a duplicate of it, which replays the
//          same way (no handle of its own);
//   self   a COMM_SELF group: the rank alone, nothing is communicated;
//   sub    any other group: a program-model communicator the rank makes with a comm_split
//          action of its parent where the archive creates it (MpiCollectiveEnd
//          CREATE_HANDLE on the parent), its ranks the group's members in order.
enum class CommKind { world, self, sub };
struct Otf2CommInfo {
  CommKind kind = CommKind::world;
  std::string name;
  OTF2_CommRef parent = OTF2_UNDEFINED_COMM;
  std::vector<std::uint32_t> members;  // MPI_COMM_WORLD ranks in communicator rank order
  std::uint32_t size() const { return static_cast<std::uint32_t>(members.size()); }
  // The world rank of communicator rank `comm_rank`; Otf2Unsupported when out of range.
  std::uint32_t world_rank(std::uint32_t comm_rank) const;
  // The communicator rank of `world`; -1 when it is no member.
  std::int32_t rank_of(std::uint32_t world) const;
};

// Throws Otf2Unsupported for a communicator or group without a definition.
Otf2CommInfo comm_info(const Otf2Definitions& definitions, OTF2_CommRef comm, std::uint32_t ranks);

// Whether the archive announces each rank's new communicator with a CommCreate event (OTF2 3.0,
// communicators flagged CREATE_DESTROY_EVENTS, as Score-P 8 writes them).
bool announces_creations(const Otf2Definitions& definitions, OTF2_CommRef parent);

// Without CommCreate events: the communicators the n-th creation call on `parent` makes (n
// from 0). The communicators whose parent is `parent`, in definition order, are split into
// calls greedily: a call makes communicators with disjoint groups (one MPI_Comm_split), a
// communicator that shares a rank with one already made starts the next call. Empty when the
// definitions have fewer calls.
std::vector<OTF2_CommRef> created_by_call(const Otf2Definitions& definitions, OTF2_CommRef parent,
                                          std::uint32_t n, std::uint32_t ranks);

}  // namespace netwarp::mpiemul
