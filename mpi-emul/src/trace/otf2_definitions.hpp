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

// The program model's communicator an OTF2 communicator is. Today the model has only
// MPI_COMM_WORLD: a communicator whose group is every rank in rank order is it (MPI_COMM_WORLD
// itself, or a duplicate, which TIT's comm_dup replays the same way), a COMM_SELF group is the
// rank alone. When the model gets sub-communicators, they map here and nowhere else.
enum class ModelComm { world, self };
ModelComm model_communicator(const Otf2Definitions& definitions, OTF2_CommRef comm,
                             std::uint32_t ranks);

// A rank of `comm` (as in MpiSend's receiver or a collective's root) as an MPI_COMM_WORLD rank.
std::int32_t world_rank(ModelComm comm, std::uint32_t comm_rank, std::uint32_t own_rank,
                        std::uint32_t ranks);

}  // namespace netwarp::mpiemul
