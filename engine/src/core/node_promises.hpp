// NodePromises: the promises of the MPI processes of one machine, in memory they share (an MPI-3
// shared window, one slot per partition: per process, or per thread of processes with threads),
// as partitions that are threads of one process share theirs (ThreadHub). A waiting process then
// reads a promise the moment it is published, instead of when the next message batch brings it.
//
// Unlike a thread's, a promise published here can pass messages still in MPI's hands. So each
// slot holds, with its promise, how many messages its partition had sent to each partition of the
// machine when it published it, and a reader takes the promise only once it has received that
// many from the publisher (MPI keeps one sender's messages in order): then it holds everything
// sent before the promise, which is what RankExchange::published_promise must guarantee.
//
// A slot is written by its partition alone, under a sequence count (odd while it writes), and
// read whole or not at all by the others.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

namespace netwarp::engine {

class NodePromises {
 public:
  // Collective over `world`: every process of the job calls it, in the same order. Each process
  // holds `partitions` partitions (threads; 1 for a plain MPI job): partition (p, t) of the job
  // is world partition p x partitions + t, and has a slot of its own.
  explicit NodePromises(MPI_Comm world, int partitions = 1) : partitions_(partitions) {
    int world_size = 0;
    int world_rank = 0;
    MPI_Comm_size(world, &world_size);
    MPI_Comm_rank(world, &world_rank);
    MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &node_);
    int node_size = 0;
    MPI_Comm_size(node_, &node_size);
    MPI_Comm_rank(node_, &local_);
    world_of_local_.resize(static_cast<std::size_t>(node_size));
    MPI_Allgather(&world_rank, 1, MPI_INT, world_of_local_.data(), 1, MPI_INT, node_);
    local_of_world_.assign(static_cast<std::size_t>(world_size), -1);
    for (int l = 0; l < node_size; ++l) local_of_world_[world_of_local_[l]] = l;
    // A slot: the waiting flag alone on the first cache line (read after every batch, written
    // seldom), then seq, promise and a sent count per partition of the machine; whole lines.
    const std::size_t slots = static_cast<std::size_t>(node_size * partitions);
    const std::size_t slot_words = (kSentAt + slots + 7) / 8 * 8;
    const std::size_t mine_words = slot_words * static_cast<std::size_t>(partitions);
    std::uint64_t* mine = nullptr;
    MPI_Win_allocate_shared(static_cast<MPI_Aint>(mine_words * sizeof(std::uint64_t)),
                            sizeof(std::uint64_t), MPI_INFO_NULL, node_, &mine, &window_);
    std::fill(mine, mine + mine_words, 0);
    for (int l = 0; l < node_size; ++l) {
      MPI_Aint bytes = 0;
      int unit = 0;
      std::uint64_t* base = nullptr;
      MPI_Win_shared_query(window_, l, &bytes, &unit, &base);
      for (int t = 0; t < partitions; ++t)
        slots_.push_back(base + static_cast<std::size_t>(t) * slot_words);
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
    MPI_Barrier(node_);  // every slot zeroed before anyone reads one
    const auto count = static_cast<std::size_t>(partitions);
    taken_.assign(count, std::vector<std::int64_t>(slots, 0));
    sequence_.assign(count, 0);
    waiting_.assign(count, 0);
  }
  ~NodePromises() {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
    MPI_Comm_free(&node_);
  }
  NodePromises(const NodePromises&) = delete;
  NodePromises& operator=(const NodePromises&) = delete;

  // Each partition of a process calls the members below with its own `partition` index, from
  // its own thread: they touch that partition's slot and its own part of the cache only.

  // A new run: the partition's promise back to 0, and nothing taken from the others yet. Every
  // partition calls it before the run's first collective, so none reads an earlier run's promise.
  void forget(int partition, std::span<const std::uint64_t> sent_by_world_partition) {
    publish(partition, 0, sent_by_world_partition);
    auto& taken = taken_[static_cast<std::size_t>(partition)];
    std::fill(taken.begin(), taken.end(), 0);
  }

  // Whether world partition `world_partition` belongs to another process of this machine.
  bool shares_with(int world_partition) const {
    const int l = local_of_world_[static_cast<std::size_t>(world_partition / partitions_)];
    return l >= 0 && l != local_;
  }
  // Whether another process runs on this machine (else nothing here is worth publishing).
  bool has_neighbours() const { return world_of_local_.size() > 1; }

  // `sent_by_world_partition`: how many messages the partition has sent to each partition of the
  // job (through MPI).
  void publish(int partition, std::int64_t ps,
               std::span<const std::uint64_t> sent_by_world_partition) {
    std::uint64_t* slot = slots_[slot_of_mine(partition)];
    std::uint64_t& sequence = sequence_[static_cast<std::size_t>(partition)];
    ++sequence;
    word(slot, kSeqAt).store(sequence, std::memory_order_relaxed);  // odd: being written
    std::atomic_thread_fence(std::memory_order_release);
    word(slot, kPromiseAt).store(static_cast<std::uint64_t>(ps), std::memory_order_relaxed);
    for (std::size_t l = 0; l < world_of_local_.size(); ++l)
      for (int t = 0; t < partitions_; ++t) {
        const std::size_t to = static_cast<std::size_t>(world_of_local_[l] * partitions_ + t);
        word(slot,
             kSentAt + l * static_cast<std::size_t>(partitions_) + static_cast<std::size_t>(t))
            .store(sent_by_world_partition[to], std::memory_order_relaxed);
      }
    ++sequence;
    word(slot, kSeqAt).store(sequence, std::memory_order_release);
  }

  // The latest promise of `world_partition` that the `received` messages `partition` has taken
  // from it so far cover (0 before the first).
  std::int64_t promise_of(int partition, int world_partition, std::uint64_t received) {
    const std::size_t from = slot_of(world_partition);
    std::uint64_t* slot = slots_[from];
    const std::uint64_t before = word(slot, kSeqAt).load(std::memory_order_acquire);
    const std::uint64_t promise = word(slot, kPromiseAt).load(std::memory_order_relaxed);
    const std::uint64_t sent =
        word(slot, kSentAt + slot_of_mine(partition)).load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    const std::uint64_t after = word(slot, kSeqAt).load(std::memory_order_relaxed);
    std::int64_t& taken = taken_[static_cast<std::size_t>(partition)][from];
    if (before == after && before % 2 == 0 && sent <= received)
      taken = std::max(taken, static_cast<std::int64_t>(promise));
    return taken;
  }

  // Whether the partition waits for a promise (a write only when that changes), and whether a
  // partition of another process of the machine does. Only timing depends on them.
  void set_waiting(int partition, bool waiting) {
    char& mine = waiting_[static_cast<std::size_t>(partition)];
    if (waiting == (mine != 0)) return;
    mine = waiting ? 1 : 0;
    word(slots_[slot_of_mine(partition)], kWaitingAt)
        .store(waiting ? 1 : 0, std::memory_order_relaxed);
  }
  bool others_wait() const {
    for (std::size_t s = 0; s < slots_.size(); ++s)
      if (s / static_cast<std::size_t>(partitions_) != static_cast<std::size_t>(local_) &&
          word(slots_[s], kWaitingAt).load(std::memory_order_relaxed) != 0)
        return true;
    return false;
  }

 private:
  static constexpr std::size_t kWaitingAt = 0;
  static constexpr std::size_t kSeqAt = 8;
  static constexpr std::size_t kPromiseAt = 9;
  static constexpr std::size_t kSentAt = 10;

  static std::atomic_ref<std::uint64_t> word(std::uint64_t* slot, std::size_t at) {
    return std::atomic_ref<std::uint64_t>(slot[at]);
  }
  std::size_t slot_of_mine(int partition) const {
    return static_cast<std::size_t>(local_ * partitions_ + partition);
  }
  std::size_t slot_of(int world_partition) const {
    const int l = local_of_world_[static_cast<std::size_t>(world_partition / partitions_)];
    return static_cast<std::size_t>(l * partitions_ + world_partition % partitions_);
  }

  int partitions_;
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  int local_ = 0;
  std::vector<int> world_of_local_;
  std::vector<int> local_of_world_;               // -1: on another machine
  std::vector<std::uint64_t*> slots_;             // by local rank x partitions + partition
  std::vector<std::vector<std::int64_t>> taken_;  // by partition, then slot: latest promise taken
  std::vector<std::uint64_t> sequence_;           // by partition
  std::vector<char> waiting_;                     // by partition
};

}  // namespace netwarp::engine
