// RowChannel: rows of results.json's tables handed from the thread that builds them to the
// thread that writes results.json, in batches.
//
// Where a big run writes its outputs on two threads, results.json's is the critical path (the
// 100^3 permutation: 16.1 s against 10.8 s for every other file). The helper that writes
// flows.csv and ports.csv builds the same rows anyway; through the channel it builds each row
// once and results.json's thread only lays out its text.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

#include "table_row.hpp"

namespace netwarp::apps {

class RowChannel {
 public:
  // Thrown by either side once the other cancelled (it failed): stop, and let the one that
  // failed report why.
  struct Cancelled {};

  // `batches` batches of `rows_per_batch` rows (both at least 1): the most rows the writer
  // builds ahead.
  RowChannel(std::size_t batches, std::size_t rows_per_batch);

  // Writer: a row of the current table; a full batch goes to the reader, then the writer waits
  // while every batch is the reader's.
  void put(const TableRow& row);
  // Writer: the current table ends (the reader's read_table returns after its last row).
  void end_table() { hand_over(true); }

  // Reader: `fn(row)` for each row of the next table, in order, until its end.
  template <class Fn>
  void read_table(Fn&& fn) {
    for (bool ends = false; !ends;) {
      const Batch& batch = wait_for_batch();
      for (const TableRow& row : batch.rows) fn(row);
      ends = batch.ends_table;
      release_batch();
    }
  }

  // Either side's failure: the other's next call throws Cancelled, waits included.
  void cancel();

 private:
  struct Batch {
    std::vector<TableRow> rows;
    bool ends_table = false;
  };
  void hand_over(bool ends_table);
  const Batch& wait_for_batch();
  void release_batch();

  std::vector<Batch> batches_;  // a ring: the writer fills batches_[write_], the reader reads
  std::size_t rows_per_batch_;  // batches_[read_]
  std::size_t write_ = 0;
  std::size_t read_ = 0;
  std::mutex mutex_;  // guards full_ and cancelled_
  std::condition_variable changed_;
  std::size_t full_ = 0;  // batches handed over and not yet released by the reader
  bool cancelled_ = false;
};

}  // namespace netwarp::apps
