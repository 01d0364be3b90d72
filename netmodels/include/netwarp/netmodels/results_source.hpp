// ResultsSource: a network run's committed records in canonical order, read one record at a
// time, so outputs are streamed instead of held. One sorted NetworkResults in memory (a short run
// on one rank), the per-rank part files every rank wrote from its own sorted records
// (write_result_parts, or SpillingResults::finish when records were spilled during the run), or
// each rank's spilled runs and sorted buffer (one rank, or partitions as threads of one process),
// merged on the fly: rank 0 holds a buffer per rank and table, never the whole run.
//
//   local.sort();
//   write_result_parts(local, dir, rank);          // every rank, its own records
//   ... barrier ...
//   ResultsSource all(dir, ranks);                  // rank 0
//   for (auto flows = all.open<FlowRecord>(); const FlowRecord* f = flows.peek(); flows.pop())
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "netwarp/netmodels/network_results.hpp"

namespace netwarp::netmodels {

// The canonical order of each record table (NetworkResults::sort) and its part-file name.
template <class R>
struct RecordOrder;
template <>
struct RecordOrder<DeliveryRecord> {
  static constexpr const char* kName = "deliveries";
  static bool less(const DeliveryRecord& a, const DeliveryRecord& b) {
    return a.message < b.message;
  }
};
// A workload's flows have a record each; an MPI job's connections (kConnectionFlowBit) one per
// sender and peer, `flow` naming the peer: the sender breaks the tie, so the order is total and
// the same on any number of ranks.
template <>
struct RecordOrder<FlowRecord> {
  static constexpr const char* kName = "flows";
  static bool less(const FlowRecord& a, const FlowRecord& b) {
    return std::tie(a.flow, a.src) < std::tie(b.flow, b.src);
  }
};
template <>
struct RecordOrder<PortRecord> {
  static constexpr const char* kName = "ports";
  static bool less(const PortRecord& a, const PortRecord& b) {
    return std::tie(a.node, a.port) < std::tie(b.node, b.port);
  }
};
// Samples and traces sort stably: those of one port (node, flow) at one instant keep the order
// their LP emitted them in. One LP's records are all on one rank, so a merge that takes the
// lower rank on a tie keeps that order too.
template <>
struct RecordOrder<QueueSample> {
  static constexpr const char* kName = "queue_samples";
  static bool less(const QueueSample& a, const QueueSample& b) {
    return std::tie(a.node, a.port, a.time_ps) < std::tie(b.node, b.port, b.time_ps);
  }
};
template <>
struct RecordOrder<PacketTrace> {
  static constexpr const char* kName = "packet_traces";
  static bool less(const PacketTrace& a, const PacketTrace& b) {
    return std::tie(a.node, a.time_ps) < std::tie(b.node, b.time_ps);
  }
};
template <>
struct RecordOrder<CwndSample> {
  static constexpr const char* kName = "cwnd_samples";
  static bool less(const CwndSample& a, const CwndSample& b) {
    return std::tie(a.flow, a.time_ps) < std::tie(b.flow, b.time_ps);
  }
};
template <>
struct RecordOrder<ReceiverRecord> {
  static constexpr const char* kName = "receivers";
  static bool less(const ReceiverRecord& a, const ReceiverRecord& b) {
    return std::tie(a.flow, a.src) < std::tie(b.flow, b.src);
  }
};

template <>
struct RecordOrder<PortSample> {
  static constexpr const char* kName = "port_samples";
  static bool less(const PortSample& a, const PortSample& b) {
    return std::tie(a.node, a.port, a.interval_start_ps) <
           std::tie(b.node, b.port, b.interval_start_ps);
  }
};
template <>
struct RecordOrder<FlowSample> {
  static constexpr const char* kName = "flow_samples";
  static bool less(const FlowSample& a, const FlowSample& b) {
    return std::tie(a.flow, a.interval_start_ps) < std::tie(b.flow, b.interval_start_ps);
  }
};

template <>
struct RecordOrder<PortClassRecord> {
  static constexpr const char* kName = "port_classes";
  static bool less(const PortClassRecord& a, const PortClassRecord& b) {
    return std::tie(a.node, a.port, a.priority) < std::tie(b.node, b.port, b.priority);
  }
};

template <>
struct RecordOrder<SwitchBufferRecord> {
  static constexpr const char* kName = "switch_buffers";
  static bool less(const SwitchBufferRecord& a, const SwitchBufferRecord& b) {
    return a.node < b.node;
  }
};

template <>
struct RecordOrder<PoolSample> {
  static constexpr const char* kName = "pool_samples";
  static bool less(const PoolSample& a, const PoolSample& b) {
    return std::tie(a.node, a.time_ps) < std::tie(b.node, b.time_ps);
  }
};

template <>
struct RecordOrder<PoolIntervalSample> {
  static constexpr const char* kName = "pool_interval_samples";
  static bool less(const PoolIntervalSample& a, const PoolIntervalSample& b) {
    return std::tie(a.node, a.interval_start_ps) < std::tie(b.node, b.interval_start_ps);
  }
};

template <>
struct RecordOrder<ClassSample> {
  static constexpr const char* kName = "class_samples";
  static bool less(const ClassSample& a, const ClassSample& b) {
    return std::tie(a.node, a.port, a.priority, a.interval_start_ps) <
           std::tie(b.node, b.port, b.priority, b.interval_start_ps);
  }
};

template <>
struct RecordOrder<DropRecord> {
  static constexpr const char* kName = "drops";
  static bool less(const DropRecord& a, const DropRecord& b) {
    return std::tie(a.time_ps, a.node, a.port, a.flow, a.stream, a.wire_bytes) <
           std::tie(b.time_ps, b.node, b.port, b.flow, b.stream, b.wire_bytes);
  }
};

// The file of table R of the records whose files share `stem`.
template <class R>
std::string table_path(const std::string& stem) {
  return stem + "." + RecordOrder<R>::kName;
}
// The stem of the files rank `rank` writes its tables to.
inline std::string part_stem(const std::string& dir, int rank) {
  return dir + "/rank" + std::to_string(rank);
}
// The file rank `rank` writes table `R` to.
template <class R>
std::string part_path(const std::string& dir, int rank) {
  return table_path<R>(part_stem(dir, rank));
}

// Writes `records` raw into `path` (replacing it); throws std::runtime_error naming the file
// when it cannot.
template <class R>
void write_record_file(const std::vector<R>& records, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(records.data()),
            static_cast<std::streamsize>(records.size() * sizeof(R)));
  out.close();
  if (!out) throw std::runtime_error(path + ": cannot write a results part file");
}

// Writes every table of `sorted` (NetworkResults::sort done) as raw records into
// DIR/rank<rank>.<table>; throws std::runtime_error naming the file when it cannot.
void write_result_parts(const NetworkResults& sorted, const std::string& dir, int rank);
// Removes the part files of `ranks` ranks from `dir`.
void remove_result_parts(const std::string& dir, int ranks);

// One sorted sequence of records: a span in memory, or a part file read in chunks.
template <class R>
class RecordRun {
 public:
  explicit RecordRun(std::span<const R> records) : records_(records) {}
  explicit RecordRun(const std::string& path);

  const R* peek() {
    if (at_ == records_.size() && !refill()) return nullptr;
    return &records_[at_];
  }
  void pop() { ++at_; }

 private:
  // Records read at a time: 64 KiB, so a merge of many runs holds little.
  static constexpr std::size_t kChunk =
      std::max<std::size_t>(1, (std::size_t{64} << 10) / sizeof(R));
  bool refill();
  std::span<const R> records_;
  std::size_t at_ = 0;
  std::unique_ptr<std::ifstream> file_;  // null: records_ is all there is
  std::vector<R> buffer_;
};

// Several sorted runs merged into one sorted sequence; on a tie the earlier run (lower rank)
// first. The run chosen stays chosen while its records come before the least of the others,
// which do not move meanwhile: runs spilled one after another in time hold a port's (a flow's)
// records in one stretch each, so a record costs one comparison, not one per run.
template <class R>
class MergedRecords {
 public:
  explicit MergedRecords(std::vector<RecordRun<R>> runs) : runs_(std::move(runs)) {}
  const R* peek() {
    if (!chosen_) choose();
    return chosen_ ? chosen_->peek() : nullptr;
  }
  void pop() {
    if (!chosen_) choose();
    if (!chosen_) return;
    chosen_->pop();
    const R* next = chosen_->peek();
    if (next == nullptr || !comes_first(*next)) chosen_ = nullptr;
  }

 private:
  void choose() {
    chosen_ = nullptr;
    std::size_t chosen_at = 0;
    const R* best = nullptr;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const R* r = runs_[i].peek();
      if (r != nullptr && (best == nullptr || RecordOrder<R>::less(*r, *best))) {
        best = r;
        chosen_ = &runs_[i];
        chosen_at = i;
      }
    }
    others_least_ = nullptr;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const R* r = i == chosen_at ? nullptr : runs_[i].peek();
      if (r != nullptr && (others_least_ == nullptr || RecordOrder<R>::less(*r, *others_least_))) {
        others_least_ = r;
        others_least_later_ = i > chosen_at;
      }
    }
  }
  // Whether the chosen run's next record is still the merge's next: before the others' least,
  // or equal to it where that lies in a later run.
  bool comes_first(const R& next) const {
    if (others_least_ == nullptr) return true;
    return others_least_later_ ? !RecordOrder<R>::less(*others_least_, next)
                               : RecordOrder<R>::less(next, *others_least_);
  }
  std::vector<RecordRun<R>> runs_;
  RecordRun<R>* chosen_ = nullptr;
  const R* others_least_ = nullptr;  // the least record of the runs not chosen, if any
  bool others_least_later_ = false;  // in a run after the chosen one
};

// Every run of every part merged as one sorted sequence, the earlier rank, then the earlier run,
// first on a tie: what the part files of the same ranks would give.
class ResultsSource {
 public:
  // One rank's records: sorted runs of files, table R of each in
  // STEM.<RecordOrder<R>::kName>, oldest first, then `newest` (a sorted NetworkResults kept by
  // reference, or null).
  struct Part {
    std::vector<std::string> stems;
    const NetworkResults* newest = nullptr;
  };

  // A sorted NetworkResults (kept by reference).
  explicit ResultsSource(const NetworkResults& sorted) : parts_{Part{{}, &sorted}} {}
  // The part files of `ranks` ranks in `dir`.
  ResultsSource(const std::string& dir, int ranks);
  // One rank's spilled runs and its buffer, read without merging them into part files first.
  ResultsSource(std::vector<std::string> stems, const NetworkResults* newest)
      : parts_{Part{std::move(stems), newest}} {}
  // Several ranks' records in rank order (partitions of one process, handed over in memory).
  explicit ResultsSource(std::vector<Part> parts) : parts_(std::move(parts)) {}

  template <class R>
  MergedRecords<R> open() const;
  // How many records of table R there are, from the files' sizes: none is read.
  template <class R>
  std::uint64_t count() const;

  // Totals as NetworkResults::totals gives them for the whole run.
  NetworkTotals totals(const Workload& workload) const;
  std::int64_t busy_span() const;  // the last bit any port sent

 private:
  std::vector<Part> parts_;  // by rank
};

// The FlowRecords joined with their deliveries and their receivers' counters: one row per
// message, in flow order, as results.json and flows.csv list them.
class FlowRows {
 public:
  explicit FlowRows(const ResultsSource& source);
  struct Row {
    FlowRecord flow;            // ooo_discarded_segments joined from the receiver
    std::int64_t delivered_ps;  // -1: not delivered
  };
  bool next(Row& row);

 private:
  MergedRecords<FlowRecord> flows_;
  MergedRecords<DeliveryRecord> deliveries_;
  MergedRecords<ReceiverRecord> receivers_;
};

}  // namespace netwarp::netmodels
