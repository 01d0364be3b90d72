// This process's wall clock and memory, as the kernels and the programs report them.
#pragma once

#include <cstdint>

namespace netwarp::engine {

// The peak resident memory of this process so far (VmHWM, bytes). Not getrusage's ru_maxrss,
// except where /proc is missing: Linux carries the parent's peak over fork and exec into it, so
// a netwarp started by a big process (a Python script that has read a large results.json)
// would report that process's peak.
std::uint64_t peak_rss_bytes();
// The resident memory of this process now (VmRSS, bytes; 0 where /proc is missing).
std::uint64_t rss_bytes();

std::uint64_t wall_clock_ns();
double wall_seconds_since(std::uint64_t start_ns);

}  // namespace netwarp::engine
