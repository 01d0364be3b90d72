// ThreadHub: what the partitions run as threads of one process share (thread_exchange.cpp;
// with MPI, mpi_exchange.cpp's hybrid exchange): a locked mailbox per partition (each sender's
// order kept), the blocking collectives at a std::barrier, and GVT's non-blocking reduction as
// arrivals counted on an atomic, with two slot sets used in turn (a partition can start round
// r + 2 only after every partition has started round r + 1, so after every partition has read
// round r's slots).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <span>
#include <vector>

namespace netwarp::engine {

// Messages one after another in one byte buffer, their sizes beside them; taken in order.
class MessageQueue {
 public:
  void add(std::span<const std::byte> bytes) {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    sizes_.push_back(bytes.size());
  }
  bool empty() const { return next_ == sizes_.size(); }
  // The next message, viewed where it lies (until clear() or swap()); false when none is left.
  bool take(std::span<const std::byte>& message) {
    if (empty()) return false;
    message = std::span<const std::byte>(bytes_).subspan(offset_, sizes_[next_]);
    offset_ += sizes_[next_++];
    return true;
  }
  // Forgets every message, keeping the storage up to kKeptBytes: a burst (a partition that
  // waited in a GVT round while the others sent) must not hold its peak for the rest of the run.
  void clear() {
    if (bytes_.capacity() > kKeptBytes) {
      bytes_ = std::vector<std::byte>();  // (`= {}` would assign an empty list, keeping it)
      sizes_ = std::vector<std::size_t>();
    }
    bytes_.clear();
    sizes_.clear();
    next_ = offset_ = 0;
  }
  std::size_t capacity_bytes() const { return bytes_.capacity(); }
  static constexpr std::size_t kKeptBytes = std::size_t{1} << 20;
  void swap(MessageQueue& other) noexcept {
    bytes_.swap(other.bytes_);
    sizes_.swap(other.sizes_);
    std::swap(next_, other.next_);
    std::swap(offset_, other.offset_);
  }

 private:
  std::vector<std::byte> bytes_;
  std::vector<std::size_t> sizes_;
  std::size_t next_ = 0;    // the next message to take
  std::size_t offset_ = 0;  // where it starts
};

// What the partitions of one process share.
class ThreadHub {
 public:
  explicit ThreadHub(int partitions)
      : size_(partitions),
        mailboxes_(static_cast<std::size_t>(partitions)),
        barrier_(partitions),
        values_(static_cast<std::size_t>(partitions)),
        bytes_(static_cast<std::size_t>(partitions)),
        promises_(static_cast<std::size_t>(partitions)) {
    for (auto& set : gvt_slots_) set.resize(static_cast<std::size_t>(partitions));
  }
  int size() const { return size_; }

  // Copies a message into `dest`'s mailbox: the sender keeps its buffer, and the receiver's
  // copy lands in storage the mailbox reuses, so no buffer changes threads.
  void post(int dest, std::span<const std::byte> bytes) {
    Mailbox& box = mailboxes_[static_cast<std::size_t>(dest)];
    const std::lock_guard<std::mutex> lock(box.mutex);
    box.messages.add(bytes);
    box.filled.store(true, std::memory_order_release);
  }
  // A partition's promise for the others, published after the messages it covers (release) and
  // read before the receiver takes its messages (acquire).
  void publish_promise(int rank, std::int64_t ps) {
    promises_[static_cast<std::size_t>(rank)].value.store(ps, std::memory_order_release);
  }
  std::int64_t promise_of(int rank) const {
    return promises_[static_cast<std::size_t>(rank)].value.load(std::memory_order_acquire);
  }
  // How many partitions wait for a promise (only timing depends on it): each counts itself in
  // as it starts waiting and out as it stops. A line of its own, read after every batch and
  // written only as waits start and end.
  void count_waiting(bool starts) {
    waiting_.value.fetch_add(starts ? 1 : -1, std::memory_order_relaxed);
  }
  std::int64_t waiting() const { return waiting_.value.load(std::memory_order_relaxed); }
  // Hands every message waiting for `rank` over in `into`, which must be empty: the two trade
  // places, so in a steady flow neither side allocates. False when there were none.
  bool take_all(int rank, MessageQueue& into) {
    Mailbox& box = mailboxes_[static_cast<std::size_t>(rank)];
    if (!box.filled.load(std::memory_order_acquire)) return false;
    const std::lock_guard<std::mutex> lock(box.mutex);
    into.swap(box.messages);
    box.filled.store(false, std::memory_order_relaxed);
    return !into.empty();
  }

  // The collectives below take `rank` as the partition's index in this process. `across`, when
  // given, carries the process's combined part to the other processes of an MPI job and back;
  // partition 0 calls it, between the others' barriers.
  using AcrossValues = std::function<void(std::span<std::int64_t>)>;
  using AcrossGather =
      std::function<std::vector<std::vector<std::byte>>(std::vector<std::vector<std::byte>>)>;
  using AcrossBroadcast = std::function<void(std::vector<std::byte>&)>;

  // Every partition's values combined element-wise in partition order, written back in place.
  template <class Combine>
  void all_reduce(int rank, std::span<std::int64_t> values, Combine combine,
                  const AcrossValues& across = {}) {
    values_[static_cast<std::size_t>(rank)].assign(values.begin(), values.end());
    barrier_.arrive_and_wait();
    if (rank == 0) {
      for (std::size_t i = 0; i < values.size(); ++i)
        for (std::size_t r = 1; r < values_.size(); ++r)
          values_[0][i] = combine(values_[0][i], values_[r][i]);
      if (across) across(values_[0]);
    }
    barrier_.arrive_and_wait();
    std::copy(values_[0].begin(), values_[0].end(), values.begin());
    barrier_.arrive_and_wait();  // nobody overwrites a slot another still reads
  }

  // Every partition's bytes at partition 0 (of the job's first process, with `across`).
  std::vector<std::vector<std::byte>> gather(int rank, std::vector<std::byte> bytes,
                                             const AcrossGather& across = {}) {
    bytes_[static_cast<std::size_t>(rank)] = std::move(bytes);
    barrier_.arrive_and_wait();
    std::vector<std::vector<std::byte>> all;
    if (rank == 0) {
      all = std::move(bytes_);
      bytes_.resize(static_cast<std::size_t>(size_));
      if (across) all = across(std::move(all));
    }
    barrier_.arrive_and_wait();
    return all;
  }

  void broadcast(int rank, std::vector<std::byte>& bytes, const AcrossBroadcast& across = {}) {
    if (rank == 0) {
      if (across) across(bytes);
      bytes_[0] = bytes;
    }
    barrier_.arrive_and_wait();
    if (rank != 0) bytes = bytes_[0];
    barrier_.arrive_and_wait();
    if (rank == 0) bytes_[0].clear();
  }

  // Requests that every partition join round `round` soon (RankExchange::request_round).
  void request_round(std::uint64_t round) {
    std::uint64_t seen = requested_round_.value.load(std::memory_order_relaxed);
    while (seen <= round && !requested_round_.value.compare_exchange_weak(
                                seen, round + 1, std::memory_order_relaxed)) {
    }
  }
  bool round_requested(std::uint64_t round) const {
    return requested_round_.value.load(std::memory_order_relaxed) > round;
  }

  // Round `round` of the GVT reduction (each partition counts its own rounds from 0).
  void start_round(int rank, std::uint64_t round, const std::array<std::int64_t, 3>& triple) {
    gvt_slots_[round % 2][static_cast<std::size_t>(rank)].values = triple;
    gvt_arrived_[round % 2].value.fetch_add(1, std::memory_order_acq_rel);
  }
  bool try_finish_round(std::uint64_t round, std::array<std::int64_t, 3>& result) {
    const std::uint64_t everyone = static_cast<std::uint64_t>(size_) * (round / 2 + 1);
    if (gvt_arrived_[round % 2].value.load(std::memory_order_acquire) < everyone) return false;
    result = {0, std::numeric_limits<std::int64_t>::max(),
              std::numeric_limits<std::int64_t>::max()};
    for (const GvtSlot& slot : gvt_slots_[round % 2]) {
      result[0] += slot.values[0];
      result[1] = std::min(result[1], slot.values[1]);
      result[2] = std::min(result[2], slot.values[2]);
    }
    return true;
  }

 private:
  struct alignas(64) Mailbox {
    std::mutex mutex;
    MessageQueue messages;
    std::atomic<bool> filled{false};
  };
  struct alignas(64) GvtSlot {
    std::array<std::int64_t, 3> values{};
  };
  struct alignas(64) Counter {
    std::atomic<std::uint64_t> value{0};
  };
  struct alignas(64) Promise {
    std::atomic<std::int64_t> value{0};
  };
  struct alignas(64) Waiting {
    std::atomic<std::int64_t> value{0};
  };

  int size_;
  std::vector<Mailbox> mailboxes_;
  std::barrier<> barrier_;
  std::vector<std::vector<std::int64_t>> values_;
  std::vector<std::vector<std::byte>> bytes_;
  std::array<std::vector<GvtSlot>, 2> gvt_slots_;
  std::array<Counter, 2> gvt_arrived_;
  Counter requested_round_;  // 1 + the latest round requested
  std::vector<Promise> promises_;
  Waiting waiting_;
};

// The messages a partition has taken from its mailbox and not yet handed on, in arrival order.
class Arrivals {
 public:
  // The next message, viewed until the next call, taking the mailbox's messages when none is
  // left; false when there are none.
  bool next(ThreadHub& hub, int rank, std::span<const std::byte>& message) {
    if (taken_.empty()) {
      taken_.clear();
      if (!hub.take_all(rank, taken_)) return false;
    }
    return taken_.take(message);
  }

 private:
  MessageQueue taken_;
};

// One partition's part in its hub's count of waiting partitions: counted in as it starts waiting
// and out as it stops, once per change, and never counted among the others it asks about.
class WaitingPartition {
 public:
  void set(ThreadHub& hub, bool waiting) {
    if (waiting == waiting_) return;
    hub.count_waiting(waiting);
    waiting_ = waiting;
  }
  bool others_wait(const ThreadHub& hub) const { return hub.waiting() > (waiting_ ? 1 : 0); }

 private:
  bool waiting_ = false;
};

}  // namespace netwarp::engine
