// Two readers of a scenario file in protobuf text format. protobuf_text_parse is protobuf's own.
// fast_text_parse needs no descriptors: protobuf builds those of scenario.proto and
// descriptor.proto at its first text parse, about 0.7 ms of every run (bench/SCALE.md, "Fixed
// costs"). It covers the text scenario files are made of (names, numbers, plain strings, enum
// names, nested messages, lists) from tables generated at build time (schema_table.hpp), writes
// the wire format and lets the generated code read it. It answers nothing for anything else,
// well formed or not (escapes, octal, inf, extensions, a field given twice, ...): the caller then
// asks protobuf_text_parse, which decides and reports.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "netwarp/scenarios/proto/scenario.pb.h"
#include "netwarp/scenarios/scenario_error.hpp"

namespace netwarp::scenarios {

struct ParsedText {
  proto::Scenario scenario;
  // Where each field was written, by dotted path: "switch.buffer_bytes", "links[2].rate_bps"
  // (each element of a repeated field, and the field itself at its first element's place).
  std::map<std::string, SourceLoc> locations;
};

// Throws ScenarioError ("NAME:LINE:COL: message") at the first error.
ParsedText protobuf_text_parse(const std::string& text, const std::string& name);

// The scenario `text` describes, or nothing when protobuf has to read it. Every string it
// accepts is valid UTF-8 and every enum a defined value.
std::optional<ParsedText> fast_text_parse(std::string_view text);

}  // namespace netwarp::scenarios
