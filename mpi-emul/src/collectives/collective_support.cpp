// Rank arithmetic, argument checks and the pairwise exchange step shared by the collectives.
#include <fmt/format.h>

#include <array>
#include <numeric>
#include <stdexcept>

#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul::collectives {

bool is_power_of_two(RankId n) {
  return n != 0 && (n & (n - 1)) == 0;
}

RankId floor_power_of_two(RankId n) {
  RankId p = 1;
  while (p <= n / 2) p <<= 1;
  return p;
}

int ceil_log2(RankId n) {
  int rounds = 0;
  for (std::uint64_t reach = 1; reach < n; reach <<= 1) ++rounds;
  return rounds;
}

RankId square_side(RankId n) {
  std::uint64_t side = 0;
  while ((side + 1) * (side + 1) <= n) ++side;
  return side * side == n ? static_cast<RankId>(side) : 0;
}

RankId ring_add(RankId rank, RankId offset, RankId size) {
  return static_cast<RankId>((std::uint64_t{rank} + offset) % size);
}

RankId ring_sub(RankId rank, RankId offset, RankId size) {
  return static_cast<RankId>((std::uint64_t{rank} + size - offset % size) % size);
}

void check_root(std::string_view collective, RankId root, RankId size) {
  if (root >= size)
    throw std::invalid_argument(
        fmt::format("{}: root {} is not a rank (size {})", collective, root, size));
}

void check_counts(std::string_view collective, std::span<const std::uint64_t> counts, RankId size) {
  if (counts.size() != size)
    throw std::invalid_argument(
        fmt::format("{}: {} counts given for {} ranks", collective, counts.size(), size));
}

void check_alltoall(AlltoallAlgorithm algorithm, RankId size) {
  const bool needs_power_of_two = algorithm == AlltoallAlgorithm::algorithm_a ||
                                  algorithm == AlltoallAlgorithm::algorithm_b ||
                                  algorithm == AlltoallAlgorithm::pairwise;
  if (needs_power_of_two && !is_power_of_two(size))
    throw std::invalid_argument(
        fmt::format("alltoall algorithm {} needs a power-of-two number of ranks, got {}",
                    algorithm_name(algorithm), size));
  if (algorithm == AlltoallAlgorithm::spread_2d && square_side(size) == 0)
    throw std::invalid_argument(
        fmt::format("alltoall algorithm {} needs a square number of ranks (n x n), got {}",
                    algorithm_name(algorithm), size));
}

std::vector<std::uint64_t> uniform_counts(RankId size, std::uint64_t bytes) {
  return std::vector<std::uint64_t>(size, bytes);
}

std::uint64_t total(std::span<const std::uint64_t> counts) {
  return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

void post_exchange(RankProgramBuilder& b, RankId dst, std::uint64_t send_bytes, RankId src,
                   std::uint64_t recv_bytes, std::int32_t tag) {
  const std::array<std::uint32_t, 2> requests = {
      b.post_irecv(static_cast<std::int32_t>(src), tag, recv_bytes),
      b.post_isend(dst, tag, send_bytes)};
  b.post_waitall(requests);
}

}  // namespace netwarp::mpiemul::collectives
