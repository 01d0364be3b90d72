// Time series files and the flow completion summary of a packet run.
#include "run_timeseries.hpp"

#include <numeric>

#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/netmodels/timeseries.hpp"

namespace netwarp::apps {

nlohmann::ordered_json flow_completion_json(const netmodels::ResultsSource& results) {
  const std::vector<std::int64_t> fct = netmodels::flow_completion_times(results);
  nlohmann::ordered_json j;
  j["delivered"] = fct.size();
  if (fct.empty()) return j;
  j["p50_ps"] = netmodels::percentile(fct, 50);
  j["p90_ps"] = netmodels::percentile(fct, 90);
  j["p99_ps"] = netmodels::percentile(fct, 99);
  j["max_ps"] = fct.back();
  j["mean_ps"] = std::accumulate(fct.begin(), fct.end(), std::int64_t{0}) /
                 static_cast<std::int64_t>(fct.size());
  j["cdf_file"] = "fct_cdf.csv";
  return j;
}

void write_timeseries_files(const NetworkRunReport& report, const std::string& dir, bool with_fct,
                            std::vector<std::string>& files) {
  const netmodels::ResultsSource& results = *report.results;
  if (report.spec->outputs.sample_interval_ps > 0) {
    files.push_back(dir + "/ports_timeseries.csv");
    auto ports = open_for_writing(files.back());
    netmodels::write_ports_timeseries_csv(results, *report.spec, ports);
    if (results.open<netmodels::FlowSample>().peek() != nullptr) {
      files.push_back(dir + "/flows_timeseries.csv");
      auto flows = open_for_writing(files.back());
      netmodels::write_flows_timeseries_csv(results, *report.spec, flows);
    }
    if (netmodels::has_class_queues(report.spec->switches)) {
      files.push_back(dir + "/port_classes_timeseries.csv");
      auto classes = open_for_writing(files.back());
      netmodels::write_classes_timeseries_csv(results, *report.spec, classes);
    }
  }
  if (with_fct) {
    files.push_back(dir + "/fct_cdf.csv");
    auto cdf = open_for_writing(files.back());
    netmodels::write_fct_cdf_csv(netmodels::flow_completion_times(results), cdf);
  }
}

}  // namespace netwarp::apps
