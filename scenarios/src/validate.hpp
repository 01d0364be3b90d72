// Validation of a scenario with its defaults filled: one validator per field group
// (validate.cpp: engine, links, switch, NIC, transport, outputs; validate_topology.cpp;
// validate_workload.cpp: placement and workload), cross-field rules beside the fields they
// relate. The first problem is thrown as netmodels::InputError(field path, message); the loader
// adds the file and line:col.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

// Largest topology accepted, in hosts. (Built-in kinds compute their routes; an explicit graph
// holds a switches x hosts table and has its own, smaller limit.)
inline constexpr std::uint64_t kMaxHosts = std::uint64_t{1} << 20;
// Largest time field in ns: 1e15 ns (about 11.6 days) leaves SimTime (int64 ps, about 106
// days) room to add several such times (now + latency, now + RTO) without overflow.
inline constexpr std::uint64_t kMaxTimeNs = 1'000'000'000'000'000;
// Largest buffer, window or credit in bytes (256 TiB): counters of bytes in flight stay far
// from the int64 limit.
inline constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{1} << 48;
// The largest MPI message: its envelope (under the MTU, so under 64 KiB) must fit beside it in
// one transfer. Either transport carries a transfer of any size up to kMaxMessageBytes; the
// time budget (validate_mpi_time.cpp) refuses sizes the links cannot carry in time long before.
inline constexpr std::uint64_t kMaxMpiMessageBytes = netmodels::kMaxMessageBytes - 65536;

void validate_scenario(const proto::Scenario& scenario);
// Schema settings not modelled yet, each refused by name (validate_unbuilt.cpp).
void refuse_unbuilt_settings(const proto::Scenario& scenario);
void validate_topology(const proto::Topology& topology);
// The link levels a topology kind has (scenario.proto lists them with the kind).
std::uint32_t link_level_count(const proto::Topology& topology);
// Every links.levels entry names a level the topology has (an unknown one would be ignored).
void validate_link_levels(const proto::Scenario& scenario);
void validate_workload(const proto::Scenario& scenario);
void validate_mpi(const proto::Scenario& scenario);
void validate_roce(const proto::Scenario& scenario);  // transport.kind ROCE
// Explicit placement hosts exist and are distinct (no-op for other placements).
void validate_explicit_placement(const proto::Scenario& scenario, std::uint64_t hosts);

// Hosts of a valid topology.
std::uint64_t topology_host_count(const proto::Topology& topology);
// A workload of the scenario (`workload` or an entry of `workloads`) with the path its fields
// are named by in errors and its traffic class.
struct ScenarioWorkload {
  const proto::Workload* workload = nullptr;
  std::string at;          // "workload", "workloads[2]"
  std::string class_name;  // its name; `workload` without one: "workload"
};
// `workload` (when set), then the `workloads` entries in order.
std::vector<ScenarioWorkload> scenario_workloads(const proto::Scenario& scenario);
inline bool has_workloads(const proto::Scenario& s) {
  return s.has_workload() || s.workloads_size() > 0;
}
// A traffic class name: up to 64 letters, digits, '_' and '-'.
void validate_class_characters(const std::string& name, const std::string& field);
// The MPI job's traffic class in the results: mpi.name, or "mpi".
inline std::string mpi_class_name(const proto::Mpi& mpi) {
  return mpi.name().empty() ? "mpi" : mpi.name();
}
// Ranks of one workload (see scenario.proto, Workload) on a valid topology.
std::uint64_t workload_rank_count(const proto::Scenario& scenario, const proto::Workload& w);
// Hosts a valid host set names.
std::uint64_t host_set_count(const proto::HostSet& set);
void validate_host_set(const proto::HostSet& set, const std::string& at, std::uint64_t hosts);
// Ranks of an MPI scenario (see scenario.proto, Mpi) on a valid topology.
std::uint64_t mpi_rank_count(const proto::Scenario& scenario);
// mpi.ranks_per_host, 0 read as 1.
std::uint32_t mpi_ranks_per_host(const proto::Mpi& mpi);
// Bytes of the largest packet on the wire: mtu_bytes + frame_overhead_bytes.
std::uint64_t max_wire_packet_bytes(const proto::Links& links);

// Helpers shared by the validators: each throws InputError(field, "must be ..., got value").
[[noreturn]] inline void fail(const std::string& field, const std::string& message) {
  throw netmodels::InputError(field, message);
}
inline void require_at_least(const std::string& field, std::uint64_t value, std::uint64_t min) {
  if (value < min)
    fail(field, "must be >= " + std::to_string(min) + ", got " + std::to_string(value));
}
inline void require_at_most(const std::string& field, std::uint64_t value, std::uint64_t max) {
  if (value > max)
    fail(field, "must be <= " + std::to_string(max) + ", got " + std::to_string(value));
}
inline void require_positive(const std::string& field, std::int64_t value) {
  if (value <= 0) fail(field, "must be > 0, got " + std::to_string(value));
}

}  // namespace netwarp::scenarios
