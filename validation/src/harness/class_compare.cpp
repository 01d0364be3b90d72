// Slowdown by class and size bucket, packet run against a model (class_compare.hpp).
#include "netwarp/validation/class_compare.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "netwarp/netmodels/ideal_fct.hpp"

namespace netwarp::validation {
namespace {

// One flow's slowdown and whether the packet run recovered it from a loss.
using Sample = std::pair<double, bool>;

struct Samples {
  std::vector<Sample> packet, model;
  std::size_t lossy = 0;
};

// Nearest rank, as the run's own class results; the sample sorted ascending.
const Sample& at_percentile(const std::vector<Sample>& ascending, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * ascending.size()));
  return ascending[std::clamp<std::size_t>(rank, 1, ascending.size()) - 1];
}

ClassErrorRow row_of(std::string name, std::uint64_t min_bytes, std::uint64_t max_bytes,
                     Samples& s) {
  std::sort(s.packet.begin(), s.packet.end());
  std::sort(s.model.begin(), s.model.end());
  ClassErrorRow row{std::move(name), min_bytes, max_bytes, s.packet.size(), s.lossy};
  const Sample& p50 = at_percentile(s.packet, 50);
  const Sample& p99 = at_percentile(s.packet, 99);
  row.packet_p50 = p50.first;
  row.packet_p99 = p99.first;
  row.p50_loss = p50.second;
  row.p99_loss = p99.second;
  row.model_p50 = at_percentile(s.model, 50).first;
  row.model_p99 = at_percentile(s.model, 99).first;
  return row;
}

}  // namespace

ClassComparison compare_classes(const netmodels::NetworkSpec& spec,
                                const std::vector<FlowSample>& packet, const ModelFcts& model,
                                const std::string& model_name) {
  const netmodels::Workload& w = spec.workload;
  const std::vector<std::uint64_t>& bounds = spec.outputs.size_buckets_bytes;
  const std::size_t classes = std::max<std::size_t>(1, w.classes.size());
  std::vector<Samples> whole(classes);
  std::vector<std::vector<Samples>> buckets(classes, std::vector<Samples>(bounds.size() + 1));
  netmodels::IdealCompletionTimes ideals(spec);
  for (const netmodels::Message& m : w.messages) {
    const FlowSample& f = packet.at(m.id);
    const std::int64_t model_fct = m.id < model.size() ? model[m.id] : -1;
    if (f.delivered_ps < 0 || f.start_ps < 0 || model_fct < 0) continue;
    const double ideal = static_cast<double>(ideals.of(m.id).ps());
    if (ideal <= 0) continue;
    const bool lossy = f.retransmitted_segments + f.retransmission_timeouts > 0;
    const Sample p{static_cast<double>(f.delivered_ps - f.start_ps) / ideal, lossy};
    const Sample q{static_cast<double>(model_fct) / ideal, false};
    const std::size_t b = static_cast<std::size_t>(
        std::lower_bound(bounds.begin(), bounds.end(), m.bytes) - bounds.begin());
    for (Samples* s : {&whole[m.class_id], &buckets[m.class_id][b]}) {
      s->packet.push_back(p);
      s->model.push_back(q);
      s->lossy += lossy ? 1 : 0;
    }
  }
  ClassComparison out{model_name, {}};
  for (std::size_t c = 0; c < classes; ++c) {
    if (whole[c].packet.empty()) continue;
    const std::string name = c < w.classes.size() ? w.classes[c].name : "workload";
    out.rows.push_back(row_of(name, 0, UINT64_MAX, whole[c]));
    for (std::size_t b = 0; b < buckets[c].size() && !bounds.empty(); ++b) {
      if (buckets[c][b].packet.empty()) continue;
      out.rows.push_back(row_of(name, b == 0 ? 0 : bounds[b - 1],
                                b < bounds.size() ? bounds[b] : UINT64_MAX, buckets[c][b]));
    }
  }
  return out;
}

}  // namespace netwarp::validation
