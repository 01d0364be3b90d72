// What each cross-check does with every field of scenario.proto: a table per cross-check
// (validation/src/coverage/<tool>_fields.cpp) that classifies each field as mirrored, refused,
// noted (run under the cross-check's own reading, named in its report) ... The cross-check
// refuses a scenario whose effective value of a field it cannot mirror is set (one line naming
// the field, exit 2) instead of running something else, and a unit test walks the schema by
// its descriptor so that a field nobody classified fails the build's tests.
//
//   if (auto refused = first_refused(ns3_fields(), loaded.scenario))
//     throw loaded.error(refused->field, refused->message);
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::validation {

enum class Coverage {
  // The cross-check runs the same setting. With `values`, only those values; any other value
  // is refused with `why`. Only a leaf field (a scalar, enum, string or a repeated one) can be
  // mirrored: a new field inside a message must be classified on its own.
  mirrored,
  // Set to anything but `values` (empty: set at all), the scenario is refused with `why`. On a
  // message field: refused when the message is present, whatever it holds.
  refused,
  // The cross-check always follows its own reading, `values` (or `accepts`); a scenario with
  // another value runs, and its report names the field, the value and `why`.
  noted,
  // Below the cross-check's level of detail (a flow model has no packets, buffers or TCP): what
  // the comparison measures is exactly their effect; its README lists them.
  abstracted,
  // Cannot change what is compared (names, outputs, kernel settings that leave results
  // byte-identical, what `validate` runs).
  no_effect,
};

struct FieldRule {
  std::string field;  // dotted path without indices: "workload.flows.flow.src"
  Coverage coverage = Coverage::refused;
  std::vector<std::string> values;  // as protobuf text format prints them: "true", "NEW_RENO", "40"
  std::string why;                  // one clause, shown after the field and its value
  // Replaces `values` where the acceptable value depends on other fields.
  std::function<bool(const scenarios::proto::Scenario&)> accepts;
};

struct CrossCheckFields {
  std::string tool;   // "netwarp-ns3"
  std::string table;  // the source file of the table, named in the coverage test's messages
  std::vector<FieldRule> rules;
};

const CrossCheckFields& ns3_fields();
const CrossCheckFields& simgrid_fields();
// Every cross-check's table.
std::vector<const CrossCheckFields*> all_cross_check_fields();

struct FieldFinding {
  std::string field;
  std::string value;    // text format; "present" for a message
  std::string message;  // "TOOL cannot mirror VALUE: why" / "TOOL runs ...: why"
};

// The field of the effective scenario (defaults filled) that `fields` refuses: a refused whole
// section first, else the first in field-number order; a field the table does not classify is
// refused too.
std::optional<FieldFinding> first_refused(const CrossCheckFields& fields,
                                          const scenarios::proto::Scenario& scenario);

// The noted fields whose value differs from the cross-check's own reading, for its report.
std::vector<FieldFinding> noted_settings(const CrossCheckFields& fields,
                                         const scenarios::proto::Scenario& scenario);

// The coverage test's questions. Leaf fields of scenario.proto (repeated messages descended
// into, an empty message counting as a leaf) that no rule covers:
std::vector<std::string> unclassified_fields(const CrossCheckFields& fields);
// Rules that name no field of the schema, mirror a whole message, or carry `values` or
// `accepts` where their coverage ignores them: one line each.
std::vector<std::string> misplaced_rules(const CrossCheckFields& fields);

}  // namespace netwarp::validation
