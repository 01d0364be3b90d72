// estimate_memory: per-item costs times counts read from the scenario, saturating. The costs
// are rounded up from the engine's and the models' structures (a host LP with its NIC and
// transport state, a queued packet event, a message record, an MPI operation with its call
// record), so the estimate errs on the side of refusing a little early.
#include "netwarp/scenarios/memory_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "builder_parts.hpp"
#include "distributions.hpp"
#include "netwarp/mpiemul/generators.hpp"
#include "netwarp/netmodels/lossless_sender.hpp"
#include "netwarp/netmodels/records.hpp"
#include "netwarp/netmodels/spilling_results.hpp"
#include "validate.hpp"
#include "validate_time.hpp"

namespace netwarp::scenarios {

namespace {

constexpr std::uint64_t kHostBytes = 8192;
constexpr std::uint64_t kRouteEntryBytes = 2;  // per switch per host, explicit graphs only
constexpr std::uint64_t kMessageBytes = 128;
constexpr std::uint64_t kQueuedPacketBytes = 256;  // an event with its payload, in a queue
constexpr std::uint64_t kMpiOperationBytes = 128;  // an Op and its share of call records
// Time-series records per packet per hop at worst: its arrival and its departure each close at
// most the interval they fall in and one run of intervals alike (port_intervals.hpp).
constexpr std::uint64_t kSamplesPerPacketHop = 4;
constexpr std::uint64_t kSampleBytes = sizeof(netmodels::PortSample) + 16;  // and its table entry
// A trace action as read (the protobuf message) plus the operations it expands into.
constexpr std::uint64_t kTraceActionBytes = 256;
// The smallest encoding of an action in a binary trace (field tags, lengths, a value; an OTF2
// event record is larger).
constexpr std::uint64_t kMinBinaryActionBytes = 4;

std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  __extension__ using U128 = unsigned __int128;
  const U128 product = U128{a} * b;
  return product > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(product);
}

class Tally {
 public:
  void add(std::uint64_t count, std::uint64_t each, const char* what) {
    const std::uint64_t bytes = mul(count, each);
    total_.bytes = bytes > UINT64_MAX - total_.bytes ? UINT64_MAX : total_.bytes + bytes;
    if (bytes < largest_) return;
    largest_ = bytes;
    total_.largest_part = fmt::format("{} {} x {} B", count, what, each);
  }
  MemoryEstimate result() const { return total_; }

 private:
  MemoryEstimate total_;
  std::uint64_t largest_ = 0;
};

std::uint64_t switch_count(const proto::Topology& t) {
  switch (t.kind_case()) {
    case proto::Topology::kStar:
      return 1;
    case proto::Topology::kTree:
      return std::uint64_t{t.tree().leaves()} + 1;
    case proto::Topology::kLeafSpine:
      return std::uint64_t{t.leaf_spine().leaves()} + t.leaf_spine().spines();
    case proto::Topology::kFatTree: {
      const std::uint64_t k =
          t.fat_tree().k() ? t.fat_tree().k() : 2 * std::uint64_t{t.fat_tree().p()};
      return mul(k, k) + mul(k, k) / 4;  // k^2 edge and aggregation, k^2 / 4 core
    }
    case proto::Topology::kTorus: {
      std::uint64_t routers = 1;
      for (std::uint32_t dim : t.torus().dims()) routers = mul(routers, dim);
      return routers;
    }
    case proto::Topology::kDragonfly:
      return mul(t.dragonfly().groups(), t.dragonfly().routers_per_group());
    default:
      return 0;
  }
}

// A datacenter workload's flows: its cap, or the expected arrivals of every rank over the
// duration (at the link rate of links.rate_bps, the mean size of its distribution; a file that
// cannot be read counts nothing here, the builder reports it).
std::pair<std::uint64_t, std::uint64_t> datacenter_messages(const proto::Scenario& s,
                                                            const proto::Datacenter& d,
                                                            std::uint64_t ranks,
                                                            const std::string& scenario_path) {
  double mean = 0;
  try {
    mean = load_distribution(d.distribution(), "", scenario_path).mean_bytes();
  } catch (const netmodels::InputError&) {
    return {d.flows(), 0};
  }
  const double per_rank = d.load() * static_cast<double>(s.links().rate_bps()) / 8 *
                          static_cast<double>(d.duration_ns()) * 1e-9 / std::max(mean, 1.0);
  double flows = per_rank * static_cast<double>(ranks);
  if (d.flows() != 0 && (d.duration_ns() == 0 || d.flows() < flows))
    flows = static_cast<double>(d.flows());
  const double capped = std::min(flows, 1e18);
  return {static_cast<std::uint64_t>(capped),
          static_cast<std::uint64_t>(std::min(capped * mean, 1e18))};
}

// Messages of one workload, and the bytes all of them carry. A datacenter workload's count is
// its flow cap, or its expected arrivals over its duration at flows of the mean size (the
// distribution is read here for its mean; the builder reports a bad file).
std::pair<std::uint64_t, std::uint64_t> one_workload_messages(const proto::Scenario& s,
                                                              const proto::Workload& w,
                                                              const std::string& scenario_path) {
  const std::uint64_t ranks = workload_rank_count(s, w);
  switch (w.kind_case()) {
    case proto::Workload::kDatacenter:
      return datacenter_messages(s, w.datacenter(), ranks, scenario_path);
    case proto::Workload::kFlows: {
      std::uint64_t bytes = 0;
      for (const proto::Flow& f : w.flows().flow())
        bytes = std::min(UINT64_MAX - f.bytes(), bytes) + f.bytes();
      return {static_cast<std::uint64_t>(w.flows().flow_size()), bytes};
    }
    case proto::Workload::kIncast: {
      const std::uint64_t senders = w.incast().senders() ? w.incast().senders() : ranks - 1;
      return {senders, mul(senders, w.incast().bytes())};
    }
    case proto::Workload::kAllToAll: {
      const std::uint64_t count = mul(ranks, ranks - 1);
      return {count, mul(count, w.all_to_all().bytes())};
    }
    case proto::Workload::kPermutation:
      return {ranks, mul(ranks, w.permutation().bytes())};
    case proto::Workload::kUniformRandom: {
      const std::uint64_t count = mul(ranks, w.uniform_random().messages_per_host());
      return {count, mul(count, w.uniform_random().bytes())};
    }
    default:
      return {0, 0};
  }
}

// Messages of all workloads, and the bytes they carry.
std::pair<std::uint64_t, std::uint64_t> workload_messages(const proto::Scenario& s,
                                                          const std::string& scenario_path) {
  std::uint64_t messages = 0, bytes = 0;
  for (const ScenarioWorkload& entry : scenario_workloads(s)) {
    const auto [m, b] = one_workload_messages(s, *entry.workload, scenario_path);
    messages = m > UINT64_MAX - messages ? UINT64_MAX : messages + m;
    bytes = b > UINT64_MAX - bytes ? UINT64_MAX : bytes + b;
  }
  return {messages, bytes};
}

// Actions of a generated application's trace (built whole, then made the program), bounded by
// the generators without building it; 0 for the other programs.
std::uint64_t generated_actions(const proto::Mpi& mpi, std::uint64_t ranks) {
  const auto rank_count = static_cast<mpiemul::RankId>(std::min<std::uint64_t>(ranks, UINT32_MAX));
  if (mpi.has_gauss()) {
    const proto::GaussKernel& g = mpi.gauss();
    const mpiemul::GaussForward forward =
        g.forward() == "isend" ? mpiemul::GaussForward::isend : mpiemul::GaussForward::blocking;
    const mpiemul::GaussParams params{g.n(), g.fragment_bytes(), forward};
    return mpiemul::gauss_action_bound(params, rank_count);
  }
  if (!mpi.has_npb()) return 0;
  const proto::NpbKernel& k = mpi.npb();
  try {
    const mpiemul::NpbParams params{mpiemul::npb_class(k.app(), k.size_class()), k.iterations()};
    return k.app() == "cg" ? mpiemul::npb_cg_action_bound(params, rank_count)
                           : mpiemul::npb_lu_action_bound(params, rank_count);
  } catch (const mpiemul::GeneratorError&) {
    return 0;  // an unknown class: the builder reports it
  }
}

// Bytes a built-in MPI kernel sends over all ranks (0 for traces and generated programs).
std::uint64_t kernel_bytes(const proto::Mpi& mpi, std::uint64_t ranks) {
  const auto rounds = [](std::uint32_t n) { return std::max<std::uint64_t>(n, 1); };
  switch (mpi.program_case()) {
    case proto::Mpi::kPingpong: {
      std::uint64_t bytes = 0;
      for (const std::uint64_t size : mpi.pingpong().sizes())
        bytes = std::min(UINT64_MAX - size, bytes) + size;
      return mul(mul(bytes, 2), rounds(mpi.pingpong().repetitions()));
    }
    case proto::Mpi::kAlltoall:
      return mul(mul(rounds(mpi.alltoall().iterations()), mul(ranks, ranks)),
                 mpi.alltoall().bytes());
    case proto::Mpi::kRing:
      return mul(mul(rounds(mpi.ring().iterations()), ranks), mpi.ring().bytes());
    case proto::Mpi::kCollective:
      return mul(mul(rounds(mpi.collective().iterations()), mul(ranks, 2)),
                 mpi.collective().bytes());
    default:
      return 0;
  }
}

// The port time series an output holds (outputs.sample_interval_ns): at most a few records per
// packet per hop, in memory for an MPI run, up to the record buffer per rank otherwise (the
// rest spills to disk).
void add_output_records(Tally& tally, const proto::Scenario& s, std::uint64_t messages,
                        std::uint64_t bytes) {
  if (s.outputs().has_sample_interval_ns() && s.outputs().sample_interval_ns() == 0) return;
  const PathBound path(s);
  const std::uint64_t packets =
      std::min(UINT64_MAX - messages, bytes / path.payload_bytes()) + messages;
  std::uint64_t samples = mul(mul(packets, path.hops()), kSamplesPerPacketHop);
  if (!s.has_mpi()) {
    const std::uint64_t buffer = s.engine().record_buffer_bytes() != 0
                                     ? s.engine().record_buffer_bytes()
                                     : netmodels::SpillingResults::kDefaultLimitBytes;
    samples = std::min(samples, buffer / kSampleBytes + 1);
  }
  tally.add(samples, kSampleBytes, "port time-series samples (outputs.sample_interval_ns)");
}

// Operations of a built-in MPI kernel over all ranks (trace actions are counted in add_files).
std::uint64_t kernel_operations(const proto::Mpi& mpi, std::uint64_t ranks) {
  const auto rounds = [](std::uint32_t n) { return std::max<std::uint64_t>(n, 1); };
  switch (mpi.program_case()) {
    case proto::Mpi::kPingpong:
      return mul(mul(rounds(mpi.pingpong().repetitions()), mpi.pingpong().sizes_size()), 8);
    case proto::Mpi::kAlltoall:
      return mul(mul(rounds(mpi.alltoall().iterations()), ranks), 2 * ranks + 2);
    case proto::Mpi::kRing:
      return mul(mul(rounds(mpi.ring().iterations()), ranks), 4);
    case proto::Mpi::kCollective:
      return mul(mul(rounds(mpi.collective().iterations()), ranks), 2 * ranks + 2);
    default:
      return 0;
  }
}

namespace fs = std::filesystem;

// Occurrences of `needle` in the file (a line count for "\n"), read in blocks.
std::uint64_t count_in_file(const fs::path& path, std::string_view needle) {
  std::ifstream in(path, std::ios::binary);
  std::uint64_t count = 0;
  std::string carry;
  std::string block(1 << 20, '\0');
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    std::string text = carry + block.substr(0, static_cast<std::size_t>(in.gcount()));
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
      ++count;
    const std::size_t keep = std::min(text.size(), needle.size() - 1);
    carry = text.substr(text.size() - keep);
  }
  return count;
}

std::uint64_t file_size_or_zero(const fs::path& path) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  return error ? 0 : static_cast<std::uint64_t>(size);
}

// The bytes of the regular files under a folder.
std::uint64_t folder_bytes(const fs::path& folder) {
  std::error_code error;
  std::uint64_t bytes = 0;
  for (const auto& entry : fs::recursive_directory_iterator(folder, error))
    if (entry.is_regular_file(error)) bytes += file_size_or_zero(entry.path());
  return bytes;
}

// Actions of a trace file or folder, by the formats read_trace knows.
std::uint64_t trace_actions(const fs::path& path) {
  std::error_code error;
  if (path.extension() == ".otf2")  // the anchor file; the events lie in the folder of its name
    return folder_bytes(path.parent_path() / path.stem()) / kMinBinaryActionBytes;
  if (fs::is_directory(path, error)) {
    std::uint64_t lines = 0;
    for (const auto& entry : fs::directory_iterator(path, error))
      if (entry.is_regular_file(error) && entry.path().filename().string().rfind('.', 0) != 0)
        lines += count_in_file(entry.path(), "\n") + 1;
    return lines;
  }
  const std::string extension = path.extension().string();
  if (extension == ".pb") return file_size_or_zero(path) / kMinBinaryActionBytes;
  if (extension == ".pbtxt" || extension == ".txtpb") return count_in_file(path, "actions");
  return count_in_file(path, "\n") + 1;
}

void add_files(Tally& tally, const LoadedScenario& loaded, const std::string& trace_path) {
  const proto::Scenario& s = loaded.scenario;
  for (const ScenarioWorkload& entry : scenario_workloads(s)) {
    const proto::Workload& w = *entry.workload;
    if (!w.has_flows() || w.flows().csv_file().empty()) continue;
    const std::string csv = beside_scenario(loaded.path, w.flows().csv_file());
    tally.add(count_in_file(csv, "\n"), kMessageBytes, "CSV flows");
  }
  std::string trace = trace_path;
  if (trace.empty() && s.has_mpi() && s.mpi().has_trace())
    trace = beside_scenario(loaded.path, s.mpi().trace().path());
  if (!trace.empty()) tally.add(trace_actions(trace), kTraceActionBytes, "trace actions");
}

// A lossless sender cuts packets only while its NIC holds less than the window
// (netmodels::LosslessSender): full packets up to the window per host, or the whole workload
// if less, and at worst one short last packet per message.
std::uint64_t lossless_queued_packets(const proto::Scenario& s, std::uint64_t hosts,
                                      std::uint64_t messages, std::uint64_t bytes) {
  const std::uint64_t payload = s.links().mtu_bytes() - s.links().header_bytes();
  const std::uint64_t window = mul(hosts, netmodels::kLosslessWindowBytes);
  const std::uint64_t full = std::min(bytes, window) / payload;
  return full > UINT64_MAX - messages ? UINT64_MAX : full + messages;
}

Tally scenario_tally(const proto::Scenario& s, const std::string& scenario_path) {
  Tally tally;
  const std::uint64_t hosts = topology_host_count(s.topology());
  tally.add(hosts, kHostBytes, "hosts");
  if (s.topology().has_graph())  // the built-in families compute their routes
    tally.add(mul(switch_count(s.topology()), hosts), kRouteEntryBytes, "route entries");
  if (s.has_mpi()) {
    tally.add(kernel_operations(s.mpi(), mpi_rank_count(s)), kMpiOperationBytes, "MPI operations");
    tally.add(generated_actions(s.mpi(), mpi_rank_count(s)), kTraceActionBytes,
              "generated trace actions");
    const std::uint64_t bytes = kernel_bytes(s.mpi(), mpi_rank_count(s));
    add_output_records(tally, s, kernel_operations(s.mpi(), mpi_rank_count(s)), bytes);
    if (!has_workloads(s)) return tally;  // else the workloads beside the job count too
  }
  const auto [messages, bytes] = workload_messages(s, scenario_path);
  tally.add(messages, kMessageBytes, "messages");
  if (s.transport().kind() == proto::Transport::LOSSLESS)
    tally.add(lossless_queued_packets(s, hosts, messages, bytes), kQueuedPacketBytes,
              "queued packets");
  add_output_records(tally, s, messages, bytes);
  return tally;
}

}  // namespace

MemoryEstimate estimate_memory(const LoadedScenario& loaded, const std::string& trace_path) {
  Tally tally = scenario_tally(loaded.scenario, loaded.path);
  add_files(tally, loaded, trace_path);
  return tally.result();
}

MemoryEstimate estimate_memory(const proto::Scenario& s) {
  return scenario_tally(s, "").result();
}

}  // namespace netwarp::scenarios
