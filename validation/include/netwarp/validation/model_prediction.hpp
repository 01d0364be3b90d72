// `netwarp predict`: an MPI program's run time and per-rank breakdown from a model, with the
// trace-driven replay of replay.hpp. The parameter set (params_json.hpp) names its model:
//   hockney, logp, loggp, loggps, plogp: point-to-point costs, no bandwidth sharing other
//     than LogGPS's receiver rule;
//   plogp-br: the closed forms of seed 002 for the all-to-all kernel (algorithms A and B);
//   flow: the scenario's topology shared max-min (Mode N) by the data of each message, with
//     the LogGPS host costs of the same parameter file's "host" (or the scenario's MPI host).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/flow_solver.hpp"
#include "netwarp/validation/replay.hpp"

namespace netwarp::validation {

struct ModelPrediction {
  Prediction prediction;
  std::string note;  // what the model assumed, for the report
  double wall_seconds = 0;
};

// The "model" a parameter file's JSON names; throws ParamsFileError (`source` names the file)
// when the document is not an object or its "model" is missing or not a string.
std::string params_model(const nlohmann::ordered_json& params, const std::string& source);

// `params` as read from a parameter file (its "model" field chooses the model); `source` names
// the file in errors. Throws netmodels::InputError for bad parameters, std::invalid_argument
// for a program the model cannot predict.
// `loaded` is the scenario `spec` was built from (plogp-br reads its all-to-all kernel).
ModelPrediction predict_with(const nlohmann::ordered_json& params, const std::string& source,
                             const scenarios::LoadedScenario& loaded,
                             const scenarios::MpiRunSpec& spec);

// The flow model needs no fitted parameters: its parameter set is the platform's own (the
// scenario's MPI host costs); this builds that set, for Mode N (max-min) or Mode F.
nlohmann::ordered_json flow_params(const scenarios::MpiRunSpec& spec,
                                   FlowMode mode = FlowMode::max_min);

}  // namespace netwarp::validation
