// A transfer between two ranks' hosts: one MPI protocol message (eager data with its envelope,
// a rendezvous request, clear-to-send, data, ...), the same kinds the packet simulation's MPI
// hosts exchange (mpi-emul/src/rank/mpi_events.hpp), carried by one SimGrid communication.
#pragma once

#include <cstdint>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::simgrid_check {

using mpiemul::RankId;

// `word` is an op index: the sender's send op, except for receive_request (the receiver's
// receive op) and credit (the bytes returned).
enum class TransferKind : std::uint8_t {
  eager,            // envelope + data (short and eager)
  rts,              // rendezvous request to send
  cts,              // clear to send
  data,             // rendezvous data
  get,              // receiver's remote read of rendezvous data
  fin,              // the remote read completed
  receive_request,  // sender-side matching: a receive was posted (aux: receiver's request)
  direct,           // sender-side matching: envelope + data written to a posted receive
  credit,           // unexpected-buffer credit returned
};

struct Transfer {
  RankId src = 0;
  RankId dst = 0;
  TransferKind kind = TransferKind::eager;
  std::uint32_t word = 0;
  std::uint64_t bytes = 0;  // on the wire
  std::int64_t aux = 0;
  std::uint64_t seq = 0;  // position in the (src, dst) connection, set by the network
};

// Where a rank's transfers go; the network side assigns `seq` and delivers in order.
class TransferSink {
 public:
  virtual ~TransferSink() = default;
  virtual void send(const Transfer& t) = 0;
};

}  // namespace netwarp::simgrid_check
