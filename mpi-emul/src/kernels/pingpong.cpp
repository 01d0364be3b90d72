// Ping-pong RTT benchmark (seed 000 Fig. 3) between ranks 0 and 1, tag 0 on the world
// communicator. For each size k in the given order, `repetitions` rounds of
//   rank 0: send(k) to 1, compute(w) (left out when w = 0), recv(k) from 1;
//   rank 1: recv(k) from 0, send(k) to 0.
// Other ranks have empty programs.
#include "kernels/kernel_support.hpp"
#include "netwarp/mpiemul/kernels.hpp"

namespace netwarp::mpiemul {

namespace {
constexpr std::int32_t kPingPongTag = 0;

void ping(RankProgramBuilder& b, std::uint64_t bytes, SimTime w) {
  b.send(1, kPingPongTag, bytes);
  if (w > SimTime::zero()) b.compute(w);
  b.recv(1, kPingPongTag, bytes);
}

void pong(RankProgramBuilder& b, std::uint64_t bytes) {
  b.recv(0, kPingPongTag, bytes);
  b.send(0, kPingPongTag, bytes);
}
}  // namespace

Program pingpong_program(const PingPongKernel& k, RankId size) {
  kernels::check_size("ping-pong", size, 2);
  return kernels::build_program(size, [&k](RankProgramBuilder& b) {
    if (b.rank() > 1) return;
    for (std::uint64_t bytes : k.sizes)
      for (std::uint32_t i = 0; i < k.repetitions; ++i) {
        if (b.rank() == 0)
          ping(b, bytes, k.w);
        else
          pong(b, bytes);
      }
  });
}

}  // namespace netwarp::mpiemul
