// Topology -> ns-3 nodes, point-to-point links, device queues, addresses and static routes.
#include "ns3_network.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <limits>
#include <stdexcept>

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/red-queue-disc.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"

namespace netwarp::ns3_check {
namespace {

using netmodels::NodeId;
using netmodels::PortIndex;

// "Unlimited" buffers: the largest limit a QueueSize holds.
constexpr std::uint32_t kUnlimited = std::numeric_limits<std::uint32_t>::max();

ns3::QueueSize limit(std::uint64_t bytes, std::uint32_t packets) {
  if (bytes != 0)
    return {ns3::QueueSizeUnit::BYTES,
            static_cast<std::uint32_t>(std::min<std::uint64_t>(bytes, kUnlimited))};
  if (packets != 0) return {ns3::QueueSizeUnit::PACKETS, packets};
  return {ns3::QueueSizeUnit::BYTES, kUnlimited};
}

// Switch ports mark where the scenario sets a step threshold: a RedQueueDisc holds the buffer
// there, in front of a one-packet device queue (SEMANTICS.md section 13).
bool has_red_marker(const netmodels::NetworkSpec& spec, NodeId node) {
  return !spec.topology.is_host(node) && spec.switches.ecn_threshold_bytes != 0;
}

ns3::QueueSize device_queue_limit(const netmodels::NetworkSpec& spec, NodeId node) {
  if (spec.topology.is_host(node)) return limit(spec.nic.buffer_bytes, 0);
  if (has_red_marker(spec, node)) return {ns3::QueueSizeUnit::PACKETS, 1};
  return limit(spec.switches.buffer_bytes, spec.switches.buffer_packets);
}

std::uint64_t port_rate(const netmodels::NetworkSpec& spec, NodeId node, PortIndex port) {
  if (spec.topology.is_host(node) && spec.nic.rate_bps != 0) return spec.nic.rate_bps;
  return spec.topology.nodes[node].ports[port].rate_bps;
}

void configure_device(const netmodels::NetworkSpec& spec, NodeId node, PortIndex port,
                      const ns3::Ptr<ns3::PointToPointNetDevice>& device) {
  device->SetDataRate(ns3::DataRate(port_rate(spec, node, port)));
  device->SetMtu(spec.format.mtu_bytes);
  device->GetQueue()->SetMaxSize(device_queue_limit(spec, node));
  if (!has_red_marker(spec, node)) return;
  // Flow control on this device only (PointToPointHelper would set it on both ends): the queue
  // disc hands a packet over when the device queue has room, as the helper wires it.
  const auto interface = ns3::CreateObject<ns3::NetDeviceQueueInterface>();
  interface->GetTxQueue(0)->ConnectQueueTraces(device->GetQueue());
  device->AggregateObject(interface);
}

// One cable: both directions, one channel with the cable's latency, one /30 subnet.
void add_cable(const netmodels::NetworkSpec& spec, NodeId a, PortIndex pa, Ns3Network& net,
               ns3::Ipv4AddressHelper& addresses) {
  const netmodels::Port& out = spec.topology.nodes[a].ports[pa];
  const netmodels::Port& back = spec.topology.nodes[out.peer].ports[out.peer_port];
  if (out.latency != back.latency)
    throw std::invalid_argument(fmt::format(
        "cable {} port {} <-> {} port {}: latencies differ ({} ps, {} ps); an ns-3 channel has "
        "one delay",
        spec.topology.nodes[a].name, pa, spec.topology.nodes[out.peer].name, out.peer_port,
        out.latency.ps(), back.latency.ps()));
  ns3::PointToPointHelper helper;
  // Without flow control the device queue's drop-tail decides; with it, the traffic-control
  // layer discards (uncounted) every packet that arrives while the device queue is "stopped",
  // i.e. cannot take one more MTU-sized packet (TrafficControlLayer::Send).
  helper.DisableFlowControl();
  helper.SetChannelAttribute("Delay", ns3::TimeValue(ns3::PicoSeconds(out.latency.ps())));
  const ns3::NetDeviceContainer pair = helper.Install(net.nodes.Get(a), net.nodes.Get(out.peer));
  net.devices[a][pa] = ns3::DynamicCast<ns3::PointToPointNetDevice>(pair.Get(0));
  net.devices[out.peer][out.peer_port] = ns3::DynamicCast<ns3::PointToPointNetDevice>(pair.Get(1));
  configure_device(spec, a, pa, net.devices[a][pa]);
  configure_device(spec, out.peer, out.peer_port, net.devices[out.peer][out.peer_port]);
  addresses.Assign(pair);
  addresses.NewNetwork();
}

void add_cables(const netmodels::NetworkSpec& spec, Ns3Network& net) {
  ns3::Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
  const auto& nodes = spec.topology.nodes;
  for (NodeId a = 0; a < nodes.size(); ++a)
    for (PortIndex p = 0; p < nodes[a].ports.size(); ++p) {
      const netmodels::Port& port = nodes[a].ports[p];
      const bool first_end = a < port.peer || (a == port.peer && p < port.peer_port);
      if (first_end) add_cable(spec, a, p, net, addresses);
    }
}

// Interface of a port's device and the address of the device at the cable's other end.
struct Hop {
  std::uint32_t interface = 0;
  ns3::Ipv4Address next_hop;
};

Hop hop_of(const netmodels::NetworkSpec& spec, const Ns3Network& net, NodeId node, PortIndex port) {
  const netmodels::Port& p = spec.topology.nodes[node].ports[port];
  const auto ipv4 = net.nodes.Get(node)->GetObject<ns3::Ipv4>();
  const auto peer_ipv4 = net.nodes.Get(p.peer)->GetObject<ns3::Ipv4>();
  const std::int32_t peer_if = peer_ipv4->GetInterfaceForDevice(net.devices[p.peer][p.peer_port]);
  return {static_cast<std::uint32_t>(ipv4->GetInterfaceForDevice(net.devices[node][port])),
          peer_ipv4->GetAddress(peer_if, 0).GetLocal()};
}

ns3::Ptr<ns3::Ipv4StaticRouting> static_routing(const Ns3Network& net, NodeId node) {
  ns3::Ipv4StaticRoutingHelper helper;
  return helper.GetStaticRouting(net.nodes.Get(node)->GetObject<ns3::Ipv4>());
}

// Hosts send everything out of port 0; switch s reaches host h by routes[s][h], as in netwarp.
void add_routes(const netmodels::NetworkSpec& spec, Ns3Network& net) {
  const netmodels::Topology& topo = spec.topology;
  for (NodeId h = 0; h < topo.host_count; ++h) {
    const Hop hop = hop_of(spec, net, h, 0);
    static_routing(net, h)->SetDefaultRoute(hop.next_hop, hop.interface);
    net.host_address.push_back(
        net.nodes.Get(h)->GetObject<ns3::Ipv4>()->GetAddress(hop.interface, 0).GetLocal());
  }
  for (NodeId s = topo.host_count; s < topo.nodes.size(); ++s) {
    const auto routing = static_routing(net, s);
    for (NodeId h = 0; h < topo.host_count; ++h) {
      const Hop hop = hop_of(spec, net, s, topo.next_port(s, h));
      routing->AddHostRouteTo(net.host_address[h], hop.next_hop, hop.interface);
    }
  }
}

// Packets go straight to the device queue: no root queue disc. Ipv4AddressHelper::Assign
// installs none on a device without flow control (no NetDeviceQueueInterface); one that is
// there anyway is removed.
void remove_queue_discs(const Ns3Network& net) {
  ns3::TrafficControlHelper helper;
  for (std::uint32_t n = 0; n < net.devices.size(); ++n) {
    const auto tc = net.nodes.Get(n)->GetObject<ns3::TrafficControlLayer>();
    for (const auto& device : net.devices[n])
      if (tc->GetRootQueueDiscOnDevice(device)) helper.Uninstall(device);
  }
}

// RedQueueDisc as a step marker (the DCTCP example's settings): MinTh = MaxTh = the threshold
// in bytes, the instantaneous queue (QW 1), not gentle, marking instead of dropping ECN-capable
// packets; its byte limit is the scenario's buffer.
void install_red_markers(const netmodels::NetworkSpec& spec, const Ns3Network& net) {
  const auto threshold = static_cast<double>(spec.switches.ecn_threshold_bytes);
  ns3::TrafficControlHelper helper;
  helper.SetRootQueueDisc("ns3::RedQueueDisc", "MinTh", ns3::DoubleValue(threshold), "MaxTh",
                          ns3::DoubleValue(threshold), "QW", ns3::DoubleValue(1), "Gentle",
                          ns3::BooleanValue(false), "UseEcn", ns3::BooleanValue(true),
                          "UseHardDrop", ns3::BooleanValue(false), "MaxSize",
                          ns3::QueueSizeValue(limit(spec.switches.buffer_bytes, 0)));
  for (NodeId n = 0; n < net.devices.size(); ++n)
    if (has_red_marker(spec, n))
      for (const auto& device : net.devices[n]) helper.Install(device);
}

}  // namespace

Ns3Network build_ns3_network(const netmodels::NetworkSpec& spec) {
  Ns3Network net;
  const auto& nodes = spec.topology.nodes;
  net.nodes.Create(static_cast<std::uint32_t>(nodes.size()));
  ns3::InternetStackHelper stack;
  stack.SetRoutingHelper(ns3::Ipv4StaticRoutingHelper());
  stack.SetIpv6StackInstall(false);
  stack.Install(net.nodes);
  net.devices.resize(nodes.size());
  for (NodeId n = 0; n < nodes.size(); ++n) net.devices[n].resize(nodes[n].ports.size());
  add_cables(spec, net);
  remove_queue_discs(net);
  install_red_markers(spec, net);
  add_routes(spec, net);
  return net;
}

void enable_pcap(const netmodels::NetworkSpec& spec, const Ns3Network& net,
                 const std::string& dir) {
  std::filesystem::create_directories(dir);
  ns3::PointToPointHelper helper;
  for (NodeId n = 0; n < net.devices.size(); ++n)
    for (PortIndex p = 0; p < net.devices[n].size(); ++p) {
      const std::string file =
          (std::filesystem::path(dir) / fmt::format("{}-p{}.pcap", spec.topology.nodes[n].name, p))
              .string();
      helper.EnablePcap(file, net.devices[n][p], false, true);
    }
}

}  // namespace netwarp::ns3_check
