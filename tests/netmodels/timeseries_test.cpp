// Time series of packet runs (PortSample, FlowSample): a hand-worked lossless transfer, an
// incast whose bottleneck drops only at a full buffer, totals that the intervals must add up
// to, the CSV tables and FCT percentiles. run_network also checks every run's records under
// the optimistic kernel and the reverse check mode.
#include <gtest/gtest.h>

#include <sstream>

#include "netwarp/netmodels/port_intervals.hpp"
#include "netwarp/netmodels/timeseries.hpp"
#include "netwarp/netmodels/topology_builders.hpp"
#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;
using testing::message;
using testing::run_network;

// host0 (n0) - switch (n2) - host1 (n1) at 1 Gbps (8 us per 1000-byte frame), 1 us links; one
// lossless message of ten frames; 10 us intervals.
NetworkSpec ten_frames() {
  NetworkSpec spec;
  spec.topology = testing::line_topology(2, LinkSpec{gbps(1), us(1)});
  spec.format = testing::plain_format(1000);
  spec.transport.kind = TransportKind::lossless;
  spec.workload.kind = "flows";
  spec.workload.messages = {message(0, 0, 1, 10'000)};
  spec.outputs.sample_interval_ps = us(10).ps();
  return spec;
}

std::vector<PortSample> samples_of(const NetworkResults& r, NodeId node, PortIndex port) {
  std::vector<PortSample> out;
  for (const PortSample& s : r.port_samples)
    if (s.node == node && s.port == port) out.push_back(s);
  return out;
}

TEST(TimeSeries, SenderNicHoldsTheMessageAndIsBusyEveryInterval) {
  const auto run = run_network(ten_frames());
  const auto nic = samples_of(run.results, 0, 0);
  ASSERT_EQ(nic.size(), 8u);  // 80 us of frames: [0, 80) us
  for (std::size_t i = 0; i < nic.size(); ++i) {
    EXPECT_EQ(nic[i].interval_start_ps, us(10).ps() * static_cast<std::int64_t>(i));
    EXPECT_EQ(nic[i].busy_ps, us(10).ps()) << i;
  }
  // All ten frames admitted at 0; one leaves every 8 us: 10000 B for 8 us, then 9000 B.
  EXPECT_EQ(nic[0].max_queue_bytes, 10'000u);
  EXPECT_EQ(nic[0].mean_queue_bytes, 9'800u);
  EXPECT_EQ(nic[1].max_queue_bytes, 9'000u);  // carried over from the interval before
}

TEST(TimeSeries, SwitchPortHoldsOneFrameAtATime) {
  const auto run = run_network(ten_frames());
  const auto port = samples_of(run.results, 2, 1);  // toward host1
  // Frame i arrives at 8(i + 1) + 1 us and leaves at once: busy from 9 us to 89 us.
  ASSERT_EQ(port.size(), 9u);
  EXPECT_EQ(port[0].busy_ps, us(1).ps());
  for (std::size_t i = 1; i < 8; ++i) EXPECT_EQ(port[i].busy_ps, us(10).ps()) << i;
  EXPECT_EQ(port[8].busy_ps, us(9).ps());
  for (const PortSample& s : port) {
    EXPECT_EQ(s.max_queue_bytes, 1'000u);  // the frame on the wire, never one waiting
    EXPECT_EQ(s.packets_dropped, 0u);
  }
  EXPECT_EQ(port[0].mean_queue_bytes, 100u);
}

TEST(TimeSeries, ShortIntervalsSplitAFrameExactly) {
  NetworkSpec spec = ten_frames();
  spec.outputs.sample_interval_ps = us(3).ps();
  const auto run = run_network(spec);
  std::int64_t busy = 0;
  for (const PortSample& s : samples_of(run.results, 0, 0)) {
    EXPECT_LE(s.busy_ps, us(3).ps());
    busy += s.busy_ps * static_cast<std::int64_t>(s.intervals);  // a row per run of alike ones
  }
  EXPECT_EQ(busy, us(80).ps());
}

// One 1000-byte frame on a 1 Mbit/s line: 8 ms on the wire, 800 intervals of 10 us in which
// nothing changes. They make one sample that counts them, not 800 (nor 8e8 at 1 bit/s).
TEST(TimeSeries, IntervalsWithoutAChangeShareOneSample) {
  NetworkSpec spec = ten_frames();
  spec.topology = testing::line_topology(2, LinkSpec{1'000'000, us(1)});
  spec.workload.messages = {message(0, 0, 1, 1'000)};
  const auto run = run_network(spec);
  const auto nic = samples_of(run.results, 0, 0);
  ASSERT_EQ(nic.size(), 1u);
  EXPECT_EQ(nic[0].interval_start_ps, 0);
  EXPECT_EQ(nic[0].intervals, 800u);
  EXPECT_EQ(nic[0].busy_ps, us(10).ps());
  EXPECT_EQ(nic[0].max_queue_bytes, 1'000u);
  EXPECT_EQ(nic[0].mean_queue_bytes, 1'000u);
  std::ostringstream csv;
  write_ports_timeseries_csv(run.results, spec, csv);
  EXPECT_NE(csv.str().find("\n0,n0,0,n2,1000,1000,1.000000,0,0,800\n"), std::string::npos);
  // The idle row follows the run's last interval, not its first.
  EXPECT_NE(csv.str().find("\n8000000000,n0,0,n2,0,0,0.000000,0,0,1\n"), std::string::npos);
}

TEST(PortIntervals, AdvanceFoldsOnlyWholeIntervalsOfASteadyLine) {
  std::vector<std::pair<PortSample, std::uint64_t>> closed;
  const auto close = [&](const PortInterval& in, std::uint64_t n) {
    closed.push_back({to_sample(in, 10, 0, 0, n), n});
  };
  PortInterval in;
  // The line starts serialising at 25: intervals 0 and 1 hold data on an idle line, interval
  // 2 is partly busy, 3 .. 99 are alike and busy, then the change at 1005.
  advance(in, 0, PortLevel{500, 25}, 10, close);
  advance(in, 1005, PortLevel{500, 25}, 10, close);
  ASSERT_EQ(closed.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(closed[i].first.interval_start_ps, 10 * i);
    EXPECT_EQ(closed[i].second, 1u);
  }
  EXPECT_EQ(closed[1].first.busy_ps, 0);
  EXPECT_EQ(closed[2].first.busy_ps, 5);
  EXPECT_EQ(closed[3].first.interval_start_ps, 30);
  EXPECT_EQ(closed[3].second, 97u);
  EXPECT_EQ(closed[3].first.busy_ps, 10);
  EXPECT_EQ(closed[3].first.mean_queue_bytes, 500u);
  EXPECT_EQ(in.index, 100);
  EXPECT_EQ(in.integrated_ps, 1005);
  EXPECT_EQ(in.max_bytes, 500u);
}

TEST(TimeSeries, NoSamplesWhenSwitchedOff) {
  NetworkSpec spec = ten_frames();
  spec.outputs.sample_interval_ps = 0;
  const auto run = run_network(spec);
  EXPECT_TRUE(run.results.port_samples.empty());
  EXPECT_TRUE(run.results.flow_samples.empty());
}

// 8 TCP senders into one host through a 24-frame buffer (1000-byte frames, no framing).
NetworkSpec incast() {
  NetworkSpec spec;
  spec.topology = build_star(StarSpec{9}, LinkLevels{LinkSpec{gbps(1), us(5)}, {}}, "topology");
  spec.format = testing::plain_format(1000);
  spec.switches.buffer_bytes = 24'000;
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.min_rto = engine::ms(1);
  spec.workload = make_incast(IncastSpec{8, 8, 64 * 1024, {}}, 9, "workload");
  spec.outputs.sample_interval_ps = us(20).ps();
  return spec;
}

TEST(TimeSeries, BottleneckDropsOnlyWithAFullBuffer) {
  const auto run = run_network(incast());
  const auto bottleneck = samples_of(run.results, 9, 8);  // switch port toward host8
  std::uint64_t drops = 0;
  for (const PortSample& s : bottleneck) {
    if (s.packets_dropped != 0) {
      EXPECT_EQ(s.max_queue_bytes, 24'000u);
    }
    EXPECT_LE(s.max_queue_bytes, 24'000u);
    drops += s.packets_dropped;
  }
  ASSERT_GT(drops, 0u);
  EXPECT_EQ(drops, run.totals.packets_dropped);
}

TEST(TimeSeries, IntervalsAddUpToEachPortsTotals) {
  const auto run = run_network(incast());
  for (const PortRecord& p : run.results.ports) {
    std::int64_t busy = 0;
    std::uint64_t dropped = 0;
    for (const PortSample& s : samples_of(run.results, p.node, p.port)) {
      busy += s.busy_ps * static_cast<std::int64_t>(s.intervals);
      dropped += s.bytes_dropped * s.intervals;
    }
    EXPECT_EQ(busy, static_cast<std::int64_t>(p.bytes_sent) * 8000)  // 1 Gbps: 8000 ps a byte
        << p.node << "." << p.port;
    EXPECT_EQ(dropped, p.bytes_dropped);
    if (p.packets_sent == 0) continue;
    EXPECT_EQ(p.busy_until_ps - p.first_sent_ps >= busy, true);
  }
}

TEST(TimeSeries, FlowSamplesEndWithEveryByteAcknowledged) {
  const auto run = run_network(incast());
  ASSERT_FALSE(run.results.flow_samples.empty());
  std::uint64_t timeouts = 0;
  const FlowSample* last = nullptr;
  for (const FlowSample& s : run.results.flow_samples) {
    if (last != nullptr && last->flow == s.flow) {
      EXPECT_GT(s.interval_start_ps, last->interval_start_ps);
      EXPECT_GE(s.acked_bytes, last->acked_bytes);
    } else if (last != nullptr) {
      timeouts += last->timeouts;
      EXPECT_GE(last->acked_bytes, 64u * 1024);
    }
    last = &s;
  }
  timeouts += last->timeouts;
  EXPECT_EQ(timeouts, run.totals.retransmission_timeouts);
}

TEST(TimeSeries, PortsCsvAddsAnIdleRowAfterEachActiveStretch) {
  const NetworkSpec spec = ten_frames();
  const auto run = run_network(spec);
  std::ostringstream csv;
  write_ports_timeseries_csv(run.results, spec, csv);
  const std::string text = csv.str();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "interval_start_ps,node,port,peer,max_queue_bytes,mean_queue_bytes,utilisation,"
            "packets_dropped,bytes_dropped,intervals");
  EXPECT_NE(text.find("\n0,n0,0,n2,10000,9800,1.000000,0,0,1\n"), std::string::npos);
  EXPECT_NE(text.find("\n80000000,n0,0,n2,0,0,0.000000,0,0,1\n"), std::string::npos);
  EXPECT_NE(text.find("\n0,n2,1,n1,1000,100,0.100000,0,0,1\n"), std::string::npos);
}

// The incast's flows_timeseries.csv: its header line, then each row split at the commas.
struct FlowsCsv {
  std::string header;
  std::vector<std::vector<std::string>> rows;
};

FlowsCsv incast_flows_csv() {
  const NetworkSpec spec = incast();
  const auto run = run_network(spec);
  std::ostringstream csv;
  write_flows_timeseries_csv(run.results, spec, csv);
  std::istringstream lines(csv.str());
  FlowsCsv out;
  std::getline(lines, out.header);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    out.rows.push_back(f);
  }
  return out;
}

TEST(TimeSeries, FlowsCsvGivesBytesAndTimeoutsPerInterval) {
  const FlowsCsv csv = incast_flows_csv();
  EXPECT_EQ(csv.header,
            "interval_start_ps,flow,src,dst,cwnd_bytes,ssthresh_bytes,delivered_bytes,"
            "acked_bytes,rto_events");
  std::uint64_t delivered = 0;
  for (const auto& f : csv.rows) {
    ASSERT_EQ(f.size(), 9u);
    delivered += std::stoull(f[6]);
  }
  EXPECT_GE(delivered, 8u * 64 * 1024);  // every byte of every flow (and the SYN's one)
  EXPECT_LE(delivered, 8u * (64 * 1024 + 1));
}

// Lazy TCP timers fire after the timer was stopped (the incast's senders finish before their
// last RTO event): such an event changes nothing a row shows, so it makes no row.
TEST(TimeSeries, FlowsCsvHasNoRowWithoutAChange) {
  const FlowsCsv csv = incast_flows_csv();
  ASSERT_GT(csv.rows.size(), 8u);
  for (std::size_t i = 1; i < csv.rows.size(); ++i) {
    const auto& f = csv.rows[i];
    const auto& previous = csv.rows[i - 1];
    ASSERT_EQ(f.size(), 9u);
    if (previous[1] != f[1]) continue;  // another flow
    EXPECT_FALSE(f[4] == previous[4] && f[5] == previous[5] && f[6] == "0" && f[8] == "0")
        << "row without a change at " << f[0] << " of flow " << f[1];
  }
}

TEST(FlowCompletion, NearestRankPercentiles) {
  const std::vector<std::int64_t> fct = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  EXPECT_EQ(percentile(fct, 50), 50);
  EXPECT_EQ(percentile(fct, 90), 90);
  EXPECT_EQ(percentile(fct, 99), 100);
  EXPECT_EQ(percentile(fct, 100), 100);
  EXPECT_EQ(percentile({}, 50), -1);
  EXPECT_EQ(percentile({7}, 1), 7);
}

TEST(FlowCompletion, TimesRunFromStartToDelivery) {
  const auto run = run_network(ten_frames());
  // Last frame: sent 72..80 us, 1 us link, switch 80+1..89, 1 us link: delivered at 90 us.
  EXPECT_EQ(flow_completion_times(run.results), std::vector<std::int64_t>{us(90).ps()});
  std::ostringstream csv;
  write_fct_cdf_csv(flow_completion_times(run.results), csv);
  EXPECT_EQ(csv.str(), "fct_ps,fraction\n90000000,1.000000\n");
}

}  // namespace
}  // namespace netwarp::netmodels
