// A test-only executor of mpiemul Programs: MPI semantics without time. Each rank steps through
// its ops; sends complete at once ("eager") or only once a receive has matched them
// ("synchronous", every send rendezvous); receives match on (source, tag, communicator) with
// wildcards, in MPI's non-overtaking order (posted-receive and unexpected-message queues); waits
// block until their requests are complete. It reports deadlocks (the stuck ranks and their op),
// every matched message, and for every rank and call which ranks it has heard from: the ranks
// whose entry into that call causally precedes this rank's completion of it (data is only
// "heard" once a receive's completion is observed by a blocking recv, wait or test).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul::checker {

enum class SendMode { eager, synchronous };
// round_robin: one op per rank in turn; lowest_first: always the lowest rank that can move, so
// low ranks run as far ahead as the program lets them.
enum class Schedule { round_robin, lowest_first };

using RankSet = std::vector<bool>;

struct MatchedMessage {
  RankId src = 0;
  RankId dst = 0;
  std::int32_t tag = 0;
  std::uint16_t comm = 0;
  std::uint64_t send_bytes = 0;
  std::uint64_t recv_bytes = 0;
  std::uint32_t send_op = 0;
  std::uint32_t recv_op = 0;
  std::uint32_t send_call = 0;
  std::uint32_t recv_call = 0;
};

struct StuckRank {
  RankId rank = 0;
  std::uint32_t op = 0;
  std::string what;
};

struct ExecutionResult {
  std::vector<MatchedMessage> messages;  // in matching order
  std::vector<StuckRank> stuck;          // empty when every rank finished
  std::size_t unmatched_sends = 0;
  std::size_t unmatched_recvs = 0;
  std::size_t unwaited_requests = 0;             // nonblocking requests no wait or test completed
  std::vector<std::vector<RankSet>> heard_from;  // [rank][call]
  std::vector<std::vector<std::uint64_t>> entered_at;    // [rank][call], executor step
  std::vector<std::vector<std::uint64_t>> completed_at;  // [rank][call], executor step

  bool is_clean() const {
    return stuck.empty() && unmatched_sends == 0 && unmatched_recvs == 0 && unwaited_requests == 0;
  }
  std::string describe() const {
    std::string s = fmt::format(
        "{} messages, {} unmatched sends, {} unmatched receives, {} "
        "unwaited requests",
        messages.size(), unmatched_sends, unmatched_recvs, unwaited_requests);
    for (const StuckRank& r : stuck)
      s += fmt::format("\n  deadlock: rank {} stuck at op {}: {}", r.rank, r.op, r.what);
    return s;
  }
};

inline std::string describe_op(const Op& op) {
  static constexpr const char* kNames[] = {"compute", "send", "recv", "wait", "test"};
  return fmt::format("{}{} peer {} tag {} comm {} bytes {} request {} count {}",
                     op.blocking ? "blocking " : "", kNames[static_cast<int>(op.kind)], op.peer,
                     op.tag, op.comm, op.bytes, op.request, op.count);
}

class ProgramExecutor {
 public:
  ProgramExecutor(const Program& program, SendMode mode) : program_(program), mode_(mode) {
    const RankId size = program.size();
    ranks_.resize(size);
    result_.heard_from.resize(size);
    result_.entered_at.resize(size);
    result_.completed_at.resize(size);
    for (RankId r = 0; r < size; ++r) {
      const RankProgram& p = program.ranks[r];
      ranks_[r].requests.resize(p.request_count);
      ranks_[r].knows = single(r);
      result_.heard_from[r].assign(p.calls.size(), RankSet(size, false));
      result_.entered_at[r].assign(p.calls.size(), 0);
      result_.completed_at[r].assign(p.calls.size(), 0);
      for (std::uint32_t c = 0; c < p.calls.size(); ++c)
        for (std::uint32_t i = 0; i < p.calls[c].op_count; ++i) ranks_[r].op_call.push_back(c);
    }
  }

  ExecutionResult run(Schedule schedule) {
    if (schedule == Schedule::round_robin) {
      for (bool moved = true; moved;) {
        moved = false;
        for (RankId r = 0; r < program_.size(); ++r) moved = step(r) || moved;
      }
    } else {
      for (bool moved = true; moved;) {
        moved = false;
        for (RankId r = 0; r < program_.size() && !moved; ++r) moved = step(r);
      }
    }
    finish();
    return std::move(result_);
  }

 private:
  struct Request {
    bool complete = false;
    bool observed = false;  // by its blocking op, a wait or a test
    RankSet data;           // receives: what the matched message carried
  };
  struct Unexpected {
    RankId src;
    std::uint32_t op;
    RankSet data;
  };
  struct RankState {
    std::uint32_t pc = 0;
    bool issued = false;  // ops[pc] has been started
    std::uint32_t next_call = 0;
    std::vector<Request> requests;
    std::deque<Unexpected> unexpected;  // messages to this rank, in arrival order
    std::deque<std::uint32_t> posted;   // receive ops not matched yet, in post order
    std::vector<std::uint32_t> op_call;
    RankSet knows;
  };

  RankSet single(RankId r) const {
    RankSet s(program_.size(), false);
    s[r] = true;
    return s;
  }
  const Op& op_of(RankId r, std::uint32_t op) const { return program_.ranks[r].ops[op]; }
  static bool matches(const Op& recv, RankId src, const Op& send) {
    return recv.comm == send.comm &&
           (recv.peer == kAnySource || recv.peer == static_cast<std::int32_t>(src)) &&
           (recv.tag == kAnyTag || recv.tag == send.tag);
  }

  // Enters every call that starts at pc (calls without ops are completed at once).
  void enter_calls(RankId r) {
    RankState& s = ranks_[r];
    const auto& calls = program_.ranks[r].calls;
    while (s.next_call < calls.size() && calls[s.next_call].first_op == s.pc) {
      const std::uint32_t c = s.next_call++;
      s.knows = single(r);
      result_.entered_at[r][c] = ++clock_;
      if (calls[c].op_count == 0) complete_call(r, c);
      if (calls[c].op_count != 0) break;
    }
  }
  void complete_call(RankId r, std::uint32_t c) {
    result_.heard_from[r][c] = ranks_[r].knows;
    result_.completed_at[r][c] = ++clock_;
  }

  bool step(RankId r) {
    RankState& s = ranks_[r];
    enter_calls(r);
    if (s.pc == program_.ranks[r].ops.size()) return false;
    const Op& op = op_of(r, s.pc);
    bool moved = false;
    if (!s.issued) {
      issue(r, op);
      s.issued = true;
      moved = true;
    }
    if (!is_done(r, op)) return moved;
    observe(r, op);
    const std::uint32_t c = s.op_call[s.pc];
    const Call& call = program_.ranks[r].calls[c];
    ++s.pc;
    s.issued = false;
    if (s.pc == call.first_op + call.op_count) complete_call(r, c);
    return true;
  }

  void issue(RankId r, const Op& op) {
    if (op.kind == OpKind::send) post_send(r, op);
    if (op.kind == OpKind::recv) post_recv(r, op);
  }
  void post_send(RankId r, const Op& op) {
    RankState& s = ranks_[r];
    if (mode_ == SendMode::eager) s.requests[op.request].complete = true;
    RankState& d = ranks_[static_cast<RankId>(op.peer)];
    for (auto it = d.posted.begin(); it != d.posted.end(); ++it) {
      if (!matches(op_of(static_cast<RankId>(op.peer), *it), r, op)) continue;
      const std::uint32_t recv_op = *it;
      d.posted.erase(it);
      match(r, s.pc, static_cast<RankId>(op.peer), recv_op, s.knows);
      return;
    }
    d.unexpected.push_back({r, s.pc, s.knows});
  }
  void post_recv(RankId r, const Op& op) {
    RankState& s = ranks_[r];
    for (auto it = s.unexpected.begin(); it != s.unexpected.end(); ++it) {
      if (!matches(op, it->src, op_of(it->src, it->op))) continue;
      const Unexpected message = *it;
      s.unexpected.erase(it);
      match(message.src, message.op, r, s.pc, message.data);
      return;
    }
    s.posted.push_back(s.pc);
  }
  void match(RankId src, std::uint32_t send_op, RankId dst, std::uint32_t recv_op,
             const RankSet& data) {
    const Op& send = op_of(src, send_op);
    const Op& recv = op_of(dst, recv_op);
    ranks_[src].requests[send.request].complete = true;
    Request& received = ranks_[dst].requests[recv.request];
    received.complete = true;
    received.data = data;
    result_.messages.push_back({src, dst, send.tag, send.comm, send.bytes, recv.bytes, send_op,
                                recv_op, ranks_[src].op_call[send_op],
                                ranks_[dst].op_call[recv_op]});
  }

  bool is_done(RankId r, const Op& op) const {
    const RankState& s = ranks_[r];
    if (op.kind == OpKind::wait) {
      const auto& list = program_.ranks[r].wait_list;
      return std::all_of(list.begin() + op.request, list.begin() + op.request + op.count,
                         [&s](std::uint32_t q) { return s.requests[q].complete; });
    }
    if ((op.kind == OpKind::send || op.kind == OpKind::recv) && op.blocking)
      return s.requests[op.request].complete;
    return true;
  }
  // A completed request seen by the rank: its data (for receives) is now known.
  void observe_request(RankId r, std::uint32_t q) {
    Request& request = ranks_[r].requests[q];
    if (!request.complete || request.observed) return;
    request.observed = true;
    for (std::size_t i = 0; i < request.data.size(); ++i)
      if (request.data[i]) ranks_[r].knows[i] = true;
  }
  void observe(RankId r, const Op& op) {
    if ((op.kind == OpKind::send || op.kind == OpKind::recv) && op.blocking)
      observe_request(r, op.request);
    if (op.kind != OpKind::wait && op.kind != OpKind::test) return;
    const auto& list = program_.ranks[r].wait_list;
    for (std::uint32_t i = 0; i < op.count; ++i) observe_request(r, list[op.request + i]);
  }

  void finish() {
    for (RankId r = 0; r < program_.size(); ++r) {
      const RankState& s = ranks_[r];
      if (s.pc < program_.ranks[r].ops.size())
        result_.stuck.push_back({r, s.pc, describe_op(op_of(r, s.pc))});
      result_.unmatched_sends += s.unexpected.size();
      result_.unmatched_recvs += s.posted.size();
      for (const Request& q : s.requests)
        if (!q.observed) ++result_.unwaited_requests;
    }
  }

  const Program& program_;
  SendMode mode_;
  std::vector<RankState> ranks_;
  ExecutionResult result_;
  std::uint64_t clock_ = 0;
};

inline ExecutionResult execute(const Program& program, SendMode mode,
                               Schedule schedule = Schedule::round_robin) {
  return ProgramExecutor(program, mode).run(schedule);
}

// Builds a Program by calling build_rank(builder) for every rank.
template <typename BuildRank>
Program build_program(RankId size, BuildRank&& build_rank) {
  Program program;
  for (RankId r = 0; r < size; ++r) {
    RankProgramBuilder b(r, size);
    build_rank(b);
    program.ranks.push_back(b.take());
  }
  return program;
}

// bytes[src][dst]: the bytes of all matched messages from src to dst.
inline std::vector<std::vector<std::uint64_t>> bytes_between(const ExecutionResult& result,
                                                             RankId size) {
  std::vector<std::vector<std::uint64_t>> bytes(size, std::vector<std::uint64_t>(size, 0));
  for (const MatchedMessage& m : result.messages) bytes[m.src][m.dst] += m.send_bytes;
  return bytes;
}

}  // namespace netwarp::mpiemul::checker
