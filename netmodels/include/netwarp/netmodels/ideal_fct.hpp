// The ideal completion time of a flow: from its start to the delivery of its last byte (as
// netwarp's FCT is measured) alone on the empty network, the denominator of FCT slowdown. Its
// packets (full segments, then the rest) leave the sender back to back and are forwarded
// store-and-forward along its static path with no other traffic, so the slowest link carries
// all its wire bytes (headers and framing included) back to back. In words: its wire size at
// the bottleneck rate plus the base one-way delay of its path (the propagation of every link and
// one packet's serialisation on every other link). Exact for the lossless transport at line
// rate; TCP adds its handshake and slow start on top, which is the slowdown TCP causes. Where
// a flow's packets take different routes (sprayed; a dragonfly's Valiant or UGAL routing
// between groups) the least any routing of them allows: the packets cross the first and the
// last link in turn and the links between each on its own route, the quickest there is.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "netwarp/netmodels/network_spec.hpp"

namespace netwarp::netmodels {

// With the scenario's TCP segment size; the Message form with the message's own (its
// workload's transport).
SimTime ideal_completion_time(const NetworkSpec& spec, NodeId src, NodeId dst, std::uint64_t bytes);
SimTime ideal_completion_time(const NetworkSpec& spec, const Message& m);
SimTime ideal_completion_time(const NetworkSpec& spec, NodeId src, NodeId dst, std::uint64_t bytes,
                              const TcpConfig& tcp);
// The propagation delay along the static path from host `a` to host `b` (0 when a == b).
SimTime path_latency(const NetworkSpec& spec, NodeId a, NodeId b);

// Each message's ideal completion time, computed on its first request and kept: the outputs of
// a run ask for every flow's several times (flows.csv, results.json, the classes, the summary).
class IdealCompletionTimes {
 public:
  explicit IdealCompletionTimes(const NetworkSpec& spec);
  SimTime of(MessageId id);
  bool kept(MessageId id) const { return ps_.at(id) >= 0; }  // computed already
  // Every message's, on up to `threads` threads (each its own range of messages, at least
  // kMessagesPerThread): after it `of` only reads, so writers on several threads may share it.
  void compute_all(std::size_t threads);
  static constexpr std::size_t kMessagesPerThread = 4096;

 private:
  SimTime compute(const Message& m) const;
  const NetworkSpec& spec_;
  std::vector<std::int64_t> ps_;     // -1: not asked yet
  std::optional<LinkSpec> uniform_;  // every link's rate and latency, when all are alike
};

}  // namespace netwarp::netmodels
