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

void add_timeseries_files(const NetworkRunReport& report, const std::string& dir, bool with_fct,
                          std::vector<OutputFile>& files) {
  // The writers run later, maybe on another thread: they hold pointers to what outlives them.
  const netmodels::ResultsSource* results = report.results;
  const netmodels::NetworkSpec* spec = report.spec;
  auto add = [&](const char* name, std::uint64_t rows, auto write_csv) {
    files.push_back(OutputFile{dir + "/" + name, rows, [write_csv](const std::string& path) {
                                 auto out = open_for_writing(path);
                                 write_csv(out);
                                 close_written(out, path);
                               }});
  };
  if (spec->outputs.sample_interval_ps > 0) {
    add("ports_timeseries.csv", results->count<netmodels::PortSample>(),
        [=](std::ofstream& out) { netmodels::write_ports_timeseries_csv(*results, *spec, out); });
    if (const std::uint64_t rows = results->count<netmodels::FlowSample>(); rows > 0)
      add("flows_timeseries.csv", rows,
          [=](std::ofstream& out) { netmodels::write_flows_timeseries_csv(*results, *spec, out); });
    if (netmodels::has_class_queues(spec->switches))
      add("port_classes_timeseries.csv", results->count<netmodels::ClassSample>(),
          [=](std::ofstream& out) {
            netmodels::write_classes_timeseries_csv(*results, *spec, out);
          });
  }
  if (with_fct)
    add("fct_cdf.csv", results->count<netmodels::DeliveryRecord>(), [=](std::ofstream& out) {
      netmodels::write_fct_cdf_csv(netmodels::flow_completion_times(*results), out);
    });
}

void write_timeseries_files(const NetworkRunReport& report, const std::string& dir, bool with_fct,
                            std::vector<std::string>& files) {
  std::vector<OutputFile> outputs;
  add_timeseries_files(report, dir, with_fct, outputs);
  for (const OutputFile& f : outputs) {
    f.write(f.path);
    files.push_back(f.path);
  }
}

}  // namespace netwarp::apps
