// Communicators (comm_split, comm_dup, comm_create) in the program model and traces, matching
// scoped by communicator, indexed matching with wildcards, Open MPI's tuned collective choice
// and non-blocking collectives. Every run goes through run_mpi: sequential, optimistic and
// reverse check with equal digests, so the LP's matching state is checked for reversibility.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>

#include "mpi_fixtures.hpp"
#include "netwarp/mpiemul/collectives.hpp"
#include "netwarp/mpiemul/mpi_outputs.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::mpiemul {
namespace {

using namespace testing;

std::vector<RankProgramBuilder> builders(RankId n) {
  std::vector<RankProgramBuilder> b;
  for (RankId r = 0; r < n; ++r) b.emplace_back(r, n);
  return b;
}

Program make(std::vector<RankProgramBuilder>& builders, Communicators comms) {
  Program p;
  for (auto& b : builders) p.ranks.push_back(b.take());
  p.communicators = comms.take();
  return p;
}

MpiRun run(const Program& p) {
  return run_mpi(matching_platform(p.size()), p, config_for(p, matching_costs(), small_eager()));
}

using PairBytes = std::map<std::pair<RankId, RankId>, std::uint64_t>;

PairBytes bytes_per_pair(const MpiRun& r, std::uint16_t context) {
  PairBytes out;
  for (const MessageRecord& m : r.results.messages)
    if (m.comm == context) out[{m.src, m.dst}] += m.bytes;
  return out;
}

TEST(Communicators, SplitOrdersMembersByKeyThenParentRank) {
  Communicators comms(6);
  const std::vector<std::int32_t> colors = {0, 1, 0, 1, 0, -1};
  const std::vector<std::int32_t> keys = {5, 0, 5, 0, 1, 0};
  const std::vector<CommId> made = comms.split(kWorldComm, colors, keys);
  ASSERT_EQ(made.size(), 6u);
  EXPECT_EQ(made[5], kNoComm);
  EXPECT_EQ(comms[made[0]].members, (std::vector<RankId>{4, 0, 2}));
  EXPECT_EQ(comms[made[1]].members, (std::vector<RankId>{1, 3}));
  EXPECT_EQ(made[0], made[2]);
  EXPECT_EQ(comms[made[0]].rank_of(2), 2);
  EXPECT_EQ(comms[made[0]].rank_of(1), -1);
  // A split of the split: parent ranks are communicator ranks.
  const std::vector<CommId> again =
      comms.split(made[0], std::vector<std::int32_t>{0, 0, 1}, std::vector<std::int32_t>{1, 0, 0});
  EXPECT_EQ(comms[again[0]].members, (std::vector<RankId>{0, 4}));
  EXPECT_EQ(comms[again[2]].members, (std::vector<RankId>{2}));
}

TEST(Communicators, DupAndCreate) {
  Communicators comms(4);
  const CommId dup = comms.dup(kWorldComm);
  EXPECT_EQ(comms[dup].members, (std::vector<RankId>{0, 1, 2, 3}));
  EXPECT_NE(dup, kWorldComm);
  const CommId made = comms.create(dup, std::vector<RankId>{3, 1});
  EXPECT_EQ(comms[made].members, (std::vector<RankId>{3, 1}));
  EXPECT_THROW(comms.create(dup, std::vector<RankId>{1, 1}), std::invalid_argument);
  EXPECT_THROW(comms.create(dup, std::vector<RankId>{4}), std::invalid_argument);
}

// 8 ranks split by parity (key: reversed rank); an alltoall and a bcast on each half, then an
// alltoall on MPI_COMM_WORLD. Every ordered pair of one half exchanges exactly the alltoall
// block on the half's collective context, plus the bcast's messages from its root; nothing
// crosses halves there.
TEST(Communicators, SplitProgramCollectivesDeliverTheRightBytesPerPair) {
  constexpr RankId n = 8;
  constexpr std::uint64_t block = 700;
  constexpr std::uint64_t buffer = 3000;
  Communicators comms(n);
  std::vector<std::int32_t> colors(n), keys(n);
  for (RankId r = 0; r < n; ++r) {
    colors[r] = static_cast<std::int32_t>(r % 2);
    keys[r] = static_cast<std::int32_t>(n - r);
  }
  const std::vector<CommId> half = comms.split(kWorldComm, colors, keys);
  CollectiveAlgorithms a;
  a.alltoall = AlltoallAlgorithm::simple_spread;
  a.bcast = BcastAlgorithm::linear;
  auto b = builders(n);
  for (RankId r = 0; r < n; ++r) {
    b[r].comm_call(CallKind::comm_split, kWorldComm);
    b[r].use_communicator(half[r], comms[half[r]]);
    EXPECT_EQ(b[r].size(), 4u);
    EXPECT_EQ(b[r].rank(), (n - 1 - r) / 2);  // key n - r: the highest rank is rank 0
    add_alltoall(b[r], a, block);
    add_bcast(b[r], a, 1, buffer);  // root: communicator rank 1
    b[r].use_world();
    add_alltoall(b[r], a, 10);
  }
  const Program p = make(b, std::move(comms));
  const MpiRun result = run(p);
  EXPECT_TRUE(result.totals.stuck.empty());
  expect_breakdowns_add_up(result.results);
  for (RankId parity = 0; parity < 2; ++parity) {
    const CommId c = half[parity];
    const RankId root = p.communicators[c].members[1];
    PairBytes expected;
    for (RankId s : p.communicators[c].members)
      for (RankId d : p.communicators[c].members) {
        if (s == d) continue;
        expected[{s, d}] = block + (s == root ? buffer : 0);
      }
    EXPECT_EQ(bytes_per_pair(result, collective_context(c)), expected) << "half " << parity;
  }
  const PairBytes world = bytes_per_pair(result, kCommCollective);
  EXPECT_EQ(world.size(), std::size_t{n * (n - 1)});
  for (const auto& [pair, bytes] : world) EXPECT_EQ(bytes, 10u);
  std::size_t on_halves = 0;
  for (const MessageRecord& m : result.results.messages)
    if (m.comm != kCommCollective) ++on_halves;
  EXPECT_EQ(on_halves, 2u * (4 * 3 + 3));  // alltoall 12 + linear bcast 3, per half
}

// A message on a duplicate of MPI_COMM_WORLD never matches a receive on MPI_COMM_WORLD, even
// with wildcards and although it arrives first.
TEST(Communicators, MatchingIsScopedByCommunicator) {
  Communicators comms(2);
  const CommId dup = comms.dup(kWorldComm);
  auto b = builders(2);
  b[0].use_communicator(dup, comms[dup]);
  b[0].send(1, 5, 100);
  b[0].use_world();
  b[0].send(1, 5, 200);
  b[1].compute(engine::us(50));
  b[1].recv(kAnySource, kAnyTag, 200);
  b[1].use_communicator(dup, comms[dup]);
  b[1].recv(kAnySource, kAnyTag, 100);
  const Program p = make(b, std::move(comms));
  const MpiRun r = run(p);
  ASSERT_EQ(r.results.messages.size(), 2u);
  for (const MessageRecord& m : r.results.messages) {
    const Op& recv = p.ranks[1].ops[m.recv_op];
    EXPECT_EQ(recv.comm, m.comm);
    EXPECT_EQ(m.bytes, m.comm == point_to_point_context(dup) ? 100u : 200u);
  }
}

// Indexed matching keeps MPI's order with wildcards: unexpected messages are taken oldest
// first among those a receive matches, and a message takes the oldest posted receive it fits.
TEST(IndexedMatching, UnexpectedMessagesAreTakenInArrivalOrderWithWildcards) {
  auto b = builders(2);
  b[0].send(1, 1, 10);  // op 0
  b[0].send(1, 2, 20);  // op 1
  b[0].send(1, 1, 30);  // op 2
  b[1].compute(engine::us(50));
  b[1].recv(0, 2, 20);                 // takes op 1
  b[1].recv(kAnySource, kAnyTag, 10);  // takes op 0, the oldest left
  b[1].recv(0, 1, 30);                 // takes op 2
  Program p;
  for (auto& x : b) p.ranks.push_back(x.take());
  const MpiRun r = run(p);
  std::map<std::uint32_t, std::uint32_t> recv_of_send;
  for (const MessageRecord& m : r.results.messages) recv_of_send[m.send_op] = m.recv_op;
  const auto recv_op = [&](std::uint32_t call) { return p.ranks[1].calls[call].first_op; };
  EXPECT_EQ(recv_of_send[p.ranks[0].calls[1].first_op], recv_op(1));
  EXPECT_EQ(recv_of_send[p.ranks[0].calls[0].first_op], recv_op(2));
  EXPECT_EQ(recv_of_send[p.ranks[0].calls[2].first_op], recv_op(3));
}

TEST(IndexedMatching, MessagesTakeTheOldestPostedReceiveAcrossWildcardBuckets) {
  auto b = builders(2);
  b[0].compute(engine::us(50));
  b[0].send(1, 1, 10);
  b[0].send(1, 2, 20);
  b[0].send(1, 1, 30);
  b[0].send(1, 3, 40);
  const std::array<std::uint32_t, 4> requests = {
      b[1].irecv(kAnySource, 1, 10),  // posted first: the first tag-1 message
      b[1].irecv(0, kAnyTag, 20),     // the tag-2 message (oldest posted that fits it)
      b[1].irecv(0, 1, 30),           // the second tag-1 message
      b[1].irecv(kAnySource, kAnyTag, 40)};
  b[1].waitall(requests);
  Program p;
  for (auto& x : b) p.ranks.push_back(x.take());
  const MpiRun r = run(p);
  ASSERT_EQ(r.results.messages.size(), 4u);
  for (const MessageRecord& m : r.results.messages)
    EXPECT_EQ(p.ranks[1].ops[m.recv_op].bytes, m.bytes) << "send op " << m.send_op;
}

TEST(Communicators, DeadlockReportNamesRanksAndCommunicators) {
  Communicators comms(3);
  const std::vector<CommId> made = comms.split(kWorldComm, std::vector<std::int32_t>{0, 0, 1},
                                               std::vector<std::int32_t>{0, 0, 0});
  auto b = builders(3);
  b[0].use_communicator(made[0], comms[made[0]]);
  b[0].recv(1, 4, 100);  // rank 1 never sends
  b[1].compute(engine::us(1));
  b[2].compute(engine::us(1));
  const Program p = make(b, std::move(comms));
  const MpiRun r =
      run_mpi(matching_platform(3), p, config_for(p, matching_costs(), small_eager()), true);
  const std::string message = deadlock_message(r.totals, 8);
  EXPECT_NE(message.find("rank 0 blocked in recv from 1"), std::string::npos) << message;
  EXPECT_NE(message.find("communicator 1"), std::string::npos) << message;
}

TEST(OpenMpiTuned, ChoosesAsOpenMpisFixedRules) {
  struct Point {
    CallKind kind;
    RankId size;
    std::uint64_t bytes;
    std::string_view ompi;
    std::string_view netwarp;
  };
  const Point points[] = {
      {CallKind::bcast, 2, 100, "binary_tree", "binomial"},
      {CallKind::bcast, 8, 1000, "knomial", "binomial"},
      {CallKind::bcast, 6, 100000, "basic_linear", "linear"},
      {CallKind::bcast, 4096, 1 << 20, "scatter_allgather", "binomial"},
      {CallKind::alltoall, 2, 1, "pairwise", "pairwise"},
      {CallKind::alltoall, 1024, 16, "modified_bruck", "bruck"},
      {CallKind::alltoall, 16, 1 << 20, "linear_sync", "algorithm_a"},
      {CallKind::alltoall, 24, 1 << 20, "linear_sync", "simple_spread"},
      {CallKind::alltoall, 200, 1 << 20, "pairwise", "simple_spread"},
      {CallKind::barrier, 6, 0, "linear", "linear"},
      {CallKind::barrier, 100, 0, "bruck", "dissemination"},
      {CallKind::allreduce, 16, 100, "recursive_doubling", "recursive_doubling"},
      {CallKind::allreduce, 16, 1 << 20, "rabenseifner", "ring"},
      {CallKind::allreduce, 300, 100, "nonoverlapping", "reduce_bcast"},
      {CallKind::reduce, 6, 100, "binary", "binomial"},
      {CallKind::gather, 300, 4000, "basic_linear", "linear"},
      {CallKind::scatter, 10, 100, "binomial", "binomial"},
      {CallKind::allgather, 100, 100, "recursive_doubling", "ring"},
      {CallKind::allgather, 100, 1 << 20, "ring", "ring"},
  };
  for (const Point& pt : points) {
    const OpenMpiChoice c = openmpi_tuned_choice(pt.kind, pt.size, pt.bytes);
    EXPECT_EQ(c.ompi_name, pt.ompi) << call_kind_name(pt.kind) << " " << pt.size << " " << pt.bytes;
    EXPECT_EQ(c.netwarp_name, pt.netwarp) << call_kind_name(pt.kind) << " " << pt.size;
  }
  EXPECT_THROW(openmpi_tuned_choice(CallKind::send, 4, 1), std::invalid_argument);
}

// With OPENMPI_TUNED a 6-rank barrier is Open MPI's linear one: ranks only talk to rank 0.
TEST(OpenMpiTuned, BuildsTheChosenAlgorithm) {
  CollectiveAlgorithms a;
  a.selection = CollectiveSelection::openmpi_tuned;
  RankProgramBuilder b(3, 6);
  add_barrier(b, a);
  const RankProgram p = b.take();
  for (const Op& op : p.ops)
    if (op.kind == OpKind::send || op.kind == OpKind::recv) {
      EXPECT_EQ(op.peer, 0);
    }
  RankProgramBuilder fixed(3, 6);
  a.selection = CollectiveSelection::fixed;
  add_barrier(fixed, a);  // dissemination: peers other than 0
  const RankProgram q = fixed.take();
  EXPECT_TRUE(std::any_of(q.ops.begin(), q.ops.end(),
                          [](const Op& op) { return op.kind == OpKind::send && op.peer != 0; }));
}

// ibcast and ialltoall on a sub-communicator: the calls have no operations, the schedules run
// in the completing wait, waitall or test, and deliver the same bytes as the blocking forms.
TEST(NonblockingCollectives, RunInTheCompletingCallAndDeliverTheirBytes) {
  constexpr RankId n = 4;
  Communicators comms(n);
  const CommId dup = comms.dup(kWorldComm);
  CollectiveAlgorithms a;
  auto b = builders(n);
  for (RankId r = 0; r < n; ++r) {
    b[r].use_communicator(dup, comms[dup]);
    const std::uint32_t bcast = add_ibcast(b[r], a, 2, 500);
    const std::uint32_t alltoall = add_ialltoall(b[r], a, 100);
    const std::uint32_t barrier = add_ibarrier(b[r], a);
    b[r].compute(engine::us(5));
    b[r].wait(bcast);
    const std::array<std::uint32_t, 1> rest = {alltoall};
    b[r].waitall(rest);
    b[r].test(barrier);
    b[r].use_world();
  }
  const Program p = make(b, std::move(comms));
  for (const RankProgram& rp : p.ranks) {
    ASSERT_EQ(rp.calls.size(), 7u);
    EXPECT_EQ(rp.calls[0].kind, CallKind::ibcast);
    EXPECT_EQ(rp.calls[0].op_count, 0u);
    EXPECT_EQ(rp.calls[1].kind, CallKind::ialltoall);
    EXPECT_EQ(rp.calls[0].comm, dup);
    EXPECT_GT(rp.calls[5].op_count, 0u);  // the waitall runs the alltoall
  }
  const MpiRun r = run(p);
  EXPECT_TRUE(r.totals.stuck.empty());
  expect_breakdowns_add_up(r.results);
  std::uint64_t bcast_bytes = 0, alltoall_bytes = 0;
  for (const MessageRecord& m : r.results.messages) {
    EXPECT_EQ(m.comm, collective_context(dup));
    EXPECT_NE(m.tag & RankProgramBuilder::kNonblockingTag, 0);
    if (m.bytes == 500) bcast_bytes += m.bytes;
    if (m.bytes == 100) alltoall_bytes += m.bytes;
  }
  EXPECT_EQ(bcast_bytes, 3u * 500);
  EXPECT_EQ(alltoall_bytes, 12u * 100);
}

proto::Trace split_trace() {
  // 4 ranks: split by parity into handle 1; a bcast of 256 B from communicator rank 1 and an
  // ialltoall on it; a send on the sub-communicator (communicator ranks), then a waitall.
  proto::Trace t;
  for (int r = 0; r < 4; ++r) {
    proto::RankTrace& rank = *t.add_ranks();
    proto::CommSplit& split = *rank.add_actions()->mutable_comm_split();
    split.set_color(r % 2);
    split.set_key(r);
    proto::Bcast& bcast = *rank.add_actions()->mutable_bcast();
    bcast.set_bytes(256);
    bcast.set_root(1);
    bcast.set_comm(1);
    proto::Alltoall& ia = *rank.add_actions()->mutable_ialltoall();
    ia.set_send_bytes(64);
    ia.set_recv_bytes(64);
    ia.set_comm(1);
    if (r < 2) {
      proto::Send& s = *rank.add_actions()->mutable_isend();
      s.set_dst(1);  // communicator rank 1: world rank r + 2
      s.set_tag(3);
      s.set_bytes(32);
      s.set_comm(1);
    } else {
      proto::Recv& rv = *rank.add_actions()->mutable_irecv();
      rv.set_src(0);  // communicator rank 0: world rank r - 2
      rv.set_tag(3);
      rv.set_bytes(32);
      rv.set_comm(1);
    }
    rank.add_actions()->mutable_waitall();
  }
  return t;
}

TEST(TraceCommunicators, ProtobufSplitRunsOnTheSubCommunicators) {
  const Program p = program_from_trace(split_trace(), {});
  ASSERT_EQ(p.communicators.size(), 3u);
  EXPECT_EQ(p.communicators[1].members, (std::vector<RankId>{0, 2}));
  EXPECT_EQ(p.communicators[2].members, (std::vector<RankId>{1, 3}));
  const MpiRun r = run(p);
  EXPECT_TRUE(r.totals.stuck.empty());
  std::map<std::pair<RankId, RankId>, std::uint64_t> user;
  for (const MessageRecord& m : r.results.messages) {
    EXPECT_EQ((m.src % 2), (m.dst % 2)) << "a message crossed communicators";
    if (m.comm % 2 == 0) user[{m.src, m.dst}] += m.bytes;
  }
  const std::map<std::pair<RankId, RankId>, std::uint64_t> expected = {{{0, 2}, 32}, {{1, 3}, 32}};
  EXPECT_EQ(user, expected);
}

TEST(TraceCommunicators, MismatchesAreRefusedAtTheAction) {
  proto::Trace t = split_trace();
  t.mutable_ranks(3)->mutable_actions(0)->clear_comm_split();
  t.mutable_ranks(3)->mutable_actions(0)->mutable_compute()->set_flops(1);
  try {
    program_from_trace(t, {});
    FAIL() << "a creation that rank 3 never makes was accepted";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("never made by rank 3"), std::string::npos) << e.what();
  }
  proto::Trace early = split_trace();
  early.mutable_ranks(0)->mutable_actions(0)->mutable_comm_split()->set_parent(1);
  EXPECT_THROW(program_from_trace(early, {}), TraceError);
}

TEST(TraceCommunicators, TitReadsCommSplitAndNonblockingCollectives) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "nw_comm_tit";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "t.tit";
  {
    std::ofstream out(file);
    for (int r = 0; r < 2; ++r)
      out << r << " init\n"
          << r << " comm_split\n"
          << r << " comm_split " << r << " 0\n"
          << r << " ibcast 100 1\n"
          << r << " iallreduce 8 10\n"
          << r << " ibarrier\n"
          << r << " wait\n"
          << r << " waitall\n"
          << r << " finalize\n";
  }
  const proto::Trace t = read_tit(file);
  ASSERT_EQ(t.ranks_size(), 2);
  const auto& actions = t.ranks(1).actions();
  ASSERT_EQ(actions.size(), 6);
  EXPECT_EQ(actions[0].comm_split().color(), 1);
  EXPECT_TRUE(actions[1].has_ibcast());
  EXPECT_EQ(actions[1].ibcast().root(), 1);
  EXPECT_TRUE(actions[2].has_iallreduce());
  EXPECT_TRUE(actions[3].has_ibarrier());
  const Program p = program_from_trace(t, {});
  EXPECT_EQ(p.communicators.size(), 3u);  // world and one per color
  const MpiRun r = run(p);
  EXPECT_TRUE(r.totals.stuck.empty());
  const std::filesystem::path back = dir / "back.tit";
  write_tit(t, back);
  const proto::Trace again = read_tit(back);
  EXPECT_EQ(again.ranks(1).actions(0).comm_split().color(), 1);
  EXPECT_TRUE(again.ranks(0).actions(1).has_ibcast());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace netwarp::mpiemul
