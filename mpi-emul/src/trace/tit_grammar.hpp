// The TIT actions netwarp reads: SimGrid 3.32's replay grammar (src/smpi/internals/
// smpi_replay.cpp), plus the forms of older SimGrid traces (point-to-point actions without a
// tag, a bare wait or test). Action names are matched without regard to case, so the older
// spellings (Isend, waitAll, allReduce, ...) read too.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "netwarp/mpiemul/proto/trace.pb.h"
#include "tit_args.hpp"

namespace netwarp::mpiemul {

// What earlier lines of a rank changed: sizes are counted in MPI_BYTE until an "init" with an
// argument switches the default datatype to MPI_DOUBLE (SimGrid's MPE convention).
struct TitRankState {
  std::uint64_t default_type_size = 1;
};

// Fills `action` from the line's arguments; false when the line does not become an action
// (init, finalize, ...).
using TitParse = bool (*)(TitArgs& args, TitRankState& state, proto::Action& action);

struct TitActionSpec {
  std::string_view name;   // lower case
  std::string_view usage;  // "send DST TAG SIZE [DATATYPE]"
  TitParse parse;
};

std::span<const TitActionSpec> point_to_point_actions();
std::span<const TitActionSpec> collective_actions();

// One line (its rank already checked) into `action`, with action.line set; false when the line
// does not become an action. Throws TraceError.
bool parse_tit_line(const std::string& file, const TitLine& line, std::uint32_t ranks,
                    TitRankState& state, proto::Action& action);

}  // namespace netwarp::mpiemul
