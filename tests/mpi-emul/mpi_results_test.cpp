// Tests of MpiResults (collecting, byte form, canonical order), MpiTotals, deadlock_message,
// and the outputs built from them: the results.json section, calls.csv and the stdout summary.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "netwarp/mpiemul/mpi_outputs.hpp"
#include "netwarp/mpiemul/mpi_results.hpp"

namespace netwarp::mpiemul {
namespace {

using engine::ns;

template <class R>
void feed(engine::RecordSink& sink, const R& record) {
  sink.write(engine::CommittedRecord{7, engine::EventKey{}, engine::tag_of<R>,
                                     std::as_bytes(std::span(&record, 1))});
}

template <class R>
bool same(const R& a, const R& b) {
  return std::memcmp(&a, &b, sizeof(R)) == 0;
}

CallRecord call(RankId rank, std::uint32_t index, CallKind kind, std::int64_t start,
                std::int64_t end) {
  CallRecord c;
  c.rank = rank;
  c.call = index;
  c.kind = kind;
  c.start_ps = start;
  c.end_ps = end;
  return c;
}

MessageRecord message(RankId src, RankId dst, std::int64_t matched, std::uint32_t send_op,
                      Protocol protocol, std::uint64_t bytes) {
  MessageRecord m;
  m.src = src;
  m.dst = dst;
  m.matched_ps = matched;
  m.send_op = send_op;
  m.protocol = protocol;
  m.bytes = bytes;
  return m;
}

RankSummary summary(RankId rank, std::uint32_t host, std::int64_t end) {
  RankSummary s;
  s.rank = rank;
  s.host = host;
  s.end_ps = end;
  return s;
}

Program two_rank_program() {
  Program p;
  for (RankId r = 0; r < 2; ++r) {
    RankProgramBuilder b(r, 2);
    b.compute(ns(2));
    b.send(1 - r, 0, 1048576);
    p.ranks.push_back(b.take());
  }
  return p;
}

// Two ranks, a compute and a send on rank 0, a receive and a barrier on rank 1; the totals the
// tests below expect are worked out by hand from these numbers.
MpiResults finished_run() {
  MpiResults r;
  CallRecord c = call(0, 0, CallKind::compute, 0, 2000);
  c.compute_ps = 2000;
  feed(r, c);
  c = call(0, 1, CallKind::send, 2000, 5000);
  c.overhead_ps = 500;
  c.send_wait_ps = 2500;
  c.bytes = 1024;
  c.peer = 1;
  c.tag = 7;
  c.protocol = Protocol::eager;
  feed(r, c);
  c = call(1, 0, CallKind::recv, 0, 6000);
  c.overhead_ps = 400;
  c.recv_wait_ps = 5600;
  c.bytes = 1024;
  c.peer = 0;
  c.tag = 7;
  c.protocol = Protocol::eager;
  feed(r, c);
  c = call(1, 1, CallKind::barrier, 6000, 9000);
  c.overhead_ps = 1000;
  c.sync_ps = 2000;
  c.protocol = Protocol::short_msg;
  feed(r, c);
  MessageRecord m = message(0, 1, 5000, 1, Protocol::eager, 1024);
  m.unexpected = 1;
  feed(r, m);
  feed(r, message(1, 0, 7000, 2, Protocol::short_msg, 8));
  feed(r, message(0, 1, 8000, 3, Protocol::rendezvous, 1048576));
  feed(r, message(1, 0, 8500, 4, Protocol::short_msg, 0));
  RankSummary s = summary(0, 4, 5000);
  s.throttled_sends = 2;
  s.throttle_wait_ps = 300;
  s.unexpected_messages = 1;
  s.unexpected_peak_bytes = 1024;
  feed(r, s);
  s = summary(1, 5, 9000);
  s.throttled_sends = 1;
  s.throttle_wait_ps = 200;
  s.unexpected_messages = 3;
  s.unexpected_peak_bytes = 4096;
  s.direct_hits = 2;
  s.direct_misses = 1;
  feed(r, s);
  return r;
}

TEST(MpiResults, KeepsMpiRecordsAndForwardsNetworkRecords) {
  MpiResults r;
  CallRecord c = call(3, 9, CallKind::allreduce, 10, 20);
  c.sync_ps = 4;
  feed(r, c);
  feed(r, message(1, 2, 30, 5, Protocol::direct, 64));
  feed(r, summary(3, 8, 99));
  feed(r, netmodels::DeliveryRecord{42, 6, 1234});
  feed(r, netmodels::PortRecord{});
  ASSERT_EQ(r.calls.size(), 1u);
  EXPECT_TRUE(same(r.calls[0], c));
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].protocol, Protocol::direct);
  ASSERT_EQ(r.ranks.size(), 1u);
  EXPECT_EQ(r.ranks[0].host, 8u);
  ASSERT_EQ(r.network.deliveries.size(), 1u);
  EXPECT_EQ(r.network.deliveries[0].message, 42u);
  EXPECT_EQ(r.network.ports.size(), 1u);
}

TEST(MpiResults, SortsIntoCanonicalOrder) {
  MpiResults r;
  r.calls = {call(1, 0, CallKind::send, 0, 1), call(0, 2, CallKind::send, 0, 1),
             call(0, 0, CallKind::send, 0, 1), call(1, 1, CallKind::send, 0, 1)};
  r.messages = {message(3, 1, 50, 0, Protocol::eager, 1), message(2, 1, 50, 9, Protocol::eager, 1),
                message(2, 1, 50, 4, Protocol::eager, 1), message(0, 0, 90, 0, Protocol::eager, 1),
                message(5, 1, 10, 0, Protocol::eager, 1)};
  r.ranks = {summary(2, 0, 1), summary(0, 0, 1), summary(1, 0, 1)};
  r.network.deliveries = {{7, 0, 1}, {3, 0, 2}};
  r.sort();
  const std::vector<std::pair<RankId, std::uint32_t>> calls = {{0, 0}, {0, 2}, {1, 0}, {1, 1}};
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(r.calls[i].rank, calls[i].first) << i;
    EXPECT_EQ(r.calls[i].call, calls[i].second) << i;
  }
  // (dst, matched_ps, src, send_op)
  const std::vector<std::pair<RankId, std::uint32_t>> messages = {
      {0, 0}, {5, 0}, {2, 4}, {2, 9}, {3, 0}};
  for (std::size_t i = 0; i < messages.size(); ++i) {
    EXPECT_EQ(r.messages[i].src, messages[i].first) << i;
    EXPECT_EQ(r.messages[i].send_op, messages[i].second) << i;
  }
  for (RankId i = 0; i < 3; ++i) EXPECT_EQ(r.ranks[i].rank, i);
  EXPECT_EQ(r.network.deliveries[0].message, 3u);
}

TEST(MpiResults, BytesRoundTripIncludingTheNetworkPart) {
  MpiResults a = finished_run();
  feed(a, netmodels::DeliveryRecord{42, 6, 1234});
  MpiResults b;
  b.append_bytes(a.to_bytes());
  EXPECT_EQ(b.to_bytes(), a.to_bytes());
  ASSERT_EQ(b.calls.size(), 4u);
  EXPECT_TRUE(same(b.calls[3], a.calls[3]));
  EXPECT_TRUE(same(b.messages[0], a.messages[0]));
  EXPECT_TRUE(same(b.ranks[1], a.ranks[1]));
  ASSERT_EQ(b.network.deliveries.size(), 1u);
  EXPECT_EQ(b.network.deliveries[0].delivered_ps, 1234);

  b.append_bytes(a.to_bytes());  // a second part merges after the first
  EXPECT_EQ(b.calls.size(), 8u);
  EXPECT_EQ(b.messages.size(), 8u);
  EXPECT_EQ(b.ranks.size(), 4u);
  EXPECT_EQ(b.network.deliveries.size(), 2u);
  EXPECT_TRUE(same(b.calls[4], a.calls[0]));
}

TEST(MpiResults, TruncatedBytesAreRejected) {
  std::vector<std::byte> bytes = finished_run().to_bytes();
  bytes.resize(bytes.size() / 2);
  MpiResults r;
  EXPECT_THROW(r.append_bytes(bytes), std::runtime_error);
}

TEST(MpiTotals, SumsTheCallBreakdownPerRankAndOverRanks) {
  const MpiTotals t = finished_run().totals(two_rank_program());
  ASSERT_EQ(t.ranks.size(), 2u);
  const CallBreakdown& r0 = t.ranks[0].calls;
  EXPECT_EQ(r0.calls, 2u);
  EXPECT_EQ(r0.mpi_time_ps, 3000);  // the send; compute calls are not MPI time
  EXPECT_EQ(r0.overhead_ps, 500);
  EXPECT_EQ(r0.send_wait_ps, 2500);
  EXPECT_EQ(r0.compute_ps, 2000);
  const CallBreakdown& r1 = t.ranks[1].calls;
  EXPECT_EQ(r1.mpi_time_ps, 9000);
  EXPECT_EQ(r1.overhead_ps, 1400);
  EXPECT_EQ(r1.recv_wait_ps, 5600);
  EXPECT_EQ(r1.sync_ps, 2000);
  EXPECT_EQ(t.calls.calls, 4u);
  EXPECT_EQ(t.calls.mpi_time_ps, 12000);
  EXPECT_EQ(t.calls.overhead_ps, 1900);
  EXPECT_EQ(t.calls.send_wait_ps, 2500);
  EXPECT_EQ(t.calls.recv_wait_ps, 5600);
  EXPECT_EQ(t.calls.sync_ps, 2000);
  EXPECT_EQ(t.calls.compute_ps, 2000);
  EXPECT_EQ(t.calls.total_ps(), 14000);
}

TEST(MpiTotals, RunTimeIsTheLatestRankEndAndCountersAreSummed) {
  const MpiTotals t = finished_run().totals(two_rank_program());
  EXPECT_TRUE(t.finished);
  EXPECT_EQ(t.run_time_ps, 9000);
  EXPECT_TRUE(t.stuck.empty());
  EXPECT_EQ(t.ranks[1].host, 5u);
  EXPECT_EQ(t.ranks[1].end_ps, 9000);
  EXPECT_EQ(t.counters.throttled_sends, 3u);
  EXPECT_EQ(t.counters.throttle_wait_ps, 500);
  EXPECT_EQ(t.counters.unexpected_messages, 4u);
  EXPECT_EQ(t.counters.unexpected_peak_bytes, 4096u);  // the largest, not the sum
  EXPECT_EQ(t.counters.direct_hits, 2u);
  EXPECT_EQ(t.counters.direct_misses, 1u);
}

TEST(MpiTotals, CountsMessagesPerProtocolAndCallsPerKind) {
  const MpiTotals t = finished_run().totals(two_rank_program());
  const MessageTotals& eager = t.messages[static_cast<int>(Protocol::eager)];
  EXPECT_EQ(eager.count, 1u);
  EXPECT_EQ(eager.bytes, 1024u);
  EXPECT_EQ(eager.unexpected, 1u);
  const MessageTotals& short_msg = t.messages[static_cast<int>(Protocol::short_msg)];
  EXPECT_EQ(short_msg.count, 2u);
  EXPECT_EQ(short_msg.bytes, 8u);
  EXPECT_EQ(t.messages[static_cast<int>(Protocol::rendezvous)].bytes, 1048576u);
  EXPECT_EQ(t.messages[static_cast<int>(Protocol::direct)].count, 0u);
  const CallKindTotals& recv = t.call_kinds[static_cast<int>(CallKind::recv)];
  EXPECT_EQ(recv.count, 1u);
  EXPECT_EQ(recv.time_ps, 6000);
  EXPECT_EQ(recv.bytes, 1024u);
  EXPECT_EQ(t.call_kinds[static_cast<int>(CallKind::barrier)].time_ps, 3000);
  EXPECT_EQ(t.call_kinds[static_cast<int>(CallKind::bcast)].count, 0u);
}

// Both ranks block in a 1 MiB send to the other (rendezvous): the classic exchange deadlock.
MpiResults exchange_deadlock() {
  MpiResults r;
  for (RankId rank = 0; rank < 2; ++rank) {
    RankSummary s = summary(rank, rank + 10, -1);
    s.calls_done = 1;
    s.stuck_op = 1;
    feed(r, s);
  }
  return r;
}

TEST(MpiTotals, AStuckRankMeansNoRunTimeAndNamesTheCallItIsBlockedIn) {
  const MpiTotals t = exchange_deadlock().totals(two_rank_program());
  EXPECT_FALSE(t.finished);
  EXPECT_EQ(t.run_time_ps, -1);
  ASSERT_EQ(t.stuck.size(), 2u);
  const StuckRank& s = t.stuck[1];
  EXPECT_EQ(s.rank, 1u);
  EXPECT_TRUE(s.has_summary);
  EXPECT_EQ(s.call, 1u);
  EXPECT_EQ(s.op, 1u);
  EXPECT_EQ(s.kind, CallKind::send);
  EXPECT_EQ(s.peer, 0);
  EXPECT_EQ(s.tag, 0);
  EXPECT_EQ(s.bytes, 1048576u);
  ASSERT_EQ(s.waiting_on.size(), 1u);
  EXPECT_EQ(s.waiting_on[0].kind, OpKind::send);
}

TEST(MpiTotals, ARankWithoutSummaryHasNotFinished) {
  MpiResults r = finished_run();
  r.ranks.pop_back();
  const MpiTotals t = r.totals(two_rank_program());
  EXPECT_FALSE(t.finished);
  EXPECT_EQ(t.run_time_ps, -1);
  ASSERT_EQ(t.stuck.size(), 1u);
  EXPECT_EQ(t.stuck[0].rank, 1u);
  EXPECT_FALSE(t.stuck[0].has_summary);
  EXPECT_EQ(deadlock_message(t), "deadlock: rank 1 did not report");
}

TEST(DeadlockMessage, NamesEveryStuckRankAndItsSend) {
  const MpiTotals t = exchange_deadlock().totals(two_rank_program());
  EXPECT_EQ(deadlock_message(t),
            "deadlock: rank 0 blocked in send to 1 (tag 0, 1048576 B, call 1); "
            "rank 1 blocked in send to 0 (tag 0, 1048576 B, call 1)");
  EXPECT_EQ(deadlock_message(t, 1),
            "deadlock: rank 0 blocked in send to 1 (tag 0, 1048576 B, call 1); and 1 more ranks");
}

TEST(DeadlockMessage, IsEmptyWhenEveryRankFinished) {
  EXPECT_EQ(deadlock_message(finished_run().totals(two_rank_program())), "");
}

// One rank whose program is `build`, stuck in call `call` at op `op`.
std::string one_stuck_rank(const std::function<void(RankProgramBuilder&)>& build,
                           std::uint32_t call, std::uint32_t op) {
  Program p;
  for (RankId r = 0; r < 4; ++r) {
    RankProgramBuilder b(r, 4);
    if (r == 1) build(b);
    p.ranks.push_back(b.take());
  }
  MpiResults results;
  for (RankId r = 0; r < 4; ++r) {
    RankSummary s = summary(r, r, r == 1 ? -1 : 100);
    s.calls_done = call;
    s.stuck_op = op;
    feed(results, s);
  }
  return deadlock_message(results.totals(p));
}

TEST(DeadlockMessage, AWaitallListsTheOperationsOfItsRequests) {
  const auto build = [](RankProgramBuilder& b) {
    const std::uint32_t requests[] = {b.irecv(2, 5, 64), b.isend(3, 5, 64)};
    b.waitall(requests);
  };
  EXPECT_EQ(one_stuck_rank(build, 2, 2),
            "deadlock: rank 1 blocked in waitall (call 2, on recv from 2, send to 3)");
}

TEST(DeadlockMessage, ACollectiveShowsItsRootAndTheOperationBlocked) {
  const auto build = [](RankProgramBuilder& b) {
    b.compute(ns(1));
    b.begin_call(CallKind::bcast, 0, 1024);
    b.post_recv(0, 0, 1024);
    b.post_send(3, 0, 1024);
    b.end_call();
  };
  EXPECT_EQ(one_stuck_rank(build, 1, 1),
            "deadlock: rank 1 blocked in bcast (root 0, 1024 B, call 1, on recv from 0)");
}

TEST(DeadlockMessage, AReceiveFromAnySourceSaysAny) {
  const auto build = [](RankProgramBuilder& b) { b.recv(kAnySource, kAnyTag, 8); };
  EXPECT_EQ(one_stuck_rank(build, 0, 0),
            "deadlock: rank 1 blocked in recv from any (tag any, 8 B, call 0)");
}

TEST(ProtocolName, NamesEveryProtocol) {
  EXPECT_EQ(protocol_name(Protocol::none), "none");
  EXPECT_EQ(protocol_name(Protocol::short_msg), "short");
  EXPECT_EQ(protocol_name(Protocol::eager), "eager");
  EXPECT_EQ(protocol_name(Protocol::rendezvous), "rendezvous");
  EXPECT_EQ(protocol_name(Protocol::direct), "direct");
  EXPECT_EQ(protocol_name(Protocol::mixed), "mixed");
}

TEST(MpiResultsJson, HasTheRunTimeBreakdownPerRankAndTotals) {
  const Program program = two_rank_program();
  const MpiResults r = finished_run();
  const nlohmann::ordered_json j = mpi_results_json(r, r.totals(program), program);
  EXPECT_EQ(j.begin().key(), "run_time_ps");
  EXPECT_EQ(j["run_time_ps"], 9000);
  EXPECT_EQ(j["finished"], true);
  EXPECT_TRUE(j["deadlock"].is_null());
  EXPECT_EQ(j["world_size"], 2);
  ASSERT_EQ(j["ranks"].size(), 2u);
  const auto& r1 = j["ranks"][1];
  EXPECT_EQ(r1["rank"], 1);
  EXPECT_EQ(r1["host"], 5);
  EXPECT_EQ(r1["end_ps"], 9000);
  EXPECT_EQ(r1["calls"], 2);
  EXPECT_EQ(r1["overhead_ps"], 1400);
  EXPECT_EQ(r1["send_wait_ps"], 0);
  EXPECT_EQ(r1["recv_wait_ps"], 5600);
  EXPECT_EQ(r1["sync_ps"], 2000);
  EXPECT_EQ(r1["compute_ps"], 0);
  EXPECT_EQ(r1["throttled_sends"], 1);
  EXPECT_EQ(r1["unexpected_messages"], 3);
  EXPECT_EQ(r1["direct_hits"], 2);
  EXPECT_EQ(r1["direct_misses"], 1);
  const auto& totals = j["totals"];
  EXPECT_EQ(totals["overhead_ps"], 1900);
  EXPECT_EQ(totals["send_wait_ps"], 2500);
  EXPECT_EQ(totals["recv_wait_ps"], 5600);
  EXPECT_EQ(totals["sync_ps"], 2000);
  EXPECT_EQ(totals["compute_ps"], 2000);
  EXPECT_EQ(totals["mpi_time_ps"], 12000);
  EXPECT_EQ(totals["throttle_wait_ps"], 500);
}

TEST(MpiResultsJson, HasMessagesPerProtocolAndCallsPerKind) {
  const Program program = two_rank_program();
  const MpiResults r = finished_run();
  const nlohmann::ordered_json j = mpi_results_json(r, r.totals(program), program);
  EXPECT_EQ(j["messages"].size(), 6u);
  EXPECT_EQ(j["messages"]["short"]["count"], 2);
  EXPECT_EQ(j["messages"]["eager"]["unexpected"], 1);
  EXPECT_EQ(j["messages"]["rendezvous"]["bytes"], 1048576);
  EXPECT_EQ(j["messages"]["direct"]["count"], 0);
  EXPECT_EQ(j["call_kinds"].size(), 4u);  // only the kinds called
  EXPECT_EQ(j["call_kinds"]["send"]["count"], 1);
  EXPECT_EQ(j["call_kinds"]["recv"]["time_ps"], 6000);
  EXPECT_FALSE(j["call_kinds"].contains("bcast"));
  EXPECT_TRUE(j["stuck_ranks"].empty());
}

TEST(MpiResultsJson, ADeadlockedRunReportsItsStuckRanks) {
  const Program program = two_rank_program();
  const MpiResults r = exchange_deadlock();
  const MpiTotals t = r.totals(program);
  const nlohmann::ordered_json j = mpi_results_json(r, t, program);
  EXPECT_TRUE(j["run_time_ps"].is_null());  // no end: null, never a -1 sentinel
  EXPECT_EQ(j["finished"], false);
  EXPECT_EQ(j["deadlock"], deadlock_message(t));
  EXPECT_EQ(j["ranks"][0]["finished"], false);
  ASSERT_EQ(j["stuck_ranks"].size(), 2u);
  EXPECT_EQ(j["stuck_ranks"][0]["kind"], "send");
  EXPECT_EQ(j["stuck_ranks"][0]["peer"], 1);
  EXPECT_EQ(j["stuck_ranks"][0]["call"], 1);
  EXPECT_EQ(j["stuck_ranks"][0]["bytes"], 1048576);
}

TEST(CallsCsv, WritesOneRowPerCallInOrder) {
  MpiResults r = finished_run();
  r.sort();
  std::ostringstream out;
  write_calls_csv(r, out);
  EXPECT_EQ(out.str(),
            "rank,call,kind,peer,tag,bytes,protocol,start_ps,end_ps,duration_ps,overhead_ps,"
            "send_wait_ps,recv_wait_ps,sync_ps,compute_ps\n"
            "0,0,compute,-1,-1,0,none,0,2000,2000,0,0,0,0,2000\n"
            "0,1,send,1,7,1024,eager,2000,5000,3000,500,2500,0,0,0\n"
            "1,0,recv,0,7,1024,eager,0,6000,6000,400,0,5600,0,0\n"
            "1,1,barrier,-1,-1,0,short,6000,9000,3000,1000,0,0,2000,0\n");
}

TEST(MpiSummary, GivesRunTimeBreakdownAndMessages) {
  MpiResults r = finished_run();
  r.ranks[1].end_ps = 1234567000;
  r.ranks[1].throttled_sends = 0;
  r.ranks[0].throttled_sends = 0;
  const std::string s = format_mpi_summary(r.totals(two_rank_program()));
  EXPECT_NE(s.find("2 ranks; run time 1234.567 us (1.235 ms)"), std::string::npos) << s;
  EXPECT_NE(s.find("4 calls, 0.014 us summed over ranks: overhead 13.6%, send wait 17.9%, "
                   "recv wait 40.0%, sync 14.3%, compute 14.3%"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("4 (short 2, eager 1, rendezvous 1), 1049608 bytes, 1 unexpected"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("throttling"), std::string::npos) << s;
  EXPECT_EQ(s.find("deadlock"), std::string::npos) << s;
}

TEST(MpiSummary, EndsWithTheDeadlockLine) {
  const MpiTotals t = exchange_deadlock().totals(two_rank_program());
  const std::string s = format_mpi_summary(t);
  EXPECT_NE(s.find("did not finish: 2 ranks stuck"), std::string::npos) << s;
  EXPECT_NE(s.find(fmt::format("\n{}\n", deadlock_message(t))), std::string::npos) << s;
}

}  // namespace
}  // namespace netwarp::mpiemul
