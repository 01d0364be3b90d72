// The time-budget check of a scenario: every product of a size, a rate and a time it asks for
// (bytes at the slowest link rate, round trips over the longest latency, per-byte host costs,
// repetitions and iterations) is estimated at its worst with netmodels::WorstCaseTime and
// must stay within the budget a run can simulate. The error names the field that set the
// largest term: a workload's bytes, a link's latency or rate, an MPI host cost.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "netwarp/netmodels/time_budget.hpp"
#include "validate.hpp"
#include "validate_time.hpp"

namespace netwarp::scenarios {

using netmodels::WorstCaseTime;

namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  __extension__ using U128 = unsigned __int128;
  const U128 product = U128{a} * b;
  return product > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(product);
}

// Link hops between two hosts at most (host links included), per topology.
std::uint64_t hop_bound(const proto::Topology& topology) {
  switch (topology.kind_case()) {
    case proto::Topology::kStar:
      return 2;
    case proto::Topology::kTree:
    case proto::Topology::kLeafSpine:
      return 4;
    case proto::Topology::kFatTree:
      return 6;
    case proto::Topology::kTorus: {
      std::uint64_t hops = 2;
      for (std::uint32_t dim : topology.torus().dims()) hops += dim;
      return hops;
    }
    default:
      return 8;  // dragonfly: local, global, local hops and the host links, with room
  }
}

struct LinkSetting {
  std::uint64_t value;
  std::string field;
};

enum class Quantity { rate, latency };

// The rate or latency of links at `level`: its links.levels entry, else the links default.
LinkSetting level_setting(const proto::Links& links, std::uint32_t level, Quantity q) {
  const char* name = q == Quantity::rate ? "rate_bps" : "latency_ns";
  for (int i = 0; i < links.levels_size(); ++i) {
    const proto::LinkLevel& l = links.levels(i);
    if (l.level() == level)
      return {static_cast<std::uint64_t>(q == Quantity::rate ? l.rate_bps() : l.latency_ns()),
              fmt::format("links.levels[{}].{}", i, name)};
  }
  return {static_cast<std::uint64_t>(q == Quantity::rate ? links.rate_bps() : links.latency_ns()),
          fmt::format("links.{}", name)};
}

// The effective value of every link of the platform, each level's override in force (a default
// that every level overrides reaches no link), a graph link's own value before its level's.
std::vector<LinkSetting> effective_settings(const proto::Scenario& s, Quantity q) {
  std::vector<LinkSetting> all;
  if (!s.topology().has_graph()) {
    for (std::uint32_t level = 0; level < link_level_count(s.topology()); ++level)
      all.push_back(level_setting(s.links(), level, q));
    return all;
  }
  const proto::Graph& graph = s.topology().graph();
  std::map<std::string, bool> is_host;
  for (const proto::GraphNode& node : graph.nodes())
    is_host[node.name()] = node.kind() == proto::GraphNode::HOST;
  for (int i = 0; i < graph.links_size(); ++i) {
    const proto::GraphLink& link = graph.links(i);
    const bool own = q == Quantity::rate ? link.has_rate_bps() : link.has_latency_ns();
    if (own) {
      all.push_back(
          {static_cast<std::uint64_t>(q == Quantity::rate ? link.rate_bps() : link.latency_ns()),
           fmt::format("topology.graph.links[{}].{}", i,
                       q == Quantity::rate ? "rate_bps" : "latency_ns")});
      continue;
    }
    all.push_back(level_setting(s.links(), is_host[link.a()] || is_host[link.b()] ? 0 : 1, q));
  }
  if (all.empty()) all.push_back(level_setting(s.links(), 0, q));
  return all;
}

}  // namespace

PathBound::PathBound(const proto::Scenario& s)
    : slowest_{UINT64_MAX, "links.rate_bps"},
      longest_{0, ""},
      hops_(hop_bound(s.topology())),
      payload_bytes_(std::max<std::uint64_t>(1, s.links().mtu_bytes() - s.links().header_bytes())),
      packet_overhead_bytes_(std::uint64_t{s.links().header_bytes()} +
                             s.links().frame_overhead_bytes()),
      is_tcp_(s.transport().kind() == proto::Transport::TCP) {
  for (LinkSetting& rate : effective_settings(s, Quantity::rate))
    if (rate.value < slowest_.value) slowest_ = {rate.value, std::move(rate.field)};
  for (LinkSetting& latency : effective_settings(s, Quantity::latency))
    if (latency.value > longest_.value || longest_.field.empty())
      longest_ = {latency.value, std::move(latency.field)};
  if (s.nic().rate_bps() > 0 && static_cast<std::uint64_t>(s.nic().rate_bps()) < slowest_.value)
    slowest_ = {static_cast<std::uint64_t>(s.nic().rate_bps()), "nic.rate_bps"};
}

WorstCaseTime PathBound::transfer(std::uint64_t payload_bytes) const {
  const std::uint64_t packets = payload_bytes / payload_bytes_ + 1;
  const std::uint64_t wire =
      saturating_add(payload_bytes, saturating_mul(packets, packet_overhead_bytes_));
  return WorstCaseTime::transfer(wire, slowest_.value);
}

WorstCaseTime PathBound::round_trip() const {
  const WorstCaseTime hop =
      WorstCaseTime::from_ns(longest_.value) +
      WorstCaseTime::transfer(payload_bytes_ + packet_overhead_bytes_, slowest_.value);
  return hop.times(2 * hops_);
}

// TCP: the handshake, then slow start doubling the window up to the whole message (RFC 5681
// section 3.1), then the last ACK. Lossless: a request and its answer.
std::uint64_t PathBound::round_trips(std::uint64_t payload_bytes) const {
  if (!is_tcp_) return 2;
  std::uint64_t rounds = 3;
  for (std::uint64_t segments = payload_bytes / payload_bytes_ + 1; segments > 0; segments /= 2)
    ++rounds;
  return rounds;
}

WorstCaseTime PathBound::message(std::uint64_t payload_bytes) const {
  return transfer(payload_bytes) + round_trip().times(round_trips(payload_bytes));
}

std::string PathBound::slowest_field() const {
  return fmt::format("{} = {} bit/s", slowest_.field, slowest_.value);
}

void add_waiting_flows(Demand& demand, std::uint64_t count, std::uint64_t gaps_ns,
                       std::uint64_t all_bytes, const std::string& gap_field) {
  if (count == 0) return;
  demand.sequential_messages = saturating_add(demand.sequential_messages, count);
  demand.latest_start_ns = saturating_add(demand.latest_start_ns, gaps_ns);
  demand.port_bytes = std::max(demand.port_bytes, all_bytes);
  if (gaps_ns > 0) demand.gap_field = gap_field;
}

void PathBound::require_within_budget(const Demand& demand) const {
  const WorstCaseTime carry = transfer(demand.port_bytes);
  const WorstCaseTime trips = round_trip()
                                  .times(round_trips(demand.largest_message_bytes))
                                  .times(demand.sequential_messages);
  const WorstCaseTime start = WorstCaseTime::from_ns(demand.latest_start_ns);
  const WorstCaseTime total = start + carry + trips;
  if (total.is_within_budget()) return;
  if (!demand.gap_field.empty() && start > carry && start > trips)
    fail(demand.gap_field,
         fmt::format("the flows waiting for others (after) may start {} ns in (the latest start "
                     "and every gap, one after another) and take {}",
                     demand.latest_start_ns, netmodels::over_budget(total)));
  if (trips > carry)
    fail(longest_.field,
         fmt::format("{} ns per hop over up to {} hops, {} round trips per message, take {}",
                     longest_.value, hops_, round_trips(demand.largest_message_bytes),
                     netmodels::over_budget(trips)));
  fail(demand.field,
       fmt::format("{} B through one link of {} bit/s ({}, the slowest) take {}", demand.port_bytes,
                   slowest_.value, slowest_.field, netmodels::over_budget(total)));
}

namespace {

// Flows: the bytes each rank sends and receives; the field of the largest flow.
Demand flows_demand(const proto::Flows& flows, const std::string& at) {
  Demand demand;
  std::map<std::uint32_t, std::uint64_t> sent, received;
  std::uint64_t waiting = 0, gaps_ns = 0, all_bytes = 0, largest_gap = 0;
  std::string gap_field;
  for (int i = 0; i < flows.flow_size(); ++i) {
    const proto::Flow& flow = flows.flow(i);
    all_bytes = saturating_add(all_bytes, flow.bytes());
    if (!flow.after().empty()) {
      ++waiting;
      gaps_ns = saturating_add(gaps_ns, flow.gap_ns());
      if (flow.gap_ns() > largest_gap) {
        largest_gap = flow.gap_ns();
        gap_field = fmt::format("{}.flows.flow[{}].gap_ns", at, i);
      }
    }
    sent[flow.src()] = saturating_add(sent[flow.src()], flow.bytes());
    received[flow.dst()] = saturating_add(received[flow.dst()], flow.bytes());
    demand.latest_start_ns = std::max(demand.latest_start_ns, flow.start_ns());
    if (flow.bytes() >= demand.largest_message_bytes) {
      demand.largest_message_bytes = flow.bytes();
      demand.field = fmt::format("{}.flows.flow[{}].bytes", at, i);
    }
  }
  for (const auto& [rank, bytes] : sent) demand.port_bytes = std::max(demand.port_bytes, bytes);
  for (const auto& [rank, bytes] : received) demand.port_bytes = std::max(demand.port_bytes, bytes);
  add_waiting_flows(demand, waiting, gaps_ns, all_bytes, gap_field);
  return demand;
}

// The bytes one port carries at worst: a host's sends or receives (uniform random: every
// message could go to one host).
Demand workload_demand(const proto::Workload& w, std::uint64_t ranks, const std::string& at) {
  switch (w.kind_case()) {
    case proto::Workload::kFlows:
      return flows_demand(w.flows(), at);
    case proto::Workload::kIncast: {
      const std::uint64_t senders = w.incast().senders() ? w.incast().senders() : ranks - 1;
      return {at + ".incast.bytes", saturating_mul(senders, w.incast().bytes()), w.incast().bytes(),
              w.incast().start_ns()};
    }
    case proto::Workload::kAllToAll:
      return {at + ".all_to_all.bytes", saturating_mul(ranks - 1, w.all_to_all().bytes()),
              w.all_to_all().bytes(), 0};
    case proto::Workload::kPermutation:
      return {at + ".permutation.bytes", w.permutation().bytes(), w.permutation().bytes(), 0};
    case proto::Workload::kUniformRandom: {
      const proto::UniformRandom& u = w.uniform_random();
      return {at + ".uniform_random.bytes",
              saturating_mul(saturating_mul(ranks, u.messages_per_host()), u.bytes()), u.bytes(),
              0};
    }
    default:
      return {};
  }
}

}  // namespace

// Several workloads share the network: at worst all their bytes cross one port, one after
// another; the error names the workload field with the most bytes.
void validate_time_budget(const proto::Scenario& scenario) {
  const PathBound path(scenario);
  if (scenario.has_mpi()) validate_mpi_time_budget(scenario, path);
  Demand total;
  bool any = false;
  std::uint64_t most = 0;
  for (const ScenarioWorkload& entry : scenario_workloads(scenario)) {
    const proto::Workload& w = *entry.workload;
    // A CSV file is checked when it is read, a datacenter workload once generated.
    if ((w.has_flows() && w.flows().flow_size() == 0) || w.has_datacenter()) continue;
    const Demand d = workload_demand(w, workload_rank_count(scenario, w), entry.at);
    if (!any || d.port_bytes > most) {
      total.field = d.field;
      most = d.port_bytes;
    }
    any = true;
    total.port_bytes = saturating_add(total.port_bytes, d.port_bytes);
    total.largest_message_bytes = std::max(total.largest_message_bytes, d.largest_message_bytes);
    const std::uint64_t start_ns = saturating_add(d.latest_start_ns, w.start_ns());
    if (start_ns >= total.latest_start_ns) total.gap_field = d.gap_field;
    total.latest_start_ns = std::max(total.latest_start_ns, start_ns);
    total.sequential_messages = std::max(total.sequential_messages, d.sequential_messages);
  }
  if (any) path.require_within_budget(total);
}

}  // namespace netwarp::scenarios
