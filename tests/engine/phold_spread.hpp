// PHOLD set-up shared by the tests of partitions as threads (thread_exchange_test,
// phold_hybrid_mpi_test): a model spread over the partitions, and the kernel tunings they run.
#pragma once

#include <cstdint>

#include "netwarp/engine/kernel.hpp"
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
  bool speculate_at_once;  // hybrid runs past its horizon whenever it waits (rolls back often)
};

// The defaults, one event per batch and GVT round (rolls back often), a tiny memory cap, and
// hybrid running ahead at once.
inline constexpr ThreadTuning kThreadTunings[] = {{"defaults", 16, 64, 0, false},
                                                  {"every_event", 1, 1, 0, false},
                                                  {"tiny_byte_cap", 16, 4, 4096, false},
                                                  {"speculate_at_once", 16, 64, 0, true}};

// Sets `config` to run with tuning `t`.
inline void apply_tuning(const ThreadTuning& t, KernelConfig& config) {
  config.batch_size = t.batch;
  config.gvt_interval = t.gvt_interval;
  config.max_uncommitted_bytes = t.max_uncommitted_bytes;
  config.speculate_after_ns = t.speculate_at_once ? 0 : KernelConfig{}.speculate_after_ns;
}

}  // namespace netwarp::engine::testing
