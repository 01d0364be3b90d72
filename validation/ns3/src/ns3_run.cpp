// The ns-3 run: simulator set-up, applications, counters.
#include "ns3_run.hpp"

#include <fmt/format.h>

#include <set>

#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/version.h"
#include "ns3_network.hpp"

namespace netwarp::ns3_check {
namespace {

using netmodels::NodeId;
using netmodels::PortIndex;

constexpr std::uint16_t kSinkPort = 5001;
constexpr std::uint64_t kPppHeaderBytes = 2;  // on a frame, not on a queue disc's IP packet

void install_senders(const netmodels::NetworkSpec& spec, const Ns3Network& net,
                     FlowLedger& ledger) {
  for (const auto& m : spec.workload.messages) {
    const auto sender =
        ns3::Create<MessageSender>(ledger, m.id, net.host_address[m.dst], kSinkPort);
    ledger.set_sender(m.id, ns3::PeekPointer(sender));
    net.nodes.Get(m.src)->AddApplication(sender);
    sender->SetStartTime(ns3::Seconds(0));
  }
}

void install_sinks(const netmodels::NetworkSpec& spec, const Ns3Network& net, FlowLedger& ledger) {
  std::set<NodeId> receivers;
  for (const auto& m : spec.workload.messages) receivers.insert(m.dst);
  for (NodeId h : receivers) {
    const auto sink = ns3::Create<MessageSink>(ledger, kSinkPort);
    net.nodes.Get(h)->AddApplication(sink);
    sink->SetStartTime(ns3::Seconds(0));
  }
}

// What the port's queue disc (a RED marker, if any) dropped, counted in frame bytes.
void add_queue_disc_drops(const Ns3Network& net, NodeId n, PortIndex p, PortOutcome& out) {
  const auto tc = net.nodes.Get(n)->GetObject<ns3::TrafficControlLayer>();
  const auto disc = tc->GetRootQueueDiscOnDevice(net.devices[n][p]);
  if (!disc) return;
  const ns3::QueueDisc::Stats& stats = disc->GetStats();
  out.packets_dropped += stats.nTotalDroppedPackets;
  out.bytes_dropped += stats.nTotalDroppedBytes + kPppHeaderBytes * stats.nTotalDroppedPackets;
}

std::vector<PortOutcome> port_outcomes(const netmodels::NetworkSpec& spec, const Ns3Network& net) {
  std::vector<PortOutcome> ports;
  for (NodeId n = 0; n < net.devices.size(); ++n)
    for (PortIndex p = 0; p < net.devices[n].size(); ++p) {
      const auto queue = net.devices[n][p]->GetQueue();
      ports.push_back({n, p, spec.topology.nodes[n].ports[p].peer, queue->GetTotalReceivedPackets(),
                       queue->GetTotalReceivedBytes(), queue->GetTotalDroppedPackets(),
                       queue->GetTotalDroppedBytes()});
      add_queue_disc_drops(net, n, p, ports.back());
    }
  return ports;
}

std::string library_version() {
  return fmt::format("{}.{}", ns3::Version::Major(), ns3::Version::Minor());
}

}  // namespace

Ns3RunResult run_ns3(const netmodels::NetworkSpec& spec, const Ns3RunSettings& settings) {
  // Picoseconds, as netwarp: ns-3's default resolution is 1 ns. Must precede every Time.
  ns3::Time::SetResolution(ns3::Time::PS);
  apply_tcp_defaults(spec, settings.choices);
  const Ns3Network net = build_ns3_network(spec);
  if (!settings.pcap_dir.empty()) enable_pcap(spec, net, settings.pcap_dir);
  FlowLedger ledger(spec.workload, spec.transport.tcp.congestion_control);
  install_sinks(spec, net, ledger);
  install_senders(spec, net, ledger);
  if (settings.end_ps >= 0) ns3::Simulator::Stop(ns3::PicoSeconds(settings.end_ps));
  ns3::Simulator::Run();
  Ns3RunResult result;
  result.ns3_version = library_version();
  result.end_ps = ns3::Simulator::Now().GetPicoSeconds();
  result.flows = ledger.outcomes();
  result.ports = port_outcomes(spec, net);
  ns3::Simulator::Destroy();
  return result;
}

}  // namespace netwarp::ns3_check
