// Otf2TestArchive: writes small OTF2 archives with the OTF2 writer API, as Score-P lays them
// out (process location groups, one CPU thread per rank, the MPI locations group, the
// MPI_COMM_WORLD and MPI_COMM_SELF communicators, MPI calls as MPI-paradigm regions around
// their records, byte counts of collectives as Score-P records them).
//
//   Otf2TestArchive a(dir, 2);             // ranks 0 and 1, 1e9 ticks per second
//   a.compute(0, 5000);                    // rank 0 computes 5 us
//   a.send(0, 1, 7, 4096);                 // MPI_Send to rank 1, tag 7
//   a.recv(1, 0, 7, 4096);
//   std::filesystem::path anchor = a.close();  // dir/traces.otf2
//
// Every MPI call lasts kCallTicks; only the time between calls is the rank's compute.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace netwarp::mpiemul::testing {

class Otf2TestArchive {
 public:
  static constexpr OTF2_CommRef kWorld = 0;
  static constexpr OTF2_CommRef kSelf = 1;
  static constexpr std::uint64_t kCallTicks = 3;

  // Writes DIR/traces.otf2 (DIR must not hold an archive yet).
  Otf2TestArchive(const std::filesystem::path& dir, std::uint32_t ranks,
                  std::uint64_t ticks_per_second = 1'000'000'000);
  ~Otf2TestArchive();
  Otf2TestArchive(const Otf2TestArchive&) = delete;
  Otf2TestArchive& operator=(const Otf2TestArchive&) = delete;

  std::uint32_t ranks() const { return ranks_; }
  void compute(std::uint32_t rank, std::uint64_t ticks);
  void send(std::uint32_t rank, std::uint32_t dst, std::uint32_t tag, std::uint64_t bytes,
            OTF2_CommRef comm = kWorld);
  void recv(std::uint32_t rank, std::uint32_t src, std::uint32_t tag, std::uint64_t bytes,
            OTF2_CommRef comm = kWorld);
  std::uint64_t isend(std::uint32_t rank, std::uint32_t dst, std::uint32_t tag,
                      std::uint64_t bytes);  // the request id
  std::uint64_t irecv(std::uint32_t rank);   // MpiIrecvRequest; the request id
  void wait_isend(std::uint32_t rank, std::uint64_t request);
  void wait_irecv(std::uint32_t rank, std::uint64_t request, std::uint32_t src, std::uint32_t tag,
                  std::uint64_t bytes);
  // One collective call (MpiCollectiveBegin/End inside region `name`, e.g. "MPI_Bcast") with
  // the bytes as Score-P records them; root OTF2_UNDEFINED_UINT32 for rootless ones.
  void collective(std::uint32_t rank, const std::string& name, OTF2_CollectiveOp op,
                  std::uint32_t root, std::uint64_t sent, std::uint64_t received,
                  OTF2_CommRef comm = kWorld);
  // Any records inside one call of region `name`, written at the call's start time.
  void call(std::uint32_t rank, const std::string& name,
            const std::function<void(OTF2_EvtWriter*, OTF2_TimeStamp)>& records);
  // A communicator of the given MPI_COMM_WORLD ranks (a COMM_GROUP group) made from `parent`;
  // `announced`: flagged CREATE_DESTROY_EVENTS (its creation writes a CommCreate record).
  OTF2_CommRef add_comm(const std::string& name, const std::vector<std::uint64_t>& members,
                        OTF2_CommRef parent = kWorld, bool announced = false);
  // A creation call on `parent` (region `name`, e.g. "MPI_Comm_split") as Score-P writes it:
  // MpiCollectiveBegin, CommCreate of `joined` unless it is OTF2_UNDEFINED_COMM or not
  // announced, MpiCollectiveEnd CREATE_HANDLE on the parent.
  void create_comm(std::uint32_t rank, const std::string& name, OTF2_CommRef parent,
                   OTF2_CommRef joined);

  // Writes the definitions and closes the archive; returns the anchor file.
  std::filesystem::path close();

 private:
  OTF2_StringRef string(const std::string& text);
  OTF2_RegionRef region(const std::string& name, OTF2_Paradigm paradigm);
  void close_event_files(std::vector<std::uint64_t>& event_counts);
  void write_strings_and_regions(OTF2_GlobalDefWriter* g);
  void write_locations(OTF2_GlobalDefWriter* g, const std::vector<std::uint64_t>& event_counts);
  void write_group(OTF2_GlobalDefWriter* g, OTF2_GroupRef id, OTF2_GroupType type,
                   const std::vector<std::uint64_t>& members);
  void write_communicators(OTF2_GlobalDefWriter* g);

  std::filesystem::path dir_;
  std::uint32_t ranks_;
  std::uint64_t ticks_per_second_;
  OTF2_Archive* archive_ = nullptr;
  std::vector<OTF2_EvtWriter*> writers_;
  std::vector<OTF2_TimeStamp> now_;
  std::vector<std::uint64_t> next_request_;
  std::map<std::string, OTF2_StringRef> strings_;
  std::map<std::string, std::pair<OTF2_RegionRef, OTF2_Paradigm>> regions_;
  struct ExtraComm {
    std::string name;
    std::vector<std::uint64_t> members;
    OTF2_CommRef parent;
    bool announced;
  };
  std::vector<ExtraComm> extra_comms_;
  OTF2_RegionRef main_region_ = 0;
};

}  // namespace netwarp::mpiemul::testing
