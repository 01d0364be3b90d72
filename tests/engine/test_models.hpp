// Small models for engine tests: a chain of pings that sums values and emits records, a sink
// that keeps records, and a fake two-rank exchange for driving a TimeWarpPe by hand.
#pragma once

#include <algorithm>

#include <deque>
#include <vector>

#include "netwarp/engine/kernel.hpp"
#include "netwarp/engine/model.hpp"

namespace netwarp::engine::testing {

struct Ping {
  std::uint64_t value;
  std::uint32_t hops_left;  // forward this many more times
  std::uint32_t stride;     // to (self + stride) % lp_count; 0 forwards to self
};

struct PingRecord {
  std::uint64_t value;
  std::int64_t sum_after;
};

// Adds each ping's value to a reversible sum, emits a record, and forwards the ping.
class ChainLp {
 public:
  using Handles = EventSet<Ping>;
  ChainLp(LpId lp_count, std::uint32_t initial_pings)
      : lp_count_(lp_count), initial_(initial_pings) {}

  void init(InitCtx& ctx) {
    for (std::uint32_t i = 0; i < initial_; ++i)
      ctx.send_self(us(1 + i), Ping{ctx.self() * 100u + i, 5, 1 + i});
  }
  void on(const Ping& ping, EventCtx& ctx) {
    ctx.add(sum_, static_cast<std::int64_t>(ping.value));
    ctx.emit(PingRecord{ping.value, sum_.get()});
    if (ping.hops_left == 0) return;
    const LpId dest = static_cast<LpId>((ctx.self() + ping.stride) % lp_count_);
    const SimTime delay = ns(500) + ps(static_cast<std::int64_t>(ctx.rng().below(1000000)));
    ctx.send(dest, delay, Ping{ping.value + 1, ping.hops_left - 1, ping.stride});
  }
  void visit_state(StateVisitor& v) const { v("sum", sum_); }
  std::int64_t sum() const { return sum_.get(); }

 private:
  LpId lp_count_;
  std::uint32_t initial_;
  RevCounter sum_;
};

// `on_rank` >= 0 puts every LP on that rank (the last one if there are fewer ranks); otherwise
// the LPs are cut into blocks.
class ChainModel final : public Model {
 public:
  // `lookahead`: what lookahead() declares (every ping goes at least 500 ns ahead); zero, the
  // default, lets no event run below a safe horizon.
  ChainModel(LpId lps, std::uint32_t initial_pings, int on_rank = -1,
             SimTime lookahead = SimTime::zero())
      : lps_(lps), initial_(initial_pings), on_rank_(on_rank), lookahead_(lookahead) {}
  LpId lp_count() const override { return lps_; }
  std::unique_ptr<LpBase> create_lp(LpId) const override {
    return make_lp<ChainLp>(lps_, initial_);
  }
  int rank_of(LpId id, int ranks) const override {
    return on_rank_ < 0 ? block_rank(id, lps_, ranks) : std::min(on_rank_, ranks - 1);
  }
  SimTime lookahead() const override { return lookahead_; }

 private:
  LpId lps_;
  std::uint32_t initial_;
  int on_rank_;
  SimTime lookahead_;
};

struct KeptRecord {
  LpId lp;
  EventKey key;
  PingRecord record;
};

class KeepingSink final : public RecordSink {
 public:
  void write(const CommittedRecord& r) override {
    if (r.holds<PingRecord>()) kept.push_back(KeptRecord{r.lp, r.key, r.as<PingRecord>()});
  }
  std::vector<KeptRecord> kept;
};

// Rank 0 of `ranks`: keeps what the PE sends, hands it what a test injects; collectives see
// only this rank (a single-rank exchange answers them).
class FakeExchange final : public RankExchange {
 public:
  // shares_promises: as threads of one process, promises go through `published` and `board`.
  explicit FakeExchange(int ranks, bool shares_promises = false)
      : ranks_(ranks), shares_promises_(shares_promises) {}
  int rank() const override { return 0; }
  int size() const override { return ranks_; }
  void send_from(int dest, std::vector<std::byte>& bytes) override {
    sent.push_back({dest, std::move(bytes)});
    bytes.clear();
  }
  bool try_receive_view(std::span<const std::byte>& message) override {
    if (inbox.empty()) return false;
    taken_ = std::move(inbox.front());
    inbox.pop_front();
    message = taken_;
    return true;
  }
  void sum(std::span<std::int64_t> v) override { alone_->sum(v); }
  void min(std::span<std::int64_t> v) override { alone_->min(v); }
  void max(std::span<std::int64_t> v) override { alone_->max(v); }
  void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) override {
    alone_->start_sum_and_min(total, least, horizon);
  }
  bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least,
                              std::int64_t& horizon) override {
    return alone_->try_finish_sum_and_min(total, least, horizon);
  }
  std::vector<std::vector<std::byte>> gather(std::vector<std::byte> bytes) override {
    return alone_->gather(std::move(bytes));
  }
  void broadcast(std::vector<std::byte>& bytes) override { alone_->broadcast(bytes); }
  void complete_sends() override {}
  bool shares_promises_with(int rank) const override { return shares_promises_ && rank != 0; }
  void publish_promise(std::int64_t ps) override { published.push_back(ps); }
  bool promise_wanted() const override { return wanted; }
  std::int64_t published_promise(int rank) const override {
    return static_cast<std::size_t>(rank) < board.size() ? board[static_cast<std::size_t>(rank)]
                                                         : 0;
  }

  struct Sent {
    int dest;
    std::vector<std::byte> bytes;
  };
  std::vector<Sent> sent;
  std::deque<std::vector<std::byte>> inbox;
  std::vector<std::int64_t> published;  // what this rank published, in order
  std::vector<std::int64_t> board;      // by rank: what the others published
  bool wanted = true;                   // whether another rank waits for one

 private:
  int ranks_;
  bool shares_promises_;
  std::unique_ptr<RankExchange> alone_ = make_local_exchange();
  std::vector<std::byte> taken_;  // the message try_receive_view lends
};

}  // namespace netwarp::engine::testing
