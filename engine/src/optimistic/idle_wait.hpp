// IdleWait: how a rank with nothing to do waits for the other ranks. It spins for a millisecond
// (a wait usually lasts microseconds), after the first 50 us yielding its core each time round,
// then naps, each nap twice the last up to `longest_nap`: on a machine with more runnable
// processes than cores, a spinning rank would burn the time slice that the rank it waits for
// needs, and frequent wake-ups cost that rank too.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

#include "netwarp/engine/process_info.hpp"

namespace netwarp::engine {

// Tells the core this thread spins on a flag another core will write.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class IdleWait {
 public:
  // `cpus_shared`: more partitions than CPUs (RankExchange::shares_cpus), so the wait yields from
  // the start: the partition waited for may need this very CPU.
  IdleWait(std::chrono::microseconds longest_nap, bool cpus_shared)
      : longest_nap_(longest_nap), spin_only_ns_(cpus_shared ? 0 : kSpinOnlyNs) {}

  // The rank did some work: the next idle spell spins first again.
  void busy() {
    idle_since_ = 0;
    nap_ = kFirstNap;
  }
  // How long the rank has been idle, from its first idle() since busy() (0: not idle).
  std::uint64_t idle_ns() const { return idle_since_ == 0 ? 0 : wall_clock_ns() - idle_since_; }
  // The rank found nothing to do.
  void idle() {
    const std::uint64_t now = wall_clock_ns();
    if (idle_since_ == 0) {
      idle_since_ = now;
    } else if (now - idle_since_ <= spin_only_ns_) {
      for (int i = 0; i < 32; ++i) cpu_relax();
    } else if (now - idle_since_ <= kSpinNs) {
      std::this_thread::yield();  // a rank waited for may share this core (threads, mpirun)
    } else {
      std::this_thread::sleep_for(nap_);
      nap_ = std::min(2 * nap_, longest_nap_);
    }
  }

 private:
  // A yield hands the core to any other runnable process for its time slice (milliseconds on a
  // loaded machine; tens of microseconds even on an idle virtual machine), so the first
  // microseconds of a wait, when the awaited rank runs on another core, spin without it.
  static constexpr std::uint64_t kSpinOnlyNs = 50'000;
  static constexpr std::uint64_t kSpinNs = 1'000'000;
  static constexpr std::chrono::microseconds kFirstNap{20};
  std::chrono::microseconds longest_nap_;
  std::uint64_t spin_only_ns_;
  std::chrono::microseconds nap_ = kFirstNap;
  std::uint64_t idle_since_ = 0;
};

}  // namespace netwarp::engine
