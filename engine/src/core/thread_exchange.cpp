// Partitions as threads of one process: events travel as the same byte messages as over MPI,
// handed over through one locked mailbox per receiving partition (so each sender's order is
// kept, as MPI keeps it); the blocking collectives meet at a std::barrier, and GVT's
// non-blocking reduction counts arrivals on an atomic, with two slot sets used in turn (a
// partition can start round r + 2 only after every partition has started round r + 1, so after
// every partition has read round r's slots).
#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {
namespace {

// What the partitions of one process share.
class ThreadHub {
 public:
  explicit ThreadHub(int partitions)
      : size_(partitions),
        mailboxes_(static_cast<std::size_t>(partitions)),
        barrier_(partitions),
        values_(static_cast<std::size_t>(partitions)),
        bytes_(static_cast<std::size_t>(partitions)) {
    for (auto& set : gvt_slots_) set.resize(static_cast<std::size_t>(partitions));
  }
  int size() const { return size_; }

  void post(int dest, std::vector<std::byte> bytes) {
    Mailbox& box = mailboxes_[static_cast<std::size_t>(dest)];
    const std::lock_guard<std::mutex> lock(box.mutex);
    box.queue.push_back(std::move(bytes));
    box.filled.store(true, std::memory_order_release);
  }
  // Moves every message waiting for `rank` to the back of `into`; false when there were none.
  bool take_all(int rank, std::deque<std::vector<std::byte>>& into) {
    Mailbox& box = mailboxes_[static_cast<std::size_t>(rank)];
    if (!box.filled.load(std::memory_order_acquire)) return false;
    const std::lock_guard<std::mutex> lock(box.mutex);
    for (auto& message : box.queue) into.push_back(std::move(message));
    box.queue.clear();
    box.filled.store(false, std::memory_order_relaxed);
    return true;
  }

  // Every partition's values combined element-wise in partition order, written back in place.
  template <class Combine>
  void all_reduce(int rank, std::span<std::int64_t> values, Combine combine) {
    values_[static_cast<std::size_t>(rank)].assign(values.begin(), values.end());
    barrier_.arrive_and_wait();
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::int64_t v = values_[0][i];
      for (std::size_t r = 1; r < values_.size(); ++r) v = combine(v, values_[r][i]);
      values[i] = v;
    }
    barrier_.arrive_and_wait();  // nobody overwrites a slot another still reads
  }

  std::vector<std::vector<std::byte>> gather(int rank, std::vector<std::byte> bytes) {
    bytes_[static_cast<std::size_t>(rank)] = std::move(bytes);
    barrier_.arrive_and_wait();
    std::vector<std::vector<std::byte>> all;
    if (rank == 0) all = std::move(bytes_);
    barrier_.arrive_and_wait();
    if (rank == 0) bytes_.resize(static_cast<std::size_t>(size_));
    return all;
  }

  void broadcast(int rank, std::vector<std::byte>& bytes) {
    if (rank == 0) bytes_[0] = bytes;
    barrier_.arrive_and_wait();
    if (rank != 0) bytes = bytes_[0];
    barrier_.arrive_and_wait();
    if (rank == 0) bytes_[0].clear();
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
    std::vector<std::vector<std::byte>> queue;
    std::atomic<bool> filled{false};
  };
  struct alignas(64) GvtSlot {
    std::array<std::int64_t, 3> values{};
  };
  struct alignas(64) Counter {
    std::atomic<std::uint64_t> value{0};
  };

  int size_;
  std::vector<Mailbox> mailboxes_;
  std::barrier<> barrier_;
  std::vector<std::vector<std::int64_t>> values_;
  std::vector<std::vector<std::byte>> bytes_;
  std::array<std::vector<GvtSlot>, 2> gvt_slots_;
  std::array<Counter, 2> gvt_arrived_;
};

class ThreadExchange final : public RankExchange {
 public:
  ThreadExchange(std::shared_ptr<ThreadHub> hub, int rank) : hub_(std::move(hub)), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return hub_->size(); }
  void send(int dest, std::vector<std::byte> bytes) override {
    NW_CHECK(dest != rank_ && dest >= 0 && dest < size(), "send from partition {} to {}", rank_,
             dest);
    NW_CHECK(bytes.size() <= kMaxMessageBytes, "message of {} bytes exceeds {}", bytes.size(),
             kMaxMessageBytes);
    hub_->post(dest, std::move(bytes));
  }
  bool try_receive(std::vector<std::byte>& bytes) override {
    if (arrived_.empty() && !hub_->take_all(rank_, arrived_)) return false;
    bytes = std::move(arrived_.front());
    arrived_.pop_front();
    return true;
  }
  void sum(std::span<std::int64_t> v) override { hub_->all_reduce(rank_, v, std::plus<>()); }
  void min(std::span<std::int64_t> v) override {
    hub_->all_reduce(rank_, v, [](std::int64_t a, std::int64_t b) { return std::min(a, b); });
  }
  void max(std::span<std::int64_t> v) override {
    hub_->all_reduce(rank_, v, [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
  }
  void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) override {
    NW_CHECK(!round_open_, "GVT reduction started twice on partition {}", rank_);
    hub_->start_round(rank_, round_, {total, least, horizon});
    round_open_ = true;
  }
  bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least,
                              std::int64_t& horizon) override {
    NW_CHECK(round_open_, "GVT reduction finished before it started on partition {}", rank_);
    std::array<std::int64_t, 3> result{};
    if (!hub_->try_finish_round(round_, result)) return false;
    total = result[0];
    least = result[1];
    horizon = result[2];
    ++round_;
    round_open_ = false;
    return true;
  }
  std::vector<std::vector<std::byte>> gather(std::vector<std::byte> bytes) override {
    return hub_->gather(rank_, std::move(bytes));
  }
  void broadcast(std::vector<std::byte>& bytes) override { hub_->broadcast(rank_, bytes); }
  void complete_sends() override {}  // a send is complete once posted

 private:
  std::shared_ptr<ThreadHub> hub_;
  int rank_;
  std::deque<std::vector<std::byte>> arrived_;
  std::uint64_t round_ = 0;
  bool round_open_ = false;
};

}  // namespace

std::vector<std::unique_ptr<RankExchange>> make_thread_exchanges(int partitions) {
  NW_CHECK(partitions >= 1, "{} partitions", partitions);
  auto hub = std::make_shared<ThreadHub>(partitions);
  std::vector<std::unique_ptr<RankExchange>> exchanges;
  for (int rank = 0; rank < partitions; ++rank)
    exchanges.push_back(std::make_unique<ThreadExchange>(hub, rank));
  return exchanges;
}

void run_as_threads(int partitions, const std::function<void(RankExchange&)>& body) {
  auto exchanges = make_thread_exchanges(partitions);
  std::vector<std::exception_ptr> errors(exchanges.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < exchanges.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        body(*exchanges[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  try {
    body(*exchanges[0]);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace netwarp::engine
