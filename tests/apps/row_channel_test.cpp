// RowChannel: rows handed from the thread that builds them to results.json's, in order, and
// either side's failure ending the other's wait.
#include "row_channel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace netwarp::apps {
namespace {

TableRow numbered(std::uint64_t table, std::uint64_t i) {
  TableRow row;
  row.add("table", table);
  row.add("i", i);
  return row;
}

std::string csv_of(const TableRow& row) {
  std::string text;
  row.append_csv(text);
  return text;
}

// Tables of 0, 1, a batch's worth, and more rows than every batch holds: each read whole, in
// order, whatever the batch and ring sizes.
TEST(RowChannel, EveryTableArrivesWholeAndInOrder) {
  const std::vector<std::uint64_t> sizes = {0, 1, 4, 5, 37, 0, 200};
  for (const auto& [batches, per_batch] :
       std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {2, 4}, {3, 7}, {8, 256}}) {
    RowChannel channel(batches, per_batch);
    auto writer = std::async(std::launch::async, [&] {
      for (std::uint64_t t = 0; t < sizes.size(); ++t) {
        for (std::uint64_t i = 0; i < sizes[t]; ++i) channel.put(numbered(t, i));
        channel.end_table();
      }
    });
    for (std::uint64_t t = 0; t < sizes.size(); ++t) {
      std::vector<std::string> got;
      channel.read_table([&](const TableRow& row) { got.push_back(csv_of(row)); });
      ASSERT_EQ(got.size(), sizes[t]) << batches << " x " << per_batch << ", table " << t;
      for (std::uint64_t i = 0; i < sizes[t]; ++i)
        EXPECT_EQ(got[i], csv_of(numbered(t, i))) << batches << " x " << per_batch;
    }
    writer.get();
  }
}

// The writer stays at most the ring's rows ahead: with 2 batches of 3 rows, the 7th row's put
// waits until the reader releases a batch.
TEST(RowChannel, TheWriterWaitsWhileEveryBatchIsFull) {
  RowChannel channel(2, 3);
  std::atomic<int> put{0};
  auto writer = std::async(std::launch::async, [&] {
    for (std::uint64_t i = 0; i < 9; ++i) {
      channel.put(numbered(0, i));
      ++put;
    }
    channel.end_table();
  });
  // Rows 1-5 go in (two batches handed over at rows 3 and 6: the 6th put hands over the second
  // batch and waits there for a free one).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (put.load() < 5 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // room to run past, were it free
  EXPECT_EQ(put.load(), 5);
  int read = 0;
  channel.read_table([&](const TableRow&) { ++read; });
  EXPECT_EQ(read, 9);
  writer.get();
  EXPECT_EQ(put.load(), 9);
}

TEST(RowChannel, TheReadersCancelEndsTheWritersWait) {
  RowChannel channel(1, 2);
  auto writer = std::async(std::launch::async, [&] {
    for (std::uint64_t i = 0;; ++i) channel.put(numbered(0, i));  // waits once the batch is full
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  channel.cancel();
  EXPECT_THROW(writer.get(), RowChannel::Cancelled);
}

TEST(RowChannel, TheWritersCancelEndsTheReadersWait) {
  RowChannel channel(2, 4);
  auto writer = std::async(std::launch::async, [&] {
    channel.put(numbered(0, 0));  // a batch begun, never handed over
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    channel.cancel();
  });
  int read = 0;
  EXPECT_THROW(channel.read_table([&](const TableRow&) { ++read; }), RowChannel::Cancelled);
  EXPECT_EQ(read, 0);
  writer.get();
}

}  // namespace
}  // namespace netwarp::apps
