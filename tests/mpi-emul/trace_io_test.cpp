// read_trace and write_trace: binary and text protobuf round trips give the same trace, the
// format follows the file name, TIT -> proto file -> Program equals TIT -> Program, and errors
// in an edited text trace name the text file's own lines.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

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

// The 1-based line of `text` holding `needle`, and of the `actions {` that opens its action.
std::pair<std::uint32_t, std::uint32_t> line_and_action_line(const std::string& text,
                                                             const std::string& needle) {
  std::istringstream lines(text);
  std::string line;
  std::uint32_t number = 0;
  std::uint32_t action_line = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.find("actions {") != std::string::npos) action_line = number;
    if (line.find(needle) != std::string::npos) return {number, action_line};
  }
  return {0, 0};
}

std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string trace_error_of(const std::filesystem::path& path) {
  TraceLocations locations;
  const proto::Trace trace = read_trace(path, locations);
  TraceProgramOptions options;
  options.locations = &locations;
  try {
    program_from_trace(trace, options);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(TraceFormats, EditedTextTraceReportsItsOwnLine) {
  const auto dir = temp_dir("edited_text");
  write_trace(read_tit(trace_data("p2p.tit")), dir / "t.pbtxt");
  // Rank 0's "send 1 0 1e6" now goes to rank 7 of 3.
  const std::string edited = replace_first(read_text(dir / "t.pbtxt"), "dst: 1\n", "dst: 7\n");
  const std::string path = testing::write_file(dir / "edited.pbtxt", edited);
  const auto [bad_line, action_line] = line_and_action_line(edited, "dst: 7");
  ASSERT_GT(action_line, 0u);
  ASSERT_LT(action_line, bad_line);
  const std::string error = trace_error_of(path);
  EXPECT_EQ(error.rfind(fmt::format("{}:{}:3: send: ", path, action_line), 0), 0u) << error;
  EXPECT_EQ(error.find("p2p.tit"), std::string::npos) << error;
  // The action still carries its TIT line: only the error's location changed.
  TraceLocations locations;
  EXPECT_EQ(read_trace(path, locations).ranks(0).actions(1).line(), 7u);
  EXPECT_EQ(locations.actions.at(0).at(1).line, action_line);
}

TEST(TraceFormats, HandWrittenTextTraceReportsItsOwnLineForCollectives) {
  const auto dir = temp_dir("hand_text");
  const std::string path = testing::write_file(dir / "hand.pbtxt",
                                               "ranks { actions { barrier {} } }\n"
                                               "ranks {\n"
                                               "  actions { compute { flops: 1 } }\n"
                                               "  actions { bcast { bytes: 8 } }\n"
                                               "}\n");
  const std::string error = trace_error_of(path);
  EXPECT_EQ(error.rfind(fmt::format("{}:4:3: ", path), 0), 0u) << error;
  EXPECT_NE(error.find(fmt::format("rank 0's is barrier at {}:1:9", path)), std::string::npos)
      << error;
}

TEST(TraceFormats, OtherFormatsHaveNoTextLocations) {
  const auto dir = temp_dir("no_locations");
  write_trace(read_tit(trace_data("p2p.tit")), dir / "t.pb");
  TraceLocations locations;
  locations.file = "stale";
  read_trace(dir / "t.pb", locations);
  EXPECT_TRUE(locations.file.empty());
  EXPECT_TRUE(locations.actions.empty());
}

}  // namespace
}  // namespace netwarp::mpiemul
