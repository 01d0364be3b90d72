// SpillingResults: a rank's committed records with bounded memory. Records collect in a
// NetworkResults buffer; once it holds `limit_bytes`, the buffer is sorted and written to disk as
// one sorted run, and emptied. Runs are merged as they pile up (kFanIn runs of one size into one)
// and, at finish(), into this rank's part files (part_path), exactly as if the whole run had been
// sorted in memory: a merge that takes the earlier run on a tie is a stable sort. So a rank holds
// a few times the bound in records (the tables' growth, the sort's buffer, 64 KiB per run merged)
// whatever the length of the run, and ResultsSource reads the part files as before.
//
//   SpillingResults local(dir, rank);            // dir: made with the first run written
//   run_optimistic(model, config, exchange, &local);
//   local.finish();                              // throws std::runtime_error naming a file
//   ... barrier ...
//   ResultsSource all(dir, ranks);               // rank 0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "netwarp/engine/event.hpp"
#include "netwarp/netmodels/network_results.hpp"

namespace netwarp::netmodels {

class SpillingResults final : public engine::RecordSink {
 public:
  static constexpr std::size_t kDefaultLimitBytes = std::size_t{4} << 20;
  static constexpr std::size_t kFanIn = 8;  // runs merged into one at a time

  SpillingResults(std::string dir, int rank, std::size_t limit_bytes = kDefaultLimitBytes);

  // Keeps the record; spills the buffer once it holds the limit. Never throws: a failure to
  // write is kept for finish() (an exception inside one rank's kernel would hang the others).
  void write(const engine::CommittedRecord& record) override;
  // Writes what is left and merges every run into this rank's part files. Throws
  // std::runtime_error naming the file on a failure, now or during the run.
  void finish();
  // One rank's alternative to finish(): sorts the buffer and returns the stems of the runs on
  // disk, oldest first, for ResultsSource(stems, &buffer()), which merges them as it reads
  // instead of writing and reading the merge once more. Throws as finish() does.
  std::vector<std::string> finish_in_place();

  // What is buffered, not spilled yet (idle-port filtering is set here).
  NetworkResults& buffer() { return buffer_; }
  std::size_t runs_spilled() const { return spills_; }  // buffers written during the run
  std::size_t runs_on_disk() const { return levels_.size(); }
  const std::string& dir() const { return dir_; }

 private:
  void spill();
  void write_run();
  void merge_full_levels();
  void merge_last_runs(std::size_t count);

  NetworkResults buffer_;
  std::string dir_;
  int rank_;
  std::size_t limit_bytes_;
  std::size_t held_bytes_ = 0;
  std::size_t spills_ = 0;
  // Each run on disk, oldest first: merged kFanIn^level buffers. Levels never increase along
  // the list, so the runs merged together are always the newest ones, in order.
  std::vector<int> levels_;
  std::string error_;
};

}  // namespace netwarp::netmodels
