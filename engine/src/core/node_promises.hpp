// NodePromises: the promises of the MPI processes of one machine, in memory they share (an MPI-3
// shared window, one slot per process), as partitions that are threads of one process share
// theirs (ThreadHub). A waiting process then reads a promise the moment it is published, instead
// of when the next message batch brings it.
//
// Unlike a thread's, a promise published here can pass messages still in MPI's hands. So each
// slot holds, with its promise, how many messages its process had sent to each process of the
// machine when it published it, and a reader takes the promise only once it has received that
// many from the publisher (MPI keeps one sender's messages in order): then it holds everything
// sent before the promise, which is what RankExchange::published_promise must guarantee.
//
// A slot is written by its process alone, under a sequence count (odd while it writes), and read
// whole or not at all by the others.
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
  // Collective over `world`: every process of the job calls it, in the same order.
  explicit NodePromises(MPI_Comm world) {
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
    // The waiting flag alone on the first cache line (read after every batch, written seldom),
    // then seq, promise and a sent count per process of the machine; whole cache lines.
    const std::size_t slot_words = (kSentAt + static_cast<std::size_t>(node_size) + 7) / 8 * 8;
    std::uint64_t* mine = nullptr;
    MPI_Win_allocate_shared(static_cast<MPI_Aint>(slot_words * sizeof(std::uint64_t)),
                            sizeof(std::uint64_t), MPI_INFO_NULL, node_, &mine, &window_);
    std::fill(mine, mine + slot_words, 0);
    for (int l = 0; l < node_size; ++l) {
      MPI_Aint bytes = 0;
      int unit = 0;
      std::uint64_t* base = nullptr;
      MPI_Win_shared_query(window_, l, &bytes, &unit, &base);
      slots_.push_back(base);
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
    MPI_Barrier(node_);  // every slot zeroed before anyone reads one
    taken_.assign(static_cast<std::size_t>(node_size), 0);
  }
  ~NodePromises() {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
    MPI_Comm_free(&node_);
  }
  NodePromises(const NodePromises&) = delete;
  NodePromises& operator=(const NodePromises&) = delete;

  // A new run: this process's promise back to 0, and nothing taken from the others yet. Every
  // process calls it before the run's first collective, so none reads an earlier run's promise.
  void forget(std::span<const std::uint64_t> sent_by_world_rank) {
    publish(0, sent_by_world_rank);
    std::fill(taken_.begin(), taken_.end(), 0);
  }

  // Whether `world_rank` is another process of this machine.
  bool shares_with(int world_rank) const {
    const int l = local_of_world_[static_cast<std::size_t>(world_rank)];
    return l >= 0 && l != local_;
  }

  // `sent_by_world_rank`: how many messages this process has sent to each process of the job.
  void publish(std::int64_t ps, std::span<const std::uint64_t> sent_by_world_rank) {
    std::uint64_t* slot = slots_[static_cast<std::size_t>(local_)];
    ++sequence_;
    word(slot, kSeqAt).store(sequence_, std::memory_order_relaxed);  // odd: being written
    std::atomic_thread_fence(std::memory_order_release);
    word(slot, kPromiseAt).store(static_cast<std::uint64_t>(ps), std::memory_order_relaxed);
    for (std::size_t l = 0; l < world_of_local_.size(); ++l)
      word(slot, kSentAt + l)
          .store(sent_by_world_rank[static_cast<std::size_t>(world_of_local_[l])],
                 std::memory_order_relaxed);
    ++sequence_;
    word(slot, kSeqAt).store(sequence_, std::memory_order_release);
  }

  // The latest promise of `world_rank` that the `received` messages taken from it so far cover
  // (0 before the first).
  std::int64_t promise_of(int world_rank, std::uint64_t received) {
    const std::size_t l =
        static_cast<std::size_t>(local_of_world_[static_cast<std::size_t>(world_rank)]);
    std::uint64_t* slot = slots_[l];
    const std::uint64_t before = word(slot, kSeqAt).load(std::memory_order_acquire);
    const std::uint64_t promise = word(slot, kPromiseAt).load(std::memory_order_relaxed);
    const std::uint64_t sent =
        word(slot, kSentAt + static_cast<std::size_t>(local_)).load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    const std::uint64_t after = word(slot, kSeqAt).load(std::memory_order_relaxed);
    if (before == after && before % 2 == 0 && sent <= received)
      taken_[l] = std::max(taken_[l], static_cast<std::int64_t>(promise));
    return taken_[l];
  }

  // Whether this process waits for a promise (a write only when that changes), and whether
  // another process of the machine does. Only timing depends on them.
  void set_waiting(bool waiting) {
    if (waiting == waiting_) return;
    waiting_ = waiting;
    word(slots_[static_cast<std::size_t>(local_)], kWaitingAt)
        .store(waiting ? 1 : 0, std::memory_order_relaxed);
  }
  bool others_wait() const {
    for (std::size_t l = 0; l < slots_.size(); ++l)
      if (static_cast<int>(l) != local_ &&
          word(slots_[l], kWaitingAt).load(std::memory_order_relaxed) != 0)
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

  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  int local_ = 0;
  std::vector<int> world_of_local_;
  std::vector<int> local_of_world_;    // -1: on another machine
  std::vector<std::uint64_t*> slots_;  // by local rank
  std::vector<std::int64_t> taken_;    // by local rank: the latest promise taken from it
  std::uint64_t sequence_ = 0;
  bool waiting_ = false;
};

}  // namespace netwarp::engine
