// Validators of the placement and the workload, which meet at the rank count: ranks must fit
// on the hosts, every rank named by the workload must exist, and each generator's parameters
// must be in range. Message sizes: 1 .. netmodels::kMaxMessageBytes with either transport (the
// time budget, validate_time.cpp, is what limits them in practice).
#include <set>
#include <string>

#include "validate.hpp"

namespace netwarp::scenarios {

namespace {

void validate_bytes(const std::string& field, std::uint64_t bytes) {
  if (bytes == 0) fail(field, "must be > 0, got 0");
  if (bytes > netmodels::kMaxMessageBytes)
    fail(field, "must be at most " + std::to_string(netmodels::kMaxMessageBytes) +
                    " (2^63 - 1), got " + std::to_string(bytes));
}

void require_rank(const std::string& field, std::uint64_t rank, std::uint64_t ranks) {
  if (rank >= ranks)
    fail(field, "rank " + std::to_string(rank) + " does not exist (" + std::to_string(ranks) +
                    " ranks: 0.." + std::to_string(ranks - 1) + ")");
}

}  // namespace

void validate_explicit_placement(const proto::Scenario& scenario, std::uint64_t hosts) {
  if (!scenario.placement().has_explicit_()) return;
  const auto& list = scenario.placement().explicit_().hosts();
  const std::string at = "placement.explicit.hosts";
  if (list.size() == 0) fail(at, "must list the host of every rank, got none");
  if (static_cast<std::uint64_t>(list.size()) > hosts)
    fail(at, "places " + std::to_string(list.size()) + " ranks, more than the " +
                 std::to_string(hosts) + " hosts");
  const std::uint64_t all_to_all_ranks = scenario.workload().all_to_all().ranks();
  if (all_to_all_ranks != 0 && all_to_all_ranks != static_cast<std::uint64_t>(list.size()))
    fail(at, "must list one host per rank (workload.all_to_all.ranks: " +
                 std::to_string(all_to_all_ranks) + "), got " + std::to_string(list.size()));
  std::set<std::uint32_t> used;
  for (int i = 0; i < list.size(); ++i) {
    const std::string field = at + "[" + std::to_string(i) + "]";
    if (list[i] >= hosts)
      fail(field, "host " + std::to_string(list[i]) + " does not exist (" + std::to_string(hosts) +
                      " hosts)");
    if (!used.insert(list[i]).second)
      fail(field, "host " + std::to_string(list[i]) + " is listed twice");
  }
}

namespace {

void validate_flows(const proto::Scenario& scenario, std::uint64_t ranks) {
  const proto::Flows& flows = scenario.workload().flows();
  if (flows.flow_size() > 0 && !flows.csv_file().empty())
    fail("workload.flows", "give either flow entries or csv_file, not both");
  if (flows.flow_size() == 0 && flows.csv_file().empty())
    fail("workload.flows", "give flow entries or a csv_file");
  for (int i = 0; i < flows.flow_size(); ++i) {
    const proto::Flow& flow = flows.flow(i);
    const std::string at = "workload.flows.flow[" + std::to_string(i) + "]";
    require_rank(at + ".src", flow.src(), ranks);
    require_rank(at + ".dst", flow.dst(), ranks);
    if (flow.src() == flow.dst())
      fail(at + ".dst", "must differ from src (" + std::to_string(flow.src()) + ")");
    validate_bytes(at + ".bytes", flow.bytes());
    require_at_most(at + ".start_ns", flow.start_ns(), kMaxTimeNs);
  }
}

void validate_incast(const proto::Scenario& scenario, std::uint64_t ranks) {
  const proto::Incast& incast = scenario.workload().incast();
  require_rank("workload.incast.receiver", incast.receiver(), ranks);
  require_at_most("workload.incast.senders", incast.senders(), ranks - 1);
  validate_bytes("workload.incast.bytes", incast.bytes());
  require_at_most("workload.incast.start_ns", incast.start_ns(), kMaxTimeNs);
}

bool is_power_of_two(std::uint64_t n) {
  return n != 0 && (n & (n - 1)) == 0;
}

bool is_square(std::uint64_t n) {
  std::uint64_t root = 0;
  while ((root + 1) * (root + 1) <= n) ++root;
  return root * root == n;
}

void validate_all_to_all(const proto::Scenario& scenario, std::uint64_t ranks) {
  const proto::AllToAll& all = scenario.workload().all_to_all();
  if (all.order() == proto::AllToAll::PAIRWISE && !is_power_of_two(ranks))
    fail("workload.all_to_all.order",
         "PAIRWISE needs a power-of-two number of ranks, got " + std::to_string(ranks));
  if (all.order() == proto::AllToAll::SPREAD_2D && !is_square(ranks))
    fail("workload.all_to_all.order",
         "SPREAD_2D needs a square number of ranks (n x n), got " + std::to_string(ranks));
  validate_bytes("workload.all_to_all.bytes", all.bytes());
}

void validate_kind(const proto::Scenario& scenario, std::uint64_t ranks) {
  const proto::Workload& workload = scenario.workload();
  switch (workload.kind_case()) {
    case proto::Workload::kFlows:
      return validate_flows(scenario, ranks);
    case proto::Workload::kIncast:
      return validate_incast(scenario, ranks);
    case proto::Workload::kAllToAll:
      return validate_all_to_all(scenario, ranks);
    case proto::Workload::kPermutation:
      return validate_bytes("workload.permutation.bytes", workload.permutation().bytes());
    case proto::Workload::kUniformRandom:
      require_at_least("workload.uniform_random.messages_per_host",
                       workload.uniform_random().messages_per_host(), 1);
      return validate_bytes("workload.uniform_random.bytes", workload.uniform_random().bytes());
    case proto::Workload::kDatacenter:  // refused before (validate_unbuilt.cpp)
    case proto::Workload::KIND_NOT_SET:
      fail("workload",
           "not set (set one of all_to_all, flows, incast, permutation, uniform_random; or an mpi "
           "section instead)");
  }
}

}  // namespace

std::uint64_t workload_rank_count(const proto::Scenario& scenario) {
  if (scenario.workload().has_all_to_all() && scenario.workload().all_to_all().ranks() != 0)
    return scenario.workload().all_to_all().ranks();
  if (scenario.placement().has_explicit_())
    return static_cast<std::uint64_t>(scenario.placement().explicit_().hosts_size());
  return topology_host_count(scenario.topology());
}

void validate_workload(const proto::Scenario& scenario) {
  const proto::Workload& workload = scenario.workload();
  const std::uint64_t hosts = topology_host_count(scenario.topology());
  if (workload.kind_case() == proto::Workload::KIND_NOT_SET) validate_kind(scenario, 0);
  if (workload.all_to_all().ranks() > hosts)
    fail("workload.all_to_all.ranks", std::to_string(workload.all_to_all().ranks()) +
                                          " ranks do not fit on " + std::to_string(hosts) +
                                          " hosts");
  validate_explicit_placement(scenario, hosts);
  const std::uint64_t ranks = workload_rank_count(scenario);
  if (ranks < 2) {
    const bool is_explicit = scenario.placement().has_explicit_();
    fail(workload.all_to_all().ranks() != 0 ? "workload.all_to_all.ranks"
         : is_explicit                      ? "placement.explicit.hosts"
                                            : "workload",
         "needs at least 2 ranks, got " + std::to_string(ranks));
  }
  validate_kind(scenario, ranks);
}

}  // namespace netwarp::scenarios
