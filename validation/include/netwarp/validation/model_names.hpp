// The models `netwarp fit`, `predict` and `validate` know, by the names users type.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace netwarp::validation {

enum class ModelKind {
  hockney,
  logp,
  loggp,
  loggps,
  plogp,
  plogp_br,
  mpiete,
  flow,    // max-min fair shares (MFS Mode N)
  flow_f,  // each link split evenly, a flow takes its least share (MFS Mode F)
  simgrid,
  ns3  // netwarp-ns3: the ns-3 packet-level TCP cross-check of a network workload
};

// "hockney", "logp", "loggp", "loggps", "plogp", "plogp-br", "mpiete", "flow", "flow-f", "simgrid",
// "ns3".
std::string_view model_name(ModelKind kind);
// Throws std::invalid_argument listing the known names when `name` is none of them.
ModelKind parse_model_name(std::string_view name);
// A comma-separated list ("loggps,plogp-br,flow"); empty entries and repeats are errors.
std::vector<ModelKind> parse_model_list(std::string_view list);

}  // namespace netwarp::validation
