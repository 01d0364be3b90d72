// The MPI job's class entry and summary line; its connection records apart from the flows.
#include "job_class.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "netwarp/netmodels/stream_transport.hpp"

namespace netwarp::apps {

double JobClass::slowdown() const {
  if (run_time_ps < 0 || baseline_run_time_ps <= 0) return 0;
  return static_cast<double>(run_time_ps) / static_cast<double>(baseline_run_time_ps);
}

std::vector<netmodels::FlowRecord> take_connections(netmodels::NetworkResults& results) {
  auto is_connection = [](const netmodels::FlowRecord& f) {
    return (f.flow & netmodels::kConnectionFlowBit) != 0;
  };
  std::vector<netmodels::FlowRecord> connections;
  for (const netmodels::FlowRecord& f : results.flows) {
    if (!is_connection(f)) continue;
    connections.push_back(f);
    connections.back().flow &= ~netmodels::kConnectionFlowBit;
  }
  std::erase_if(results.flows, is_connection);
  return connections;
}

void add_connection_counters(JobClass& job, const std::vector<netmodels::FlowRecord>& connections) {
  for (const netmodels::FlowRecord& f : connections) {
    job.retransmission_timeouts += f.timeouts;
    job.retransmitted_segments += f.retransmitted_segments;
  }
}

void add_job_drops(JobClass& job, const std::vector<netmodels::DropRecord>& drops) {
  for (const netmodels::DropRecord& d : drops) job.packets_dropped += d.stream;
}

nlohmann::ordered_json job_class_json(const JobClass& job) {
  auto time_or_null = [](std::int64_t ps) {
    return ps < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(ps);
  };
  nlohmann::ordered_json j;
  j["name"] = job.name;
  j["mpi"] = true;
  j["ranks"] = job.ranks;
  j["hosts"] = job.hosts;
  j["messages"] = job.messages;
  j["bytes"] = job.bytes;
  j["retransmission_timeouts"] = job.retransmission_timeouts;
  j["retransmitted_segments"] = job.retransmitted_segments;
  j["packets_dropped"] = job.packets_dropped;
  j["run_time_ps"] = time_or_null(job.run_time_ps);
  j["baseline_run_time_ps"] = time_or_null(job.baseline_run_time_ps);
  j["slowdown"] =
      job.slowdown() > 0 ? nlohmann::ordered_json(job.slowdown()) : nlohmann::ordered_json(nullptr);
  return j;
}

std::string format_job_class_summary(const JobClass& job) {
  std::string out = fmt::format("class {:<8} MPI job, {} ranks on {} hosts, {} messages, ",
                                job.name, job.ranks, job.hosts, job.messages);
  out += job.run_time_ps < 0 ? std::string("not finished")
                             : fmt::format("run time {:.3f} us", job.run_time_ps * 1e-6);
  if (job.slowdown() > 0)
    out += fmt::format(" (alone {:.3f} us: slowdown {:.3f})", job.baseline_run_time_ps * 1e-6,
                       job.slowdown());
  return out +
         fmt::format("; {} drops, {} timeouts\n", job.packets_dropped, job.retransmission_timeouts);
}

}  // namespace netwarp::apps
