// Validators of the placement and the workloads, which meet at the rank count: ranks must fit
// on the hosts, every rank named by a workload must exist, and each generator's parameters
// must be in range. Message sizes: 1 .. netmodels::kMaxMessageBytes with either transport (the
// time budget, validate_time.cpp, is what limits them in practice). A scenario's workloads are
// `workload` and the `workloads` entries; each is checked on its own ranks, its fields named
// by its path (workload.incast.bytes, workloads[1].incast.bytes).
#include <fmt/format.h>

#include <cctype>
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

std::uint64_t host_set_count(const proto::HostSet& set) {
  switch (set.kind_case()) {
    case proto::HostSet::kList:
      return static_cast<std::uint64_t>(set.list().hosts_size());
    case proto::HostSet::kRange:
      return set.range().count();
    case proto::HostSet::kRandom:
      return set.random().count();
    case proto::HostSet::KIND_NOT_SET:
      break;
  }
  return 0;
}

void validate_host_set(const proto::HostSet& set, const std::string& at, std::uint64_t hosts) {
  switch (set.kind_case()) {
    case proto::HostSet::kList: {
      const auto& list = set.list().hosts();
      if (list.empty()) fail(at + ".list.hosts", "must list at least one host");
      std::set<std::uint32_t> used;
      for (int i = 0; i < list.size(); ++i) {
        const std::string field = fmt::format("{}.list.hosts[{}]", at, i);
        if (list[i] >= hosts)
          fail(field, fmt::format("host {} does not exist ({} hosts)", list[i], hosts));
        if (!used.insert(list[i]).second)
          fail(field, fmt::format("host {} is listed twice", list[i]));
      }
      return;
    }
    case proto::HostSet::kRange: {
      const proto::HostRange& r = set.range();
      require_at_least(at + ".range.count", r.count(), 1);
      const std::uint64_t stride = r.stride() == 0 ? 1 : r.stride();
      const std::uint64_t last = r.first() + (r.count() - 1) * stride;
      if (last >= hosts)
        fail(at + ".range",
             fmt::format("reaches host {}, past the last host ({})", last, hosts - 1));
      return;
    }
    case proto::HostSet::kRandom:
      require_at_least(at + ".random.count", set.random().count(), 1);
      require_at_most(at + ".random.count", set.random().count(), hosts);
      return;
    case proto::HostSet::KIND_NOT_SET:
      fail(at, "set one of list, range, random");
  }
}

namespace {
bool is_name_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}
}  // namespace

void validate_class_characters(const std::string& name, const std::string& field) {
  if (name.size() > 64) fail(field, fmt::format("at most 64 characters, got {}", name.size()));
  for (char c : name)
    if (!is_name_character(c)) fail(field, "letters, digits, '_' and '-' only, got '" + name + "'");
}

namespace {

void validate_class_name(const std::string& name, const std::string& field) {
  if (name.empty()) fail(field, "required in workloads (the traffic class)");
  validate_class_characters(name, field);
  if (name == "mpi") fail(field, "\"mpi\" names the MPI job's class");
}

void validate_flows(const proto::Flows& flows, const std::string& at, std::uint64_t ranks) {
  if (flows.flow_size() > 0 && !flows.csv_file().empty())
    fail(at, "give either flow entries or csv_file, not both");
  if (flows.flow_size() == 0 && flows.csv_file().empty())
    fail(at, "give flow entries or a csv_file");
  for (int i = 0; i < flows.flow_size(); ++i) {
    const proto::Flow& flow = flows.flow(i);
    const std::string field = at + ".flow[" + std::to_string(i) + "]";
    require_rank(field + ".src", flow.src(), ranks);
    require_rank(field + ".dst", flow.dst(), ranks);
    if (flow.src() == flow.dst())
      fail(field + ".dst", "must differ from src (" + std::to_string(flow.src()) + ")");
    validate_bytes(field + ".bytes", flow.bytes());
    require_at_most(field + ".start_ns", flow.start_ns(), kMaxTimeNs);
    require_at_most(field + ".gap_ns", flow.gap_ns(), kMaxTimeNs);
    if (!flow.class_().empty()) validate_class_name(flow.class_(), field + ".class");
  }
}

void validate_incast(const proto::Incast& incast, const std::string& at, std::uint64_t ranks) {
  require_rank(at + ".receiver", incast.receiver(), ranks);
  require_at_most(at + ".senders", incast.senders(), ranks - 1);
  validate_bytes(at + ".bytes", incast.bytes());
  require_at_most(at + ".start_ns", incast.start_ns(), kMaxTimeNs);
}

bool is_power_of_two(std::uint64_t n) {
  return n != 0 && (n & (n - 1)) == 0;
}

bool is_square(std::uint64_t n) {
  std::uint64_t root = 0;
  while ((root + 1) * (root + 1) <= n) ++root;
  return root * root == n;
}

void validate_all_to_all(const proto::AllToAll& all, const std::string& at, std::uint64_t ranks) {
  if (all.order() == proto::AllToAll::PAIRWISE && !is_power_of_two(ranks))
    fail(at + ".order",
         "PAIRWISE needs a power-of-two number of ranks, got " + std::to_string(ranks));
  if (all.order() == proto::AllToAll::SPREAD_2D && !is_square(ranks))
    fail(at + ".order",
         "SPREAD_2D needs a square number of ranks (n x n), got " + std::to_string(ranks));
  validate_bytes(at + ".bytes", all.bytes());
}

// The distribution's name and file are checked when the workload is built (they need the
// scenario's folder); here the numbers.
void validate_datacenter(const proto::Datacenter& d, const std::string& at, std::uint64_t ranks) {
  if (d.distribution().empty())
    fail(at + ".distribution",
         "required: data_mining, hadoop, web_search, or a file of `bytes probability` lines");
  if (!(d.load() > 0 && d.load() <= 1))
    fail(at + ".load",
         fmt::format("must be in (0, 1] (of each host link's rate), got {}", d.load()));
  require_at_most(at + ".duration_ns", d.duration_ns(), kMaxTimeNs);
  if (d.duration_ns() == 0 && d.flows() == 0)
    fail(at, "give duration_ns, flows or both (when to stop starting flows)");
  if (!proto::Datacenter::Arrivals_IsValid(d.arrivals()))
    fail(at + ".arrivals", fmt::format("must be PER_HOST or PER_PAIR, got {}", d.arrivals()));
  if (d.arrivals() == proto::Datacenter::PER_HOST && d.pairs_size() > 0)
    fail(at + ".pairs", "only with arrivals: PER_PAIR (PER_HOST draws each destination)");
  if (d.arrivals() == proto::Datacenter::PER_PAIR && d.pairs_size() == 0)
    fail(at + ".pairs", "PER_PAIR needs at least one pair");
  for (int i = 0; i < d.pairs_size(); ++i) {
    const std::string field = fmt::format("{}.pairs[{}]", at, i);
    require_rank(field + ".src", d.pairs(i).src(), ranks);
    require_rank(field + ".dst", d.pairs(i).dst(), ranks);
    if (d.pairs(i).src() == d.pairs(i).dst())
      fail(field + ".dst", fmt::format("must differ from src ({})", d.pairs(i).src()));
  }
}

void validate_kind(const proto::Workload& w, const std::string& at, std::uint64_t ranks) {
  switch (w.kind_case()) {
    case proto::Workload::kFlows:
      return validate_flows(w.flows(), at + ".flows", ranks);
    case proto::Workload::kIncast:
      return validate_incast(w.incast(), at + ".incast", ranks);
    case proto::Workload::kAllToAll:
      return validate_all_to_all(w.all_to_all(), at + ".all_to_all", ranks);
    case proto::Workload::kPermutation:
      return validate_bytes(at + ".permutation.bytes", w.permutation().bytes());
    case proto::Workload::kUniformRandom:
      require_at_least(at + ".uniform_random.messages_per_host",
                       w.uniform_random().messages_per_host(), 1);
      return validate_bytes(at + ".uniform_random.bytes", w.uniform_random().bytes());
    case proto::Workload::kDatacenter:
      return validate_datacenter(w.datacenter(), at + ".datacenter", ranks);
    case proto::Workload::KIND_NOT_SET:
      fail(at,
           "not set (set one of all_to_all, datacenter, flows, incast, permutation, "
           "uniform_random; or an mpi section instead)");
  }
}

void validate_one(const proto::Scenario& s, const ScenarioWorkload& entry) {
  const proto::Workload& w = *entry.workload;
  const std::uint64_t hosts = topology_host_count(s.topology());
  if (w.kind_case() == proto::Workload::KIND_NOT_SET) validate_kind(w, entry.at, 0);
  if (w.has_hosts()) validate_host_set(w.hosts(), entry.at + ".hosts", hosts);
  require_at_most(entry.at + ".start_ns", w.start_ns(), kMaxTimeNs);
  require_at_most(entry.at + ".priority", w.priority(), 7);
  if (w.all_to_all().ranks() > hosts)
    fail(entry.at + ".all_to_all.ranks", std::to_string(w.all_to_all().ranks()) +
                                             " ranks do not fit on " + std::to_string(hosts) +
                                             " hosts");
  const std::uint64_t ranks = workload_rank_count(s, w);
  if (ranks < 2) {
    const bool is_explicit = !w.has_hosts() && s.placement().has_explicit_();
    fail(w.all_to_all().ranks() != 0 ? entry.at + ".all_to_all.ranks"
         : w.has_hosts()             ? entry.at + ".hosts"
         : is_explicit               ? std::string("placement.explicit.hosts")
                                     : entry.at,
         "needs at least 2 ranks, got " + std::to_string(ranks));
  }
  validate_kind(w, entry.at, ranks);
}

}  // namespace

std::vector<ScenarioWorkload> scenario_workloads(const proto::Scenario& s) {
  std::vector<ScenarioWorkload> all;
  if (s.has_workload())
    all.push_back({&s.workload(), "workload",
                   s.workload().name().empty() ? std::string("workload") : s.workload().name()});
  for (int i = 0; i < s.workloads_size(); ++i)
    all.push_back({&s.workloads(i), fmt::format("workloads[{}]", i), s.workloads(i).name()});
  return all;
}

std::uint64_t workload_rank_count(const proto::Scenario& s, const proto::Workload& w) {
  if (w.has_hosts()) return host_set_count(w.hosts());
  if (w.has_all_to_all() && w.all_to_all().ranks() != 0) return w.all_to_all().ranks();
  if (s.placement().has_explicit_())
    return static_cast<std::uint64_t>(s.placement().explicit_().hosts_size());
  return topology_host_count(s.topology());
}

void validate_workload(const proto::Scenario& scenario) {
  const std::uint64_t hosts = topology_host_count(scenario.topology());
  // Beside an MPI job an explicit placement lists the job's ranks (validate_mpi checks it).
  if (!scenario.has_mpi()) validate_explicit_placement(scenario, hosts);
  if (!has_workloads(scenario))
    fail("workload",
         "not set (set one of all_to_all, datacenter, flows, incast, permutation, "
         "uniform_random; or workloads, or an mpi section instead)");
  std::set<std::string> names;
  if (scenario.has_mpi()) names.insert(mpi_class_name(scenario.mpi()));
  if (!scenario.workload().name().empty())
    validate_class_name(scenario.workload().name(), "workload.name");
  for (const ScenarioWorkload& entry : scenario_workloads(scenario)) {
    if (entry.workload != &scenario.workload())
      validate_class_name(entry.class_name, entry.at + ".name");
    if (!names.insert(entry.class_name).second)
      fail(entry.at + ".name",
           "'" + entry.class_name + "' names another workload (or the MPI job) too");
    if (scenario.has_mpi() && scenario.placement().has_explicit_() && !entry.workload->has_hosts())
      fail(entry.at + ".hosts",
           "required beside an MPI job placed by placement.explicit (it lists the job's ranks)");
    validate_one(scenario, entry);
  }
}

}  // namespace netwarp::scenarios
