// make_mpi_model: checks the configuration against the program and topology, then builds a
// NetworkModel whose hosts are MpiHostLps (each running the ranks placed on it) sharing one
// MpiContext; hosts with workload flows beside (the spec's workload) run HostLps, or
// SharedHostLps where ranks run too.
#include "netwarp/mpiemul/mpi_model.hpp"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

#include "netwarp/netmodels/host_lp.hpp"
#include "netwarp/netmodels/stream_transport.hpp"
#include "rank/mpi_context.hpp"
#include "rank/mpi_host_lp.hpp"
#include "rank/shared_host_lp.hpp"

namespace netwarp::mpiemul {

namespace {
void check_config(const netmodels::NetworkSpec& spec, const Program& program,
                  const MpiConfig& config) {
  if (config.rank_hosts.size() != program.size())
    throw std::invalid_argument(fmt::format("{} ranks placed but the program has {}",
                                            config.rank_hosts.size(), program.size()));
  std::map<netmodels::NodeId, std::uint32_t> ranks_on;
  for (netmodels::NodeId h : config.rank_hosts) {
    if (h >= spec.topology.nodes.size() || !spec.topology.is_host(h))
      throw std::invalid_argument(fmt::format("rank placed on node {}, which is not a host", h));
    if (++ranks_on[h] > kMaxRanksPerHost)
      throw std::invalid_argument(
          fmt::format("more than {} ranks placed on host {}", kMaxRanksPerHost, h));
  }
  const ProtocolConfig& p = config.protocol;
  if (p.short_bytes > p.eager_bytes)
    throw std::invalid_argument(fmt::format("short limit s = {} is above the eager limit S = {}",
                                            p.short_bytes, p.eager_bytes));
  if (p.envelope_bytes == 0) throw std::invalid_argument("envelope_bytes must be positive");
  if (spec.workload.messages.size() >= netmodels::kConnectionFlowBit)
    throw std::invalid_argument(fmt::format("{} workload messages beside an MPI job: at most {}",
                                            spec.workload.messages.size(),
                                            netmodels::kConnectionFlowBit - 1));
}

// What the job's sends carry between hosts, summed per pair of hosts (in pair order), for
// placing the model's LPs by load.
std::vector<netmodels::ExpectedTraffic> job_traffic(const Program& program,
                                                    const MpiConfig& config) {
  std::map<std::pair<netmodels::NodeId, netmodels::NodeId>, std::uint64_t> bytes;
  for (RankId r = 0; r < program.size(); ++r)
    for (const Op& op : program.ranks[r].ops)
      if (op.kind == OpKind::send && op.peer >= 0 &&
          static_cast<std::size_t>(op.peer) < config.rank_hosts.size())
        bytes[{config.rank_hosts[r], config.rank_hosts[static_cast<std::size_t>(op.peer)]}] +=
            op.bytes;
  std::vector<netmodels::ExpectedTraffic> traffic;
  traffic.reserve(bytes.size());
  for (const auto& [hosts, n] : bytes) traffic.push_back({hosts.first, hosts.second, n});
  return traffic;
}
}  // namespace

std::unique_ptr<netmodels::NetworkModel> make_mpi_model(netmodels::NetworkSpec spec,
                                                        std::shared_ptr<const Program> program,
                                                        MpiConfig config) {
  check_config(spec, *program, config);
  std::vector<netmodels::ExpectedTraffic> traffic = job_traffic(*program, config);
  const std::size_t nodes = spec.topology.nodes.size();
  auto context = std::make_shared<const MpiContext>(std::move(program), std::move(config), nodes);
  // A host with workload flows and no rank runs the workload's HostLp; with both, SharedHostLp.
  auto factory = [context](
                     netmodels::NodeId host,
                     const netmodels::NetworkContext& net) -> std::unique_ptr<engine::LpBase> {
    const bool flows = !net.messages_of(host).empty() || !net.messages_to(host).empty();
    if (!flows) return engine::make_lp<MpiHostLp>(host, net, *context);
    if (context->ranks_on(host).empty()) return engine::make_lp<netmodels::HostLp>(host, net);
    return engine::make_lp<SharedHostLp>(host, net, *context);
  };
  auto model = std::make_unique<netmodels::NetworkModel>(std::move(spec), std::move(factory));
  model->expect_traffic(std::move(traffic));
  return model;
}

}  // namespace netwarp::mpiemul
