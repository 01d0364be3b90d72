// `netwarp run` of an MPI scenario: run, gather the records, write what a person reads.
#include "mpi_run.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "class_results.hpp"
#include "exit_codes.hpp"
#include "job_class.hpp"
#include "kernel_options.hpp"
#include "netwarp/mpiemul/mpi_model.hpp"
#include "netwarp/mpiemul/mpi_outputs.hpp"
#include "netwarp/mpiemul/mpi_results.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "network_outputs.hpp"
#include "run_report.hpp"
#include "run_sweep.hpp"
#include "run_timeseries.hpp"
#include "staged_folder.hpp"

namespace netwarp::apps {
namespace {

using mpiemul::MpiResults;
using mpiemul::MpiTotals;

// Every process's records on rank 0, sorted. On one process they are moved, not copied through
// their byte form (three copies of the records were most of a large run's peak memory).
MpiResults gather_results(MpiResults& local, const AppContext& context) {
  if (context.exchange->size() == 1) {
    local.sort();
    return std::move(local);
  }
  MpiResults all;
  for (const auto& part : context.exchange->gather(local.to_bytes())) all.append_bytes(part);
  all.sort();
  return all;
}

// On one process every matched send is recorded here: room for one message record per send
// op up front, so the table never doubles (a transient three times its size, 1 GiB at 4,096
// ranks of all-to-all). Pages are only touched as records arrive.
void reserve_message_records(const mpiemul::Program& program, const AppContext& context,
                             MpiResults& local) {
  if (context.exchange->size() != 1) return;
  std::size_t sends = 0;
  for (const mpiemul::RankProgram& rank : program.ranks)
    for (const mpiemul::Op& op : rank.ops) sends += op.kind == mpiemul::OpKind::send ? 1 : 0;
  local.messages.reserve(sends);
}

// Ping-pong kernel: rank 0's rounds are send, [compute,] recv; RTT = recv end - send start.
nlohmann::ordered_json pingpong_json(const scenarios::MpiRunSpec& spec, const MpiResults& r) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  const std::size_t per_round = spec.pingpong_has_compute ? 3 : 2;
  std::size_t call = 0;
  for (std::uint64_t bytes : spec.pingpong_sizes) {
    std::int64_t sum = 0, least = -1, most = -1;
    std::uint32_t rounds = 0;
    for (std::uint32_t i = 0; i < spec.pingpong_repetitions; ++i, call += per_round) {
      if (call + per_round > r.calls.size() || r.calls[call + per_round - 1].rank != 0) break;
      const std::int64_t rtt = r.calls[call + per_round - 1].end_ps - r.calls[call].start_ps;
      sum += rtt;
      least = least < 0 ? rtt : std::min(least, rtt);
      most = std::max(most, rtt);
      ++rounds;
    }
    // No round completed (the run stopped first): no time, null.
    const auto time = [&](std::int64_t ps) {
      return rounds == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(ps);
    };
    rows.push_back({{"bytes", bytes},
                    {"rounds", rounds},
                    {"rtt_mean_ps", time(rounds == 0 ? 0 : sum / rounds)},
                    {"rtt_min_ps", time(least)},
                    {"rtt_max_ps", time(most)}});
  }
  return rows;
}

// What the outputs read besides the MPI records: the network's totals (every packet of the run),
// the job's connections, and with workloads beside the job every class's results.
struct RunTables {
  netmodels::NetworkTotals network;
  std::vector<netmodels::FlowRecord> connections;
  std::vector<ClassResults> classes;  // the workloads' (empty without workloads)
  JobClass job;
  bool mixed = false;
};

// One row per TCP connection that carried MPI traffic.
nlohmann::ordered_json connections_json(const netmodels::NetworkSpec& spec,
                                        const std::vector<netmodels::FlowRecord>& connections) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& f : connections) {
    nlohmann::ordered_json row = {{"src", spec.topology.nodes[f.src].name},
                                  {"dst", spec.topology.nodes[f.flow].name},
                                  {"bytes", f.bytes}};
    add_tcp_counters(row, f);
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::ordered_json results_json(const MpiRunInputs& in, const NetworkRunReport& net,
                                    const MpiResults& r, const MpiTotals& t,
                                    const RunTables& tables) {
  const scenarios::MpiRunSpec& spec = *in.spec;
  nlohmann::ordered_json j;
  j["scenario"] = in.loaded->scenario.name();
  j["scenario_file"] = in.loaded->path;
  j["program"] = spec.program_name;
  j["completed"] = t.finished && t.unreceived.empty();
  j["hosts"] = net.spec->topology.host_count;
  j["switches"] = net.spec->topology.switch_count();
  const nlohmann::ordered_json mpi = mpiemul::mpi_results_json(r, t, *spec.program);
  for (const auto& [key, value] : mpi.items()) j[key] = value;
  if (!spec.pingpong_sizes.empty()) j["pingpong"] = pingpong_json(spec, r);
  const netmodels::NetworkTotals& n = tables.network;
  j["network"] = {{"packets_dropped", n.packets_dropped},
                  {"retransmission_timeouts", n.retransmission_timeouts},
                  {"retransmitted_segments", n.retransmitted_segments},
                  {"fast_retransmits", n.fast_retransmits},
                  {"duplicate_acks", n.duplicate_acks},
                  {"syn_retransmissions", n.syn_retransmissions},
                  {"limited_transmits", n.limited_transmits},
                  {"ecn_marked", n.ecn_marked},
                  {"ooo_discarded_segments", n.ooo_discarded_segments}};
  const nlohmann::ordered_json engine_stats = stats_to_json(*net.stats);
  // The engine's "ranks" (MPI processes of the run) would hide the simulated ranks' table.
  for (const auto& [key, value] : engine_stats.items())
    j[key == "ranks" ? "kernel_ranks" : key] = value;
  j["window_us"] = window_json(in.window_us, *net.stats);
  j["connections"] = connections_json(*net.spec, tables.connections);
  if (tables.mixed) {
    nlohmann::ordered_json classes = classes_json(tables.classes);
    classes.push_back(job_class_json(tables.job));
    j["classes"] = std::move(classes);
  }
  j["ports"] = ports_json(net, busy_span(r.network));
  if (netmodels::has_class_queues(net.spec->switches)) j["port_classes"] = port_classes_json(net);
  j["sample_interval_ps"] = net.spec->outputs.sample_interval_ps;  // time series; 0: none
  j["effective_scenario"] = net.effective_scenario;
  return j;
}

std::vector<std::string> write_outputs(const MpiRunInputs& in, const std::string& dir,
                                       const NetworkRunReport& net, const MpiResults& r,
                                       const MpiTotals& t, const RunTables& tables) {
  std::vector<std::string> files{dir + "/results.json", dir + "/timeline.json", dir + "/calls.csv",
                                 dir + "/ports.csv"};
  const nlohmann::ordered_json results = results_json(in, net, r, t, tables);
  write_json_file(files[0], results);
  {
    auto out = open_for_writing(files[1]);
    mpiemul::write_timeline_json(r, *in.spec->program, out);
    close_written(out, files[1]);
  }
  {
    auto out = open_for_writing(files[2]);
    mpiemul::write_calls_csv(r, out);
    close_written(out, files[2]);
  }
  write_table_csv(results["ports"], files[3]);
  if (!results["connections"].empty()) {
    files.push_back(dir + "/connections.csv");
    write_table_csv(results["connections"], files.back());
  }
  if (tables.mixed) {
    files.push_back(dir + "/flows.csv");
    write_flows_csv(net, files.back());
  }
  for (std::string& f : write_pcaps(net, dir)) files.push_back(std::move(f));
  write_timeseries_files(net, dir, tables.mixed, files);  // FCT CDF of the workloads beside
  return files;
}

// The job's class entry from its program's totals (mixed runs).
JobClass job_class(const MpiRunInputs& in, const MpiTotals& t,
                   const std::vector<netmodels::FlowRecord>& connections) {
  JobClass job;
  job.name = in.spec->class_name;
  job.ranks = in.spec->program->size();
  std::vector<netmodels::NodeId> hosts = in.spec->config.rank_hosts;
  std::sort(hosts.begin(), hosts.end());
  job.hosts = static_cast<std::uint32_t>(std::unique(hosts.begin(), hosts.end()) - hosts.begin());
  for (const mpiemul::MessageTotals& m : t.messages) {
    job.messages += m.count;
    job.bytes += m.bytes;
  }
  job.run_time_ps = t.finished ? t.run_time_ps : -1;
  job.baseline_run_time_ps = in.baseline_run_time_ps;
  add_connection_counters(job, connections);
  return job;
}

// 0 when every rank finished and every message was received. A send never received: incomplete.
// Otherwise the stuck ranks on stderr and: incomplete when the scenario's end_time stopped the
// run, deadlock when the program ran out of events by itself.
int report_unfinished(const MpiTotals& totals, engine::SimTime end_time) {
  if (totals.finished && totals.unreceived.empty()) return exit_code::kSuccess;
  if (totals.finished) {
    std::fprintf(stderr, "netwarp: incomplete: every rank finished, but %s\n",
                 mpiemul::unreceived_message(totals).c_str());
    return exit_code::kIncomplete;
  }
  const std::string stuck = mpiemul::deadlock_message(totals);
  if (end_time.is_max()) {
    std::fprintf(stderr, "netwarp: %s\n", stuck.c_str());
    return exit_code::kDeadlock;
  }
  const std::string where = stuck.starts_with("deadlock: ") ? stuck.substr(10) : stuck;
  std::fprintf(stderr,
               "netwarp: incomplete: end_time (%.3f us) stopped the run before every rank "
               "finished: %s\n",
               end_time.to_us(), where.c_str());
  return exit_code::kIncomplete;
}

}  // namespace

std::int64_t run_job_alone(const scenarios::LoadedScenario& loaded, const std::string& trace,
                           double compute_scale, const engine::KernelConfig& config,
                           const AppContext& context) {
  scenarios::LoadedScenario alone = loaded;
  alone.scenario.clear_workload();
  alone.scenario.clear_workloads();
  scenarios::MpiRunSpec spec = scenarios::build_mpi_run(alone, trace, compute_scale);
  const auto model = mpiemul::make_mpi_model(std::move(spec.network), spec.program, spec.config);
  MpiResults local;
  run_kernel(*model, config, context, &local);
  const MpiResults results = gather_results(local, context);
  if (!context.is_root()) return -1;
  const MpiTotals t = results.totals(*spec.program);
  return t.finished ? t.run_time_ps : -1;
}

int run_mpi_scenario(MpiRunInputs in, const AppContext& context) {
  const auto model =
      mpiemul::make_mpi_model(std::move(in.spec->network), in.spec->program, in.spec->config);
  StagedFolder out(in.out_dir);
  context.check_on_root([&] { out.open(); });
  MpiResults local;
  reserve_message_records(*in.spec->program, context, local);
  const engine::RunResult result = run_kernel(*model, in.config, context, &local);
  MpiResults results = gather_results(local, context);
  if (!context.is_root()) return 0;
  const MpiTotals totals = results.totals(*in.spec->program);
  RunTables tables;
  tables.network = results.network.totals(model->spec().workload);
  tables.mixed = !model->spec().workload.messages.empty();
  if (tables.mixed) {
    tables.connections = take_connections(results.network);
  } else {
    tables.connections = results.network.flows;
  }
  const netmodels::ResultsSource network_results(results.network);
  const NetworkRunReport net{in.loaded->path,
                             in.loaded->scenario.name(),
                             scenarios::effective_scenario_text(*in.loaded),
                             &model->spec(),
                             &result.stats,
                             in.window_us,
                             &network_results,
                             {},
                             nullptr,
                             nullptr};
  if (tables.mixed) {
    tables.classes = class_results(net);
    tables.job = job_class(in, totals, tables.connections);
    add_job_drops(tables.job, results.network.drops);
  }
  const std::vector<std::string> files =
      write_outputs(in, out.path(), net, results, totals, tables);
  out.commit();
  if (in.point_totals != nullptr) {
    *in.point_totals = point_totals(tables.network, result.stats);
    in.point_totals->completed = in.point_totals->completed && totals.finished;
    in.point_totals->mpi_run_time_ps = totals.finished ? totals.run_time_ps : -1;
  }
  const auto& topo = model->spec().topology;
  std::printf("netwarp run: %s (%s): %u hosts, %zu switches, %s; MPI %s on %u ranks\n",
              net.scenario_name.c_str(), net.scenario_path.c_str(), topo.host_count,
              static_cast<std::size_t>(topo.switch_count()), topo.kind.c_str(),
              in.spec->program_name.c_str(), in.spec->program->size());
  std::string classes;
  if (tables.mixed)
    classes = format_class_summary(tables.classes) + format_job_class_summary(tables.job);
  std::printf("%s%s%sresults       %s (%zu files)\n", mpiemul::format_mpi_summary(totals).c_str(),
              classes.c_str(), format_summary(result.stats).c_str(), in.out_dir.c_str(),
              files.size());
  return report_unfinished(totals, in.config.end_time);
}

}  // namespace netwarp::apps
