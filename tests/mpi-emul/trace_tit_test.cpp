// read_tit: the three input forms (one file, a replay list, a directory of rank files) give
// the same actions, and a small point-to-point trace expands into the expected calls and
// operations per rank; older SimGrid forms and datatypes are read as SimGrid reads them.
#include <gtest/gtest.h>

#include "mpi-emul/trace_test_support.hpp"

namespace netwarp::mpiemul {
namespace {

using testing::describe_calls;
using testing::describe_ops;
using testing::describe_program;
using testing::temp_dir;
using testing::trace_data;
using testing::write_file;
using Strings = std::vector<std::string>;

Program p2p_program(const std::filesystem::path& path) {
  TraceProgramOptions options;
  options.flops_per_second = 2e9;
  return program_from_trace(read_tit(path), options);
}

TEST(TitReader, ReadsEveryRanksActionsWithTheirLines) {
  const auto path = trace_data("p2p.tit");
  const proto::Trace trace = read_tit(path);
  ASSERT_EQ(trace.ranks_size(), 3);
  EXPECT_EQ(trace.ranks(0).source_file(), path.string());
  ASSERT_EQ(trace.ranks(0).actions_size(), 6);  // init and finalize are not actions
  const proto::Action& send = trace.ranks(0).actions(1);
  EXPECT_EQ(send.line(), 7u);
  ASSERT_TRUE(send.has_send());
  EXPECT_EQ(send.send().dst(), 1);
  EXPECT_EQ(send.send().tag(), 0);
  EXPECT_EQ(send.send().bytes(), 1000000u);
  EXPECT_EQ(trace.ranks(1).actions(1).isend().bytes(), 256u);  // 64 MPI_INTs
  EXPECT_EQ(trace.ranks(1).actions(2).irecv().src(), -1);
  EXPECT_EQ(trace.ranks(1).actions(2).irecv().tag(), -1);
  EXPECT_FALSE(trace.ranks(0).actions(5).wait().has_request());  // a bare wait
  EXPECT_EQ(trace.ranks(2).actions(3).sleep().seconds(), 0.5);
}

TEST(TitReader, RankZeroExpandsToItsCallsAndOperations) {
  const Program program = p2p_program(trace_data("p2p.tit"));
  const RankProgram& p = program.ranks[0];
  EXPECT_EQ(describe_calls(p),
            (Strings{"compute(-1 t-1 0) ops 1", "send(1 t0 1000000) ops 1", "isend(2 t5 100) ops 1",
                     "irecv(2 t6 200) ops 1", "wait(-1 t-1 0) ops 1", "wait(-1 t-1 0) ops 1"}));
  EXPECT_EQ(describe_ops(p),
            (Strings{"compute 500000000000", "send>1 t0 1000000 r0", "isend>2 t5 100 r1",
                     "irecv<2 t6 200 r2", "wait[1]", "wait[2]"}));
}

TEST(TitReader, RankOneTestsItsIsendAndWaitsForAll) {
  const Program program = p2p_program(trace_data("p2p.tit"));
  const RankProgram& p = program.ranks[1];
  EXPECT_EQ(describe_ops(p), (Strings{"recv<0 t0 1000000 r0", "isend>2 t1 256 r1",
                                      "irecv<-1 t-1 32 r2", "test[1]", "wait[1 2]"}));
  EXPECT_EQ(p.calls.back().kind, CallKind::waitall);
}

TEST(TitReader, RankTwoSleepsAndWaitsByKey) {
  const Program program = p2p_program(trace_data("p2p.tit"));
  const RankProgram& p = program.ranks[2];
  EXPECT_EQ(describe_ops(p),
            (Strings{"irecv<0 t5 100 r0", "isend>0 t6 200 r1", "irecv<1 t1 256 r2",
                     "compute 500000000000", "wait[0]", "isend>1 t3 32 r3", "wait[1 2 3]"}));
  EXPECT_EQ(p.request_count, 4u);
}

TEST(TitReader, DirectoryOfRankFilesGivesTheSameProgram) {
  const auto dir = trace_data("p2p_ranks");
  EXPECT_EQ(describe_program(p2p_program(dir)),
            describe_program(p2p_program(trace_data("p2p.tit"))));
  const proto::Trace trace = read_tit(dir);
  EXPECT_EQ(trace.ranks(1).source_file(), (dir / "rank1.tit").string());
  EXPECT_EQ(trace.ranks(1).actions(0).line(), 2u);
}

TEST(TitReader, ReplayListsGiveTheSameProgram) {
  const std::string expected = describe_program(p2p_program(trace_data("p2p.tit")));
  EXPECT_EQ(describe_program(p2p_program(trace_data("p2p_ranks.list"))), expected);
  EXPECT_EQ(describe_program(p2p_program(trace_data("p2p_shared.list"))), expected);
}

TEST(TitReader, DirectoryRanksComeFromFileNamesNotListingOrder) {
  const auto dir = temp_dir("names");
  write_file(dir / "trace.1", "1 recv 0 0 8\n");
  write_file(dir / "actions0.txt", "0 send 1 0 8\n");
  write_file(dir / ".hidden", "garbage\n");
  const Program program = program_from_trace(read_tit(dir), {});
  EXPECT_EQ(describe_ops(program.ranks[0]), Strings{"send>1 t0 8 r0"});
  EXPECT_EQ(describe_ops(program.ranks[1]), Strings{"recv<0 t0 8 r0"});
}

TEST(TitReader, OlderFormsReadAsOlderSimGridWroteThem) {
  const auto dir = temp_dir("older");
  const auto path = write_file(dir / "t.tit",
                               "0 Isend 1 10\n0 compute 5\n1 Irecv 0 10\n1 recv 0 7\n"
                               "1 wait\n0 send 1 7\n0 waitAll\n");
  const Program program = program_from_trace(read_tit(path), {});
  EXPECT_EQ(describe_ops(program.ranks[0]),
            (Strings{"isend>1 t0 10 r0", "compute 5000", "send>1 t0 7 r1", "wait[0]"}));
  EXPECT_EQ(describe_ops(program.ranks[1]),
            (Strings{"irecv<0 t0 10 r0", "recv<0 t0 7 r1", "wait[0]"}));
}

TEST(TitReader, InitWithAnArgumentCountsDoublesAndDatatypesOverride) {
  const auto dir = temp_dir("types");
  const auto path = write_file(dir / "t.tit",
                               "0 init 1\n0 send 1 0 10\n0 send 1 1 10 3\n"
                               "1 init\n1 recv 0 0 80\n1 recv 0 1 20 6\n");
  const proto::Trace trace = read_tit(path);
  EXPECT_EQ(trace.ranks(0).actions(0).send().bytes(), 80u);  // MPI_DOUBLE by default
  EXPECT_EQ(trace.ranks(0).actions(1).send().bytes(), 20u);  // id 3: MPI_SHORT
  EXPECT_EQ(trace.ranks(1).actions(0).recv().bytes(), 80u);  // MPI_BYTE by default
  EXPECT_EQ(trace.ranks(1).actions(1).recv().bytes(), 20u);  // id 6: MPI_BYTE
}

TEST(TitReader, RecvOfUnknownSizeIsZeroBytes) {
  const auto dir = temp_dir("unknown_size");
  const auto path = write_file(dir / "t.tit", "0 send 1 0 64\n1 recv 0 0 -1\n");
  EXPECT_EQ(read_tit(path).ranks(1).actions(0).recv().bytes(), 0u);
}

TEST(TitReader, CollectivesKeepSimGridArgumentOrders) {
  const proto::Trace trace = read_tit(trace_data("collectives.tit"));
  const auto& rank1 = trace.ranks(1).actions();
  EXPECT_EQ(rank1[1].bcast().root(), 1);
  EXPECT_EQ(rank1[2].reduce().root(), 2);
  EXPECT_EQ(rank1[2].reduce().flops(), 5e8);
  EXPECT_EQ(rank1[3].allreduce().bytes(), 128u);  // 16 MPI_DOUBLEs
  EXPECT_EQ(rank1[5].alltoallv().send_bytes(1), 6u);
  EXPECT_EQ(rank1[5].alltoallv().recv_bytes(3), 14u);
  EXPECT_EQ(rank1[8].allgather().send_bytes(), 16u);  // 4 MPI_INTs
  EXPECT_EQ(rank1[10].scatterv().root(), 1);
  EXPECT_EQ(rank1[10].scatterv().send_bytes(3), 4u);
  EXPECT_EQ(rank1[11].allgatherv().recv_bytes(2), 6u);
  EXPECT_EQ(rank1[12].reduce_scatter().flops(), 2e6);
}

}  // namespace
}  // namespace netwarp::mpiemul
