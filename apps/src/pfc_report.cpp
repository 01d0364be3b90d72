// PFC's per-port counters and verdicts from the PortClassRecords.
#include "pfc_report.hpp"

#include <fmt/format.h>

#include <vector>

namespace netwarp::apps {

namespace {

using netmodels::NodeId;
using netmodels::PortClassRecord;
using netmodels::PortIndex;

std::string port_name(const netmodels::NetworkSpec& spec, NodeId node, PortIndex port) {
  return fmt::format("{} port {}", spec.topology.nodes[node].name, port);
}

std::string overflow_message(const netmodels::NetworkSpec& spec, const PortClassRecord& r) {
  return fmt::format(
      "lossless priority {} lost {} packets arriving on {} (from {}): they needed {} B beyond "
      "XOFF, the headroom holds {} B; it misses at least {} B (raise switch.pfc.headroom_bytes)",
      r.priority, r.ingress_overflows, port_name(spec, r.node, r.port),
      spec.topology.nodes[spec.topology.nodes[r.node].ports[r.port].peer].name,
      r.max_headroom_bytes, r.headroom_bytes,
      r.max_headroom_bytes > r.headroom_bytes ? r.max_headroom_bytes - r.headroom_bytes : 0);
}

// A port paused at the end with bytes queued waits for its peer; a cycle of such waits among
// nodes is a deadlock. Returns the cycle's ports, "" when there is none.
std::string find_cycle(const netmodels::NetworkSpec& spec,
                       const std::vector<std::pair<NodeId, PortIndex>>& waits) {
  std::map<NodeId, std::vector<std::pair<NodeId, PortIndex>>> out;  // node -> (peer, port)
  for (const auto& [node, port] : waits)
    out[node].emplace_back(spec.topology.nodes[node].ports[port].peer, port);
  std::map<NodeId, int> state;  // 0 unseen, 1 on the path, 2 done
  std::vector<std::pair<NodeId, PortIndex>> path;
  std::string found;
  const auto visit = [&](auto&& self, NodeId n) -> bool {
    state[n] = 1;
    for (const auto& [peer, port] : out[n]) {
      path.emplace_back(n, port);
      if (state[peer] == 1) {
        std::size_t i = 0;
        while (path[i].first != peer) ++i;
        for (; i < path.size(); ++i)
          found += port_name(spec, path[i].first, path[i].second) + " -> ";
        found += spec.topology.nodes[peer].name;
        return true;
      }
      if (state[peer] == 0 && self(self, peer)) return true;
      path.pop_back();
    }
    state[n] = 2;
    return false;
  };
  for (const auto& [node, unused] : out)
    if (state[node] == 0 && visit(visit, node)) return found;
  return {};
}

}  // namespace

PfcSummary summarise_pfc(const netmodels::NetworkSpec& spec,
                         const netmodels::ResultsSource& results) {
  PfcSummary s;
  std::vector<std::pair<NodeId, PortIndex>> waits;
  auto classes = results.open<PortClassRecord>();
  for (; const PortClassRecord* r = classes.peek(); classes.pop()) {
    PortPauses& p = s.ports[{r->node, r->port}];
    p.frames_sent += r->pause_frames_sent;
    p.frames_received += r->pause_frames_received;
    p.paused_ps += r->paused_ps;
    s.frames_sent += r->pause_frames_sent;
    s.paused_ps += r->paused_ps;
    if (r->ingress_overflows != 0 && s.overflow.empty()) s.overflow = overflow_message(spec, *r);
    if (r->queued_at_end_bytes != 0) waits.emplace_back(r->node, r->port);
  }
  s.cycle = find_cycle(spec, waits);
  return s;
}

}  // namespace netwarp::apps
