// Trace mistakes are TraceErrors whose what() is exactly one line, "FILE:LINE: message"
// ("FILE: message" for a whole file or directory), naming the original TIT line even when
// the mistake is only found while building the program.
#include <gtest/gtest.h>

#include "mpi-emul/trace_test_support.hpp"

namespace netwarp::mpiemul {
namespace {

using testing::temp_dir;
using testing::trace_error;
using testing::write_file;

// The error of reading `text` as a TIT file and building its program.
class TitErrors : public ::testing::Test {
 protected:
  void SetUp() override { path_ = (temp_dir("errors") / "t.tit").string(); }
  std::string error_of(const std::string& text) {
    write_file(path_, text);
    const std::string message =
        trace_error([&] { program_from_trace(read_tit(path_), TraceProgramOptions{}); });
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  std::string at(int line, const std::string& message) const {
    return fmt::format("{}:{}: {}", path_, line, message);
  }
  std::string path_;
};

TEST_F(TitErrors, UnknownActionListsTheKnownOnes) {
  EXPECT_EQ(error_of("0 init\n0 sned 0 0 10\n"),
            at(2,
               "unknown action 'sned' (known: allgather, allgatherv, allreduce, alltoall, "
               "alltoallv, barrier, bcast, comm_dup, comm_size, comm_split, compute, "
               "finalize, gather, gatherv, iallreduce, ialltoall, ibarrier, ibcast, init, irecv, "
               "isend, location, recv, reduce, reducescatter, scatter, scatterv, send, sleep, "
               "test, wait, waitall)"));
}

TEST_F(TitErrors, MissingArgumentShowsTheUsage) {
  EXPECT_EQ(error_of("0 send 1\n1 recv 0 0 1\n"),
            at(1, "send: missing TAG (usage: RANK send DST TAG SIZE [DATATYPE])"));
  EXPECT_EQ(error_of("0 bcast\n"),
            at(1, "bcast: missing SIZE (usage: RANK bcast SIZE [ROOT [DATATYPE]])"));
  EXPECT_EQ(error_of("0 alltoallv 1 2 3\n"),
            at(1,
               "alltoallv: missing RECV_COUNT (usage: RANK alltoallv SEND_BUFFER "
               "SEND_COUNT*RANKS RECV_BUFFER RECV_COUNT*RANKS [SEND_TYPE RECV_TYPE])"));
  EXPECT_EQ(error_of("0\n"), at(1, "missing the action after the rank"));
}

TEST_F(TitErrors, ExtraArgument) {
  EXPECT_EQ(error_of("0 compute 1 2\n"),
            at(1, "compute: unexpected argument '2' (usage: RANK compute FLOPS)"));
}

TEST_F(TitErrors, NotANumber) {
  EXPECT_EQ(error_of("0 compute lots\n"), at(1, "compute: FLOPS 'lots' is not a number"));
  EXPECT_EQ(error_of("0 send 1 x 10\n1 init\n"), at(1, "send: TAG 'x' is not an integer"));
  EXPECT_EQ(error_of("0 send 1 0 2.5\n1 init\n"), at(1, "send: SIZE 2.5 is not a whole number"));
  EXPECT_EQ(error_of("0 compute -5\n"), at(1, "compute: FLOPS -5 is negative"));
  EXPECT_EQ(error_of("0 send 1 0 10 99\n1 init\n"),
            at(1,
               "send: DATATYPE '99' is not a SimGrid datatype id (0 to 24; 0: MPI_DOUBLE, "
               "6: MPI_BYTE)"));
}

TEST_F(TitErrors, RankOutOfRange) {
  EXPECT_EQ(error_of("0 init\n1 init\n0 send 5 0 10\n"),
            at(3, "send: DST 5 is not a rank (the trace has ranks 0 to 1)"));
  EXPECT_EQ(error_of("0 init\n1 bcast 10 2\n"),
            at(2, "bcast: ROOT 2 is not a rank (the trace has ranks 0 to 1)"));
  EXPECT_EQ(error_of("0 init\nx init\n"),
            at(2, "'x' is not a rank: a line starts with its rank (0 to 1048575)"));
  EXPECT_EQ(error_of("0 init\n2 init\n"),
            path_ + ": no line for rank 1 (lines name ranks up to 2)");
}

TEST_F(TitErrors, WaitWithoutARequest) {
  EXPECT_EQ(error_of("0 compute 1\n0 wait\n"), at(2, "wait: no isend or irecv is pending"));
  EXPECT_EQ(error_of("0 init\n1 init\n1 wait 0 1 0\n"),
            at(3, "wait: no isend or irecv is pending"));
  EXPECT_EQ(error_of("0 isend 1 0 10\n0 wait 0 1 7\n1 recv 0 0 10\n"),
            at(2,
               "wait: no pending isend or irecv has src 0, dst 1, tag 7 "
               "(pending: (src 0, dst 1, tag 0))"));
  EXPECT_EQ(error_of("0 isend 0 0 10\n0 wait 0 0\n"),
            at(2, "wait: missing TAG (usage: RANK wait [SRC DST TAG])"));
}

// A bare comm_split is ignored, as SimGrid's replay ignores it; with arguments they are
// COLOR KEY, both integers.
TEST_F(TitErrors, CommSplitTakesColorAndKey) {
  EXPECT_EQ(error_of("0 comm_split\n"), "no error");
  EXPECT_EQ(error_of("0 comm_split 1 2\n"), "no error");
  EXPECT_EQ(error_of("0 comm_split x 2\n"), at(1, "comm_split: COLOR 'x' is not an integer"));
}

TEST_F(TitErrors, RanksMustMakeTheSameCollectiveCalls) {
  EXPECT_EQ(error_of("0 bcast 10 0\n1 bcast 10 1\n"),
            at(2, fmt::format("collective call 1 of rank 1 is bcast (root 1), but rank 0's is "
                              "bcast (root 0) at {}:1: every rank must make the same "
                              "collective calls in the same order",
                              path_)));
  EXPECT_EQ(error_of("0 barrier\n0 allreduce 8 0\n1 barrier\n"),
            at(2,
               "rank 1 makes 1 collective calls but rank 0 makes 2: this allreduce has no "
               "counterpart"));
}

TEST_F(TitErrors, AlgorithmThatCannotRunIsReportedAtTheCollective) {
  const std::string message = error_of("0 alltoall 8 8\n1 alltoall 8 8\n2 alltoall 8 8\n");
  EXPECT_TRUE(message.starts_with(at(1, "alltoall: "))) << message;
}

TEST(TitFileErrors, MissingFile) {
  const auto path = temp_dir("missing") / "nothing.tit";
  EXPECT_EQ(trace_error([&] { read_tit(path); }), path.string() + ": no such file or directory");
}

TEST(TitFileErrors, MissingRankFile) {
  const auto dir = temp_dir("gap");
  write_file(dir / "rank0.tit", "0 init\n");
  write_file(dir / "rank2.tit", "2 init\n");
  EXPECT_EQ(trace_error([&] { read_tit(dir); }),
            dir.string() + ": no trace file for rank 1 (files found for ranks 0, 2)");
}

TEST(TitFileErrors, RankFileWithAnotherRanksLine) {
  const auto dir = temp_dir("foreign");
  write_file(dir / "rank0.tit", "0 init\n1 init\n");
  write_file(dir / "rank1.tit", "1 init\n");
  EXPECT_EQ(trace_error([&] { read_tit(dir); }),
            (dir / "rank0.tit").string() + ":2: a line of rank 1 in the trace file of rank 0");
}

TEST(TitFileErrors, FileWithoutARankInItsName) {
  const auto dir = temp_dir("unnamed");
  write_file(dir / "rank0.tit", "0 init\n");
  write_file(dir / "README", "notes\n");
  EXPECT_EQ(trace_error([&] { read_tit(dir); }),
            (dir / "README").string() +
                ": cannot tell the rank from the file name (it must end with the rank number, "
                "before or after its extension)");
}

TEST(TitFileErrors, ListedFileThatDoesNotExist) {
  const auto dir = temp_dir("list");
  const auto list = write_file(dir / "traces", "a.tit\nb.tit\n");
  write_file(dir / "a.tit", "0 init\n");
  // The list's line that names it, then the file.
  EXPECT_EQ(trace_error([&] { read_tit(list); }),
            list + ":2: " + (dir / "b.tit").string() + ": cannot open the trace file");
}

TEST(ProtoTraceErrors, ActionsWithoutASourceNameTheirRankAndIndex) {
  proto::Trace trace;
  trace.add_ranks()->add_actions()->mutable_wait();
  EXPECT_EQ(trace_error([&] { program_from_trace(trace, {}); }),
            "rank 0, action 1: wait: no isend or irecv is pending");
  trace.mutable_ranks(0)->set_source_file("app.tit");
  EXPECT_EQ(trace_error([&] { program_from_trace(trace, {}); }),
            "app.tit: rank 0, action 1: wait: no isend or irecv is pending");
  trace.mutable_ranks(0)->mutable_actions(0)->set_line(12);
  EXPECT_EQ(trace_error([&] { program_from_trace(trace, {}); }),
            "app.tit:12: wait: no isend or irecv is pending");
}

TEST(ProtoTraceErrors, ListsMustHaveOneEntryPerRank) {
  proto::Trace trace;
  for (int r = 0; r < 2; ++r) {
    proto::Allgatherv& a = *trace.add_ranks()->add_actions()->mutable_allgatherv();
    a.add_recv_bytes(4);
  }
  EXPECT_EQ(trace_error([&] { program_from_trace(trace, {}); }),
            "rank 0, action 1: allgatherv: recv_bytes has 1 entries; it needs one per rank (2)");
}

TEST(ProtoTraceErrors, TextParseErrorsNameFileLineAndColumn) {
  const auto path = write_file(temp_dir("pbtxt") / "t.pbtxt",
                               "ranks {\n  actions { compute { flops: lots } }\n}\n");
  const std::string message = trace_error([&] { read_trace(path); });
  EXPECT_TRUE(message.starts_with(path + ":2:")) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(ProtoTraceErrors, BinaryThatIsNotATrace) {
  const auto path = write_file(temp_dir("pb") / "t.pb", "\xff\xff\xff garbage");
  EXPECT_EQ(trace_error([&] { read_trace(path); }),
            path + ": not a netwarp binary trace (protobuf cannot parse it)");
}

TEST(ProtoTraceErrors, OutputNeedsAKnownExtension) {
  EXPECT_EQ(trace_error([&] { write_trace(proto::Trace{}, "out.json"); }),
            "out.json: cannot tell the output format: name it .pb (binary), .pbtxt (text) or "
            ".tit (SimGrid TIT)");
}

}  // namespace
}  // namespace netwarp::mpiemul
