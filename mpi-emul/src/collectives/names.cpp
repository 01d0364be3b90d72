// algorithm_name: the lower-case names of the algorithm enums, as spelled in collectives.hpp.
#include <array>

#include "netwarp/mpiemul/collectives.hpp"

namespace netwarp::mpiemul {

namespace {
template <typename Enum, std::size_t N>
std::string_view lookup(const std::array<std::string_view, N>& names, Enum value) {
  return names.at(static_cast<std::size_t>(value));
}
}  // namespace

std::string_view algorithm_name(BcastAlgorithm a) {
  return lookup(std::array<std::string_view, 2>{"binomial", "linear"}, a);
}

std::string_view algorithm_name(ReduceAlgorithm a) {
  return lookup(std::array<std::string_view, 2>{"binomial", "linear"}, a);
}

std::string_view algorithm_name(AllreduceAlgorithm a) {
  return lookup(std::array<std::string_view, 3>{"recursive_doubling", "ring", "reduce_bcast"}, a);
}

std::string_view algorithm_name(AlltoallAlgorithm a) {
  return lookup(std::array<std::string_view, 6>{"algorithm_a", "algorithm_b", "pairwise",
                                                "simple_spread", "spread_2d", "bruck"},
                a);
}

std::string_view algorithm_name(BarrierAlgorithm a) {
  return lookup(std::array<std::string_view, 2>{"dissemination", "linear"}, a);
}

std::string_view algorithm_name(GatherAlgorithm a) {
  return lookup(std::array<std::string_view, 2>{"linear", "binomial"}, a);
}

std::string_view algorithm_name(AllgatherAlgorithm a) {
  return lookup(std::array<std::string_view, 3>{"ring", "recursive_doubling", "gather_bcast"}, a);
}

}  // namespace netwarp::mpiemul
