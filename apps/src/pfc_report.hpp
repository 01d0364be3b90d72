// What a run under PFC (SwitchConfig::pfc) says beyond its tables: the PAUSE frames per port
// (ports.csv, results.json), the summary line, and the two verdicts that end a run with an
// error: a lossless class that lost packets beyond its headroom (an error of the
// configuration), and pauses in a cycle at the end of a run with work left (a deadlock).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/netmodels/results_source.hpp"

namespace netwarp::apps {

struct PortPauses {
  std::uint64_t frames_sent = 0;  // PAUSE and resume frames sent up the port's link
  std::uint64_t frames_received = 0;
  std::int64_t paused_ps = 0;  // summed over the port's classes
};

struct PfcSummary {
  std::map<std::pair<netmodels::NodeId, netmodels::PortIndex>, PortPauses> ports;
  std::uint64_t frames_sent = 0;
  std::int64_t paused_ps = 0;
  std::string overflow;  // the first lossless class that overflowed its headroom; "": none
  std::string cycle;     // the ports of a cycle of pauses at the end; "": none
};

PfcSummary summarise_pfc(const netmodels::NetworkSpec& spec,
                         const netmodels::ResultsSource& results);

}  // namespace netwarp::apps
