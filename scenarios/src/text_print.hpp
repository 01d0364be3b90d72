// fast_text_print: a scenario in protobuf text format, byte for byte as
// TextFormat::PrintToString writes it, without protobuf's descriptors (text_parse.hpp says why).
// It reads the message's own wire bytes with the build-time tables of schema_table.hpp.
#pragma once

#include <optional>
#include <string>

#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

// Nothing when the message holds what the tables do not describe (unknown fields).
std::optional<std::string> fast_text_print(const proto::Scenario& scenario);

}  // namespace netwarp::scenarios
