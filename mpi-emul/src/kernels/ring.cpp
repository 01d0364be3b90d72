// Ring kernel: `iterations` times, every rank sendrecvs `bytes` to rank + 1 and from rank - 1
// (mod size), tag 0 on the world communicator. sendrecv posts its receive before its send, so
// the ring cannot deadlock under rendezvous. A single rank has no neighbours: its program is
// empty.
#include "kernels/kernel_support.hpp"
#include "netwarp/mpiemul/kernels.hpp"

namespace netwarp::mpiemul {

Program ring_program(const RingKernel& k, RankId size) {
  kernels::check_size("ring", size, 1);
  return kernels::build_program(size, [&k](RankProgramBuilder& b) {
    if (b.size() == 1) return;
    const RankId next = (b.rank() + 1) % b.size();
    const auto prev = static_cast<std::int32_t>((b.rank() + b.size() - 1) % b.size());
    for (std::uint32_t i = 0; i < k.iterations; ++i) b.sendrecv(next, 0, k.bytes, prev, 0, k.bytes);
  });
}

}  // namespace netwarp::mpiemul
