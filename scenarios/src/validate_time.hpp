// The time-budget check of a scenario (validate_time.cpp, validate_mpi_time.cpp): the worst
// simulated time its workload or MPI program could need, from the platform's slowest link,
// longest latency and longest path, must stay within netmodels::kTimeBudgetPs.
#pragma once

#include <cstdint>
#include <string>

#include "netwarp/mpiemul/program.hpp"
#include "netwarp/netmodels/time_budget.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

// What a workload asks of one port: the bytes it carries at worst, the largest message, the
// latest start, and the field that sets them.
struct Demand {
  std::string field;
  std::uint64_t port_bytes = 0;
  std::uint64_t largest_message_bytes = 0;
  std::uint64_t latest_start_ns = 0;
  // Flows waiting for others (`after`) may run one after another: their round trips add up, and
  // their gaps add to the latest start (add_waiting_flows).
  std::uint64_t sequential_messages = 1;
  std::string gap_field = {};  // the largest gap's field: named when the start passes the budget
};

// Folds into `demand` the flows that wait for others: `count` of them, their gaps summed
// (`gaps_ns`), every flow's bytes summed (`all_bytes`: one after another, they may all cross one
// port) and the largest gap's field.
void add_waiting_flows(Demand& demand, std::uint64_t count, std::uint64_t gaps_ns,
                       std::uint64_t all_bytes, const std::string& gap_field);

// The platform at its slowest: the least link rate, the longest latency, the longest path.
class PathBound {
 public:
  explicit PathBound(const proto::Scenario& scenario);
  // Serialising `payload_bytes` with their packet headers at the slowest rate.
  netmodels::WorstCaseTime transfer(std::uint64_t payload_bytes) const;
  // A max-size packet there and an answer back over the longest path.
  netmodels::WorstCaseTime round_trip() const;
  std::uint64_t round_trips(std::uint64_t payload_bytes) const;
  // One message alone on the platform: its transfer and its round trips.
  netmodels::WorstCaseTime message(std::uint64_t payload_bytes) const;
  std::uint64_t hops() const { return hops_; }  // link hops between two hosts at most
  std::uint64_t payload_bytes() const { return payload_bytes_; }  // per packet
  // "links.rate_bps = 1" (the field that sets the slowest rate and its value).
  std::string slowest_field() const;
  // Throws InputError at the demand's field (or the latency's) past the budget.
  void require_within_budget(const Demand& demand) const;

 private:
  struct Setting {
    std::uint64_t value;
    std::string field;
  };
  Setting slowest_;  // bit/s
  Setting longest_;  // ns
  std::uint64_t hops_;
  std::uint64_t payload_bytes_;
  std::uint64_t packet_overhead_bytes_;
  bool is_tcp_;
};

// The whole scenario (after validate_scenario's other checks): workload or MPI program.
void validate_time_budget(const proto::Scenario& scenario);
void validate_mpi_time_budget(const proto::Scenario& scenario, const PathBound& path);

// A generated application (mpi.gauss, mpi.npb), once expanded: its compute and its messages one
// after another (every rank's, summed: a bound on any schedule's length) must fit the budget.
// Throws InputError at mpi.host.flops when compute dominates, else at `size_field` (or the slowest
// link's field when the messages would fit at the platform's default rate).
void validate_program_time_budget(const proto::Scenario& scenario, const mpiemul::Program& program,
                                  const std::string& size_field);

}  // namespace netwarp::scenarios
