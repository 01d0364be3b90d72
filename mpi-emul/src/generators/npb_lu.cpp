// NPB-LU-like program (NPB 3.4 MPI LU, mpi-emul/GENERATORS.md): SSOR on an n^3 grid split over
// NPB's xdim x ydim process grid (xdim >= ydim; rank id at row id % xdim, column id / xdim;
// north/south along rows, west/east along columns; z not split), with NPB's messages: per
// iteration the lower-triangular wavefront over the planes k = 2 .. nz-1 (receive from north
// and west, compute, send south and east: exchange_1, 5 doubles per interior point of the
// edge), the upper one from k = nz-1 down to 2 (from south and east, to north and west), then
// rhs with its two face exchanges (exchange_3: two layers of 5 doubles, 10 ny nz doubles to
// north/south, 10 nx nz to west/east), and the 5-double allreduces of l2norm every inorm
// iterations (inorm = itmax, as NPB: at the end). Before the loop: rhs, l2norm and the
// barrier. Not NPB: flops are NPB's nominal 1984.77 per grid point and iteration, split by us
// over the phases (kLowerFlops ...); the setup, warm-up iteration, verification (error, pintgr)
// and result reductions are left out; exchange_3's any-source receives name their neighbour
// (the same match: only that neighbour sends that tag).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>

#include "generators/rank_actions.hpp"
#include "netwarp/mpiemul/generators.hpp"

namespace netwarp::mpiemul {

namespace {

using generators::RankActions;

struct LuClass {
  std::uint64_t size;  // nx0 = ny0 = nz0
  std::uint32_t itmax;
};
constexpr std::array<LuClass, 4> kLuClasses = {{{12, 50}, {33, 300}, {64, 250}, {102, 250}}};

// Flops per interior grid point and iteration (sum 1985, NPB's 1984.77).
constexpr double kLowerFlops = 750;           // jacld + blts, per point of each plane
constexpr double kUpperFlops = 750;           // jacu + buts
constexpr double kRhsFluxFlops = 155;         // rhs, per direction (xi, eta, zeta)
constexpr double kRhsInitFlops = 5;           // rsd = -frct
constexpr double kScaleUpdateFlops = 15;      // rsd = dt * rsd (5), u = u + tmp * rsd (10)
constexpr std::uint64_t kMinLocalPoints = 4;  // NPB: "SUBDOMAIN SIZE IS TOO SMALL" below 4

// NPB's tags (mpinpb.h): the direction a message comes from.
constexpr std::int32_t kFromS = 1;
constexpr std::int32_t kFromN = 2;
constexpr std::int32_t kFromE = 3;
constexpr std::int32_t kFromW = 4;
constexpr std::uint64_t kDouble = 8;
constexpr RankId kNone = ~RankId{0};

struct LuGrid {
  RankId xdim = 1;
  RankId ydim = 1;
};

// NPB: xdim = 2^floor(log2 P / 2), doubled when log2 P is odd; ydim = P / xdim.
LuGrid lu_grid(RankId ranks) {
  const auto l = static_cast<std::uint32_t>(std::countr_zero(ranks));
  RankId xdim = RankId{1} << (l / 2);
  if (l % 2 == 1) xdim *= 2;
  return {xdim, ranks / xdim};
}

// Points of a dimension of n0 split over dim parts, for part `index` (NPB's subdomain).
std::uint64_t local_points(std::uint64_t n0, RankId dim, RankId index) {
  return n0 / dim + (index < n0 % dim ? 1 : 0);
}

struct LuRankLayout {
  RankId north = kNone, south = kNone, west = kNone, east = kNone;
  std::uint64_t nx = 0, ny = 0, nz = 0;
  std::uint64_t i_points = 0;  // iend - ist + 1
  std::uint64_t j_points = 0;  // jend - jst + 1
};

LuRankLayout lu_layout(const LuGrid& g, RankId id, std::uint64_t size) {
  LuRankLayout l;
  const RankId row = id % g.xdim;
  const RankId col = id / g.xdim;
  if (row > 0) l.north = id - 1;
  if (row + 1 < g.xdim) l.south = id + 1;
  if (col > 0) l.west = id - g.xdim;
  if (col + 1 < g.ydim) l.east = id + g.xdim;
  l.nx = local_points(size, g.xdim, row);
  l.ny = local_points(size, g.ydim, col);
  l.nz = size;
  l.i_points = l.nx - (l.north == kNone ? 1 : 0) - (l.south == kNone ? 1 : 0);
  l.j_points = l.ny - (l.west == kNone ? 1 : 0) - (l.east == kNone ? 1 : 0);
  return l;
}

class LuRank {
 public:
  LuRank(const LuRankLayout& layout, std::uint32_t itmax, RankActions& out)
      : l_(layout), itmax_(itmax), out_(out) {
    plane_points_ = static_cast<double>(l_.i_points * l_.j_points);
    points_ = plane_points_ * static_cast<double>(l_.nz - 2);
  }

  void run() {
    rhs();
    out_.allreduce(5 * kDouble);  // l2norm
    out_.barrier();
    const std::uint32_t inorm = itmax_;
    for (std::uint32_t istep = 1; istep <= itmax_; ++istep) {
      out_.compute(5 * points_);  // rsd = dt * rsd
      lower_sweep();
      upper_sweep();
      out_.compute((kScaleUpdateFlops - 5) * points_);      // u = u + tmp * rsd
      if (istep % inorm == 0) out_.allreduce(5 * kDouble);  // delunm
      rhs();
      if (istep % inorm == 0 || istep == itmax_) out_.allreduce(5 * kDouble);  // rsdnm
    }
    out_.finish();
  }

 private:
  std::uint64_t edge_i() const { return 5 * kDouble * l_.i_points; }  // to/from west, east
  std::uint64_t edge_j() const { return 5 * kDouble * l_.j_points; }  // to/from north, south

  void lower_sweep() {
    for (std::uint64_t k = 2; k + 1 <= l_.nz; ++k) {
      if (l_.north != kNone) out_.recv(l_.north, kFromN, edge_j());
      if (l_.west != kNone) out_.recv(l_.west, kFromW, edge_i());
      out_.compute(kLowerFlops * plane_points_);
      if (l_.south != kNone) out_.send(l_.south, kFromN, edge_j());
      if (l_.east != kNone) out_.send(l_.east, kFromW, edge_i());
    }
  }

  void upper_sweep() {
    for (std::uint64_t k = l_.nz - 1; k >= 2; --k) {
      if (l_.south != kNone) out_.recv(l_.south, kFromS, edge_j());
      if (l_.east != kNone) out_.recv(l_.east, kFromE, edge_i());
      out_.compute(kUpperFlops * plane_points_);
      if (l_.north != kNone) out_.send(l_.north, kFromS, edge_j());
      if (l_.west != kNone) out_.send(l_.west, kFromE, edge_i());
    }
  }

  // exchange_3 in one direction: irecv from `before`, send to `after`, wait; then the reverse.
  void face_exchange(RankId before, RankId after, std::int32_t tag_forward, std::int32_t tag_back,
                     std::uint64_t bytes) {
    if (before != kNone) out_.irecv(before, tag_forward, bytes);
    if (after != kNone) out_.send(after, tag_forward, bytes);
    if (before != kNone) out_.wait_recv(before, tag_forward);
    if (after != kNone) out_.irecv(after, tag_back, bytes);
    if (before != kNone) out_.send(before, tag_back, bytes);
    if (after != kNone) out_.wait_recv(after, tag_back);
  }

  void rhs() {
    out_.compute(kRhsInitFlops * points_);
    face_exchange(l_.north, l_.south, kFromN, kFromS, 10 * kDouble * l_.ny * l_.nz);
    out_.compute(kRhsFluxFlops * points_);  // xi direction
    face_exchange(l_.west, l_.east, kFromW, kFromE, 10 * kDouble * l_.nx * l_.nz);
    out_.compute(2 * kRhsFluxFlops * points_);  // eta and zeta directions
  }

  const LuRankLayout& l_;
  std::uint32_t itmax_;
  RankActions& out_;
  double plane_points_ = 0;
  double points_ = 0;
};

}  // namespace

void check_npb_lu(const NpbParams& p, RankId ranks) {
  if (ranks < 2 || !std::has_single_bit(ranks))
    throw GeneratorError("lu", "ranks", fmt::format("must be a power of two >= 2, got {}", ranks));
  if (static_cast<std::size_t>(p.size_class) >= kLuClasses.size())
    throw GeneratorError("lu", "class", "must be S, W, A or B");
  const LuClass& k = kLuClasses[static_cast<std::size_t>(p.size_class)];
  const LuGrid g = lu_grid(ranks);
  // The smallest subdomain is the last row's and column's (remainders go to the first).
  const std::uint64_t nx = local_points(k.size, g.xdim, g.xdim - 1);
  const std::uint64_t ny = local_points(k.size, g.ydim, g.ydim - 1);
  if (std::min(nx, ny) < kMinLocalPoints)
    throw GeneratorError(
        "lu", "ranks",
        fmt::format("{} ranks ({} x {} grid) leave {} x {} points of class {} ({}^3) to a rank; "
                    "NPB needs at least 4 x 4",
                    ranks, g.xdim, g.ydim, nx, ny, npb_class_name(p.size_class), k.size));
  if (p.iterations > kNpbMaxIterations)
    throw GeneratorError("lu", "iterations",
                         fmt::format("must be <= {}, got {}", kNpbMaxIterations, p.iterations));
}

// Per iteration, with nb neighbours at most: the two sweeps over nz - 2 planes (a compute and one
// receive or send per neighbour each), rhs (3 computes, 3 actions per neighbour), 2 computes and
// 2 allreduces; once: rhs, the l2norm allreduce and the barrier.
std::uint64_t npb_lu_action_bound(const NpbParams& p, RankId ranks) {
  const auto size_class = std::min<std::size_t>(static_cast<std::size_t>(p.size_class), 3);
  const LuClass& k = kLuClasses[size_class];
  const LuGrid g = lu_grid(std::bit_ceil(std::clamp<RankId>(ranks, 1, RankId{1} << 31)));
  const std::uint64_t nb = std::min<RankId>(g.xdim - 1, 2) + std::min<RankId>(g.ydim - 1, 2);
  const std::uint64_t itmax = p.iterations != 0 ? p.iterations : k.itmax;
  const std::uint64_t rhs = 3 + 3 * nb;
  const std::uint64_t per_iteration = 2 * (k.size - 2) * (1 + nb) + rhs + 4;
  return generators::saturating_mul(itmax * per_iteration + rhs + 3, ranks);
}

proto::Trace npb_lu_trace(const NpbParams& p, RankId ranks) {
  check_npb_lu(p, ranks);
  const LuClass& k = kLuClasses[static_cast<std::size_t>(p.size_class)];
  const LuGrid grid = lu_grid(ranks);
  const std::uint32_t itmax = p.iterations != 0 ? p.iterations : k.itmax;
  proto::Trace trace = generators::empty_trace(ranks);
  for (RankId r = 0; r < ranks; ++r) {
    const LuRankLayout layout = lu_layout(grid, r, k.size);
    RankActions out(trace, r);
    LuRank(layout, itmax, out).run();
  }
  return trace;
}

}  // namespace netwarp::mpiemul
