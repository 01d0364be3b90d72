// SpillingResults: committed records buffered up to a bound, spilled as sorted runs, merged.
#include "netwarp/netmodels/spilling_results.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

#include "netwarp/netmodels/results_source.hpp"

namespace netwarp::netmodels {

namespace {

std::string run_stem(const std::string& dir, int rank, std::size_t run) {
  return part_stem(dir, rank) + ".run" + std::to_string(run);
}

// Run `run` of `rank`'s table R; `suffix` names a merge still being written.
template <class R>
std::string run_path(const std::string& dir, int rank, std::size_t run, const char* suffix = "") {
  return table_path<R>(run_stem(dir, rank, run)) + suffix;
}

void check_written(const std::ofstream& out, const std::string& path) {
  if (!out) throw std::runtime_error(path + ": cannot write a results part file");
}

// Streams the merge of `inputs` (sorted runs, oldest first) into `path`.
template <class R>
void merge_files(const std::vector<std::string>& inputs, const std::string& path) {
  std::vector<RecordRun<R>> runs;
  for (const std::string& input : inputs) runs.emplace_back(input);
  MergedRecords<R> merged(std::move(runs));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  constexpr std::size_t kBatch = std::max<std::size_t>(1, (std::size_t{64} << 10) / sizeof(R));
  std::vector<R> batch;
  batch.reserve(kBatch);
  const auto flush = [&] {
    out.write(reinterpret_cast<const char*>(batch.data()),
              static_cast<std::streamsize>(batch.size() * sizeof(R)));
    batch.clear();
  };
  for (; const R* r = merged.peek(); merged.pop()) {
    batch.push_back(*r);
    if (batch.size() == kBatch) flush();
  }
  flush();
  out.close();
  check_written(out, path);
}

void rename_file(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    throw std::runtime_error(to + ": cannot write a results part file");
}

}  // namespace

SpillingResults::SpillingResults(std::string dir, int rank, std::size_t limit_bytes)
    : dir_(std::move(dir)), rank_(rank), limit_bytes_(limit_bytes) {}

void SpillingResults::write(const engine::CommittedRecord& record) {
  buffer_.write(record);
  held_bytes_ = buffer_.bytes_held();
  if (held_bytes_ < limit_bytes_ || !error_.empty()) return;
  try {
    spill();
  } catch (const std::exception& e) {
    error_ = e.what();  // records stay in memory from here on; finish() reports it
  }
}

void SpillingResults::finish() {
  if (!error_.empty()) throw std::runtime_error(error_);
  if (held_bytes_ > 0 || levels_.empty()) {
    write_run();
    levels_.push_back(0);
  }
  while (levels_.size() > 1) merge_last_runs(std::min(kFanIn, levels_.size()));
  for_each_record_type([&]<class R>(std::type_identity<R>) {
    rename_file(run_path<R>(dir_, rank_, 0), part_path<R>(dir_, rank_));
  });
  levels_.clear();
}

std::vector<std::string> SpillingResults::finish_in_place() {
  if (!error_.empty()) throw std::runtime_error(error_);
  buffer_.sort();
  std::vector<std::string> stems;
  for (std::size_t run = 0; run < levels_.size(); ++run)
    stems.push_back(run_stem(dir_, rank_, run));
  return stems;
}

void SpillingResults::spill() {
  write_run();
  ++spills_;
  levels_.push_back(0);
  merge_full_levels();
}

// The buffer, sorted, as the next run; then an empty buffer (its memory released). The folder is
// made with the first run: a run that never spills on one rank leaves no trace on disk.
void SpillingResults::write_run() {
  buffer_.sort();
  const std::size_t run = levels_.size();
  std::error_code ec;
  if (run == 0 && !std::filesystem::create_directories(dir_, ec) && ec)
    throw std::runtime_error(dir_ +
                             ": cannot make the folder of results part files: " + ec.message());
  buffer_.for_each_table([&]<class R>(const std::vector<R>& table) {
    write_record_file(table, run_path<R>(dir_, rank_, run));
  });
  const bool skip_idle_ports = buffer_.skip_idle_ports;
  buffer_ = NetworkResults{};
  buffer_.skip_idle_ports = skip_idle_ports;
  held_bytes_ = 0;
}

// kFanIn runs of one level become one run of the next, as a counter carries.
void SpillingResults::merge_full_levels() {
  while (levels_.size() >= kFanIn) {
    const int level = levels_.back();
    for (std::size_t i = levels_.size() - kFanIn; i < levels_.size(); ++i)
      if (levels_[i] != level) return;
    merge_last_runs(kFanIn);
  }
}

void SpillingResults::merge_last_runs(std::size_t count) {
  const std::size_t first = levels_.size() - count;
  for_each_record_type([&]<class R>(std::type_identity<R>) {
    std::vector<std::string> inputs;
    for (std::size_t run = first; run < levels_.size(); ++run)
      inputs.push_back(run_path<R>(dir_, rank_, run));
    const std::string merged = run_path<R>(dir_, rank_, first, ".merging");
    merge_files<R>(inputs, merged);
    for (const std::string& input : inputs) std::remove(input.c_str());
    rename_file(merged, inputs.front());
  });
  const int level = levels_[first] + 1;
  levels_.resize(first);
  levels_.push_back(level);
}

}  // namespace netwarp::netmodels
