// Otf2RankEvents: one rank's OTF2 event records, in order, into its trace actions.
//   - Time outside MPI calls becomes sleep actions (seconds = ticks / timer resolution):
//     an MPI call spans its outermost MPI-paradigm region, Enter to Leave; an MPI record outside
//     any MPI region is a call of no duration at its timestamp.
//   - MpiSend/MpiRecv: send/recv, or one sendrecv when both are in one call (MPI_Sendrecv);
//     MpiIsend: isend, and its MpiIsendComplete a wait for it;
//     MpiIrecvRequest: an irecv whose source, tag and size its MpiIrecv (the completion, in
//     the wait or test that finished it) fills in, followed by a wait for it.
//   - MpiCollectiveEnd: the collective (otf2_collectives.cpp); on MPI_COMM_SELF nothing.
//   - Communicators (otf2_definitions.hpp): a creation (MpiCollectiveEnd CREATE_HANDLE on the
//     parent) of a sub-communicator is a comm_split action of the parent whose color is the
//     OTF2 communicator this rank joins (its CommCreate record, or the definitions' order) and
//     whose key is the rank's place in its group, so the program model's communicator has the
//     group's ranks in order; the records on it name its handle and its ranks (world ranks
//     only in wait keys). Creations of world duplicates and on MPI_COMM_SELF add nothing.
// Every refusal is an Otf2Unsupported; the reader adds the archive, location and event.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "netwarp/mpiemul/proto/trace.pb.h"
#include "otf2_collectives.hpp"
#include "otf2_definitions.hpp"

namespace netwarp::mpiemul {

class Otf2RankEvents {
 public:
  Otf2RankEvents(const Otf2Definitions& definitions, std::uint32_t rank, std::uint32_t ranks,
                 proto::RankTrace& out);

  void enter(OTF2_TimeStamp time, OTF2_RegionRef region);
  void leave(OTF2_TimeStamp time, OTF2_RegionRef region);
  void other(OTF2_TimeStamp time);  // a record the replay skips: only its time counts
  void send(OTF2_TimeStamp time, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag,
            std::uint64_t bytes);
  void isend(OTF2_TimeStamp time, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag,
             std::uint64_t bytes, std::uint64_t request);
  void isend_complete(OTF2_TimeStamp time, std::uint64_t request);
  void irecv_request(OTF2_TimeStamp time, std::uint64_t request);
  void recv(OTF2_TimeStamp time, std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag,
            std::uint64_t bytes);
  void irecv(OTF2_TimeStamp time, std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag,
             std::uint64_t bytes, std::uint64_t request);
  void collective_end(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm,
                      std::uint32_t root, std::uint64_t sent, std::uint64_t received);
  void comm_create(OTF2_TimeStamp time, OTF2_CommRef comm);
  // After the last record: the time after the last call, and receives never completed.
  void finish();

  const std::vector<Otf2CollectiveCall>& collectives() const { return collectives_; }

 private:
  void mpi_record(OTF2_TimeStamp time);
  void advance(OTF2_TimeStamp time);
  void add_gap(OTF2_TimeStamp until);
  struct Peer {
    std::int32_t rank = 0;     // in the action's communicator
    std::int32_t world = 0;    // in MPI_COMM_WORLD
    std::uint32_t handle = 0;  // the action's communicator handle; 0: MPI_COMM_WORLD
  };
  Peer peer(std::uint32_t comm_rank, OTF2_CommRef comm) const;
  std::uint32_t handle_of(OTF2_CommRef comm, const Otf2CommInfo& info) const;
  void create_communicators(OTF2_CommRef parent);
  OTF2_CommRef joined_by_call(OTF2_CommRef parent, std::uint32_t n, bool& creates) const;
  proto::Action& add_action();
  void pair_with_send(const Peer& src, std::int32_t tag, std::uint64_t bytes);

  const Otf2Definitions& definitions_;
  std::uint32_t rank_;
  std::uint32_t ranks_;
  proto::RankTrace& out_;
  bool started_ = false;
  OTF2_TimeStamp last_time_ = 0;
  OTF2_TimeStamp outside_since_ = 0;  // where the time outside MPI calls began
  std::uint32_t mpi_depth_ = 0;
  int send_in_call_ = -1;  // the blocking send of the current MPI call, if it is the last action
  std::map<std::uint64_t, proto::RequestKey> isends_;
  std::map<std::uint64_t, int> irecvs_;  // request id -> index of its irecv action
  std::vector<Otf2CollectiveCall> collectives_;
  std::uint32_t made_ = 0;                              // creation actions so far
  std::map<OTF2_CommRef, std::uint32_t> handles_;       // sub-communicator -> its handle here
  std::map<OTF2_CommRef, std::uint32_t> creations_on_;  // parent -> creation calls so far
  OTF2_CommRef announced_ = OTF2_UNDEFINED_COMM;        // CommCreate since the last creation
};

}  // namespace netwarp::mpiemul
