// The MPI host's own event and the kinds of transfer its ranks exchange.
#pragma once

#include <cstdint>

namespace netwarp::mpiemul {

// The CPU activity the rank started `seq`-th ends now.
struct RankWake {
  std::uint32_t seq = 0;
};

// TransferTag::kind of MPI transfers. `word` is an op index: the sender's send op, except
// for receive_request (the receiver's receive op) and credit (the bytes returned).
enum class TransferKind : std::uint8_t {
  eager = 1,        // envelope + data (short and eager)
  rts,              // rendezvous request to send
  cts,              // clear to send (aux: how late the receiver matched, ps)
  data,             // rendezvous data
  get,              // receiver's remote read of rendezvous data (aux: lateness, ps)
  fin,              // the remote read completed
  receive_request,  // sender-side matching: a receive was posted (aux: receiver's request)
  direct,           // sender-side matching: envelope + data written to a posted receive
  credit,           // unexpected-buffer credit returned
};

}  // namespace netwarp::mpiemul
