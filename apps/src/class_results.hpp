// Results by traffic class: each workload's (and the MPI job's) flows reported together, with
// their completion times and FCT slowdown (completion over the ideal completion alone on the
// empty network, netmodels/ideal_fct.hpp), also by flow-size bucket.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/network_spec.hpp"
#include "network_outputs.hpp"

namespace netwarp::apps {

struct Distribution {  // of one quantity over a class's delivered flows
  std::vector<double> ascending;
  nlohmann::ordered_json to_json(const std::string& unit_suffix) const;
};

struct SizeBucket {
  std::uint64_t min_bytes = 0;  // exclusive, except for the first bucket
  std::uint64_t max_bytes = 0;  // inclusive; UINT64_MAX for the last
  Distribution slowdown;
};

struct ClassResults {
  std::string name;
  std::uint64_t messages = 0;
  std::uint64_t messages_delivered = 0;
  std::uint64_t bytes = 0;
  std::uint64_t bytes_delivered = 0;
  std::uint64_t retransmission_timeouts = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t packets_dropped = 0;  // its data and acknowledgements, at any port
  std::int64_t last_delivery_ps = 0;
  Distribution fct_ps;
  Distribution slowdown;
  std::vector<SizeBucket> buckets;
};

// A delivered flow's completion time over its ideal (netmodels::ideal_completion_time, kept in
// the report's IdealCompletionTimes once computed).
double flow_slowdown(const NetworkRunReport& rep, netmodels::MessageId id, std::int64_t fct_ps);
// One entry per class of the workload, in class order, from one pass over the flows.
std::vector<ClassResults> class_results(const NetworkRunReport& rep);
nlohmann::ordered_json classes_json(const std::vector<ClassResults>& classes);
// One line per class for the run's summary.
std::string format_class_summary(const std::vector<ClassResults>& classes);

}  // namespace netwarp::apps
