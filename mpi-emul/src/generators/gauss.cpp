// Gaussian elimination with a pipelined ring broadcast (seed 000, Sections 4.3-4.4; the
// program the paper traced on 16 nodes). Row i of the n x n matrix lives on rank i % P. Step k
// (k = 0 .. n-2): the root k % P sends the pivot message to root + 1; every other rank receives
// it from its predecessor and forwards it to its successor unless that is the root; then every
// rank updates its rows below k. The message is 16 (n - 1 - k) bytes, so the longest, at k = 0,
// is 16368 B for n = 1024: just under S = 16383, as the paper's 16320 B, and rendezvous sends
// take over above n = 1024. The paper's fixes: (2) fragment_bytes splits every message into
// consecutive pieces, each received then forwarded; (3) forward = isend sends with isend and
// waits for the step's sends after the update, so send and receive calls do not drift apart.
// Tag: the step k, so every message of a step matches only that step's receive.
#include <fmt/format.h>

#include <algorithm>

#include "generators/rank_actions.hpp"
#include "netwarp/mpiemul/generators.hpp"

namespace netwarp::mpiemul {

namespace {

using generators::RankActions;

// Rows i with i % ranks == rank among rows 0 .. count - 1.
std::uint64_t rows_of(RankId rank, RankId ranks, std::uint64_t count) {
  return count / ranks + (rank < count % ranks ? 1 : 0);
}

// Flops of rank r's update in step k: 2 (n - k) per row below k (its n - 1 - k trailing
// entries and the right-hand side, a multiply and a subtract each).
double update_flops(const GaussParams& p, RankId rank, RankId ranks, std::uint32_t k) {
  const std::uint64_t rows = rows_of(rank, ranks, p.n) - rows_of(rank, ranks, k + std::uint64_t{1});
  return 2.0 * static_cast<double>(p.n - k) * static_cast<double>(rows);
}

class GaussRank {
 public:
  GaussRank(const GaussParams& p, RankId ranks, RankActions& out)
      : p_(p), ranks_(ranks), out_(out) {}

  void step(std::uint32_t k) {
    const RankId me = out_.rank();
    const RankId root = k % ranks_;
    const RankId next = (me + 1) % ranks_;
    const RankId prev = (me + ranks_ - 1) % ranks_;
    const auto tag = static_cast<std::int32_t>(k);
    const bool is_root = me == root;
    const bool forwards = is_root || next != root;
    bool has_isends = false;
    std::uint64_t left = gauss_pivot_bytes(p_.n, k);
    while (left > 0) {
      const std::uint64_t piece = p_.fragment_bytes == 0 ? left : std::min(left, p_.fragment_bytes);
      left -= piece;
      if (!is_root) out_.recv(prev, tag, piece);
      if (!forwards) continue;
      if (p_.forward == GaussForward::isend) {
        out_.isend(next, tag, piece);
        has_isends = true;
      } else {
        out_.send(next, tag, piece);
      }
    }
    out_.compute(update_flops(p_, me, ranks_, k));
    if (has_isends) out_.waitall();
  }

 private:
  const GaussParams& p_;
  RankId ranks_;
  RankActions& out_;
};

}  // namespace

std::uint64_t gauss_pivot_bytes(std::uint32_t n, std::uint32_t k) {
  return 16 * (std::uint64_t{n} - 1 - k);
}

void check_gauss(const GaussParams& p, RankId ranks) {
  if (ranks < 2) throw GeneratorError("gauss", "ranks", fmt::format("must be >= 2, got {}", ranks));
  if (p.n < ranks)
    throw GeneratorError("gauss", "n", fmt::format("must be >= ranks ({}), got {}", ranks, p.n));
  if (p.n > kGaussMaxN)
    throw GeneratorError("gauss", "n", fmt::format("must be <= {}, got {}", kGaussMaxN, p.n));
  if (p.forward != GaussForward::blocking && p.forward != GaussForward::isend)
    throw GeneratorError("gauss", "forward", "must be blocking or isend");
  if (p.fragment_bytes == 0) return;
  // Pieces of one step's broadcast, summed over the steps, times the P - 1 hops.
  std::uint64_t pieces = 0;
  for (std::uint32_t k = 0; k + 1 < p.n; ++k) {
    const std::uint64_t bytes = gauss_pivot_bytes(p.n, k);
    pieces += bytes / p.fragment_bytes + (bytes % p.fragment_bytes != 0 ? 1 : 0);
  }
  const std::uint64_t messages = pieces * (ranks - 1);
  if (messages > kGaussMaxMessages)
    throw GeneratorError("gauss", "fragment_bytes",
                         fmt::format("{} B pieces make {} messages, more than {}", p.fragment_bytes,
                                     messages, kGaussMaxMessages));
}

// Per rank and step: the update's compute (and with isend a waitall), and a receive and a send
// per piece.
std::uint64_t gauss_action_bound(const GaussParams& p, RankId ranks) {
  using generators::saturating_mul;
  std::uint64_t pieces = 0;
  for (std::uint32_t k = 0; k + 1 < p.n; ++k) {
    const std::uint64_t bytes = gauss_pivot_bytes(p.n, k);
    pieces += p.fragment_bytes == 0 ? 1 : bytes / p.fragment_bytes + 1;
  }
  const std::uint64_t per_step = p.forward == GaussForward::isend ? 2 : 1;
  const std::uint64_t per_rank = saturating_mul(2, pieces) + per_step * p.n;
  return saturating_mul(per_rank, ranks);
}

proto::Trace gauss_trace(const GaussParams& p, RankId ranks) {
  check_gauss(p, ranks);
  proto::Trace trace = generators::empty_trace(ranks);
  for (RankId r = 0; r < ranks; ++r) {
    RankActions out(trace, r);
    GaussRank rank(p, ranks, out);
    for (std::uint32_t k = 0; k + 1 < p.n; ++k) rank.step(k);
    out.finish();
  }
  return trace;
}

}  // namespace netwarp::mpiemul
