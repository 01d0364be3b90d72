// A model's flow completion times against the packet run's, by traffic class and flow-size
// bucket, the way Parsimon and m3 report theirs: the FCT slowdown (completion over the ideal
// completion alone on the empty network, netmodels/ideal_fct.hpp) at p50 and p99 for the packet
// run and the model, and the model's error at each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/validation/report.hpp"

namespace netwarp::validation {

// A model's completion time of each message (by message id; -1: none), measured from the
// message's start as the packet run's (delivery of the last byte minus start).
using ModelFcts = std::vector<std::int64_t>;

// Rows for every class of spec.workload (spec.outputs.size_buckets_bytes as the buckets).
ClassComparison compare_classes(const netmodels::NetworkSpec& spec,
                                const std::vector<FlowSample>& packet, const ModelFcts& model,
                                const std::string& model_name);

}  // namespace netwarp::validation
