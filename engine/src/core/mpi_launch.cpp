// Whether this process is a rank of an MPI job, from what the launchers put in its environment:
// no MPI library needed to ask.
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {

namespace {
// What the launchers (Open MPI's, PMIx, PMI) put in a rank's environment.
constexpr const char* kRankVars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"};
constexpr const char* kSizeVars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
}  // namespace

bool MpiSession::launched_by_mpirun() {
  const auto set = [](const char* var) { return std::getenv(var) != nullptr; };
  return std::any_of(std::begin(kRankVars), std::end(kRankVars), set) ||
         std::any_of(std::begin(kSizeVars), std::end(kSizeVars), set);
}

bool MpiSession::first_in_launch() {
  for (const char* var : kRankVars)
    if (const char* rank = std::getenv(var)) return std::string_view(rank) == "0";
  return true;
}

}  // namespace netwarp::engine
