// NPB-CG-like program (NPB 3.4 MPI cg.f, mpi-emul/GENERATORS.md): the conjugate gradient
// solver of the inverse power method on NPB's 2D process grid, with NPB's data layout
// (setup_submatrix_info) and its hand-written reductions, message for message: the row sums
// of w = A.p as log2(npcols) pairwise exchanges of reduce_send/recv_lengths doubles (irecv,
// send, wait, tag i), the transpose exchange of send_len doubles with exch_proc (tag 1), and
// every dot product as log2(npcols) exchanges of one double. Not NPB: the matrix is not built
// (makea), so its nonzeros are NPB's nominal count na * nonzer * (nonzer + 1) spread evenly
// over the grid; the untimed warm-up iteration, the timing barrier and the result reductions
// are left out; a rank whose transpose partner is itself (diagonal blocks) copies locally
// instead of sending to itself.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "generators/rank_actions.hpp"
#include "netwarp/mpiemul/generators.hpp"

namespace netwarp::mpiemul {

namespace {

using generators::RankActions;

struct CgClass {
  std::uint64_t na;
  std::uint64_t nonzer;
  std::uint32_t niter;
};
constexpr std::array<CgClass, 4> kCgClasses = {{
    {1400, 7, 15},    // S
    {7000, 8, 15},    // W
    {14000, 11, 15},  // A
    {75000, 13, 75},  // B
}};
constexpr std::uint32_t kInnerIterations = 25;  // NPB's cgitmax
constexpr std::uint64_t kDouble = 8;

// One rank's part of the matrix and its partners, as NPB's setup_submatrix_info computes them.
struct CgLayout {
  std::uint64_t rows = 0;      // lastrow - firstrow + 1
  std::uint64_t cols = 0;      // lastcol - firstcol + 1
  std::uint64_t send_len = 0;  // doubles sent to the transpose partner
  RankId exch_proc = 0;
  std::vector<RankId> reduce_exch_proc;  // [i - 1] for i = 1 .. l2npcols
  std::vector<std::uint64_t> reduce_send_lengths;
};

struct CgGrid {
  RankId nprows = 1;
  RankId npcols = 1;
  std::uint32_t l2npcols = 0;
};

// NPB: npcols = 2^ceil(log2 P / 2), nprows = 2^floor(log2 P / 2).
CgGrid cg_grid(RankId ranks) {
  const auto l = static_cast<std::uint32_t>(std::countr_zero(ranks));
  return {RankId{1} << (l / 2), RankId{1} << ((l + 1) / 2), (l + 1) / 2};
}

void set_sizes(CgLayout& c, const CgGrid& g, RankId me, std::uint64_t na) {
  const RankId proc_row = me / g.npcols;
  const RankId proc_col = me % g.npcols;
  if (na % g.npcols == 0) {
    c.cols = na / g.npcols;
    c.rows = na / g.nprows;
    return;
  }
  c.rows = na / g.nprows + (proc_row < na % g.nprows ? 1 : 0);
  if (g.npcols == g.nprows) {
    c.cols = na / g.npcols + (proc_col < na % g.npcols ? 1 : 0);
    return;
  }
  const std::uint64_t half = g.npcols / 2;
  const std::uint64_t col_size = na / half + (proc_col / 2 < na % half ? 1 : 0);
  c.cols = me % 2 == 0 ? (col_size - 1) / 2 + 1 : col_size / 2;
}

CgLayout cg_layout(const CgGrid& g, RankId me, std::uint64_t na) {
  CgLayout c;
  set_sizes(c, g, me, na);
  const bool is_square = g.npcols == g.nprows;
  if (is_square) {
    c.send_len = c.rows;
    c.exch_proc = (me % g.nprows) * g.nprows + me / g.nprows;
  } else {
    c.send_len = me % 2 == 0 ? (c.rows + 1) / 2 : c.rows / 2;
    c.exch_proc = 2 * ((me / 2 % g.nprows) * g.nprows + me / 2 / g.nprows) + me % 2;
  }
  const RankId proc_row = me / g.npcols;
  const RankId proc_col = me % g.npcols;
  RankId div = g.npcols;
  for (std::uint32_t i = 1; i <= g.l2npcols; ++i, div /= 2) {
    const RankId j = (proc_col + div / 2) % div + proc_col / div * div;
    c.reduce_exch_proc.push_back(proc_row * g.npcols + j);
    const bool is_last = i == g.l2npcols;
    c.reduce_send_lengths.push_back(is_square || !is_last ? c.send_len : c.rows - c.send_len);
  }
  return c;
}

class CgRank {
 public:
  CgRank(const CgClass& k, const std::vector<CgLayout>& layouts, RankActions& out)
      : layouts_(layouts), me_(layouts[out.rank()]), out_(out) {
    const double na = static_cast<double>(k.na);
    const double nonzeros = na * static_cast<double>(k.nonzer * (k.nonzer + 1));
    matvec_flops_ =
        2 * nonzeros * static_cast<double>(me_.rows) * static_cast<double>(me_.cols) / (na * na);
    cols_ = static_cast<double>(me_.cols);
  }

  // conj_grad and the norm of z that follows it in NPB's main loop.
  void outer_iteration() {
    out_.compute(2 * cols_);  // rho = r.r
    dot_reduce(1);
    for (std::uint32_t cgit = 0; cgit < kInnerIterations; ++cgit) {
      out_.compute(matvec_flops_);  // w = A.p
      row_sum();
      transpose();
      out_.compute(2 * cols_);  // p.q
      dot_reduce(1);
      out_.compute(6 * cols_);  // z = z + alpha p, r = r - alpha q, r.r
      dot_reduce(1);
      out_.compute(2 * cols_);  // p = r + beta p
    }
    out_.compute(matvec_flops_);  // A.z
    row_sum();
    transpose();
    out_.compute(3 * cols_);  // ||x - A.z||
    dot_reduce(1);
    out_.compute(4 * cols_);  // x.z and z.z
    dot_reduce(2);
    out_.compute(cols_);  // x = z / ||z||
  }

 private:
  // Exchange with partner i (tag i): irecv, send, wait, then add what came.
  void exchange(std::uint32_t i, std::uint64_t send_doubles, std::uint64_t recv_doubles) {
    const RankId partner = me_.reduce_exch_proc[i - 1];
    const auto tag = static_cast<std::int32_t>(i);
    out_.irecv(partner, tag, recv_doubles * kDouble);
    out_.send(partner, tag, send_doubles * kDouble);
    out_.wait_recv(partner, tag);
    out_.compute(static_cast<double>(recv_doubles));
  }

  void dot_reduce(std::uint64_t doubles) {
    for (std::uint32_t i = 1; i <= me_.reduce_exch_proc.size(); ++i) exchange(i, doubles, doubles);
  }

  // The partner's send is what arrives (NPB posts reduce_recv_lengths, which equals it).
  void row_sum() {
    for (auto i = static_cast<std::uint32_t>(me_.reduce_exch_proc.size()); i >= 1; --i) {
      const CgLayout& partner = layouts_[me_.reduce_exch_proc[i - 1]];
      exchange(i, me_.reduce_send_lengths[i - 1], partner.reduce_send_lengths[i - 1]);
    }
  }

  void transpose() {
    const RankId partner = me_.exch_proc;
    if (partner == out_.rank()) return;  // NPB sends to itself: a local copy
    out_.irecv(partner, 1, layouts_[partner].send_len * kDouble);
    out_.send(partner, 1, me_.send_len * kDouble);
    out_.wait_recv(partner, 1);
  }

  const std::vector<CgLayout>& layouts_;
  const CgLayout& me_;
  RankActions& out_;
  double matvec_flops_ = 0;
  double cols_ = 0;
};

}  // namespace

void check_npb_cg(const NpbParams& p, RankId ranks) {
  if (ranks < 2 || !std::has_single_bit(ranks))
    throw GeneratorError("cg", "ranks", fmt::format("must be a power of two >= 2, got {}", ranks));
  if (static_cast<std::size_t>(p.size_class) >= kCgClasses.size())
    throw GeneratorError("cg", "class", "must be S, W, A or B");
  const CgClass& k = kCgClasses[static_cast<std::size_t>(p.size_class)];
  if (ranks > k.na / 2)
    throw GeneratorError("cg", "ranks",
                         fmt::format("must be <= {} for class {} (na = {}), got {}", k.na / 2,
                                     npb_class_name(p.size_class), k.na, ranks));
  if (p.iterations > kNpbMaxIterations)
    throw GeneratorError("cg", "iterations",
                         fmt::format("must be <= {}, got {}", kNpbMaxIterations, p.iterations));
}

// An outer iteration is 26 blocks (25 inner iterations and the residual's), each at most three
// reductions of l2npcols exchanges (4 actions each), a transpose (3) and 5 computes.
std::uint64_t npb_cg_action_bound(const NpbParams& p, RankId ranks) {
  const auto size_class = std::min<std::size_t>(static_cast<std::size_t>(p.size_class), 3);
  const CgClass& k = kCgClasses[size_class];
  const std::uint64_t iterations = p.iterations != 0 ? p.iterations : k.niter;
  const std::uint64_t l2npcols =
      (std::countr_zero(std::bit_ceil(std::min<RankId>(ranks, RankId{1} << 31))) + 1) / 2;
  const std::uint64_t per_iteration = (kInnerIterations + 1) * (12 * l2npcols + 8) + 4 * l2npcols;
  return generators::saturating_mul(iterations * per_iteration + 1, ranks);
}

proto::Trace npb_cg_trace(const NpbParams& p, RankId ranks) {
  check_npb_cg(p, ranks);
  const CgClass& k = kCgClasses[static_cast<std::size_t>(p.size_class)];
  const CgGrid grid = cg_grid(ranks);
  std::vector<CgLayout> layouts;
  layouts.reserve(ranks);
  for (RankId r = 0; r < ranks; ++r) layouts.push_back(cg_layout(grid, r, k.na));
  const std::uint32_t iterations = p.iterations != 0 ? p.iterations : k.niter;
  proto::Trace trace = generators::empty_trace(ranks);
  for (RankId r = 0; r < ranks; ++r) {
    RankActions out(trace, r);
    CgRank rank(k, layouts, out);
    for (std::uint32_t it = 0; it < iterations; ++it) rank.outer_iteration();
    out.finish();
  }
  return trace;
}

}  // namespace netwarp::mpiemul
