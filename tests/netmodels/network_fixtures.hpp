// Small hand-built networks for the packet-model tests, and a runner that checks every run
// three ways: sequential, optimistic on one rank, and the reverse check mode, with equal digests.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "netwarp/engine/kernel.hpp"
#include "netwarp/netmodels/network_model.hpp"
#include "netwarp/netmodels/network_results.hpp"

namespace netwarp::netmodels::testing {

// host0 - sw - sw - ... - host1 with `hops` links in all (hops >= 2), every link `link`.
inline Topology line_topology(int hops, LinkSpec link) {
  Topology t;
  t.kind = "line";
  t.host_count = 2;
  const int switches = hops - 1;
  t.nodes.resize(2 + static_cast<std::size_t>(switches));
  auto cable = [&](NodeId a, NodeId b) {
    const auto pa = static_cast<PortIndex>(t.nodes[a].ports.size());
    const auto pb = static_cast<PortIndex>(t.nodes[b].ports.size());
    t.nodes[a].ports.push_back(Port{b, pb, 0, 0, link.rate_bps, link.latency});
    t.nodes[b].ports.push_back(Port{a, pa, 0, 0, link.rate_bps, link.latency});
  };
  // Host0 on the first switch, host1 on the last; switch i has port 0 toward host0's side.
  cable(0, 2);
  for (int s = 0; s + 1 < switches; ++s)
    cable(static_cast<NodeId>(2 + s), static_cast<NodeId>(3 + s));
  cable(static_cast<NodeId>(1 + switches), 1);
  t.router = std::make_shared<TableRouter>(
      2, std::vector<std::vector<PortIndex>>(static_cast<std::size_t>(switches), {0, 1}));
  for (std::size_t i = 0; i < t.nodes.size(); ++i) t.nodes[i].name = fmt::format("n{}", i);
  return t;
}

// n hosts on one switch (node n), host i on switch port i.
inline Topology star_topology(std::uint32_t hosts, LinkSpec link) {
  Topology t;
  t.kind = "star";
  t.host_count = hosts;
  t.nodes.resize(hosts + 1);
  std::vector<std::vector<PortIndex>> routes(1, std::vector<PortIndex>(hosts));
  for (NodeId h = 0; h < hosts; ++h) {
    t.nodes[h].ports.push_back(
        Port{hosts, static_cast<PortIndex>(h), 0, 0, link.rate_bps, link.latency});
    t.nodes[hosts].ports.push_back(Port{h, 0, 0, 0, link.rate_bps, link.latency});
    routes[0][h] = static_cast<PortIndex>(h);
    t.nodes[h].name = fmt::format("host{}", h);
  }
  t.nodes[hosts].name = "sw0";
  t.router = std::make_shared<TableRouter>(hosts, std::move(routes));
  return t;
}

inline Message message(MessageId id, NodeId src, NodeId dst, std::uint64_t bytes,
                       SimTime start = {}, bool after_previous = false) {
  Message m;
  m.id = id;
  m.src = src;
  m.dst = dst;
  m.bytes = bytes;
  m.start = start;
  m.after_previous = after_previous;
  return m;
}

// A flow without name, group or dependency (FlowSpec's other fields at their defaults).
inline FlowSpec flow_spec(NodeId src, NodeId dst, std::uint64_t bytes, SimTime start = {}) {
  FlowSpec f;
  f.src = src;
  f.dst = dst;
  f.bytes = bytes;
  f.start = start;
  return f;
}

struct NetworkRun {
  engine::RunStats stats;
  NetworkResults results;
  NetworkTotals totals;
};

// Runs the spec with the sequential kernel, then (unless `only_sequential`) the optimistic
// kernel on one rank and in reverse check mode, expecting the same digest and records.
inline NetworkRun run_network(const NetworkSpec& spec, SimTime end = SimTime::max(),
                              bool only_sequential = false,
                              engine::TieOrder ties = engine::TieOrder::fifo,
                              std::uint64_t seed = 1) {
  const NetworkModel model(spec);
  engine::KernelConfig config;
  config.end_time = end;
  config.tie_order = ties;
  config.seed = seed;
  NetworkRun run;
  run.stats = engine::run_sequential(model, config, &run.results).stats;
  run.results.sort();
  run.totals = run.results.totals(spec.workload);
  if (only_sequential) return run;
  auto exchange = engine::make_local_exchange();
  config.kind = engine::KernelKind::optimistic;
  config.gvt_interval = 4;
  config.batch_size = 8;
  for (bool check : {false, true}) {
    config.check_reverse = check;
    NetworkResults optimistic;
    const auto stats = engine::run_optimistic(model, config, *exchange, &optimistic).stats;
    EXPECT_EQ(stats.digest, run.stats.digest) << (check ? "check-reverse" : "optimistic");
    optimistic.sort();
    EXPECT_EQ(optimistic.to_bytes(), run.results.to_bytes());
  }
  return run;
}

// When message `id` was delivered (its last byte at the receiver); a failure when it was not.
inline std::int64_t delivery_time(const NetworkRun& run, MessageId id) {
  for (const DeliveryRecord& d : run.results.deliveries)
    if (d.message == id) return d.delivered_ps;
  ADD_FAILURE() << "message " << id << " was not delivered";
  return -1;
}

inline PacketFormat plain_format(std::uint32_t mtu = 1000) {
  PacketFormat f;
  f.mtu_bytes = mtu;
  f.header_bytes = 0;
  f.frame_overhead_bytes = 0;
  f.control_bytes = 64;  // ACKs and delivery notices still take time on the wire
  return f;
}

// An event context for driving a model's part directly, outside any kernel: no undo log, its
// sends and records kept aside.
inline engine::EventCtx unlogged() {
  static std::uint64_t sends = 0;
  static engine::RecordBuffer records;
  static engine::EventScope scope = [] {
    engine::EventScope s;
    s.send_counter = &sends;
    s.records = &records;
    return s;
  }();
  return engine::EventCtx(scope);
}

}  // namespace netwarp::netmodels::testing
