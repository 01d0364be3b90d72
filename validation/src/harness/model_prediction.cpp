// Predicting a scenario's program with a parameter set (model_prediction.hpp).
#include "netwarp/validation/model_prediction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "fit/json_fields.hpp"
#include "netwarp/mpiemul/mpi_config.hpp"
#include "netwarp/validation/params_json.hpp"
#include "netwarp/validation/replay_models.hpp"

namespace netwarp::validation {
namespace {

double fs_to_ns(std::uint64_t fs_per_byte) {
  return static_cast<double>(fs_per_byte) * 1e-6;
}

LogGpsParams host_params(const scenarios::MpiRunSpec& spec) {
  const mpiemul::HostCosts& c = spec.config.costs;
  LogGpsParams p;
  p.o = static_cast<double>(c.o.ps()) / 1000.0;
  p.Oss = fs_to_ns(c.send_eager_fs_per_byte);
  p.Ors = fs_to_ns(c.recv_eager_fs_per_byte);
  p.Osl = fs_to_ns(c.send_rndv_fs_per_byte);
  p.Orl = fs_to_ns(c.recv_rndv_fs_per_byte);
  p.s = spec.config.protocol.short_bytes;
  p.S = spec.config.protocol.eager_bytes;
  return p;
}

// The packet simulation's shared-memory transport (mpi.host shm_*) with the host's o.
IntraNodeParams intra_node_params(const scenarios::MpiRunSpec& spec) {
  const mpiemul::SharedMemoryConfig& shm = spec.config.shm;
  IntraNodeParams p;
  p.latency = static_cast<double>(shm.latency.ps()) / 1000.0;
  p.o = static_cast<double>(spec.config.costs.o.ps()) / 1000.0;
  p.copy = fs_to_ns(shm.copy_fs_per_byte);
  p.eager_bytes = shm.eager_bytes;
  p.single_copy_setup = static_cast<double>(shm.single_copy_setup.ps()) / 1000.0;
  p.single_copy = fs_to_ns(shm.single_copy_fs_per_byte);
  return p;
}

// Ranks on the hosts the scenario places them on; pairs on one host take the parameter file's
// intra-node costs when it has them, else the scenario's shared memory.
ReplayLayout replay_layout(const scenarios::MpiRunSpec& spec,
                           const std::optional<IntraNodeParams>& fitted = std::nullopt) {
  ReplayLayout layout;
  std::vector<netmodels::NodeId> seen;
  for (const netmodels::NodeId host : spec.config.rank_hosts) {
    auto at = std::find(seen.begin(), seen.end(), host);
    if (at == seen.end()) at = seen.insert(seen.end(), host);
    layout.rank_hosts.push_back(static_cast<std::uint32_t>(at - seen.begin()));
  }
  layout.intra = fitted ? *fitted : intra_node_params(spec);
  return layout;
}

// A rank on another host than rank 0 (rank 0 itself when every rank shares its host).
mpiemul::RankId first_remote_rank(const scenarios::MpiRunSpec& spec) {
  const auto& hosts = spec.config.rank_hosts;
  for (mpiemul::RankId r = 1; r < hosts.size(); ++r)
    if (hosts[r] != hosts[0]) return r;
  return 0;
}

ParamsDocument parse(const nlohmann::ordered_json& json, const std::string& source) {
  try {
    return params_from_json(json);
  } catch (const netmodels::InputError& e) {
    throw ParamsFileError(source, e.field(), e.message());
  }
}

// The all-to-all kernel's closed forms of seed 002, `iterations` times plus the compute
// between iterations.
Prediction predict_plogp_br(const PlogpBrParams& p, const std::string& source,
                            const scenarios::LoadedScenario& loaded, mpiemul::RankId ranks) {
  const auto& mpi = loaded.scenario.mpi();
  const std::string algorithm = mpi.has_alltoall() ? mpi.alltoall().algorithm() : "";
  if (algorithm != "algorithm_a" && algorithm != "algorithm_b")
    throw std::invalid_argument(
        "plogp-br predicts the all-to-all kernel with algorithm_a or algorithm_b (seed 002); "
        "use plogp or loggps for other programs");
  const std::uint64_t m = mpi.alltoall().bytes();
  std::vector<std::string> patterns;
  for (mpiemul::RankId k = 1; k < ranks; ++k) patterns.push_back(fmt::format("xor{}", k));
  std::vector<double> gaps;
  try {
    gaps = plogp_br::phase_gaps(p, m, patterns);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{}: g_by_pattern: {} ({} ranks need xor1..xor{})",
                                            source, e.what(), ranks, ranks - 1));
  }
  const double once = algorithm == "algorithm_a" ? plogp_br::alltoall_a(p, m, gaps)
                                                 : plogp_br::alltoall_b(p, m, gaps);
  const std::uint32_t iterations = std::max<std::uint32_t>(mpi.alltoall().iterations(), 1);
  const double compute_ns = mpi.alltoall().compute_us() * 1e3;
  Prediction r;
  r.model = "plogp-br";
  r.run_time_ns = iterations * once + (iterations - 1) * compute_ns;
  r.messages = std::uint64_t{iterations} * ranks * (ranks - 1);
  return r;
}

// A flow parameter set's fields (flow_params writes them): "mode" (optional, "N" or "F") and the
// LogGPS "host" costs.
struct FlowDocument {
  FlowMode mode = FlowMode::max_min;
  nlohmann::ordered_json host;
};

FlowDocument read_flow_document(const nlohmann::ordered_json& json, const std::string& source) {
  FlowDocument doc;
  try {
    fit::JsonObjectReader top(json, "");
    top.string("model");
    if (top.has("source")) top.string("source");
    if (top.has("platform")) top.value("platform");  // compared by predict
    if (top.has("mode")) doc.mode = parse_flow_mode(top.string("mode"));
    doc.host = top.value("host");
    top.reject_unknown_keys();
  } catch (const netmodels::InputError& e) {
    throw ParamsFileError(source, e.field(), e.message());
  } catch (const std::invalid_argument& e) {
    throw ParamsFileError(source, "mode", e.what());
  }
  return doc;
}

Prediction predict_flow(const nlohmann::ordered_json& json, const std::string& source,
                        const scenarios::MpiRunSpec& spec) {
  const FlowDocument doc = read_flow_document(json, source);
  const FlowMode mode = doc.mode;
  const nlohmann::ordered_json host = {{"model", "loggps"}, {"params", doc.host}};
  const auto host_doc = parse(host, source);
  const auto& p = std::get<LogGpsParams>(host_doc.params);
  auto network = flow_replay_network(spec.network.topology, spec.config.rank_hosts, mode,
                                     spec.config.protocol.envelope_bytes);
  const mpiemul::RankId remote = first_remote_rank(spec);
  const double latency = remote == 0 ? 0.0 : network->arrival_delay_ns(0, remote);
  const auto model = flow_host_model(p, latency);
  return predict_program(*spec.program, *model, network.get(), replay_layout(spec));
}

}  // namespace

nlohmann::ordered_json flow_params(const scenarios::MpiRunSpec& spec, FlowMode mode) {
  ParamsDocument doc{host_params(spec), "", std::nullopt};
  const nlohmann::ordered_json loggps = params_to_json(doc);
  nlohmann::ordered_json j;
  j["model"] = "flow";
  j["mode"] = flow_mode_name(mode);
  j["host"] = loggps.at("params");
  j["source"] = fmt::format("the platform's MPI host costs; network: {} flow model on its topology",
                            mode == FlowMode::max_min ? "max-min" : "Mode F (fair share per link)");
  return j;
}

std::string params_model(const nlohmann::ordered_json& params, const std::string& source) {
  try {
    return fit::JsonObjectReader(params, "").string("model");
  } catch (const netmodels::InputError& e) {
    throw ParamsFileError(source, e.field(), e.message());
  }
}

ModelPrediction predict_with(const nlohmann::ordered_json& params, const std::string& source,
                             const scenarios::LoadedScenario& loaded,
                             const scenarios::MpiRunSpec& spec) {
  const std::string model = params_model(params, source);
  ModelPrediction out;
  const auto start = std::chrono::steady_clock::now();
  if (model == "flow") {
    out.prediction = predict_flow(params, source, spec);
    out.note = fmt::format("flow model (Mode {}) for the data, LogGPS host costs of the platform",
                           params.value("mode", std::string("N")));
  } else {
    const ParamsDocument doc = parse(params, source);
    const mpiemul::Program& program = *spec.program;
    const ReplayLayout layout = replay_layout(spec, intra_node_from_json(params));
    out.prediction = std::visit(
        [&](const auto& p) -> Prediction {
          using P = std::decay_t<decltype(p)>;
          if constexpr (std::is_same_v<P, LogGpsParams>)
            return predict_program(program, *loggps_replay_model(p), nullptr, layout);
          else if constexpr (std::is_same_v<P, LogGpParams>)
            return predict_program(program, *loggp_replay_model(p), nullptr, layout);
          else if constexpr (std::is_same_v<P, HockneyParams>)
            return predict_program(program, *hockney_replay_model(p), nullptr, layout);
          else if constexpr (std::is_same_v<P, PlogpParams>)
            return predict_program(program, *plogp_replay_model(p), nullptr, layout);
          else if constexpr (std::is_same_v<P, MpieteParams>)
            return predict_program(program, *mpiete_replay_model(p), nullptr, layout);
          else if constexpr (std::is_same_v<P, PlogpBrParams>)
            return predict_plogp_br(p, source, loaded, program.size());
          else
            throw std::invalid_argument(
                fmt::format("{}: model {} does not predict programs", source, model));
        },
        doc.params);
    if (model == "plogp-br") out.note = "closed form of seed 002 (no per-rank breakdown)";
  }
  out.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace netwarp::validation
