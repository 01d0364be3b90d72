// read_trace and write_trace: binary and text protobuf round trips give the same trace, the
// format follows the file name, and TIT -> proto file -> Program equals TIT -> Program.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "mpi-emul/trace_test_support.hpp"

namespace netwarp::mpiemul {
namespace {

using google::protobuf::util::MessageDifferencer;
using testing::describe_program;
using testing::temp_dir;
using testing::trace_data;

class TraceFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceFiles, BinaryAndTextRoundTripsAreEqual) {
  const proto::Trace original = read_tit(trace_data(GetParam()));
  const auto dir = temp_dir("round_trip");
  write_trace(original, dir / "t.pb");
  write_trace(original, dir / "t.pbtxt");
  const proto::Trace binary = read_trace(dir / "t.pb");
  const proto::Trace text = read_trace(dir / "t.pbtxt");
  EXPECT_TRUE(MessageDifferencer::Equals(original, binary));
  EXPECT_TRUE(MessageDifferencer::Equals(original, text));
  write_trace(text, dir / "again.pb");
  EXPECT_TRUE(MessageDifferencer::Equals(original, read_trace(dir / "again.pb")));
}

TEST_P(TraceFiles, ProgramFromTheProtoFileEqualsProgramFromTit) {
  TraceProgramOptions options;
  options.flops_per_second = 3e9;
  const proto::Trace tit = read_tit(trace_data(GetParam()));
  const auto dir = temp_dir("programs");
  write_trace(tit, dir / "t.pb");
  write_trace(tit, dir / "t.txtpb");
  const std::string expected = describe_program(program_from_trace(tit, options));
  EXPECT_EQ(describe_program(program_from_trace(read_trace(dir / "t.pb"), options)), expected);
  EXPECT_EQ(describe_program(program_from_trace(read_trace(dir / "t.txtpb"), options)), expected);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TraceFiles,
                         ::testing::Values("p2p.tit", "collectives.tit", "p2p_ranks"));

TEST(TraceFormats, AnythingElseIsTit) {
  EXPECT_TRUE(MessageDifferencer::Equals(read_trace(trace_data("p2p.tit")),
                                         read_tit(trace_data("p2p.tit"))));
  EXPECT_TRUE(MessageDifferencer::Equals(read_trace(trace_data("p2p_ranks")),
                                         read_tit(trace_data("p2p_ranks"))));
}

TEST(TraceFormats, TextKeepsSourceLines) {
  const auto dir = temp_dir("text_lines");
  write_trace(read_tit(trace_data("p2p.tit")), dir / "t.pbtxt");
  const proto::Trace text = read_trace(dir / "t.pbtxt");
  EXPECT_EQ(text.ranks(2).source_file(), trace_data("p2p.tit").string());
  EXPECT_EQ(text.ranks(2).actions(0).line(), 19u);
}

}  // namespace
}  // namespace netwarp::mpiemul
