// SpillingResults: the buffer is written as a sorted run when it reaches its bound, runs are
// merged as they pile up, and the part files it leaves read back exactly as the whole run sorted
// in memory (samples of one port at one instant in their emission order).
#include "netwarp/netmodels/spilling_results.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "netwarp/netmodels/results_source.hpp"
#include "results_test_support.hpp"

namespace netwarp::netmodels {
namespace {

template <class R>
void feed(engine::RecordSink& sink, const R& record) {
  sink.write(engine::CommittedRecord{7, engine::EventKey{}, engine::tag_of<R>,
                                     std::as_bytes(std::span(&record, 1))});
}

// The i-th sample a switch emits: five ports, several samples per instant, told apart by
// `packets` (the emission order).
QueueSample sample(std::uint64_t i) {
  QueueSample s;
  s.node = static_cast<NodeId>(i % 5);
  s.time_ps = static_cast<std::int64_t>(i / 15);
  s.bytes = i % 7;
  s.packets = i;
  return s;
}

FlowRecord flow(MessageId id) {
  FlowRecord f;
  f.flow = id;
  f.src = id % 3;
  f.bytes = 100 + id;
  return f;
}

using testing::expect_same;
using testing::read_all;

class SpillingResultsTest : public testing::FolderPerTest {
 protected:
  SpillingResultsTest() : FolderPerTest("spilling_results_test") {}
  std::size_t files_in_dir() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir_),
                                                  std::filesystem::directory_iterator()));
  }
};

TEST_F(SpillingResultsTest, WritesTheBufferAsARunWhenItReachesItsBound) {
  SpillingResults local(dir_, 0, 3 * sizeof(QueueSample));
  feed(local, sample(0));
  feed(local, sample(1));
  EXPECT_EQ(local.runs_spilled(), 0u);
  EXPECT_EQ(local.buffer().queue_samples.size(), 2u);
  EXPECT_EQ(files_in_dir(), 0u);
  feed(local, sample(2));
  EXPECT_EQ(local.runs_spilled(), 1u);
  EXPECT_EQ(local.runs_on_disk(), 1u);
  EXPECT_TRUE(local.buffer().queue_samples.empty());
  EXPECT_GT(files_in_dir(), 0u);
}

TEST_F(SpillingResultsTest, PartFilesEqualTheWholeRunSortedInMemory) {
  constexpr std::size_t kBoundRecords = 7;
  SpillingResults local(dir_, 0, kBoundRecords * sizeof(QueueSample));
  NetworkResults reference;
  std::size_t most_runs_on_disk = 0;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    feed(local, sample(i));
    feed(reference, sample(i));
    if (i % 40 == 0) {  // a few flows, out of order, among the samples
      feed(local, flow(static_cast<MessageId>(1000 - i / 40)));
      feed(reference, flow(static_cast<MessageId>(1000 - i / 40)));
    }
    most_runs_on_disk = std::max(most_runs_on_disk, local.runs_on_disk());
  }
  // Far more spills than two levels of merges take, yet few runs on disk at any time.
  EXPECT_GT(local.runs_spilled(), SpillingResults::kFanIn * SpillingResults::kFanIn);
  EXPECT_LT(most_runs_on_disk, 3 * SpillingResults::kFanIn);
  local.finish();
  reference.sort();
  const ResultsSource source(dir_, 1);
  expect_same(read_all<QueueSample>(source), reference.queue_samples);
  expect_same(read_all<FlowRecord>(source), reference.flows);
  expect_same(read_all<PortRecord>(source), reference.ports);
}

TEST_F(SpillingResultsTest, FinishWithoutSpillsWritesTheBufferAsThePartFiles) {
  SpillingResults local(dir_, 1);
  feed(local, sample(3));
  feed(local, sample(1));
  local.finish();
  EXPECT_EQ(local.runs_spilled(), 0u);
  std::ifstream part(part_path<QueueSample>(dir_, 1), std::ios::binary);
  EXPECT_TRUE(part.good());
  NetworkResults empty;
  write_result_parts(empty, dir_, 0);  // rank 0 had nothing
  const auto samples = read_all<QueueSample>(ResultsSource(dir_, 2));
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].packets, 1u);  // node 1 before node 3
  EXPECT_EQ(samples[1].packets, 3u);
}

TEST_F(SpillingResultsTest, RunsAndBufferReadInPlaceEqualTheWholeRunSortedInMemory) {
  SpillingResults local(dir_, 0, 7 * sizeof(QueueSample));
  NetworkResults reference;
  for (std::uint64_t i = 0; i < 300; ++i) {  // dozens of spills, merged as they pile up
    feed(local, sample(i));
    feed(reference, sample(i));
    if (i % 40 == 0) {
      feed(local, flow(static_cast<MessageId>(100 - i / 40)));
      feed(reference, flow(static_cast<MessageId>(100 - i / 40)));
    }
  }
  ASSERT_GT(local.runs_on_disk(), 1u);
  ASSERT_FALSE(local.buffer().queue_samples.empty());
  const ResultsSource source(local.finish_in_place(), &local.buffer());
  reference.sort();
  expect_same(read_all<QueueSample>(source), reference.queue_samples);  // ties across runs
  expect_same(read_all<FlowRecord>(source), reference.flows);
  expect_same(read_all<PortRecord>(source), reference.ports);
}

TEST_F(SpillingResultsTest, MakesItsFolderOnlyWhenItFirstWritesThere) {
  const std::string folder = dir_ + "/parts/of/rank";
  SpillingResults local(folder, 0, 2 * sizeof(QueueSample));
  feed(local, sample(0));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/parts"));
  feed(local, sample(1));  // the first spill
  EXPECT_TRUE(std::filesystem::is_directory(folder));
  EXPECT_EQ(local.runs_on_disk(), 1u);
}

TEST_F(SpillingResultsTest, AFailureToSpillIsReportedAtFinishNotDuringTheRun) {
  { std::ofstream(dir_ + "/file") << "not a folder"; }
  SpillingResults local(dir_ + "/file/missing", 0, sizeof(QueueSample));
  EXPECT_NO_THROW(feed(local, sample(0)));
  EXPECT_NO_THROW(feed(local, sample(1)));
  EXPECT_EQ(local.buffer().queue_samples.size(), 2u);  // kept in memory after the failure
  EXPECT_THROW(local.finish(), std::runtime_error);
  EXPECT_THROW(local.finish_in_place(), std::runtime_error);
}

}  // namespace
}  // namespace netwarp::netmodels
