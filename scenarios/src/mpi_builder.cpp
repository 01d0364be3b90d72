// build_mpi_run: the platform as for a network run (without a workload), the program from
// its kernel or trace, the host costs in exact integer units, and ranks placed on hosts.
#include "netwarp/scenarios/mpi_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "builder_parts.hpp"
#include "mpi_names.hpp"
#include "netwarp/mpiemul/generators.hpp"
#include "netwarp/mpiemul/kernels.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "validate.hpp"
#include "validate_time.hpp"

namespace netwarp::scenarios {

namespace {

using namespace mpiemul;

std::uint64_t fs_per_byte(double ns_per_byte) {
  return static_cast<std::uint64_t>(std::llround(ns_per_byte * 1e6));
}

SimTime us_time(double us) {
  return SimTime::from_ps(static_cast<SimTime::Rep>(std::llround(us * 1e6)));
}

HostCosts host_costs(const proto::MpiHost& h) {
  HostCosts c;
  c.o = SimTime::from_ps(static_cast<SimTime::Rep>(std::llround(h.o_ns() * 1000)));
  c.send_eager_fs_per_byte = fs_per_byte(h.send_eager_ns_per_byte());
  c.recv_eager_fs_per_byte = fs_per_byte(h.recv_eager_ns_per_byte());
  c.send_rndv_fs_per_byte = fs_per_byte(h.send_rendezvous_ns_per_byte());
  c.recv_rndv_fs_per_byte = fs_per_byte(h.recv_rendezvous_ns_per_byte());
  // GB/s = bytes per ns: 1 / (GB/s) ns per byte.
  if (h.copy_gbytes_per_s() > 0) c.copy_fs_per_byte = fs_per_byte(1.0 / h.copy_gbytes_per_s());
  return c;
}

SimTime ns_time(double ns) {
  return SimTime::from_ps(static_cast<SimTime::Rep>(std::llround(ns * 1000)));
}

SharedMemoryConfig shared_memory(const proto::MpiHost& h) {
  SharedMemoryConfig c;
  c.latency = ns_time(h.shm_latency_ns());
  c.copy_fs_per_byte = fs_per_byte(1.0 / h.shm_gbytes_per_s());
  c.eager_bytes = h.shm_eager_bytes();
  c.single_copy_setup = ns_time(h.shm_single_copy_setup_ns());
  c.single_copy_fs_per_byte = fs_per_byte(1.0 / h.shm_single_copy_gbytes_per_s());
  return c;
}

// The placement (regular or random) picks ceil(ranks / ranks_per_host) hosts; BLOCK fills
// each with consecutive ranks, CYCLIC deals the ranks out over them in turn. An explicit
// placement lists every rank's host.
std::vector<netmodels::NodeId> rank_hosts(const proto::Scenario& s, RankId ranks,
                                          std::uint32_t host_count) {
  const netmodels::PlacementSpec spec = placement_spec(s.placement());
  if (spec.kind == netmodels::PlacementKind::explicit_list && !s.mpi().has_hosts())
    return spec.hosts;
  const std::uint32_t per_host = mpi_ranks_per_host(s.mpi());
  const std::uint32_t used = (ranks + per_host - 1) / per_host;
  std::vector<netmodels::NodeId> hosts;
  if (s.mpi().has_hosts()) {
    hosts = host_set_hosts(s.mpi().hosts(), host_count, "mpi.hosts");
    hosts.resize(std::min<std::size_t>(hosts.size(), used));
  } else {
    hosts = netmodels::place_ranks(spec, used, host_count, "placement");
  }
  std::vector<netmodels::NodeId> placed(ranks);
  const bool cyclic = s.mpi().rank_order() == proto::Mpi::CYCLIC;
  for (RankId r = 0; r < ranks; ++r) placed[r] = hosts[cyclic ? r % used : r / per_host];
  return placed;
}

ProtocolConfig protocol_config(const proto::MpiProtocol& p) {
  ProtocolConfig c;
  c.short_bytes = p.short_bytes();
  c.eager_bytes = p.eager_bytes();
  c.rendezvous =
      p.rendezvous() == proto::MpiProtocol::GET ? RendezvousMode::get : RendezvousMode::rts_cts;
  c.sender_side_matching = p.sender_side_matching();
  c.unexpected_buffer_bytes = p.unexpected_buffer_bytes();
  c.envelope_bytes = p.envelope_bytes();
  c.fragment_bytes = p.fragment_bytes();
  return c;
}

// The scenario's side of a trace's expansion: algorithms, flop rate, the message limit and the
// largest per-byte cost of a message, for the time budget: sender and receiver hosts, plus the
// slowest link's serialisation with packet headers (a message of any size must fit the budget
// on the wire too, not only in the hosts).
// The slowest link's time per payload byte, headers included, from a gigabyte's transfer.
double network_ns_per_byte(const proto::Scenario& s) {
  constexpr std::uint64_t kSampleBytes = 1'000'000'000;
  const double ps = static_cast<double>(PathBound(s).transfer(kSampleBytes).ps());
  return ps / 1000.0 / static_cast<double>(kSampleBytes);
}

TraceProgramOptions trace_options(const proto::Scenario& s) {
  const proto::MpiHost& h = s.mpi().host();
  TraceProgramOptions options;
  options.algorithms = collective_algorithms(s.mpi().collectives());
  options.flops_per_second = h.flops();
  // A transfer carries a message and its envelope; the time budget limits sizes in practice.
  options.message_limit_bytes = kMaxMpiMessageBytes + 1;
  const double copy = h.copy_gbytes_per_s() > 0 ? 1.0 / h.copy_gbytes_per_s() : 0;
  options.host_ns_per_byte =
      std::max(h.send_eager_ns_per_byte() + h.recv_eager_ns_per_byte() + copy,
               h.send_rendezvous_ns_per_byte() + h.recv_rendezvous_ns_per_byte());
  if (mpi_ranks_per_host(s.mpi()) > 1)
    options.host_ns_per_byte = std::max(
        {options.host_ns_per_byte, 2 / h.shm_gbytes_per_s(), 1 / h.shm_single_copy_gbytes_per_s()});
  options.host_ns_per_byte += network_ns_per_byte(s);
  return options;
}

// A trace brings its own rank count, unless the scenario fixes one (mpi.ranks or an explicit
// placement), which must then agree.
Program trace_program(const std::string& path, const proto::Scenario& s, RankId& ranks,
                      double compute_scale = 1.0) {
  const proto::Mpi& mpi = s.mpi();
  TraceLocations locations;
  const mpiemul::proto::Trace trace = read_trace(path, locations);
  TraceProgramOptions options = trace_options(s);
  options.compute_scale = compute_scale;
  options.locations = &locations;
  Program program = program_from_trace(trace, options);
  const bool fixed = mpi.ranks() != 0 || s.placement().has_explicit_();
  const std::uint64_t hosts = topology_host_count(s.topology());
  if (fixed && program.size() != ranks)
    throw TraceError(path, 0,
                     fmt::format("the trace has {} ranks but the scenario places {} (set "
                                 "mpi.ranks or the placement to match)",
                                 program.size(), ranks));
  const std::uint32_t per_host = mpi_ranks_per_host(mpi);
  if (program.size() > hosts * per_host || program.size() < 1)
    throw TraceError(path, 0,
                     fmt::format("the trace has {} ranks; the platform has {} hosts ({} rank(s) "
                                 "per host, mpi.ranks_per_host)",
                                 program.size(), hosts, per_host));
  ranks = program.size();
  return program;
}

// A generated application's flops, summed over its ranks, at the host's rate: checked before the
// expansion, whose own budget check names a rank and an action, not the field to change.
void require_compute_within_budget(const mpiemul::proto::Trace& trace, double flops_per_second) {
  double flops = 0;
  for (const auto& rank : trace.ranks())
    for (const auto& action : rank.actions())
      if (action.has_compute()) flops += action.compute().flops();
  const auto time = netmodels::WorstCaseTime::from_ns(flops / flops_per_second * 1e9);
  if (!time.is_within_budget())
    throw netmodels::InputError(
        "mpi.host.flops",
        fmt::format("{:.3g} flops (the program's, summed over its {} ranks) at {} flop/s take {}",
                    flops, trace.ranks_size(), flops_per_second, netmodels::over_budget(time)));
}

// A generated application: its trace becomes the program as a trace file's would, with the
// scenario's collective algorithms and flop rate.
Program generated_program(const proto::Scenario& s, RankId ranks, std::string& name) {
  const proto::Mpi& mpi = s.mpi();
  mpiemul::proto::Trace trace;
  if (mpi.has_gauss()) {
    const proto::GaussKernel& g = mpi.gauss();
    trace = gauss_trace({g.n(), g.fragment_bytes(), gauss_forward(g.forward())}, ranks);
    name = "gauss";
  } else {
    const proto::NpbKernel& k = mpi.npb();
    const NpbParams params{npb_class(k.app(), k.size_class()), k.iterations()};
    trace = k.app() == "cg" ? npb_cg_trace(params, ranks) : npb_lu_trace(params, ranks);
    name = "npb-" + k.app();
  }
  const std::string field = mpi.has_gauss() ? "mpi.gauss.n" : "mpi.npb.size_class";
  require_compute_within_budget(trace, mpi.host().flops());
  Program program;
  try {
    program = program_from_trace(trace, trace_options(s));
  } catch (const TraceError& e) {  // no file to name: the kernel's field instead
    throw netmodels::InputError(field, fmt::format("the generated program: {}", e.what()));
  }
  validate_program_time_budget(s, program, field);
  return program;
}

void kernel_program(const proto::Scenario& s, RankId ranks, MpiRunSpec& run) {
  const proto::Mpi& mpi = s.mpi();
  const CollectiveAlgorithms algorithms = collective_algorithms(mpi.collectives());
  Program program;
  switch (mpi.program_case()) {
    case proto::Mpi::kPingpong: {
      const proto::PingPong& p = mpi.pingpong();
      PingPongKernel k{{p.sizes().begin(), p.sizes().end()}, us_time(p.w_us()), p.repetitions()};
      program = pingpong_program(k, ranks);
      run.program_name = "pingpong";
      run.pingpong_sizes = k.sizes;
      run.pingpong_repetitions = k.repetitions;
      run.pingpong_has_compute = k.w.ps() > 0;
      break;
    }
    case proto::Mpi::kAlltoall: {
      const proto::AlltoallKernel& a = mpi.alltoall();
      const AlltoallKernel k{alltoall_algorithm(a.algorithm()), a.bytes(), a.iterations(),
                             us_time(a.compute_us())};
      program = alltoall_program(k, ranks, algorithms);
      run.program_name = "alltoall " + a.algorithm();
      break;
    }
    case proto::Mpi::kRing:
      program = ring_program(RingKernel{mpi.ring().bytes(), mpi.ring().iterations()}, ranks);
      run.program_name = "ring";
      break;
    case proto::Mpi::kCollective: {
      const proto::CollectiveKernel& c = mpi.collective();
      const CollectiveKernel k{collective_kernel_kind(c.kind()), c.bytes(), c.root(),
                               c.iterations(), us_time(c.compute_us())};
      program = collective_program(k, ranks, algorithms);
      run.program_name = "collective " + c.kind();
      break;
    }
    case proto::Mpi::kGauss:
    case proto::Mpi::kNpb:
      program = generated_program(s, ranks, run.program_name);
      break;
    default:
      break;
  }
  run.program = std::make_shared<const Program>(std::move(program));
}

MpiRunSpec build(const LoadedScenario& loaded, const std::string& trace_path,
                 double compute_scale) {
  const proto::Scenario& s = loaded.scenario;
  const proto::Mpi& mpi = s.mpi();
  auto ranks = static_cast<RankId>(mpi_rank_count(s));
  MpiRunSpec run;
  run.network = build_network_spec(loaded);
  run.network.stream_priority = static_cast<std::uint8_t>(s.mpi().priority());
  run.class_name = mpi_class_name(mpi);
  if (!trace_path.empty()) {
    run.program =
        std::make_shared<const Program>(trace_program(trace_path, s, ranks, compute_scale));
    run.program_name = "trace " + trace_path;
  } else if (mpi.has_trace()) {
    const std::string path = beside_scenario(loaded.path, mpi.trace().path());
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored))
      throw loaded.error(
          "mpi.trace.path",
          fmt::format("no trace file or folder '{}' (looked for {})", mpi.trace().path(), path));
    try {
      run.program = std::make_shared<const Program>(trace_program(path, s, ranks));
    } catch (const TraceError& e) {  // the trace's own line first, then where it was named
      throw loaded.error("mpi.trace.path", e.what());
    }
    run.program_name = "trace " + mpi.trace().path();
  } else if (mpi.program_case() == proto::Mpi::PROGRAM_NOT_SET) {
    throw loaded.error("mpi",
                       "no program: set pingpong, alltoall, ring, collective, gauss, npb or "
                       "trace, or give `--trace FILE`");
  } else {
    kernel_program(s, ranks, run);
  }
  run.config.costs = host_costs(mpi.host());
  run.config.protocol = protocol_config(mpi.protocol());
  run.config.shm = shared_memory(mpi.host());
  run.config.rank_hosts = rank_hosts(s, ranks, run.network.topology.host_count);
  return run;
}

}  // namespace

bool is_mpi_scenario(const LoadedScenario& loaded) {
  return loaded.scenario.has_mpi();
}

bool has_workloads_beside_job(const LoadedScenario& loaded) {
  return loaded.scenario.has_mpi() && has_workloads(loaded.scenario);
}

ScenarioError job_alone_refusal(const LoadedScenario& loaded, const std::string& what) {
  return loaded.error(loaded.scenario.workloads_size() > 0 ? "workloads" : "workload",
                      fmt::format("{} the MPI job alone, and these workloads share its network: "
                                  "remove them for this, or `netwarp run` the scenario "
                                  "(--baseline compares the job with and without them)",
                                  what));
}

MpiRunSpec build_mpi_run(const LoadedScenario& loaded, const std::string& trace_path,
                         double compute_scale) {
  try {
    return build(loaded, trace_path, compute_scale);
  } catch (const ScenarioError&) {
    throw;
  } catch (const TraceError&) {
    throw;
  } catch (const netmodels::InputError& e) {
    throw loaded.error(e.field(), e.message());
  }
}

}  // namespace netwarp::scenarios
