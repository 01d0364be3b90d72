// The netwarp-ns3 report (README.md, "Report") and its one-line summary. Field names are those
// of `netwarp run`'s results.json for the same quantities.
#pragma once

#include <string>
#include <vector>

#include "netwarp/netmodels/network_spec.hpp"
#include "ns3_run.hpp"

namespace netwarp::ns3_check {

struct ReportContext {
  std::string scenario;  // path as given
  std::string scenario_name;
  std::string pcap_dir;  // empty: none
  std::vector<std::string> notes;
  double wall_seconds = 0;
};

struct Ns3Totals {
  std::int64_t completion_time_ps = 0;  // last delivery, as netwarp's completion_time_ps
  std::uint64_t messages_delivered = 0;
  std::uint64_t packets_dropped = 0;
  std::uint64_t retransmission_timeouts = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t fast_retransmits = 0;
};
Ns3Totals totals_of(const Ns3RunResult& result);

std::string result_json(const netmodels::NetworkSpec& spec, const Ns3RunResult& result,
                        const ReportContext& context);
std::string summary_line(const Ns3RunResult& result, const ReportContext& context,
                         const std::string& out_path);

}  // namespace netwarp::ns3_check
