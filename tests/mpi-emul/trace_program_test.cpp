// program_from_trace: flops become exact picoseconds, collectives expand exactly as direct
// calls of the collective algorithms with the significant arguments (the root's lists for
// gatherv and scatterv), reductions compute after communicating, and requests left pending
// are waited for at the end.
#include <gtest/gtest.h>

#include <limits>

#include "mpi-emul/trace_test_support.hpp"
#include "netwarp/mpiemul/collectives.hpp"

namespace netwarp::mpiemul {
namespace {

using testing::describe_calls;
using testing::describe_ops;
using testing::describe_program;
using testing::temp_dir;
using testing::trace_data;
using testing::write_file;
using Strings = std::vector<std::string>;

TEST(ComputeTime, WholeFlopsDivideExactly) {
  EXPECT_EQ(compute_time(1e9, 1e9).ps(), 1'000'000'000'000);
  EXPECT_EQ(compute_time(1, 3).ps(), 333'333'333'333);  // 333333333333.33
  EXPECT_EQ(compute_time(2, 3).ps(), 666'666'666'667);  // 666666666666.67
  EXPECT_EQ(compute_time(1'000'000'001, 1e9).ps(), 1'000'000'001'000);
  EXPECT_EQ(compute_time(9007199254740991.0, 999999999999.0).ps(), 9007199254749998);
  EXPECT_EQ(compute_time(0, 1e9).ps(), 0);
}

TEST(ComputeTime, TiesRoundAwayFromZero) {
  EXPECT_EQ(compute_time(1, 2e12).ps(), 1);  // 0.5 ps
  EXPECT_EQ(compute_time(3, 2e12).ps(), 2);  // 1.5 ps
  EXPECT_EQ(compute_time(5, 2e12).ps(), 3);  // 2.5 ps
  EXPECT_EQ(compute_time(1, 4e12).ps(), 0);  // 0.25 ps
}

TEST(ComputeTime, FractionsAndRatesBelowOne) {
  EXPECT_EQ(compute_time(0.5, 1).ps(), 500'000'000'000);
  EXPECT_EQ(compute_time(1, 0.5).ps(), 2'000'000'000'000);
  EXPECT_EQ(compute_time(1.5, 1).ps(), 1'500'000'000'000);
}

TEST(ComputeTime, RejectsWhatSimTimeCannotHold) {
  EXPECT_EQ(compute_time(9e6, 1).ps(), 9'000'000'000'000'000'000);
  EXPECT_THROW(compute_time(1e7, 1), std::invalid_argument);
  EXPECT_THROW(compute_time(-1, 1), std::invalid_argument);
  EXPECT_THROW(compute_time(1, 0), std::invalid_argument);
  EXPECT_THROW(compute_time(std::numeric_limits<double>::infinity(), 1), std::invalid_argument);
}

TEST(TraceProgram, ComputeUsesTheFlopRate) {
  const auto dir = temp_dir("rate");
  const auto path = write_file(dir / "t.tit", "0 compute 1\n0 compute 3e5\n");
  TraceProgramOptions options;
  options.flops_per_second = 3;
  EXPECT_EQ(describe_ops(program_from_trace(read_tit(path), options).ranks[0]),
            (Strings{"compute 333333333333", "compute 100000000000000000"}));
}

// Rank r of collectives.tit, built by calling the algorithms directly.
RankProgram expected_collectives(RankId r, const CollectiveAlgorithms& a) {
  const std::vector<std::vector<std::uint64_t>> send_v = {
      {1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
  std::vector<std::uint64_t> recv_v;
  for (RankId j = 0; j < 4; ++j) recv_v.push_back(send_v[j][r]);
  RankProgramBuilder b(r, 4);
  add_barrier(b, a);
  add_bcast(b, a, 1, 1000);
  add_reduce(b, a, 2, 100);
  b.compute(engine::ps(500'000'000'000));
  add_allreduce(b, a, 128);
  b.compute(engine::ps(1'000'000'000));
  add_alltoall(b, a, 10);
  add_alltoallv(b, a, send_v[r], recv_v);
  add_gather(b, a, 0, 8);
  add_scatter(b, a, 3, 8);
  add_allgather(b, a, 16);
  add_gatherv(b, a, 0, std::vector<std::uint64_t>{5, 6, 7, 8});
  add_scatterv(b, a, 1, std::vector<std::uint64_t>{1, 2, 3, 4});
  add_allgatherv(b, a, std::vector<std::uint64_t>{2, 4, 6, 8});
  add_reduce_scatter(b, a, std::vector<std::uint64_t>{1, 2, 3, 4});
  b.compute(engine::ps(2'000'000'000));
  return b.take();
}

TEST(TraceProgram, CollectivesExpandAsDirectCallsWithTheSignificantArguments) {
  for (const auto bcast : {BcastAlgorithm::binomial, BcastAlgorithm::linear}) {
    TraceProgramOptions options;
    options.algorithms.bcast = bcast;
    options.algorithms.gather = GatherAlgorithm::linear;
    const Program actual = program_from_trace(read_tit(trace_data("collectives.tit")), options);
    Program expected;
    for (RankId r = 0; r < 4; ++r)
      expected.ranks.push_back(expected_collectives(r, options.algorithms));
    EXPECT_EQ(describe_program(actual), describe_program(expected));
  }
}

TEST(TraceProgram, CollectiveCallsNameTheirRootAndBlock) {
  const Program program = program_from_trace(read_tit(trace_data("collectives.tit")), {});
  const auto calls = describe_calls(program.ranks[2]);
  ASSERT_EQ(calls.size(), 16u);
  EXPECT_TRUE(calls[1].starts_with("bcast(1 t-1 1000)")) << calls[1];
  EXPECT_TRUE(calls[2].starts_with("reduce(2 t-1 100)")) << calls[2];
  EXPECT_TRUE(calls[3].starts_with("compute(")) << calls[3];
}

TEST(TraceProgram, RequestsPendingAtTheEndAreWaitedFor) {
  const auto dir = temp_dir("pending");
  const auto path = write_file(dir / "t.tit",
                               "0 isend 1 0 8\n0 irecv 1 1 8\n1 recv 0 0 8\n"
                               "1 send 0 1 8\n");
  const RankProgram p = program_from_trace(read_tit(path), {}).ranks[0];
  EXPECT_EQ(describe_ops(p), (Strings{"isend>1 t0 8 r0", "irecv<1 t1 8 r1", "wait[0 1]"}));
  EXPECT_EQ(p.calls.back().kind, CallKind::waitall);
}

TEST(TraceProgram, WaitsTakeTheOldestRequestWithTheirKey) {
  const auto dir = temp_dir("oldest");
  const auto path = write_file(dir / "t.tit",
                               "0 isend 1 4 8\n0 isend 1 4 9\n0 wait 0 1 4\n"
                               "0 wait 0 1 4\n1 recv 0 4 8\n1 recv 0 4 9\n");
  EXPECT_EQ(describe_ops(program_from_trace(read_tit(path), {}).ranks[0]),
            (Strings{"isend>1 t4 8 r0", "isend>1 t4 9 r1", "wait[0]", "wait[1]"}));
}

TEST(TraceProgram, AnySourceReceiveIsFoundByTheSenderItMatched) {
  const auto dir = temp_dir("any");
  const auto path =
      write_file(dir / "t.tit", "0 send 1 2 8\n1 irecv -1 -1 8\n1 test 0 1 2\n1 wait 0 1 2\n");
  EXPECT_EQ(describe_ops(program_from_trace(read_tit(path), {}).ranks[1]),
            (Strings{"irecv<-1 t-1 8 r0", "test[0]", "wait[0]"}));
}

TEST(TraceProgram, TestWithNothingToTestIsDroppedAsSimGridDoes) {
  const auto dir = temp_dir("test");
  const auto path = write_file(dir / "t.tit", "0 test 0 0 0\n0 compute 0\n");
  EXPECT_EQ(describe_calls(program_from_trace(read_tit(path), {}).ranks[0]),
            Strings{"compute(-1 t-1 0) ops 1"});
}

TEST(TraceProgram, HandWrittenSendrecvExpands) {
  proto::Trace trace;
  for (int r = 0; r < 2; ++r) {
    proto::SendRecv& sr = *trace.add_ranks()->add_actions()->mutable_sendrecv();
    sr.set_dst(1 - r);
    sr.set_src(1 - r);
    sr.set_send_tag(3);
    sr.set_recv_tag(3);
    sr.set_send_bytes(16);
    sr.set_recv_bytes(16);
  }
  EXPECT_EQ(describe_ops(program_from_trace(trace, {}).ranks[1]),
            (Strings{"irecv<0 t3 16 r0", "isend>0 t3 16 r1", "wait[0 1]"}));
}

TEST(TraceProgram, RejectsABadFlopRate) {
  proto::Trace trace;
  trace.add_ranks();
  TraceProgramOptions options;
  options.flops_per_second = 0;
  EXPECT_THROW(program_from_trace(trace, options), std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::mpiemul
