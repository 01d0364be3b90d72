// prefetch(p): starts loading the cache line at p. GCC (12, -O2 and -O3) treats
// __builtin_prefetch as free of side effects, so an inline member function whose only effects
// are prefetches is found pure and every call of it is dropped: PendingQueue::prefetch_next had
// no instruction left in either kernel (bench/SCALE.md). The empty volatile asm is a side effect
// the optimiser keeps, and with it the function and its prefetches; it emits nothing.
#pragma once

namespace netwarp::engine {

inline void prefetch(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

}  // namespace netwarp::engine
