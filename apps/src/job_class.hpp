// The MPI job as a traffic class of a run with packet workloads beside it: its run time (and,
// with --baseline, its run time alone and the slowdown the other traffic caused), its messages
// and the TCP counters of its connections, beside the workloads' classes (class_results.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/network_results.hpp"
#include "netwarp/netmodels/records.hpp"

namespace netwarp::apps {

struct JobClass {
  std::string name;
  std::uint32_t ranks = 0;
  std::uint32_t hosts = 0;
  std::uint64_t messages = 0;  // point-to-point messages (collectives' included) sent
  std::uint64_t bytes = 0;
  std::uint64_t retransmission_timeouts = 0;  // of the job's connections
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t packets_dropped = 0;       // the job's packets dropped at any port
  std::int64_t run_time_ps = -1;           // latest rank end; -1: not finished
  std::int64_t baseline_run_time_ps = -1;  // the job alone on the network; -1: not run
  // run_time / baseline_run_time, when both are known.
  double slowdown() const;
};

// Beside a workload the job's connection records carry netmodels::kConnectionFlowBit: moves
// them out of `results` (the workload's flows stay), with the bit cleared.
std::vector<netmodels::FlowRecord> take_connections(netmodels::NetworkResults& results);
void add_connection_counters(JobClass& job, const std::vector<netmodels::FlowRecord>& connections);
// The job's drops: the DropRecords of stream packets (OutputSpec::drops_by_class).
void add_job_drops(JobClass& job, const std::vector<netmodels::DropRecord>& drops);
nlohmann::ordered_json job_class_json(const JobClass& job);
std::string format_job_class_summary(const JobClass& job);

}  // namespace netwarp::apps
