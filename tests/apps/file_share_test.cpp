// share_out and FileQueue: the output files shared out between results.json's thread and a
// helper.
#include "file_share.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <thread>
#include <vector>

namespace netwarp::apps {
namespace {

std::uint64_t rows_on(const std::vector<std::uint64_t>& rows, const FileShare& share, bool helper) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (share.on_helper[i] == helper) sum += rows[i];
  return sum;
}

TEST(FileShare, TheLargestFilesGoFirstToTheSideWithFewerRows) {
  // The incast's outputs: flows.csv, ports.csv, queues.csv, the two time series, fct_cdf.csv.
  const std::vector<std::uint64_t> rows{64, 130, 95'030, 64'348, 15'215, 64};
  const FileShare share = share_out(rows, 4 * (64 + 130));
  EXPECT_EQ(share.on_helper, (std::vector<bool>{false, false, true, false, false, false}));
  EXPECT_EQ(share.helper_rows, 95'030u);
  EXPECT_EQ(rows_on(rows, share, false), 64'348u + 15'215 + 64 + 130 + 64);
}

TEST(FileShare, ResultsJsonAloneOutweighsTheTables) {
  // A big permutation: results.json's flows and ports against flows.csv, ports.csv, fct_cdf.csv.
  const std::vector<std::uint64_t> rows{1'000'000, 7'000'000, 1'000'000};
  const FileShare share = share_out(rows, 4 * 8'000'000);
  EXPECT_EQ(share.on_helper, (std::vector<bool>{true, true, true}));
  EXPECT_EQ(share.helper_rows, 9'000'000u);
}

TEST(FileShare, EveryFileIsWrittenOnceAndTheSidesEndWithinTheLargestPiece) {
  std::vector<std::uint64_t> rows;
  for (std::uint64_t i = 1; i <= 40; ++i) rows.push_back((i * 7919) % 1000 + 1);
  for (const std::uint64_t json : {0ull, 500ull, 5'000ull, 50'000ull}) {
    const FileShare share = share_out(rows, json);
    ASSERT_EQ(share.on_helper.size(), rows.size());
    const std::uint64_t helper = rows_on(rows, share, true);
    const std::uint64_t here = json + rows_on(rows, share, false);
    EXPECT_EQ(share.helper_rows, helper);
    EXPECT_EQ(helper + here, json + std::accumulate(rows.begin(), rows.end(), 0ull));
    // Each file to the lighter side: the sides end no further apart than the largest file or
    // results.json's rows, whichever is more.
    const std::uint64_t largest = std::max(json, *std::max_element(rows.begin(), rows.end()));
    EXPECT_LE(here > helper ? here - helper : helper - here, largest) << json;
  }
}

TEST(FileShare, NoFilesLeaveTheHelperNothing) {
  const FileShare share = share_out({}, 100);
  EXPECT_TRUE(share.on_helper.empty());
  EXPECT_EQ(share.helper_rows, 0u);
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
