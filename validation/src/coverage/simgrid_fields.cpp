// netwarp-simgrid's field table: what the SimGrid cross-check (validation/simgrid/README.md)
// does with every field of scenario.proto. Ranks, programs, host costs and protocol rules are
// the packet simulation's (mirrored); packets, buffers and TCP are below a flow model's level
// (abstracted: the comparison measures their effect). A new field of scenario.proto gets a line
// here: refused, unless netwarp-simgrid really runs the same setting.
#include "common_rules.hpp"
#include "netwarp/validation/field_coverage.hpp"

namespace netwarp::validation {
namespace {

using C = Coverage;

constexpr const char* kNoPackets =
    "SimGrid's flow model sends message bytes as flows, without packets, headers or frames";

std::vector<FieldRule> engine_and_links() {
  return {
      {"seed", C::mirrored, {}, "netwarp builds the placement and programs SimGrid runs", {}},
      {"end_time_ns", C::refused, {}, "netwarp-simgrid runs every program to its end", {}},
      {"engine.tie_order",
       C::abstracted,
       {},
       "a flow model has no simultaneous packet arrivals",
       {}},
      {"links.rate_bps", C::mirrored, {}, "", {}},
      {"links.latency_ns", C::mirrored, {}, "", {}},
      {"links.mtu_bytes", C::abstracted, {}, kNoPackets, {}},
      {"links.header_bytes", C::abstracted, {}, kNoPackets, {}},
      {"links.frame_overhead_bytes", C::abstracted, {}, kNoPackets, {}},
      {"links.control_bytes", C::abstracted, {}, kNoPackets, {}},
      {"links.levels.level", C::mirrored, {}, "", {}},
      {"links.levels.rate_bps", C::mirrored, {}, "", {}},
      {"links.levels.latency_ns", C::mirrored, {}, "", {}},
      {"switch", C::abstracted, {}, "a flow model has no queues, buffers or flow control", {}},
      {"nic.rate_bps", C::mirrored, {}, "", {}},
      {"nic.buffer_bytes", C::abstracted, {}, "a flow model has no queues", {}},
      {"nic.jitter_ns", C::abstracted, {}, kNoPackets, {}},
      {"transport",
       C::abstracted,
       {},
       "a flow model shares bandwidth max-min, without TCP windows, losses or timeouts",
       {}},
  };
}

std::vector<FieldRule> mpi_host_and_protocol() {
  constexpr const char* kSharedMemory =
      "ranks of one host share its SimGrid host and talk through the same shared-memory rules";
  return {
      {"mpi.ranks", C::mirrored, {}, "", {}},
      {"mpi.ranks_per_host", C::mirrored, {}, "several rank actors on one SimGrid host", {}},
      {"mpi.rank_order", C::mirrored, {}, "", {}},
      {"mpi.host.o_ns", C::mirrored, {}, "", {}},
      {"mpi.host.send_eager_ns_per_byte", C::mirrored, {}, "", {}},
      {"mpi.host.recv_eager_ns_per_byte", C::mirrored, {}, "", {}},
      {"mpi.host.send_rendezvous_ns_per_byte", C::mirrored, {}, "", {}},
      {"mpi.host.recv_rendezvous_ns_per_byte", C::mirrored, {}, "", {}},
      {"mpi.host.copy_gbytes_per_s", C::mirrored, {}, "", {}},
      {"mpi.host.flops", C::mirrored, {}, "", {}},
      {"mpi.host.shm_latency_ns", C::mirrored, {}, kSharedMemory, {}},
      {"mpi.host.shm_gbytes_per_s", C::mirrored, {}, kSharedMemory, {}},
      {"mpi.host.shm_eager_bytes", C::mirrored, {}, kSharedMemory, {}},
      {"mpi.host.shm_single_copy_gbytes_per_s", C::mirrored, {}, kSharedMemory, {}},
      {"mpi.host.shm_single_copy_setup_ns", C::mirrored, {}, kSharedMemory, {}},
      {"mpi.protocol.short_bytes", C::mirrored, {}, "", {}},
      {"mpi.protocol.eager_bytes", C::mirrored, {}, "", {}},
      {"mpi.protocol.rendezvous", C::mirrored, {}, "", {}},
      {"mpi.protocol.sender_side_matching", C::mirrored, {}, "", {}},
      {"mpi.protocol.unexpected_buffer_bytes", C::mirrored, {}, "", {}},
      {"mpi.protocol.envelope_bytes", C::mirrored, {}, "", {}},
      {"mpi.protocol.fragment_bytes", C::refused, {}, "pipelined rendezvous is not mirrored", {}},
  };
}

std::vector<FieldRule> mpi_programs() {
  constexpr const char* kSameProgram = "the same program, built by netwarp's builder";
  std::vector<FieldRule> rules;
  for (const char* field : {"mpi.collectives.bcast",
                            "mpi.collectives.reduce",
                            "mpi.collectives.allreduce",
                            "mpi.collectives.alltoall",
                            "mpi.collectives.barrier",
                            "mpi.collectives.gather",
                            "mpi.collectives.allgather",
                            "mpi.collectives.selection",
                            "mpi.pingpong.sizes",
                            "mpi.pingpong.w_us",
                            "mpi.pingpong.repetitions",
                            "mpi.alltoall.algorithm",
                            "mpi.alltoall.bytes",
                            "mpi.alltoall.iterations",
                            "mpi.alltoall.compute_us",
                            "mpi.ring.bytes",
                            "mpi.ring.iterations",
                            "mpi.collective.kind",
                            "mpi.collective.bytes",
                            "mpi.collective.root",
                            "mpi.collective.iterations",
                            "mpi.collective.compute_us",
                            "mpi.trace.path",
                            "mpi.gauss.n",
                            "mpi.gauss.fragment_bytes",
                            "mpi.gauss.forward",
                            "mpi.npb.app",
                            "mpi.npb.size_class",
                            "mpi.npb.iterations"})
    rules.push_back({field, C::mirrored, {}, kSameProgram, {}});
  rules.push_back(
      {"workload", C::refused, {}, "netwarp-simgrid runs MPI workloads (mpi { ... }) only", {}});
  rules.push_back({"outputs", C::no_effect, {}, "", {}});
  rules.push_back({"validation", C::no_effect, {}, "what `netwarp validate` compares", {}});
  return rules;
}

// Traffic classes, datacenter workloads and fabrics (d35cc46): refused until mirrored; switch
// and transport settings stay abstracted with the rest of their sections.
std::vector<FieldRule> classes_and_fabrics() {
  return {
      {"topology.leaf_spine", C::refused, {}, "leaf-spine fabrics are not mirrored yet", {}},
      {"topology.multipath.mode",
       C::refused,
       {"DEFAULT"},
       "SimGrid routes are per host pair, one path each",
       {}},
      {"topology.multipath.seed", C::no_effect, {}, "only with a refused multipath mode", {}},
      {"topology.multipath.flowlet_gap_ns", C::no_effect, {}, "only with FLOWLET, refused", {}},
      {"mpi.name", C::no_effect, {}, "a label", {}},
      {"mpi.priority",
       C::no_effect,
       {},
       "the job is the only traffic (other workloads are refused), so its class changes nothing",
       {}},
      {"mpi.hosts", C::refused, {}, "host selections are not mirrored yet", {}},
      {"workloads", C::refused, {}, "netwarp-simgrid runs the MPI job alone", {}},
  };
}

CrossCheckFields make_table() {
  CrossCheckFields table{"netwarp-simgrid", "validation/src/coverage/simgrid_fields.cpp", {}};
  for (auto part : {engine_and_links, mpi_host_and_protocol, mpi_programs, classes_and_fabrics})
    for (FieldRule& rule : part()) table.rules.push_back(std::move(rule));
  for (auto part : {label_and_kernel_rules(),
                    fixed_route_topology_rules("SimGrid routes are per host pair, one path each")})
    for (const FieldRule& rule : part) table.rules.push_back(rule);
  return table;
}

}  // namespace

const CrossCheckFields& simgrid_fields() {
  static const CrossCheckFields table = make_table();
  return table;
}

}  // namespace netwarp::validation
