// One JSON format for the parameter set of every analytic model, preset or fitted, readable
// back:
//   {"model": "loggps", "units": {"time": "ns", "per_byte": "ns/byte"},
//    "params": {"L": 850, "o": 6730, "Oss": 5.02, ..., "s": 8191, "S": 16383},
//    "fit": {"residuals": [{"series": "w0", "k": 0, "measured_ns": .., "model_ns": ..,
//                           "error_pct": ..}, ...], "max_abs_error_pct": .., "notes": [..]},
//    "source": "Table 5, Myrinet"}
// "fit" and "source" are optional; "units", when present, must be exactly as above.
// "intra_node" (optional, any model; `netwarp fit` writes it when the platform runs several
// ranks on a host): the costs of a message between two ranks of one host (replay.hpp's
// IntraNodeParams), {"latency": ns, "o": ns, "copy": ns/byte, "eager_bytes": B,
// "single_copy_setup": ns, "single_copy": ns/byte}; predict uses it instead of the scenario's
// shared-memory settings.
// params per model:
//   hockney   alpha, beta
//   logp      L, o, g, P
//   loggp     L, o, g, G, P
//   loggps    L, o (o'), Oss, Ors, Osl, Orl, Gs, Gl, s, S
//   plogp     L, o_s, o_r, g; tables are arrays of {"m": bytes, "value": ns}
//   plogp-br  the plogp ones plus g_by_pattern ({"name": table, ...}), q_bytes, flow_control,
//             rto_ns
//   mpiete    t_comm (a table)
// Every parameter is required, numbers must be >= 0, s, S, m, P are integers, s <= S, and
// unknown keys are errors.
#pragma once

#include <nlohmann/json.hpp>

#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/validation/fit_samples.hpp"
#include "netwarp/validation/loggps.hpp"
#include "netwarp/validation/model_names.hpp"
#include "netwarp/validation/mpiete.hpp"
#include "netwarp/validation/plogp_br.hpp"
#include "netwarp/validation/point_models.hpp"
#include "netwarp/validation/replay.hpp"

namespace netwarp::validation {

using ModelParams = std::variant<HockneyParams, LogPParams, LogGpParams, LogGpsParams, PlogpParams,
                                 PlogpBrParams, MpieteParams>;
// The model of each ModelParams alternative, in the variant's order.
inline constexpr ModelKind kParamsModels[] = {
    ModelKind::hockney, ModelKind::logp,     ModelKind::loggp, ModelKind::loggps,
    ModelKind::plogp,   ModelKind::plogp_br, ModelKind::mpiete};
static_assert(std::size(kParamsModels) == std::variant_size_v<ModelParams>);

struct ParamsDocument {
  ModelParams params;
  std::string source;            // where the values come from; may be empty
  std::optional<FitReport> fit;  // present for fitted sets
};

// "hockney", "logp", "loggp", "loggps", "plogp", "plogp-br", "mpiete" (model_names.hpp).
std::string_view params_model_name(const ModelParams& params);

nlohmann::ordered_json params_to_json(const ParamsDocument& document);
// Throws netmodels::InputError(field, message), field a dotted path ("params.Gl").
ParamsDocument params_from_json(const nlohmann::ordered_json& json);

// A parameter file's "intra_node" object (none when absent); InputError as params_from_json.
std::optional<IntraNodeParams> intra_node_from_json(const nlohmann::ordered_json& json);
nlohmann::ordered_json intra_node_to_json(const IntraNodeParams& params);

// A bad parameter file: what() is one line "FILE: field: message" ("FILE: message" when the
// whole file is at fault).
class ParamsFileError : public netmodels::InputError {
 public:
  ParamsFileError(std::string file, const std::string& field, const std::string& message);
  const char* what() const noexcept override { return text_.c_str(); }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::string text_;
};

// "FILE:LINE:COLUMN: not valid JSON (...)": a parse error of `text`, read from `path`, in our
// words (nlohmann's "[json.exception.parse_error.101]" text stays inside).
std::string json_syntax_error(const std::string& path, const std::string& text,
                              const nlohmann::json::parse_error& error);

// Throws ParamsFileError when the file cannot be read, is not JSON, or is not a valid set.
ParamsDocument read_params_file(const std::string& path);
// Throws std::runtime_error when the file cannot be written. Pretty-printed, 2 spaces.
void write_params_file(const std::string& path, const ParamsDocument& document);

}  // namespace netwarp::validation
