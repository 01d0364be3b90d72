// MpiTotals: the records of an MPI run summed per rank, per protocol and per call kind, and
// the ranks that did not finish, looked up in the program to say what they are blocked in.
#include <algorithm>
#include <limits>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/mpiemul/mpi_results.hpp"

namespace netwarp::mpiemul {

bool add_saturating(std::int64_t& into, std::int64_t value) {
  if (!__builtin_add_overflow(into, value, &into)) return false;
  into = value < 0 ? std::numeric_limits<std::int64_t>::min()
                   : std::numeric_limits<std::int64_t>::max();
  return true;
}

void CallBreakdown::add(const CallRecord& call) {
  ++calls;
  bool held = false;
  if (call.kind != CallKind::compute)
    held |= add_saturating(mpi_time_ps, call.end_ps - call.start_ps);
  held |= add_saturating(overhead_ps, call.overhead_ps);
  held |= add_saturating(send_wait_ps, call.send_wait_ps);
  held |= add_saturating(recv_wait_ps, call.recv_wait_ps);
  held |= add_saturating(sync_ps, call.sync_ps);
  held |= add_saturating(compute_ps, call.compute_ps);
  saturated |= held;
}

void CallBreakdown::add(const CallBreakdown& other) {
  calls += other.calls;
  bool held = other.saturated;
  held |= add_saturating(mpi_time_ps, other.mpi_time_ps);
  held |= add_saturating(overhead_ps, other.overhead_ps);
  held |= add_saturating(send_wait_ps, other.send_wait_ps);
  held |= add_saturating(recv_wait_ps, other.recv_wait_ps);
  held |= add_saturating(sync_ps, other.sync_ps);
  held |= add_saturating(compute_ps, other.compute_ps);
  saturated |= held;
}

std::int64_t CallBreakdown::total_ps() const {
  std::int64_t total = overhead_ps;
  for (const std::int64_t part : {send_wait_ps, recv_wait_ps, sync_ps, compute_ps})
    add_saturating(total, part);
  return total;
}

void RankCounters::add(const RankCounters& other) {
  throttled_sends += other.throttled_sends;
  saturated |= other.saturated || add_saturating(throttle_wait_ps, other.throttle_wait_ps);
  unexpected_messages += other.unexpected_messages;
  unexpected_peak_bytes = std::max(unexpected_peak_bytes, other.unexpected_peak_bytes);
  direct_hits += other.direct_hits;
  direct_misses += other.direct_misses;
}

namespace {

RankCounters counters_of(const RankSummary& s) {
  return RankCounters{s.throttled_sends,       s.throttle_wait_ps, s.unexpected_messages,
                      s.unexpected_peak_bytes, s.direct_hits,      s.direct_misses};
}

// The send and receive operations behind the requests a wait or test op names.
std::vector<Op> ops_of_requests(const RankProgram& program, const Op& wait) {
  NW_CHECK(std::uint64_t{wait.request} + wait.count <= program.wait_list.size(),
           "wait op names requests past the end of the wait list");
  std::vector<Op> found;
  const auto first = program.wait_list.begin() + wait.request;
  const auto last = first + wait.count;
  for (const Op& op : program.ops) {
    const bool is_message = op.kind == OpKind::send || op.kind == OpKind::recv;
    if (is_message && std::find(first, last, op.request) != last) found.push_back(op);
  }
  return found;
}

StuckRank stuck_rank(const RankProgram& program, RankId rank, const RankSummary* summary) {
  StuckRank stuck;
  stuck.rank = rank;
  if (summary == nullptr) return stuck;
  stuck.has_summary = true;
  stuck.call = summary->calls_done;
  stuck.op = summary->stuck_op;
  NW_CHECK(stuck.call < program.calls.size(), "rank {} is stuck in call {} of a {}-call program",
           rank, stuck.call, program.calls.size());
  NW_CHECK(stuck.op < program.ops.size(), "rank {} is stuck in op {} of a {}-op program", rank,
           stuck.op, program.ops.size());
  const Call& call = program.calls[stuck.call];
  stuck.kind = call.kind;
  stuck.comm = call.comm;
  stuck.peer = call.peer;
  stuck.tag = call.tag;
  stuck.bytes = call.bytes;
  const Op& op = program.ops[stuck.op];
  if (op.kind == OpKind::send || op.kind == OpKind::recv) stuck.waiting_on.push_back(op);
  if (op.kind == OpKind::wait || op.kind == OpKind::test)
    stuck.waiting_on = ops_of_requests(program, op);
  return stuck;
}

// Fills t.ranks and t.call_kinds; returns each rank's summary (null: none arrived).
std::vector<const RankSummary*> add_ranks(const MpiResults& results, const Program& program,
                                          MpiTotals& t) {
  std::vector<const RankSummary*> summaries(program.size(), nullptr);
  t.ranks.resize(program.size());
  for (RankId r = 0; r < program.size(); ++r) t.ranks[r].rank = r;
  for (const RankSummary& s : results.ranks) {
    NW_CHECK(s.rank < program.size(), "summary of rank {} in a {}-rank program", s.rank,
             program.size());
    summaries[s.rank] = &s;
    RankTotals& rank = t.ranks[s.rank];
    rank.host = s.host;
    rank.end_ps = s.end_ps;
    rank.has_summary = true;
    rank.counters = counters_of(s);
  }
  for (const CallRecord& c : results.calls) {
    NW_CHECK(c.rank < program.size(), "call of rank {} in a {}-rank program", c.rank,
             program.size());
    t.ranks[c.rank].calls.add(c);
    CallKindTotals& kind = t.call_kinds.at(static_cast<std::size_t>(c.kind));
    ++kind.count;
    kind.saturated |= add_saturating(kind.time_ps, c.end_ps - c.start_ps);
    kind.bytes += c.bytes;
  }
  return summaries;
}

void add_messages(const MpiResults& results, MpiTotals& t) {
  for (const MessageRecord& m : results.messages) {
    MessageTotals& p = t.messages.at(static_cast<std::size_t>(m.protocol));
    ++p.count;
    p.bytes += m.bytes;
    p.unexpected += m.unexpected != 0 ? 1 : 0;
  }
}

// Every send op of the program that no message record names.
std::vector<UnreceivedSend> unreceived_sends(const MpiResults& results, const Program& program) {
  // One bit per op of each rank (a set of P^2 pairs took most of a large all-to-all's memory).
  std::vector<std::vector<bool>> received(program.size());
  for (RankId rank = 0; rank < program.size(); ++rank)
    received[rank].resize(program.ranks[rank].ops.size());
  for (const MessageRecord& m : results.messages)  // one naming no op of the program names no send
    if (m.src < program.size() && m.send_op < received[m.src].size())
      received[m.src][m.send_op] = true;
  std::vector<UnreceivedSend> out;
  for (RankId rank = 0; rank < program.size(); ++rank) {
    const std::vector<Op>& ops = program.ranks[rank].ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == OpKind::send && !received[rank][i])
        out.push_back({rank, i, ops[i].peer, ops[i].tag, ops[i].bytes});
  }
  return out;
}

}  // namespace

MpiTotals MpiResults::totals(const Program& program) const {
  MpiTotals t;
  const std::vector<const RankSummary*> summaries = add_ranks(*this, program, t);
  add_messages(*this, t);
  for (const RankTotals& rank : t.ranks) {
    t.calls.add(rank.calls);
    t.counters.add(rank.counters);
    t.run_time_ps = std::max(t.run_time_ps, rank.end_ps);
    if (rank.has_summary && rank.end_ps >= 0) continue;
    t.finished = false;
    t.stuck.push_back(stuck_rank(program.ranks[rank.rank], rank.rank, summaries[rank.rank]));
  }
  if (!t.finished) t.run_time_ps = -1;
  t.sums_saturated = t.calls.saturated || t.counters.saturated;
  for (const CallKindTotals& kind : t.call_kinds) t.sums_saturated |= kind.saturated;
  if (t.finished) t.unreceived = unreceived_sends(*this, program);
  return t;
}

}  // namespace netwarp::mpiemul
