// The time series outputs of a packet run (ports_timeseries.csv, flows_timeseries.csv,
// fct_cdf.csv) and the flow completion time summary in results.json; the columns are listed
// in netwarp/netmodels/timeseries.hpp.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "network_outputs.hpp"

namespace netwarp::apps {

// {"delivered", "p50_ps", "p90_ps", "p99_ps", "max_ps", "mean_ps"}; the percentiles are
// absent when no message was delivered.
nlohmann::ordered_json flow_completion_json(const netmodels::ResultsSource& results);

// The time series tables in `dir` (none when sampling is off) and, with `with_fct`,
// fct_cdf.csv, appended to `files` unwritten.
void add_timeseries_files(const NetworkRunReport& report, const std::string& dir, bool with_fct,
                          std::vector<OutputFile>& files);
// Writes them; appends the files written to `files`.
void write_timeseries_files(const NetworkRunReport& report, const std::string& dir, bool with_fct,
                            std::vector<std::string>& files);

}  // namespace netwarp::apps
