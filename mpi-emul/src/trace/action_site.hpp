// Where a trace action came from, so that errors found after reading point at it: its place in
// the .pbtxt it was read from ("FILE:LINE:COL: ...", when a TraceLocations table is given),
// else the original TIT line ("FILE:LINE: ..."), else its rank and action index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "netwarp/mpiemul/proto/trace.pb.h"
#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

class ActionSite {
 public:
  ActionSite(const proto::Trace& trace, std::uint32_t rank, int index,
             const TraceLocations* locations = nullptr);
  std::string describe() const;  // "FILE:LINE:COL", "FILE:LINE", or "rank R, action I"
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_action(const std::string& message) const;  // "KIND: message"

 private:
  std::string_view kind_;
  std::string file_;
  std::uint32_t line_ = 0;
  std::uint32_t column_ = 0;
  std::uint32_t rank_ = 0;
  int index_ = 0;
};

// The oneof field's name: "isend", "allreduce", "reduce_scatter"; "(none)" when unset.
std::string_view action_kind_name(const proto::Action& action);

}  // namespace netwarp::mpiemul
