// Results by traffic class, from one pass over the flow rows (the sender's record joined with
// the delivery): counts, completion times and slowdowns per class and per size bucket.
#include "class_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "netwarp/netmodels/ideal_fct.hpp"
#include "netwarp/netmodels/results_source.hpp"

namespace netwarp::apps {

namespace {

// Nearest rank, as netmodels::percentile.
double nearest_rank(const std::vector<double>& ascending, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * ascending.size()));
  return ascending[std::clamp<std::size_t>(rank, 1, ascending.size()) - 1];
}

std::vector<SizeBucket> make_buckets(const std::vector<std::uint64_t>& bounds) {
  std::vector<SizeBucket> buckets;
  std::uint64_t lower = 0;
  for (std::uint64_t bound : bounds) {
    buckets.push_back(SizeBucket{lower, bound, {}});
    lower = bound;
  }
  buckets.push_back(SizeBucket{lower, UINT64_MAX, {}});
  return buckets;
}

SizeBucket& bucket_of(std::vector<SizeBucket>& buckets, std::uint64_t bytes) {
  for (SizeBucket& b : buckets)
    if (bytes <= b.max_bytes) return b;
  return buckets.back();
}

// Drops by class: from the DropRecords when several classes share the network, else all of
// them are the one class's. The MPI job's (stream) drops are its own (job_class.hpp).
void count_drops(const NetworkRunReport& rep, std::vector<ClassResults>& classes) {
  const netmodels::NetworkSpec& spec = *rep.spec;
  if (!spec.outputs.drops_by_class) {
    auto ports = rep.results->open<netmodels::PortRecord>();
    for (; const netmodels::PortRecord* p = ports.peek(); ports.pop())
      classes.front().packets_dropped += p->packets_dropped;
    return;
  }
  auto drops = rep.results->open<netmodels::DropRecord>();
  for (; const netmodels::DropRecord* d = drops.peek(); drops.pop())
    if (d->stream == 0) ++classes[spec.workload.messages[d->flow].class_id].packets_dropped;
}

}  // namespace

nlohmann::ordered_json Distribution::to_json(const std::string& unit_suffix) const {
  nlohmann::ordered_json j;
  j["count"] = ascending.size();
  if (ascending.empty()) return j;
  const double sum = std::accumulate(ascending.begin(), ascending.end(), 0.0);
  j["mean" + unit_suffix] = sum / static_cast<double>(ascending.size());
  for (const auto& [name, p] :
       {std::pair{"p50", 50.0}, {"p90", 90.0}, {"p99", 99.0}, {"p999", 99.9}})
    j[name + unit_suffix] = nearest_rank(ascending, p);
  j["max" + unit_suffix] = ascending.back();
  return j;
}

double flow_slowdown(const NetworkRunReport& rep, netmodels::MessageId id, std::int64_t fct_ps) {
  if (!rep.ideal) rep.ideal = std::make_shared<netmodels::IdealCompletionTimes>(*rep.spec);
  const std::int64_t ideal = rep.ideal->of(id).ps();
  return ideal > 0 ? static_cast<double>(fct_ps) / static_cast<double>(ideal) : 0.0;
}

std::vector<ClassResults> class_results(const NetworkRunReport& rep) {
  const netmodels::NetworkSpec& spec = *rep.spec;
  const netmodels::Workload& w = spec.workload;
  std::vector<ClassResults> classes(std::max<std::size_t>(1, w.classes.size()));
  for (std::size_t c = 0; c < classes.size(); ++c) {
    classes[c].name = c < w.classes.size() ? w.classes[c].name : "workload";
    classes[c].buckets = make_buckets(spec.outputs.size_buckets_bytes);
  }
  netmodels::FlowRows rows(*rep.results);
  for (netmodels::FlowRows::Row row; rows.next(row);) {
    const netmodels::FlowRecord& f = row.flow;
    const netmodels::Message& m = w.messages[f.flow];
    ClassResults& c = classes[m.class_id];
    ++c.messages;
    c.bytes += m.bytes;
    c.retransmission_timeouts += f.timeouts;
    c.retransmitted_segments += f.retransmitted_segments;
    if (row.delivered_ps < 0 || f.start_ps < 0) continue;
    ++c.messages_delivered;
    c.bytes_delivered += m.bytes;
    c.last_delivery_ps = std::max(c.last_delivery_ps, row.delivered_ps);
    const std::int64_t fct = row.delivered_ps - f.start_ps;
    const double slowdown = flow_slowdown(rep, f.flow, fct);
    c.fct_ps.ascending.push_back(static_cast<double>(fct));
    c.slowdown.ascending.push_back(slowdown);
    bucket_of(c.buckets, m.bytes).slowdown.ascending.push_back(slowdown);
  }
  count_drops(rep, classes);
  for (ClassResults& c : classes) {
    std::sort(c.fct_ps.ascending.begin(), c.fct_ps.ascending.end());
    std::sort(c.slowdown.ascending.begin(), c.slowdown.ascending.end());
    for (SizeBucket& b : c.buckets)
      std::sort(b.slowdown.ascending.begin(), b.slowdown.ascending.end());
  }
  return classes;
}

nlohmann::ordered_json classes_json(const std::vector<ClassResults>& classes) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const ClassResults& c : classes) {
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["messages"] = c.messages;
    j["messages_delivered"] = c.messages_delivered;
    j["bytes"] = c.bytes;
    j["bytes_delivered"] = c.bytes_delivered;
    j["retransmission_timeouts"] = c.retransmission_timeouts;
    j["retransmitted_segments"] = c.retransmitted_segments;
    j["packets_dropped"] = c.packets_dropped;
    j["last_delivery_ps"] = c.messages_delivered > 0 ? nlohmann::ordered_json(c.last_delivery_ps)
                                                     : nlohmann::ordered_json(nullptr);
    j["fct"] = c.fct_ps.to_json("_ps");
    j["slowdown"] = c.slowdown.to_json("");
    nlohmann::ordered_json buckets = nlohmann::ordered_json::array();
    for (const SizeBucket& b : c.buckets) {
      nlohmann::ordered_json bj;
      bj["min_bytes_exclusive"] = b.min_bytes;
      bj["max_bytes"] = b.max_bytes == UINT64_MAX ? nlohmann::ordered_json(nullptr)
                                                  : nlohmann::ordered_json(b.max_bytes);
      bj["slowdown"] = b.slowdown.to_json("");
      buckets.push_back(bj);
    }
    j["slowdown_by_size"] = buckets;
    all.push_back(j);
  }
  return all;
}

std::string format_class_summary(const std::vector<ClassResults>& classes) {
  std::string out;
  for (const ClassResults& c : classes) {
    out += fmt::format("class {:<8} {} of {} flows delivered, {} bytes", c.name,
                       c.messages_delivered, c.messages, c.bytes_delivered);
    if (!c.fct_ps.ascending.empty())
      out += fmt::format(
          "; FCT p50 {:.3f} us, p99 {:.3f} us; slowdown p50 {:.2f}, p99 {:.2f}",
          nearest_rank(c.fct_ps.ascending, 50) * 1e-6, nearest_rank(c.fct_ps.ascending, 99) * 1e-6,
          nearest_rank(c.slowdown.ascending, 50), nearest_rank(c.slowdown.ascending, 99));
    out += fmt::format("; {} drops, {} timeouts\n", c.packets_dropped, c.retransmission_timeouts);
  }
  return out;
}

}  // namespace netwarp::apps
