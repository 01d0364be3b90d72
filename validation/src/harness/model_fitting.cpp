// Fitting each model from benchmarks in the packet simulator (model_fitting.hpp).
#include "netwarp/validation/model_fitting.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include "netwarp/validation/loggps_fit.hpp"
#include "netwarp/validation/packet_bench.hpp"
#include "netwarp/validation/params_json.hpp"
#include "netwarp/validation/platform_record.hpp"
#include "netwarp/validation/plogp_fit.hpp"
#include "netwarp/validation/point_models_fit.hpp"

namespace netwarp::validation {
namespace {

std::vector<SizePoint> size_points(const std::vector<Sample>& samples) {
  std::vector<SizePoint> points;
  for (const auto& [k, ns] : samples) points.push_back({k, ns});
  return points;
}

// Sizes spanning the three regimes of LogGPS: up to s, (s, S], and beyond S up to 4 S.
std::vector<std::uint64_t> loggps_sizes(std::uint64_t s, std::uint64_t S) {
  std::set<std::uint64_t> sizes;
  for (std::uint64_t i = 0; i <= 4; ++i) sizes.insert(s * i / 4);
  if (S > s)
    for (std::uint64_t i = 1; i <= 4; ++i) sizes.insert(s + 1 + (S - s - 1) * i / 4);
  const std::uint64_t top = std::max<std::uint64_t>(4 * S, S + 4096);
  for (std::uint64_t i = 0; i <= 4; ++i) sizes.insert(S + 1 + (top - S - 1) * i / 4);
  return {sizes.begin(), sizes.end()};
}

LogGpsSamples measure_loggps(const scenarios::MpiRunSpec& spec, double w_ns) {
  LogGpsSamples samples;
  samples.s = spec.config.protocol.short_bytes;
  samples.S = spec.config.protocol.eager_bytes;
  const std::vector<std::uint64_t> sizes = loggps_sizes(samples.s, samples.S);
  const PingPongCurve w0 = measure_pingpong(spec, sizes, 0);
  samples.rtt_w0 = size_points(w0.rtt);
  for (const auto& [k, ns] : w0.send_call)
    if (k <= samples.S) samples.send.push_back({k, ns});
  if (w_ns <= 0) {
    double largest = 0;
    for (const auto& [k, ns] : w0.rtt) largest = std::max(largest, ns);
    w_ns = 4 * largest;
  }
  samples.W_ns = w_ns;
  samples.rtt_wW = size_points(measure_pingpong(spec, sizes, w_ns).rtt);
  return samples;
}

// The first host the platform runs two ranks on.
std::optional<netmodels::NodeId> shared_host(const scenarios::MpiRunSpec& spec) {
  const auto& hosts = spec.config.rank_hosts;
  for (std::size_t r = 1; r < hosts.size(); ++r)
    if (std::find(hosts.begin(), hosts.begin() + static_cast<std::ptrdiff_t>(r), hosts[r]) !=
        hosts.begin() + static_cast<std::ptrdiff_t>(r))
      return hosts[r];
  return std::nullopt;
}

// What sharing a host's NIC adds to a round trip (LogGpsSamples::nic_shared): ranks 0 and 1 on
// `host`, 2 and 3 on another host the program runs on (two ranks a host whatever the
// platform's ranks per host); pairs (0, 2) and (1, 3) at once against (0, 2) alone. Sizes of 2
// to 8 S, whose data outlasts the handshakes, so that the two pairs' data share the NIC from
// start to end. None when every rank runs on `host`.
std::vector<NicSharingPoint> measure_nic_sharing(const scenarios::MpiRunSpec& spec,
                                                 netmodels::NodeId host) {
  const auto& hosts = spec.config.rank_hosts;
  const auto other =
      std::find_if(hosts.begin(), hosts.end(), [&](netmodels::NodeId h) { return h != host; });
  if (other == hosts.end()) return {};
  scenarios::MpiRunSpec four = spec;
  four.config.rank_hosts = {host, host, *other, *other};
  const std::uint64_t unit = std::max<std::uint64_t>(spec.config.protocol.eager_bytes, 4096);
  std::vector<NicSharingPoint> points;
  for (const std::uint64_t k : {2 * unit, 4 * unit, 6 * unit, 8 * unit})
    points.push_back({k, measure_concurrent_pingpong(four, 4, {{0, 2}}, k),
                      measure_concurrent_pingpong(four, 4, {{0, 2}, {1, 3}}, k)});
  return points;
}

// The ping-pong curves and what sharing a NIC adds, on the host of rank 0 (the only points that
// tell Gl from Orl when an unexpected message's copy weighs on Ors).
LogGpsSamples measure_loggps_shared(const scenarios::MpiRunSpec& spec, double w_ns) {
  LogGpsSamples samples = measure_loggps(spec, w_ns);
  if (!spec.config.rank_hosts.empty())
    samples.nic_shared = measure_nic_sharing(spec, spec.config.rank_hosts.front());
  return samples;
}

std::string platform_source(const scenarios::LoadedScenario& loaded, std::string_view what) {
  return fmt::format("fitted by netwarp from {} in the packet simulator on {}", what, loaded.path);
}

// Kielmann's sizes: powers of four from 0 up past S, plus the scenario's own message size.
std::vector<std::uint64_t> plogp_sizes(const scenarios::MpiRunSpec& spec, std::uint64_t extra) {
  std::set<std::uint64_t> sizes{0, extra};
  const std::uint64_t top = std::max<std::uint64_t>(4 * spec.config.protocol.eager_bytes, extra);
  for (std::uint64_t m = 64; m <= top; m *= 4) sizes.insert(m);
  sizes.insert(spec.config.protocol.eager_bytes);
  sizes.insert(spec.config.protocol.eager_bytes + 1);
  return {sizes.begin(), sizes.end()};
}

ModelFit<PlogpParams> fit_plogp_on(const scenarios::MpiRunSpec& spec, std::uint64_t extra) {
  const KielmannData data = measure_kielmann(spec, plogp_sizes(spec, extra));
  PlogpSamples samples;
  samples.burst_count = data.burst_count;
  samples.burst_ns = data.burst_ns;
  samples.rtt0_ns = data.rtt0_ns;
  for (std::size_t i = 0; i < data.rtt_m0.size(); ++i)
    samples.sizes.push_back({data.rtt_m0[i].first, data.rtt_m0[i].second, data.send_call[i].second,
                             data.recv_call[i].second});
  return fit_plogp(samples);
}

// PlogP-BR on the scenario's all-to-all kernel: g(m, C_k) for the phases C_k = {r -> r XOR k}
// of algorithms A and B (seed 002), q, T_RTO and flow control from the platform.
ParamsDocument fit_plogp_br(const scenarios::LoadedScenario& loaded,
                            const scenarios::MpiRunSpec& spec) {
  const auto& mpi = loaded.scenario.mpi();
  if (!mpi.has_alltoall())
    throw std::invalid_argument(
        "plogp-br is fitted for the all-to-all kernel (mpi.alltoall) of seed 002; this scenario "
        "runs another program");
  const std::uint64_t m = mpi.alltoall().bytes();
  const mpiemul::RankId ranks = spec.program->size();
  auto base = fit_plogp_on(spec, m);
  PlogpBrParams br;
  br.base = base.params;
  const double t_ce = measure_concurrent_pingpong(spec, 2, {{0, 1}}, m);
  for (mpiemul::RankId k = 1; k < ranks; ++k) {
    std::vector<std::pair<mpiemul::RankId, mpiemul::RankId>> pattern;
    for (mpiemul::RankId r = 0; r < ranks; ++r)
      if ((r ^ k) < ranks && r < (r ^ k)) pattern.emplace_back(r, r ^ k);
    if (pattern.empty()) continue;
    const double t_c = measure_concurrent_pingpong(spec, ranks, pattern, m);
    const std::string name = fmt::format("xor{}", k);
    br.g_by_pattern[name] = fit_pattern_gap(br.base, {{m, t_c, t_ce}}, name, base.report.notes);
  }
  const auto& net = spec.network;
  br.flow_control = net.transport.kind == netmodels::TransportKind::lossless ||
                    net.switches.flow_control == netmodels::FlowControl::credit ||
                    net.switches.buffer_bytes == 0;
  br.q_bytes = static_cast<double>(net.switches.buffer_bytes);
  br.rto_ns = static_cast<double>(net.transport.tcp.min_rto.ps()) / 1000.0;
  base.report.notes.push_back(fmt::format(
      "g(m, C_k) measured at m = {} for C_k = r -> r XOR k, k = 1..{}; q = switch.buffer_bytes; "
      "T_RTO = the TCP minimum RTO; flow control when the transport is lossless, the switch uses "
      "credits or its buffers are unlimited",
      m, ranks - 1));
  return {br, platform_source(loaded, "Kielmann's procedure and concurrent ping-pongs"),
          base.report};
}

// MPIETE's T_comm table at the LogGPS sizes (every protocol regime) and the scenario's own
// all-to-all size, if any; measured exactly, so there are no residuals.
ParamsDocument fit_mpiete(const scenarios::LoadedScenario& loaded,
                          const scenarios::MpiRunSpec& spec) {
  std::vector<std::uint64_t> sizes =
      loggps_sizes(spec.config.protocol.short_bytes, spec.config.protocol.eager_bytes);
  const auto& mpi = loaded.scenario.mpi();
  if (mpi.has_alltoall() &&
      std::find(sizes.begin(), sizes.end(), mpi.alltoall().bytes()) == sizes.end())
    sizes.push_back(mpi.alltoall().bytes());
  std::vector<TablePoint> points;
  for (const auto& [k, ns] : measure_receive_times(spec, sizes)) points.push_back({k, ns});
  FitReport report;
  report.notes.push_back(fmt::format(
      "T_comm measured from rank 0 to rank 1 at {} sizes, both calls at the same instant; "
      "linear in between",
      points.size()));
  return {MpieteParams{Table(std::move(points))},
          platform_source(loaded, "MPI_Recv times (MPIETE's communication data)"), report};
}

nlohmann::ordered_json fitted_params(ModelKind kind, const scenarios::LoadedScenario& loaded,
                                     const scenarios::MpiRunSpec& spec, const FitOptions& options) {
  switch (kind) {
    case ModelKind::loggps: {
      const LogGpsFit fit = fit_loggps(measure_loggps_shared(spec, options.w_ns));
      return params_to_json(
          {fit.params, platform_source(loaded, "ping-pong RTT curves"), fit.report});
    }
    case ModelKind::hockney: {
      const auto fit = fit_hockney(measure_loggps(spec, options.w_ns));
      return params_to_json(
          {fit.params, platform_source(loaded, "ping-pong RTT curves"), fit.report});
    }
    case ModelKind::loggp: {
      // g from the packet rate of a burst of empty sends, as Kielmann measures g(0).
      const KielmannData burst = measure_kielmann(spec, {});
      const auto fit = fit_loggp(measure_loggps(spec, options.w_ns),
                                 BurstSample{burst.burst_count, burst.burst_ns});
      return params_to_json(
          {fit.params, platform_source(loaded, "ping-pong RTT curves"), fit.report});
    }
    case ModelKind::plogp: {
      const auto fit = fit_plogp_on(spec, 0);
      return params_to_json(
          {fit.params, platform_source(loaded, "Kielmann's procedure"), fit.report});
    }
    case ModelKind::plogp_br:
      return params_to_json(fit_plogp_br(loaded, spec));
    case ModelKind::mpiete:
      return params_to_json(fit_mpiete(loaded, spec));
    case ModelKind::logp:
    case ModelKind::flow:
    case ModelKind::flow_f:
    case ModelKind::simgrid:
    case ModelKind::ns3:
      break;
  }
  throw std::invalid_argument(
      fmt::format("{} has no fitted parameters (fit: loggps, loggp, hockney, plogp, plogp-br)",
                  model_name(kind)));
}

struct Line {
  double intercept = 0;
  double slope = 0;
};

// Least squares of ns over bytes; one distinct size gives a flat line.
Line fit_line(const std::vector<Sample>& samples) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [k, ns] : samples) {
    const auto x = static_cast<double>(k);
    n += 1;
    sx += x;
    sy += ns;
    sxx += x * x;
    sxy += x * ns;
  }
  const double spread = n * sxx - sx * sx;
  if (n == 0) return {};
  if (spread <= 0) return {sy / n, 0};
  const double slope = (n * sxy - sx * sy) / spread;
  return {(sy - slope * sx) / n, slope};
}

std::vector<Sample> in_range(const std::vector<Sample>& samples, std::uint64_t lo,
                             std::uint64_t hi) {
  std::vector<Sample> out;
  for (const Sample& s : samples)
    if (s.first >= lo && s.first <= hi) out.push_back(s);
  return out;
}

IntraNodeParams fit_intra_node(const scenarios::MpiRunSpec& spec, netmodels::NodeId host) {
  scenarios::MpiRunSpec pair = spec;
  pair.config.rank_hosts = {host, host};
  const std::uint64_t eager = spec.config.shm.eager_bytes;
  std::set<std::uint64_t> sizes = {0, eager / 2, eager};
  for (std::uint64_t f : {2, 4, 8, 16}) sizes.insert(std::max<std::uint64_t>(eager, 256) * f);
  const PingPongCurve curve = measure_pingpong(pair, {sizes.begin(), sizes.end()}, 0);
  const Line send = fit_line(in_range(curve.send_call, 0, eager));
  const Line eager_rtt = fit_line(in_range(curve.rtt, 0, eager));
  const Line copy_rtt =
      fit_line(in_range(curve.rtt, eager + 1, std::numeric_limits<std::uint64_t>::max()));
  IntraNodeParams p;
  p.o = std::max(send.intercept, 0.0);
  p.copy = std::max(send.slope, 0.0);
  p.latency = std::max((eager_rtt.intercept - 4 * p.o) / 2, 0.0);
  p.eager_bytes = eager;
  p.single_copy_setup = std::max((copy_rtt.intercept - eager_rtt.intercept) / 2, 0.0);
  p.single_copy = std::max(copy_rtt.slope / 2, 0.0);
  return p;
}

}  // namespace

nlohmann::ordered_json fit_model(ModelKind kind, const scenarios::LoadedScenario& loaded,
                                 const scenarios::MpiRunSpec& spec, const FitOptions& options) {
  nlohmann::ordered_json json = fitted_params(kind, loaded, spec, options);
  json["platform"] = platform_record(loaded);
  if (const auto host = shared_host(spec))
    json["intra_node"] = intra_node_to_json(fit_intra_node(spec, *host));
  return json;
}

}  // namespace netwarp::validation
