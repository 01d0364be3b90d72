// Building a whole Program one rank at a time, shared by the built-in kernels.
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string_view>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul::kernels {

// Throws std::invalid_argument naming the kernel when it cannot run on `size` ranks.
inline void check_size(std::string_view kernel, RankId size, RankId minimum) {
  if (size < minimum)
    throw std::invalid_argument(
        fmt::format("{} kernel needs at least {} ranks, got {}", kernel, minimum, size));
}

// Calls build_rank(builder) for every rank and collects the programs.
template <typename BuildRank>
Program build_program(RankId size, BuildRank&& build_rank) {
  Program program;
  program.ranks.reserve(size);
  for (RankId r = 0; r < size; ++r) {
    RankProgramBuilder b(r, size);
    build_rank(b);
    program.ranks.push_back(b.take());
  }
  return program;
}

// The compute call between two iterations; none when the duration is zero.
inline void compute_between(RankProgramBuilder& b, std::uint32_t iteration, SimTime duration) {
  if (iteration > 0 && duration > SimTime::zero()) b.compute(duration);
}

}  // namespace netwarp::mpiemul::kernels
