// Barrier algorithms. All messages carry 0 bytes.
//  dissemination (Hensgen, Finkel & Manber): ceil(log2 P) rounds; in round k rank r sends to
//    r + 2^k and receives from r - 2^k (mod P). After round k a rank has heard, directly or
//    not, from the 2^(k+1) ranks before it, so no rank leaves before every rank has entered.
//    P * ceil(log2 P) messages.
//  linear: every rank sends to rank 0, which waits for all of them and then releases every
//    rank with one message each. 2 (P - 1) messages.
#include <vector>

#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace {
using collectives::collective_tag;

void post_dissemination(RankProgramBuilder& b) {
  const RankId size = b.size();
  const int rounds = collectives::ceil_log2(size);
  for (int k = 0; k < rounds; ++k) {
    const RankId distance = RankId{1} << k;
    collectives::post_exchange(b, collectives::ring_add(b.rank(), distance, size), 0,
                               collectives::ring_sub(b.rank(), distance, size), 0,
                               collective_tag(CallKind::barrier, k));
  }
}

void post_linear(RankProgramBuilder& b) {
  const std::int32_t arrive = collective_tag(CallKind::barrier, 0);
  const std::int32_t release = collective_tag(CallKind::barrier, 1);
  if (b.size() == 1) return;
  if (b.rank() != 0) {
    b.post_send(0, arrive, 0);
    b.post_recv(0, release, 0);
    return;
  }
  std::vector<std::uint32_t> requests;
  for (RankId r = 1; r < b.size(); ++r)
    requests.push_back(b.post_irecv(static_cast<std::int32_t>(r), arrive, 0));
  b.post_waitall(requests);
  requests.clear();
  for (RankId r = 1; r < b.size(); ++r) requests.push_back(b.post_isend(r, release, 0));
  b.post_waitall(requests);
}
}  // namespace

void add_barrier(RankProgramBuilder& b, const CollectiveAlgorithms& configured) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::barrier, b.size(), 0);
  b.begin_call(CallKind::barrier, -1, 0);
  if (a.barrier == BarrierAlgorithm::dissemination)
    post_dissemination(b);
  else
    post_linear(b);
  b.end_call();
}

}  // namespace netwarp::mpiemul
