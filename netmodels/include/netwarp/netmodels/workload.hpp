// Workloads without MPI semantics: a list of messages between hosts. Each host sends its own
// messages in list order; a message marked after_previous starts only once the previous message
// of the same host is fully delivered (its sender has the acknowledgement), and never before
// its start time. Receivers accept any number of messages at once.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "netwarp/netmodels/empirical_cdf.hpp"
#include "netwarp/netmodels/topology.hpp"

namespace netwarp::netmodels {

using MessageId = std::uint32_t;

struct Message {
  MessageId id = 0;  // index in Workload::messages
  NodeId src = 0;    // hosts
  NodeId dst = 0;
  // TCP settings: 0 the scenario's (NetworkSpec::transport), k its workload's own
  // (NetworkSpec::workload_tcp[k - 1]). Fills padding: Message stays 48 bytes.
  std::uint16_t tcp_config = 0;
  std::uint64_t bytes = 0;
  SimTime start;                // earliest start
  bool after_previous = false;  // wait for this host's previous message to be delivered
  std::uint8_t priority = 0;    // its packets' traffic class on ports, 0 .. 7
  std::uint16_t class_id = 0;   // index in Workload::classes
  // Flows that wait for flows: it starts once `waits` other messages (Workload::dependents_of)
  // have been delivered, `gap` after the last of them, and never before `start`.
  std::uint32_t waits = 0;
  SimTime gap;
};

// A traffic class: the messages of one named workload (or of the MPI job), reported together.
struct TrafficClass {
  std::string name;
  // TCP: this class's messages between two hosts share one connection (as
  // Workload::persistent_connections, for this class only).
  bool persistent_connections = false;
};

struct Workload {
  std::string kind;  // "flows", "incast", "all_to_all", "permutation", "uniform_random"
  std::vector<Message> messages;
  std::vector<TrafficClass> classes;  // empty: one class, "workload"
  // The messages that wait for message i are dependents[dependent_begin[i] ..
  // dependent_begin[i + 1]); both empty when none waits for any.
  std::vector<std::uint32_t> dependent_begin;
  std::vector<MessageId> dependents;
  std::span<const MessageId> dependents_of(MessageId id) const {
    if (dependent_begin.empty()) return {};
    return {dependents.data() + dependent_begin[id], dependents.data() + dependent_begin[id + 1]};
  }
  // TCP: the messages from one host to another share one connection, handed to it one after
  // another in list order (a message due before the previous one of its pair waits for it).
  bool persistent_connections = false;
};

inline constexpr MessageId kNoMessage = 0xffffffff;
// The largest message, under either transport: stream offsets are 64-bit and signed sums of
// them stay representable; only the wire's 32-bit sequence numbers wrap (RFC 793 section 3.3).
// In practice the time budget (time_budget.hpp) limits a message long before this.
inline constexpr std::uint64_t kMaxMessageBytes = 0x7fffffffffffffff;

// Message generators. Each validates its parameters against host_count and throws InputError
// naming the field under `at` (e.g. "workload.incast").

// Explicit flows, independent of each other (each starts at its own time).
struct FlowSpec {
  NodeId src = 0;
  NodeId dst = 0;
  std::uint64_t bytes = 0;
  SimTime start;
  std::uint32_t line = 0;  // its line in a CSV file; 0: not from a file
  std::string name;        // unique among the flows; empty: none
  std::string group;       // flows of one group can be waited for together
  std::string after_name;  // a flow's name or a group: it starts once they are delivered ...
  SimTime gap;             // ... and this much later
  std::string class_name;  // its own traffic class; empty: the workload's
  std::vector<std::uint32_t> after;  // resolve_flow_dependencies: the indices it waits for
};
Workload make_flows(const std::vector<FlowSpec>& flows, std::uint32_t host_count,
                    const std::string& at);
// Flows from a CSV file with the header `src,dst,bytes,start_ns`, then optionally any of
// `name,group,after,gap_ns,class`; errors are FileInputErrors.
std::vector<FlowSpec> read_flows_csv(const std::string& path);
// Fills each flow's `after` from its after_name: the flow of that name, or every flow of that
// group. An unknown name, a flow waiting for itself or a cycle is an InputError naming the
// flow (`at`[i].after) or, for flows from a file, a FileInputError at its line.
void resolve_flow_dependencies(std::vector<FlowSpec>& flows, const std::string& at,
                               const std::string& file = "");

// N senders to one receiver, `bytes` each, all starting at `start`. Senders are the lowest
// numbered hosts other than the receiver.
struct IncastSpec {
  std::uint32_t senders = 8;
  NodeId receiver = 0;
  std::uint64_t bytes = 64 * 1024;
  SimTime start;
};
Workload make_incast(const IncastSpec& spec, std::uint32_t host_count, const std::string& at);

// All-to-all among `ranks` hosts (0: all), one message of `bytes` to every other host, sent one
// after another in the order's sequence: simple_spread dest = (src + p) % N; spread_2d on an
// n x n grid dest = ((src % n + p % n) % n) + ((src / n + p / n) % n) * n; pairwise dest =
// src XOR p (N a power of two); random: a seeded random permutation of the others per host.
enum class AllToAllOrder : std::uint8_t { simple_spread, spread_2d, pairwise, random };
struct AllToAllSpec {
  AllToAllOrder order = AllToAllOrder::simple_spread;
  std::uint64_t bytes = 20000;
  std::uint32_t ranks = 0;
  std::uint64_t seed = 1;
};
Workload make_all_to_all(const AllToAllSpec& spec, std::uint32_t host_count, const std::string& at);

// Every host sends one message of `bytes` to its image under a seeded random permutation with
// no fixed points.
struct PermutationSpec {
  std::uint64_t bytes = 1 << 20;
  std::uint64_t seed = 1;
};
Workload make_permutation(const PermutationSpec& spec, std::uint32_t host_count,
                          const std::string& at);

// Every host sends `messages_per_host` messages of `bytes`, one after another, each to a
// destination drawn uniformly from the other hosts (seeded).
struct UniformRandomSpec {
  std::uint32_t messages_per_host = 4;
  std::uint64_t bytes = 64 * 1024;
  std::uint64_t seed = 1;
};
Workload make_uniform_random(const UniformRandomSpec& spec, std::uint32_t host_count,
                             const std::string& at);

// Datacenter flows (datacenter.cpp): sizes drawn from `sizes`, arrivals a Poisson process per
// source rank (or per pair in `pairs`) at the rate that makes the offered load of the source's
// link `load` x rank_rate_bps[src]: lambda = load x rate / (8 x mean size); destinations drawn
// uniformly from the other ranks; from `start` for `duration` (0: unbounded) or until
// `max_flows` flows (0: unbounded). Each source draws from its own seeded stream.
struct DatacenterSpec {
  EmpiricalCdf sizes;
  double load = 0.5;
  SimTime start;
  SimTime duration;
  std::uint64_t max_flows = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // PER_PAIR; empty: per rank
  std::vector<std::uint64_t> rank_rate_bps;                    // the link rate of each rank
  std::uint64_t seed = 1;
};
Workload make_datacenter(const DatacenterSpec& spec, std::uint32_t ranks, const std::string& at);

// Maps workload ranks to hosts: regular (rank i on host i), random (seeded permutation) or
// explicit. Applied to src/dst of every message after generation.
enum class PlacementKind : std::uint8_t { regular, random, explicit_list };
struct PlacementSpec {
  PlacementKind kind = PlacementKind::regular;
  std::uint64_t seed = 1;
  std::vector<NodeId> hosts;  // explicit: host of rank i
};
// Host of each rank, for `ranks` ranks on `host_count` hosts (InputError if it cannot fit).
std::vector<NodeId> place_ranks(const PlacementSpec& spec, std::uint32_t ranks,
                                std::uint32_t host_count, const std::string& at);
void apply_placement(Workload& workload, const std::vector<NodeId>& host_of_rank);

}  // namespace netwarp::netmodels
