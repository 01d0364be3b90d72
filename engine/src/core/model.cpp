// Default LP placement and kernel names.
#include "netwarp/engine/model.hpp"
#include "netwarp/engine/kernel.hpp"

namespace netwarp::engine {

int block_rank(LpId lp, LpId lp_count, int ranks) {
  return static_cast<int>(static_cast<std::uint64_t>(lp) * static_cast<std::uint64_t>(ranks) /
                          lp_count);
}

std::string_view kernel_name(KernelKind kind) {
  return kind == KernelKind::sequential ? "sequential" : "optimistic";
}

std::string_view sync_name(SyncMode mode) {
  switch (mode) {
    case SyncMode::optimistic:
      return "optimistic";
    case SyncMode::conservative:
      return "conservative";
    case SyncMode::hybrid:
      break;
  }
  return "hybrid";
}

}  // namespace netwarp::engine
