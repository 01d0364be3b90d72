// Alltoallv: a pairwise exchange with per-peer sizes, in P - 1 steps. With P a power of two
// step i pairs r with r XOR i (as pairwise alltoall); otherwise step i sends to r + i and
// receives from r - i (mod P), as MPICH does. A pair whose count is 0 sends no message: the
// sender skips it by its send_bytes and the receiver by its recv_bytes, which MPI requires to
// agree, so both sides skip the same pairs. The block a rank keeps is a local copy.
// Messages: one per ordered pair with a non-zero count. The linear variant (Open MPI's
// basic_linear, chosen by OPENMPI_TUNED) posts the same receives and sends all at once and waits
// for them together.
#include <vector>

#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace {
struct StepPeers {
  RankId dst;
  RankId src;
};

StepPeers step_peers(RankId rank, RankId size, RankId step) {
  if (collectives::is_power_of_two(size)) return {rank ^ step, rank ^ step};
  return {collectives::ring_add(rank, step, size), collectives::ring_sub(rank, step, size)};
}

void post_step(RankProgramBuilder& b, StepPeers peers, std::uint64_t send_bytes,
               std::uint64_t recv_bytes, std::int32_t tag) {
  std::vector<std::uint32_t> requests;
  if (recv_bytes > 0)
    requests.push_back(b.post_irecv(static_cast<std::int32_t>(peers.src), tag, recv_bytes));
  if (send_bytes > 0) requests.push_back(b.post_isend(peers.dst, tag, send_bytes));
  if (!requests.empty()) b.post_waitall(requests);
}

void post_linear(RankProgramBuilder& b, std::span<const std::uint64_t> send_bytes,
                 std::span<const std::uint64_t> recv_bytes, std::int32_t tag) {
  std::vector<std::uint32_t> requests;
  for (RankId step = 1; step < b.size(); ++step) {
    const RankId src = step_peers(b.rank(), b.size(), step).src;
    if (recv_bytes[src] > 0)
      requests.push_back(b.post_irecv(static_cast<std::int32_t>(src), tag, recv_bytes[src]));
  }
  for (RankId step = 1; step < b.size(); ++step) {
    const RankId dst = step_peers(b.rank(), b.size(), step).dst;
    if (send_bytes[dst] > 0) requests.push_back(b.post_isend(dst, tag, send_bytes[dst]));
  }
  if (!requests.empty()) b.post_waitall(requests);
}
}  // namespace

// The call's bytes are the total this rank sends.
void add_alltoallv(RankProgramBuilder& b, const CollectiveAlgorithms& configured,
                   std::span<const std::uint64_t> send_bytes,
                   std::span<const std::uint64_t> recv_bytes) {
  collectives::check_counts("alltoallv send", send_bytes, b.size());
  collectives::check_counts("alltoallv receive", recv_bytes, b.size());
  const std::int32_t tag = collectives::collective_tag(CallKind::alltoallv, 0);
  const std::uint64_t bytes = collectives::total(send_bytes) - send_bytes[b.rank()];
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::alltoallv, b.size(), bytes);
  b.begin_call(CallKind::alltoallv, -1, bytes);
  if (a.alltoallv == AlltoallvAlgorithm::linear) {
    post_linear(b, send_bytes, recv_bytes, tag);
    return b.end_call();
  }
  for (RankId step = 1; step < b.size(); ++step) {
    const StepPeers peers = step_peers(b.rank(), b.size(), step);
    post_step(b, peers, send_bytes[peers.dst], recv_bytes[peers.src], tag);
  }
  b.end_call();
}

}  // namespace netwarp::mpiemul
