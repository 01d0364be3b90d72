// PHOLD set-up shared by the tests of partitions as threads (thread_exchange_test,
// phold_hybrid_mpi_test): a model spread over the partitions, and the kernel tunings they run.
#pragma once

#include <cstdint>

#include "netwarp/phold/phold.hpp"

namespace netwarp::engine::testing {

// `lps` LPs in all over `partitions` ranks; half the events remote, lookahead 0.1 us.
inline phold::PholdConfig phold_spread(int partitions, std::uint32_t lps, double end_us) {
  phold::PholdConfig c;
  c.lps_per_rank = lps / static_cast<std::uint32_t>(partitions);
  c.ranks = partitions;
  c.remote = 0.5;
  c.lookahead = 0.1;
  c.end = end_us;
  return c;
}

struct ThreadTuning {
  const char* name;
  std::uint32_t batch;
  std::uint32_t gvt_interval;
  std::uint64_t max_uncommitted_bytes;
};

// The defaults, one event per batch and GVT round (rolls back often), a tiny memory cap.
inline constexpr ThreadTuning kThreadTunings[] = {
    {"defaults", 16, 64, 0}, {"every_event", 1, 1, 0}, {"tiny_byte_cap", 16, 4, 4096}};

}  // namespace netwarp::engine::testing
