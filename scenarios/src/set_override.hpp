// --set path.to.field=value: one override applied to a scenario by reflection.
#pragma once

#include <google/protobuf/message.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netwarp/scenarios/units.hpp"

namespace netwarp::scenarios {

// Applies "a.b.c=value" to `root` and returns the field path it set ("a.b.c").
//  - Intermediate names are message fields, created as needed; naming a oneof member selects
//    it (the others are cleared). A repeated message field takes an index: "flow[2]".
//  - The last name is a scalar: integers (optional unit suffix k, M, G, T = 10^3.. or Ki, Mi,
//    Gi, Ti = 2^10.., with an optional trailing B), reals, true/false, enum names in any case,
//    strings as given. A repeated scalar takes a comma-separated list that replaces it. A
//    message field takes its contents in text format ("hosts: [1, 2]"; "" selects it empty).
// Throws netmodels::InputError("--set <assignment>", reason) naming the known fields on an
// unknown name and the expected kind of value on a bad one.
std::string apply_override(google::protobuf::Message& root, const std::string& assignment);
// The same, adding a note to `notes` for each oneof it switches away from another member ("--set
// mpi.all_to_all.bytes=1KiB: mpi.all_to_all replaces mpi.allreduce (...)").
std::string apply_override(google::protobuf::Message& root, const std::string& assignment,
                           std::vector<std::string>& notes);

}  // namespace netwarp::scenarios
