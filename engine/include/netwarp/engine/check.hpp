// NW_CHECK: an always-on internal invariant (never for user input). On failure it prints the
// source location, the rank, and the LP, event key and simulated time being processed, then
// ends the whole job (MPI_Abort under MPI, abort otherwise).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "netwarp/engine/event_key.hpp"

namespace netwarp::engine {

// What the kernel is doing right now, for error reports. One per thread.
struct CheckContext {
  int rank = 0;
  LpId lp = kNoLp;
  const EventKey* key = nullptr;  // of the event being handled, while in_event
  bool in_event = false;
};
inline CheckContext& check_context() {
  thread_local CheckContext context;
  return context;
}

[[noreturn]] void check_failed(const char* file, int line, const char* condition,
                               const std::string& message);

}  // namespace netwarp::engine

// The message is formatted in a cold lambda of its own, so that a hot function's fast path does
// not set up the stack frame that formatting needs (GCC does not shrink-wrap around it).
// clang-format off
#define NW_CHECK(cond, ...)                                                                   \
  do {                                                                                        \
    if (!(cond)) [[unlikely]]                                                                 \
      [&]() __attribute__((cold, noinline, noreturn)) {                                       \
        ::netwarp::engine::check_failed(__FILE__, __LINE__, #cond, fmt::format(__VA_ARGS__)); \
      }();                                                                                    \
  } while (0)
// clang-format on
