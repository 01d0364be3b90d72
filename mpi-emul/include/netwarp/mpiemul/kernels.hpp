// Built-in programs (kernels): the benchmarks and patterns a scenario can run without a trace.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/mpiemul/collectives.hpp"
#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {

// Ping-pong RTT benchmark (seed 000 Fig. 3) between ranks 0 and 1: for each size, `repetitions`
// rounds of rank 0: send(k), compute(w), recv(k); rank 1: recv(k), send(k). Other ranks idle.
struct PingPongKernel {
  std::vector<std::uint64_t> sizes;
  SimTime w;
  std::uint32_t repetitions = 1;
};
// Seed 002 all-to-all programs and the other alltoall algorithms, `iterations` times.
struct AlltoallKernel {
  AlltoallAlgorithm algorithm = AlltoallAlgorithm::algorithm_a;
  std::uint64_t bytes = 0;  // m: per pair
  std::uint32_t iterations = 1;
  SimTime compute;  // between iterations
};
// Ring: each rank sends `bytes` to rank + 1 and receives from rank - 1, `iterations` times
// (sendrecv, so it cannot deadlock under rendezvous).
struct RingKernel {
  std::uint64_t bytes = 0;
  std::uint32_t iterations = 1;
};
enum class CollectiveKind : std::uint8_t {
  bcast,
  reduce,
  allreduce,
  barrier,
  allgather,
  gather,
  scatter
};
// One collective, `iterations` times, with `compute` between iterations.
struct CollectiveKernel {
  CollectiveKind kind = CollectiveKind::allreduce;
  std::uint64_t bytes = 0;
  RankId root = 0;
  std::uint32_t iterations = 1;
  SimTime compute;
};

Program pingpong_program(const PingPongKernel& k, RankId size);
Program alltoall_program(const AlltoallKernel& k, RankId size, const CollectiveAlgorithms& a);
Program ring_program(const RingKernel& k, RankId size);
Program collective_program(const CollectiveKernel& k, RankId size, const CollectiveAlgorithms& a);

}  // namespace netwarp::mpiemul
