// Partitions as threads of one process: events travel as the same byte messages as over MPI,
// through the ThreadHub (thread_hub.hpp).

#include <array>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <thread>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/cpu_pinning.hpp"
#include "netwarp/engine/rank_exchange.hpp"
#include "thread_hub.hpp"

namespace netwarp::engine {
namespace {

class ThreadExchange final : public RankExchange {
 public:
  ThreadExchange(std::shared_ptr<ThreadHub> hub, int rank, bool shares_cpus)
      : hub_(std::move(hub)), rank_(rank), shares_cpus_(shares_cpus) {}

  int rank() const override { return rank_; }
  int size() const override { return hub_->size(); }
  void send_from(int dest, std::vector<std::byte>& bytes) override {
    NW_CHECK(dest != rank_ && dest >= 0 && dest < size(), "send from partition {} to {}", rank_,
             dest);
    NW_CHECK(bytes.size() <= kMaxMessageBytes, "message of {} bytes exceeds {}", bytes.size(),
             kMaxMessageBytes);
    hub_->post(dest, bytes);
    bytes.clear();  // the mailbox took a copy: the storage stays with the sender
  }
  bool try_receive_view(std::span<const std::byte>& message) override {
    return arrived_.next(*hub_, rank_, message);
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
  bool shares_promises_with(int rank) const override { return rank != rank_; }
  void begin_run() override { hub_->publish_promise(rank_, 0); }
  void publish_promise(std::int64_t ps) override { hub_->publish_promise(rank_, ps); }
  std::int64_t published_promise(int rank) const override { return hub_->promise_of(rank); }
  void want_promise(bool waiting) override { waiting_.set(*hub_, waiting); }
  bool promise_wanted() const override { return waiting_.others_wait(*hub_); }
  void request_round() override { hub_->request_round(round_); }
  bool round_requested() const override { return hub_->round_requested(round_); }
  bool shares_cpus() const override { return shares_cpus_; }

 private:
  std::shared_ptr<ThreadHub> hub_;
  int rank_;
  bool shares_cpus_;
  WaitingPartition waiting_;
  Arrivals arrived_;
  std::uint64_t round_ = 0;
  bool round_open_ = false;
};

}  // namespace

std::vector<std::unique_ptr<RankExchange>> make_thread_exchanges(int partitions) {
  NW_CHECK(partitions >= 1, "{} partitions", partitions);
  auto hub = std::make_shared<ThreadHub>(partitions);
  const bool shared = partitions_share_cpus(static_cast<std::size_t>(partitions), MachineSlot{});
  std::vector<std::unique_ptr<RankExchange>> exchanges;
  for (int rank = 0; rank < partitions; ++rank)
    exchanges.push_back(std::make_unique<ThreadExchange>(hub, rank, shared));
  return exchanges;
}

void run_as_threads(std::span<const std::unique_ptr<RankExchange>> exchanges,
                    const std::function<void(RankExchange&)>& body) {
  std::vector<std::exception_ptr> errors(exchanges.size());
  std::vector<std::thread> threads;
  // This process holds every partition, or is one of an MPI job's processes (pinned only where
  // the launcher says which of this machine's processes it is).
  const bool every_partition =
      !exchanges.empty() && static_cast<std::size_t>(exchanges[0]->size()) == exchanges.size();
  const std::vector<std::optional<int>> cpus = cpus_for_partitions(
      exchanges.size(), every_partition ? MachineSlot{} : machine_slot_from_launcher());
  for (std::size_t i = 1; i < exchanges.size(); ++i)
    threads.emplace_back([&, i] {
      const PinnedThread pinned(cpus[i]);
      try {
        body(*exchanges[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  {
    const PinnedThread pinned(cpus[0]);  // the calling thread, while it runs partition 0
    try {
      body(*exchanges[0]);
    } catch (...) {
      errors[0] = std::current_exception();
    }
  }
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

void run_as_threads(int partitions, const std::function<void(RankExchange&)>& body) {
  run_as_threads(make_thread_exchanges(partitions), body);
}

}  // namespace netwarp::engine
