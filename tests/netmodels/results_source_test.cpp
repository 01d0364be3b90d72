// ResultsSource: the part files of several ranks, merged as they are read, give the records of
// the whole run in NetworkResults::sort's order (ties in the rank order, which is each LP's own
// order), flow rows joined with deliveries and receivers, and the same totals.
#include "netwarp/netmodels/results_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "results_test_support.hpp"

namespace netwarp::netmodels {
namespace {

FlowRecord flow(MessageId id, NodeId src) {
  FlowRecord f;
  f.flow = id;
  f.src = src;
  f.bytes = 1000 + id;
  f.timeouts = id % 2;
  return f;
}

PortRecord port(NodeId node, PortIndex index, std::int64_t busy_until, std::uint64_t dropped) {
  PortRecord p;
  p.node = node;
  p.port = index;
  p.packets_sent = 1;
  p.packets_dropped = dropped;
  p.busy_until_ps = busy_until;
  return p;
}

QueueSample sample(NodeId node, std::int64_t time, std::uint64_t bytes) {
  QueueSample s;
  s.node = node;
  s.time_ps = time;
  s.bytes = bytes;
  return s;
}

// Two ranks' records, each in the order its LPs emitted them: host 0 and switch 4 on rank 0,
// hosts 1..3 on rank 1. Flow 1 goes from host 1 to host 0, so its delivery and its receiver's
// record are on the other rank.
NetworkResults rank0() {
  NetworkResults r;
  r.flows = {flow(0, 0), flow(2, 0)};
  r.deliveries = {DeliveryRecord{1, 0, 700}};
  r.receivers = {ReceiverRecord{1, 1, 0, 0, 5}};
  r.ports = {port(4, 1, 900, 2), port(0, 0, 300, 0)};
  r.queue_samples = {sample(4, 10, 1), sample(4, 10, 2), sample(4, 5, 3)};
  return r;
}

NetworkResults rank1() {
  NetworkResults r;
  r.flows = {flow(3, 2), flow(1, 1)};
  r.deliveries = {DeliveryRecord{2, 3, 400}, DeliveryRecord{0, 1, 500}};
  r.ports = {port(1, 0, 200, 0), port(3, 0, 100, 1)};
  r.queue_samples = {sample(1, 10, 7)};
  return r;
}

Workload workload() {
  Workload w;
  for (MessageId id = 0; id < 4; ++id) {
    Message m;
    m.id = id;
    m.src = id % 3;
    m.dst = 3 - id;
    m.bytes = 100 * id + 1;
    w.messages.push_back(m);
  }
  return w;
}

NetworkResults whole_run() {
  NetworkResults all;
  all.append_bytes(rank0().to_bytes());
  all.append_bytes(rank1().to_bytes());
  all.sort();
  return all;
}

using testing::expect_same;
using testing::read_all;

class PartFiles : public testing::FolderPerTest {
 protected:
  PartFiles() : FolderPerTest("results_source_test") {}
  void SetUp() override {
    FolderPerTest::SetUp();
    NetworkResults r0 = rank0();
    NetworkResults r1 = rank1();
    r0.sort();
    r1.sort();
    write_result_parts(r0, dir_, 0);
    write_result_parts(r1, dir_, 1);
  }
};

TEST_F(PartFiles, MergeGivesTheWholeRunInCanonicalOrder) {
  const ResultsSource merged(dir_, 2);
  const NetworkResults all = whole_run();
  expect_same(read_all<DeliveryRecord>(merged), all.deliveries);
  expect_same(read_all<PortRecord>(merged), all.ports);
  expect_same(read_all<QueueSample>(merged), all.queue_samples);
  expect_same(read_all<ReceiverRecord>(merged), all.receivers);
  // Samples of one port at one instant keep their emission order (1 before 2).
  const auto samples = read_all<QueueSample>(merged);
  ASSERT_EQ(samples.size(), 4u);
  EXPECT_EQ(samples[2].bytes, 1u);
  EXPECT_EQ(samples[3].bytes, 2u);
}

TEST_F(PartFiles, FlowRowsJoinDeliveriesAndReceiversAcrossRanks) {
  const ResultsSource merged(dir_, 2);
  FlowRows rows(merged);
  std::vector<std::int64_t> delivered;
  std::vector<std::uint64_t> ooo;
  for (FlowRows::Row row; rows.next(row);) {
    EXPECT_EQ(row.flow.flow, delivered.size());
    delivered.push_back(row.delivered_ps);
    ooo.push_back(row.flow.ooo_discarded_segments);
  }
  EXPECT_EQ(delivered, (std::vector<std::int64_t>{500, 700, 400, -1}));
  EXPECT_EQ(ooo, (std::vector<std::uint64_t>{0, 5, 0, 0}));
}

TEST_F(PartFiles, TotalsAndSpanEqualTheWholeRuns) {
  const ResultsSource merged(dir_, 2);
  const NetworkResults all = whole_run();
  const NetworkTotals a = merged.totals(workload());
  const NetworkTotals b = all.totals(workload());
  EXPECT_EQ(a.messages_delivered, 3u);
  EXPECT_EQ(a.messages_delivered, b.messages_delivered);
  EXPECT_EQ(a.completion_time_ps, b.completion_time_ps);
  EXPECT_EQ(a.bytes_delivered, b.bytes_delivered);
  EXPECT_EQ(a.packets_dropped, 3u);
  EXPECT_EQ(a.packets_dropped, b.packets_dropped);
  EXPECT_EQ(a.retransmission_timeouts, b.retransmission_timeouts);
  EXPECT_EQ(a.ooo_discarded_segments, 5u);
  EXPECT_EQ(merged.busy_span(), 900);
}

// count<R> gives, from the files' sizes, the records open<R> reads: over part files, over one
// rank's spilled runs and its buffer, and in memory.
template <class R>
void expect_counted_as_read(const ResultsSource& source) {
  EXPECT_EQ(source.count<R>(), read_all<R>(source).size()) << RecordOrder<R>::kName;
}

void expect_every_table_counted_as_read(const ResultsSource& source) {
  for_each_record_type([&]<class R>(std::type_identity<R>) { expect_counted_as_read<R>(source); });
}

TEST_F(PartFiles, CountsTheRecordsItReads) {
  const ResultsSource merged(dir_, 2);
  EXPECT_EQ(merged.count<QueueSample>(), 4u);
  EXPECT_EQ(merged.count<FlowRecord>(), 4u);
  EXPECT_EQ(merged.count<CwndSample>(), 0u);
  expect_every_table_counted_as_read(merged);
  NetworkResults buffer = rank1();
  buffer.sort();
  const ResultsSource spilled({part_stem(dir_, 0), part_stem(dir_, 1)}, &buffer);
  EXPECT_EQ(spilled.count<QueueSample>(), 5u);
  expect_every_table_counted_as_read(spilled);
}

TEST(ResultsSourceInMemory, ReadsTheSortedTablesAsTheyAre) {
  const NetworkResults all = whole_run();
  const ResultsSource source(all);
  expect_same(read_all<FlowRecord>(source), all.flows);
  expect_same(read_all<PortRecord>(source), all.ports);
  EXPECT_EQ(source.busy_span(), 900);
  EXPECT_EQ(source.count<PortRecord>(), 4u);
  expect_every_table_counted_as_read(source);
}

// Runs of records sorted each, with many equal keys within and across runs (the bytes tell
// the records apart): the merge gives them in one sorted order, on a tie the earlier run's first,
// as a stable sort of the runs one after another does.
TEST(MergedRecords, IsTheStableSortOfTheRunsInTheirOrder) {
  std::mt19937 random(5);
  for (int round = 0; round < 50; ++round) {
    const int runs = 1 + round % 5;
    std::vector<std::vector<QueueSample>> sorted(static_cast<std::size_t>(runs));
    std::vector<QueueSample> all;
    std::uint64_t tag = 0;
    for (auto& run : sorted) {
      const int size = static_cast<int>(random() % 200);
      for (int i = 0; i < size; ++i) {
        // Keys from a small range (ties), or a stretch of one run alone (long runs of one).
        const NodeId node =
            round % 3 == 0 ? static_cast<NodeId>(&run - sorted.data()) : random() % 3;
        run.push_back(sample(node, static_cast<std::int64_t>(random() % 4), ++tag));
      }
      std::stable_sort(run.begin(), run.end(), RecordOrder<QueueSample>::less);
      all.insert(all.end(), run.begin(), run.end());
    }
    std::stable_sort(all.begin(), all.end(), RecordOrder<QueueSample>::less);
    std::vector<RecordRun<QueueSample>> inputs;
    for (const auto& run : sorted) inputs.emplace_back(std::span<const QueueSample>(run));
    MergedRecords<QueueSample> merged(std::move(inputs));
    std::vector<QueueSample> out;
    for (; const QueueSample* r = merged.peek(); merged.pop()) out.push_back(*r);
    ASSERT_EQ(out.size(), all.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i].bytes, all[i].bytes) << "round " << round << ", record " << i;
  }
}

void feed(engine::RecordSink& sink, const PortRecord& record) {
  sink.write(engine::CommittedRecord{7, engine::EventKey{}, engine::tag_of<PortRecord>,
                                     std::as_bytes(std::span(&record, 1))});
}

TEST(NetworkResultsIdlePorts, AreSkippedOnlyWhenAsked) {
  PortRecord idle;
  idle.node = 7;
  NetworkResults keep;
  feed(keep, idle);
  EXPECT_EQ(keep.ports.size(), 1u);
  NetworkResults skip;
  skip.skip_idle_ports = true;
  feed(skip, idle);
  feed(skip, port(1, 0, 10, 0));
  ASSERT_EQ(skip.ports.size(), 1u);
  EXPECT_EQ(skip.ports[0].node, 1u);
}

}  // namespace
}  // namespace netwarp::netmodels
