// helper_rows and FileQueue: the output files shared out between results.json's thread and a
// helper.
#include "file_share.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <thread>
#include <vector>

namespace netwarp::apps {
namespace {

TEST(HelperRows, TheLargestFilesGoFirstToTheSideWithFewerRows) {
  // The incast's outputs: flows.csv, ports.csv, queues.csv, the two time series, fct_cdf.csv:
  // queues.csv alone outweighs results.json's rows, then the rest go to this thread.
  EXPECT_EQ(helper_rows({64, 130, 95'030, 64'348, 15'215, 64}, 4 * (64 + 130)), 95'030u);
}

TEST(HelperRows, ResultsJsonAloneOutweighsTheTables) {
  // A big permutation: results.json's flows and ports against flows.csv, ports.csv, fct_cdf.csv.
  EXPECT_EQ(helper_rows({1'000'000, 7'000'000, 1'000'000}, 4 * 8'000'000), 9'000'000u);
}

TEST(HelperRows, TheSidesEndWithinTheLargestPiece) {
  std::vector<std::uint64_t> rows;
  for (std::uint64_t i = 1; i <= 40; ++i) rows.push_back((i * 7919) % 1000 + 1);
  const std::uint64_t total = std::accumulate(rows.begin(), rows.end(), 0ull);
  for (const std::uint64_t json : {0ull, 500ull, 5'000ull, 50'000ull}) {
    const std::uint64_t helper = helper_rows(rows, json);
    ASSERT_LE(helper, total) << json;
    const std::uint64_t here = json + total - helper;
    // Each file to the lighter side: the sides end no further apart than the largest file or
    // results.json's rows, whichever is more.
    const std::uint64_t largest = std::max(json, *std::max_element(rows.begin(), rows.end()));
    EXPECT_LE(here > helper ? here - helper : helper - here, largest) << json;
  }
}

TEST(HelperRows, NoFilesLeaveTheHelperNothing) {
  EXPECT_EQ(helper_rows({}, 100), 0u);
}

TEST(FileQueue, HandsOutTheLargestFirstEqualOnesInTheirOrder) {
  FileQueue queue({10, 95'030, 64'349, 10, 15'216, 0});
  std::vector<std::size_t> taken;
  while (const std::optional<std::size_t> i = queue.take()) taken.push_back(*i);
  EXPECT_EQ(taken, (std::vector<std::size_t>{1, 2, 4, 0, 3, 5}));
  EXPECT_FALSE(queue.take().has_value());
}

TEST(FileQueue, TwoThreadsTakeEveryFileOnce) {
  const std::vector<std::uint64_t> rows(10'000, 1);
  FileQueue queue(rows);
  std::vector<int> times(rows.size(), 0);
  std::vector<std::size_t> first, second;
  const auto drain = [&](std::vector<std::size_t>& into) {
    while (const std::optional<std::size_t> i = queue.take()) into.push_back(*i);
  };
  std::thread other([&] { drain(second); });
  drain(first);
  other.join();
  for (const std::size_t i : first) ++times[i];
  for (const std::size_t i : second) ++times[i];
  EXPECT_TRUE(std::all_of(times.begin(), times.end(), [](int n) { return n == 1; }));
}

TEST(FileQueue, HandsOutNothingOnceStopped) {
  FileQueue queue({3, 2, 1});
  EXPECT_EQ(queue.take(), std::optional<std::size_t>(0));
  queue.stop();
  EXPECT_FALSE(queue.take().has_value());
}

}  // namespace
}  // namespace netwarp::apps
