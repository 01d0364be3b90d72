// Time series and flow completion times of a packet run, from its committed records only
// (PortSample, FlowSample, DeliveryRecord, FlowRecord), so they are the same for every kernel
// and rank count.
//
// ports_timeseries.csv, one row per port and sampling interval with activity, plus a row of
// zeros after each active stretch (so a plot drops to zero where the port went idle):
//   interval_start_ps  start of the interval, ps
//   node, port, peer   the output port (names as the topology gives them) and its link's peer
//   max_queue_bytes    highest occupancy in the interval, bytes (wire bytes, frame on the
//                      wire included as the switch counts it)
//   mean_queue_bytes   time-weighted mean occupancy over the interval, bytes, rounded down
//   utilisation        fraction of the interval the line was serialising, 0..1
//   packets_dropped, bytes_dropped   drop-tail drops in the interval
//   pool_max_bytes, pool_mean_bytes   with a shared buffer (SwitchConfig::shared_buffer): the
//                      switch's pool over the row's intervals (highest, time-weighted mean);
//                      empty for a host's port
// port_classes_timeseries.csv (SwitchConfig::classes), one row per class of a port with classes
// and interval in which the class changed; between two rows its queue held the earlier row's end:
//   interval_start_ps, node, port, priority
//   max_queue_bytes, end_queue_bytes   the class's queue (waiting, not on the wire): highest in
//                      the interval, and after its last change
//   packets_sent, bytes_sent, packets_dropped, bytes_dropped, ecn_marked   in the interval
//   pause_frames, pause_frames_received   with PFC: PAUSE and resume frames of the priority the
//                      port sent up its link, and that came in on it (pausing its sending)
// flows_timeseries.csv, one row per TCP connection and interval in which its sender changed:
//   interval_start_ps  start of the interval, ps
//   flow, src, dst     the connection (its first message) and its hosts
//   cwnd_bytes, ssthresh_bytes   at the end of the interval, bytes; ssthresh empty before the
//                      first loss or ECN echo sets it
//   delivered_bytes    bytes newly acknowledged in the interval (cumulative ACK), bytes
//   acked_bytes        bytes acknowledged since the start, bytes
//   rto_events         retransmission timeouts in the interval
// fct_cdf.csv: fct_ps (message start to its last byte at the receiver, ps), fraction (of the
// delivered messages with an FCT <= this one).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "netwarp/netmodels/network_results.hpp"
#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/netmodels/results_source.hpp"

namespace netwarp::netmodels {

// Streamed from the records (in memory, or the ranks' part files merged).
void write_ports_timeseries_csv(const ResultsSource& results, const NetworkSpec& spec,
                                std::ostream& out);
void write_flows_timeseries_csv(const ResultsSource& results, const NetworkSpec& spec,
                                std::ostream& out);
void write_classes_timeseries_csv(const ResultsSource& results, const NetworkSpec& spec,
                                  std::ostream& out);
// The same for one sorted NetworkResults.
void write_ports_timeseries_csv(const NetworkResults& results, const NetworkSpec& spec,
                                std::ostream& out);
void write_flows_timeseries_csv(const NetworkResults& results, const NetworkSpec& spec,
                                std::ostream& out);

// Flow completion times, ps, ascending: every delivered message, from its start to the
// delivery of its last byte.
std::vector<std::int64_t> flow_completion_times(const ResultsSource& results);
std::vector<std::int64_t> flow_completion_times(const NetworkResults& results);

// ssthresh starts "arbitrarily high" (RFC 5681 section 3.1), held as INT64_MAX: as a CSV field
// it stays empty until a loss or an ECN echo sets it.
bool has_ssthresh(std::uint64_t ssthresh);

// Nearest-rank percentile (p in (0, 100]) of ascending values; -1 when there are none.
std::int64_t percentile(const std::vector<std::int64_t>& ascending, double p);

void write_fct_cdf_csv(const std::vector<std::int64_t>& ascending, std::ostream& out);

}  // namespace netwarp::netmodels
