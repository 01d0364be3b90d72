// Otf2RankEvents: one rank's OTF2 event records, in order, into its trace actions.
//   - Time outside MPI calls becomes sleep actions (seconds = ticks / timer resolution):
//     an MPI call spans its outermost MPI-paradigm region, Enter to Leave; an MPI record outside
//     any MPI region is a call of no duration at its timestamp.
//   - MpiSend/MpiRecv: send/recv, or one sendrecv when both are in one call (MPI_Sendrecv);
//     MpiIsend: isend, and its MpiIsendComplete a wait for it;
//     MpiIrecvRequest: an irecv whose source, tag and size its MpiIrecv (the completion, in
//     the wait or test that finished it) fills in, followed by a wait for it.
//   - MpiCollectiveEnd: the collective (otf2_collectives.cpp); on MPI_COMM_SELF nothing.
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
  // After the last record: the time after the last call, and receives never completed.
  void finish();

  const std::vector<Otf2CollectiveCall>& collectives() const { return collectives_; }

 private:
  void mpi_record(OTF2_TimeStamp time);
  void advance(OTF2_TimeStamp time);
  void add_gap(OTF2_TimeStamp until);
  std::int32_t peer(std::uint32_t comm_rank, OTF2_CommRef comm) const;
  proto::Action& add_action();
  void pair_with_send(std::int32_t src, std::int32_t tag, std::uint64_t bytes);

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
};

}  // namespace netwarp::mpiemul
