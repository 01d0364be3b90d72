// The time-budget check of a scenario (validate_time.cpp, validate_mpi_time.cpp): the worst
// simulated time its workload or MPI program could need, from the platform's slowest link,
// longest latency and longest path, must stay within netmodels::kTimeBudgetPs.
#pragma once

#include <cstdint>
#include <string>

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
};

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

}  // namespace netwarp::scenarios
