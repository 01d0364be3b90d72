// RankActions: appends one rank's actions to a generated trace. Computation is gathered until
// the next MPI action (or finish()), so consecutive compute phases become one compute action
// and phases of zero flops none. Waits name their request as SimGrid 3.32 writes them
// ("wait SRC DST TAG").
#pragma once

#include <cstdint>

#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/proto/trace.pb.h"

namespace netwarp::mpiemul::generators {

class RankActions {
 public:
  RankActions(proto::Trace& trace, RankId rank);
  RankId rank() const { return rank_; }

  void compute(double flops);
  void send(RankId dst, std::int32_t tag, std::uint64_t bytes);
  void isend(RankId dst, std::int32_t tag, std::uint64_t bytes);
  void recv(RankId src, std::int32_t tag, std::uint64_t bytes);
  void irecv(RankId src, std::int32_t tag, std::uint64_t bytes);
  void wait_recv(RankId src, std::int32_t tag);  // the oldest pending irecv from src with tag
  void waitall();
  void allreduce(std::uint64_t bytes);
  void barrier();
  void finish();  // appends the computation still gathered

 private:
  proto::Action& add();  // flushes the computation first
  void add_send(bool is_blocking, RankId dst, std::int32_t tag, std::uint64_t bytes);
  void add_recv(bool is_blocking, RankId src, std::int32_t tag, std::uint64_t bytes);

  proto::RankTrace& trace_;
  RankId rank_;
  double pending_flops_ = 0;
};

// A trace of `ranks` ranks without actions.
proto::Trace empty_trace(RankId ranks);

// a * b, or UINT64_MAX when the product does not fit (the generators' action bounds).
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  __extension__ using U128 = unsigned __int128;
  const U128 product = U128{a} * b;
  return product > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(product);
}

}  // namespace netwarp::mpiemul::generators
