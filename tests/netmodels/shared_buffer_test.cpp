// The switch-wide shared buffer with dynamic thresholds (SwitchConfig::shared_buffer). One queue
// alone grows to the Choudhury-Hahne fixed point, its excess E = alpha (S - E) (S the pool less
// the reservations), within one packet; a second queue's growth lowers the first's threshold.
// An incast's first burst (8 x 8 packets) through a switch whose pool equals the sum of its
// private buffers is absorbed (the congested port borrows the idle ports' share), where the
// private buffer drops it and waits for RTOs; checked also under the optimistic kernel and the
// reverse check mode.
#include <gtest/gtest.h>

#include <algorithm>

#include "network_fixtures.hpp"
#include "port/shared_pool.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;
using testing::unlogged;

// Fills one queue with 1000 B packets while the pool admits them; returns its bytes.
std::uint64_t fill(SharedPool& pool, std::uint64_t queue, engine::EventCtx& ctx) {
  while (pool.admits(queue, 1000)) {
    pool.change(queue, queue + 1000, ctx);
    queue += 1000;
  }
  return queue;
}

TEST(SharedBuffer, OneQueueGrowsToTheDynamicThresholdsFixedPoint) {
  // 10 queues reserve 1000 B each of 100 000 B: S = 90 000 B shared.
  for (const double alpha : {1.0, 2.0, 0.5}) {
    SharedPool pool(SharedBufferConfig{100'000, alpha, 1000}, 10);
    EXPECT_EQ(pool.shared_bytes(), 90'000u);
    engine::EventCtx ctx = unlogged();
    const std::uint64_t held = fill(pool, 0, ctx);
    // Admitted while excess + 1000 <= alpha x (S - excess): the largest such excess.
    const double fixed_point = alpha * 90'000 / (1 + alpha);
    const auto excess = static_cast<double>(held - 1000);
    EXPECT_LE(excess, fixed_point + 1000) << alpha;
    EXPECT_GT(excess + 1000, fixed_point - 1000) << alpha;
    EXPECT_EQ(pool.used_bytes(), held);
  }
  SharedPool pool(SharedBufferConfig{100'000, 1.0, 1000}, 10);
  engine::EventCtx ctx = unlogged();
  EXPECT_EQ(fill(pool, 0, ctx), 46'000u);  // 45 000 = 1 x (90 000 - 45 000), plus the reserve
}

TEST(SharedBuffer, ASecondQueueLowersTheFirstsThreshold) {
  SharedPool pool(SharedBufferConfig{100'000, 1.0, 1000}, 10);
  engine::EventCtx ctx = unlogged();
  const std::uint64_t first = fill(pool, 0, ctx);
  EXPECT_EQ(pool.threshold_bytes(), 45'000);
  EXPECT_TRUE(pool.admits(0, 1000));  // a reservation is always there
  const std::uint64_t second = fill(pool, 0, ctx);
  // The second's excess stops at alpha x what the first left: 23 000 = 90 000 - 45 000 - 22 000
  // (admitted at 22 000, as 23 000 <= 90 000 - 45 000 - 22 000), plus its reserve.
  EXPECT_EQ(second, 24'000u);
  EXPECT_FALSE(pool.admits(first, 1000));
  EXPECT_EQ(pool.threshold_bytes(), 22'000);
  pool.change(first, 1000, ctx);  // the first drains to its reservation
  EXPECT_TRUE(pool.admits(second, 1000));
  EXPECT_EQ(pool.used_bytes(), 1000 + second);
  EXPECT_EQ(pool.max_used_bytes(), first + second);
}

NetworkSpec incast(std::uint64_t private_bytes, std::uint64_t pool_bytes) {
  NetworkSpec spec;
  spec.topology = testing::star_topology(9, LinkSpec{gbps(1), us(5)});
  spec.format = testing::plain_format(1000);
  spec.switches.buffer_bytes = private_bytes;
  spec.switches.shared_buffer.bytes = pool_bytes;
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.min_rto = ms(1);
  spec.transport.tcp.handshake = false;
  spec.workload = make_incast(IncastSpec{8, 8, 8000, {}}, 9, "workload");
  return spec;
}

TEST(SharedBuffer, AnIncastDropsLessWithAPoolOfThePrivateBuffersTotal) {
  const std::uint64_t per_port = 16 * 1000;
  const auto private_run = testing::run_network(incast(per_port, 0));
  const auto shared_run = testing::run_network(incast(0, 9 * per_port));
  EXPECT_EQ(private_run.totals.messages_delivered, 8u);
  EXPECT_EQ(shared_run.totals.messages_delivered, 8u);
  EXPECT_GT(private_run.totals.packets_dropped, 0u);
  EXPECT_LT(shared_run.totals.packets_dropped, private_run.totals.packets_dropped / 2);
  EXPECT_LT(shared_run.totals.completion_time_ps, private_run.totals.completion_time_ps);
  // The congested port held more than its private share: alpha S / (1 + alpha) = S / 2.
  std::uint64_t max_queue = 0;
  for (const PortClassRecord& r : shared_run.results.port_classes)
    if (r.node == 9 && r.port == 8) max_queue = r.max_queue_bytes;
  EXPECT_GT(max_queue, per_port);
  EXPECT_LE(max_queue, 9 * per_port / 2 + 1000);
  // The switch's pool record: its size and a peak at least the congested queue's.
  ASSERT_EQ(shared_run.results.switch_buffers.size(), 1u);
  const SwitchBufferRecord& pool = shared_run.results.switch_buffers.front();
  EXPECT_EQ(pool.node, 9u);
  EXPECT_EQ(pool.pool_bytes, 9 * per_port);
  EXPECT_GE(pool.max_used_bytes, max_queue);
  EXPECT_LE(pool.max_used_bytes, pool.pool_bytes);
  EXPECT_TRUE(private_run.results.switch_buffers.empty());
}

// The pool's level at `t` from its change log: the last change at or before t (0 before any).
std::uint64_t pool_level(const std::vector<PoolSample>& log, std::int64_t t) {
  std::uint64_t level = 0;
  for (const PoolSample& s : log)
    if (s.time_ps <= t) level = s.used_bytes;
  return level;
}

// Outputs of the pool and of the classes over time: the change log (queue traces), the pool's
// sampling intervals (each one's highest and time-weighted mean level recomputed from the log) and
// the class time series, whose sums are the class totals.
TEST(SharedBuffer, ThePoolAndTheClassesOverTimeAgreeWithTheirTotals) {
  NetworkSpec spec = incast(0, 9 * 16 * 1000);
  spec.outputs.queue_ports.push_back(PortRef{9, 8});
  const std::int64_t length = us(20).ps();
  spec.outputs.sample_interval_ps = length;
  const auto run = testing::run_network(spec);
  const SwitchBufferRecord& pool = run.results.switch_buffers.at(0);
  const std::vector<PoolSample>& log = run.results.pool_samples;
  ASSERT_GT(log.size(), 100u);
  std::uint64_t log_max = 0;
  for (std::size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(log[i].node, 9u);
    log_max = std::max(log_max, log[i].used_bytes);
    if (i > 0) {
      EXPECT_GE(log[i].time_ps, log[i - 1].time_ps);
    }
  }
  EXPECT_EQ(log_max, pool.max_used_bytes);
  EXPECT_EQ(log.back().used_bytes, 0u);  // all delivered: the pool is empty

  std::uint64_t interval_max = 0;
  ASSERT_FALSE(run.results.pool_interval_samples.empty());
  for (const PoolIntervalSample& r : run.results.pool_interval_samples) {
    interval_max = std::max(interval_max, r.max_used_bytes);
    if (r.intervals != 1) continue;
    const std::int64_t end = r.interval_start_ps + length;
    // The highest level: every change in the interval, even one undone in the same instant,
    // and the level carried into it (unless a change falls on its start).
    std::uint64_t highest = 0;
    bool changes_at_start = false;
    double area = 0;
    std::int64_t at = r.interval_start_ps;
    for (const PoolSample& s : log) {
      if (s.time_ps < r.interval_start_ps || s.time_ps >= end) continue;
      highest = std::max(highest, s.used_bytes);
      changes_at_start = changes_at_start || s.time_ps == r.interval_start_ps;
      if (s.time_ps == at) continue;
      area += static_cast<double>(pool_level(log, at)) * static_cast<double>(s.time_ps - at);
      at = s.time_ps;
    }
    area += static_cast<double>(pool_level(log, at)) * static_cast<double>(end - at);
    if (!changes_at_start) highest = std::max(highest, pool_level(log, r.interval_start_ps - 1));
    EXPECT_EQ(r.max_used_bytes, highest) << r.interval_start_ps;
    EXPECT_NEAR(static_cast<double>(r.mean_used_bytes), area / static_cast<double>(length), 1.0)
        << r.interval_start_ps;
  }
  EXPECT_EQ(interval_max, pool.max_used_bytes);

  for (const PortClassRecord& total : run.results.port_classes) {
    PortClassRecord sum;
    for (const ClassSample& s : run.results.class_samples) {
      if (s.node != total.node || s.port != total.port || s.priority != total.priority) continue;
      sum.packets_sent += s.packets_sent;
      sum.bytes_sent += s.bytes_sent;
      sum.packets_dropped += s.packets_dropped;
      sum.bytes_dropped += s.bytes_dropped;
      sum.ecn_marked += s.ecn_marked;
      sum.max_queue_bytes = std::max(sum.max_queue_bytes, s.max_queue_bytes);
    }
    EXPECT_EQ(sum.packets_sent, total.packets_sent) << total.node << ":" << total.port;
    EXPECT_EQ(sum.bytes_sent, total.bytes_sent);
    EXPECT_EQ(sum.packets_dropped, total.packets_dropped);
    EXPECT_EQ(sum.bytes_dropped, total.bytes_dropped);
    EXPECT_EQ(sum.ecn_marked, total.ecn_marked);
    EXPECT_EQ(sum.max_queue_bytes, total.max_queue_bytes);
  }
  EXPECT_FALSE(run.results.port_classes.empty());
}

}  // namespace
}  // namespace netwarp::netmodels
