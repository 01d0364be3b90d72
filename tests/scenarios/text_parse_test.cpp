// fast_text_parse against protobuf's own text parser: whatever the fast one accepts, protobuf
// reads as the same scenario with the same field locations; what the library's files hold, the
// fast one accepts.
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "netwarp/scenarios/scenario_loader.hpp"
#include "text_parse.hpp"
#include "text_print.hpp"

namespace netwarp::scenarios {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string locations_text(const std::map<std::string, SourceLoc>& locations) {
  std::string text;
  for (const auto& [path, at] : locations)
    text += path + "@" + std::to_string(at.line) + ":" + std::to_string(at.column) + "\n";
  return text;
}

// True when the fast parser accepted `text`; fails the test when protobuf reads it otherwise.
bool accepted_as_protobuf_reads_it(const std::string& text) {
  const std::optional<ParsedText> fast = fast_text_parse(text);
  if (!fast) return false;
  ParsedText reference;
  try {
    reference = protobuf_text_parse(text, "t.pbtxt");
  } catch (const ScenarioError& e) {
    ADD_FAILURE() << "accepted what protobuf rejects: " << e.what();
    return true;
  }
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(fast->scenario, reference.scenario))
      << "fast:\n"
      << fast->scenario.DebugString() << "protobuf:\n"
      << reference.scenario.DebugString();
  EXPECT_EQ(locations_text(fast->locations), locations_text(reference.locations));
  return true;
}

TEST(FastTextParse, ReadsEveryLibraryFileAsProtobufDoes) {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(scenario_library_dir())) {
    if (entry.path().extension() != ".pbtxt") continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_TRUE(accepted_as_protobuf_reads_it(read_file(entry.path())));
    ++files;
  }
  EXPECT_GE(files, 15);
}

TEST(FastTextParse, ReadsTheFuzzSeedsAsProtobufDoes) {
  const auto corpus =
      std::filesystem::path(scenario_library_dir()) / ".." / "fuzz" / "corpus" / "scenario_text";
  int accepted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    SCOPED_TRACE(entry.path().string());
    accepted += accepted_as_protobuf_reads_it(read_file(entry.path())) ? 1 : 0;
  }
  EXPECT_GE(accepted, 5);
}

// Forms of the text format the fast parser reads itself.
TEST(FastTextParse, ReadsTheCommonForms) {
  const std::vector<std::string> texts = {
      "seed: 7",
      "seed: 0x1F  # hex, then a comment",
      "seed: 0",
      "engine { kernel: OPTIMISTIC window_us: 1.5e-1 }",
      "engine < window_us: .5 >",
      "engine: { window_us: 2. ; max_uncommitted_bytes: 1048576, }",
      "engine { window_us: -3 }",
      "engine { window_us: 18446744073709551615 }",
      "engine { adaptive_window: t } \n",
      "engine { adaptive_window: True }",
      "engine { adaptive_window: 0 }",
      "engine { adaptive_window: 0x1 }",
      "\tseed: 3\n\t\tengine {\n \t window_us: 1 }",
      "topology { star { hosts: 4 } }\nlinks { rate_bps: 1000000000 latency_ns: 100 }",
      "name: \"a\" 'b' \"\"",
      "name: \"h\xc3\xa9\"",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(accepted_as_protobuf_reads_it(text));
  }
}

// Forms it leaves to protobuf, valid or not; any it did accept would still be checked.
TEST(FastTextParse, LeavesTheRestToProtobuf) {
  const std::vector<std::string> texts = {
      "seed: 010",                   // octal
      "seed: 1f",                    // a float suffix
      "seed: 128KiB",                // a unit: protobuf's error
      "seed: 1.5",                   // a float for an integer
      "seed: -1",                    // negative for unsigned
      "seed: 1 seed: 2",             // written twice
      "engine { window_us: inf }",   // named float values
      "engine { window_us: 0x10 }",  // hex for a double
      "name: \"a\\n\"",              // escapes
      "name: \"\xff\"",              // not UTF-8
      "unknown_field: 1",
      "engine { kernel: 1 }",  // an enum by number
      "engine { kernel: NO_SUCH_KERNEL }",
      "[netwarp.ext]: 1",
      "engine { window_us: 1 ",  // unclosed
      "engine { window_us: 1 >",
      "seed 7",                                              // no colon before a number
      "topology { star { hosts: 4 } torus { dims: [2] } }",  // two members of a oneof
      "// a C++ comment",
      std::string("seed: 1\0", 8),
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(accepted_as_protobuf_reads_it(text));
  }
}

// The locations of elements written in the list form and one by one, as protobuf records them
// (one place per writing, so later list elements have none).
TEST(FastTextParse, LocatesRepeatedFieldsAsProtobufDoes) {
  const std::string text =
      "links { levels: [{ level: 1 }, { level: 2 }]\n"
      "  levels { level: 3 } }\n"
      "topology { torus { dims: [2, 3] dims: 4 } }\n";
  EXPECT_TRUE(accepted_as_protobuf_reads_it(text));
  const std::optional<ParsedText> fast = fast_text_parse(text);
  ASSERT_TRUE(fast);
  EXPECT_EQ(fast->locations.at("links.levels[1]").line, 2);  // the second writing's place
  EXPECT_EQ(fast->locations.count("links.levels[2]"), 0u);
  EXPECT_EQ(fast->locations.at("topology.torus.dims[1]").column, 33);
}

std::string protobuf_text(const proto::Scenario& scenario) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(scenario, &text);
  return text;
}

TEST(FastTextPrint, PrintsEveryLoadedLibraryFileAsProtobufDoes) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(scenario_library_dir())) {
    if (entry.path().extension() != ".pbtxt") continue;
    SCOPED_TRACE(entry.path().string());
    const LoadedScenario loaded = load_scenario(entry.path().string(), {});
    EXPECT_EQ(fast_text_print(loaded.scenario).value_or("(none)"), protobuf_text(loaded.scenario));
  }
}

// Values whose text protobuf writes in its own way: doubles at 15 or 17 digits, -0, inf, nan,
// escaped bytes, an enum number no value names, packed lists.
TEST(FastTextPrint, PrintsOddValuesAsProtobufDoes) {
  const std::vector<std::string> texts = {
      "engine { window_us: 0.1 } links { rate_bps: 3 }",
      "engine { window_us: 0.30000000000000004 }",
      "engine { window_us: 1e300 }",
      "engine { window_us: -0 }",
      "engine { window_us: 5e-324 }",
      "engine { window_us: inf }",
      "engine { window_us: -inf }",
      "engine { window_us: nan }",
      "engine { window_us: 123456789012345678 }",
      "name: \"tab\\there \\\"q\\\" \\'s\\' \\\\ \\001\\177 h\xc3\xa9\\n\"",
      "engine { kernel: 7 }",
      "engine { kernel: -2 }",
      "seed: 18446744073709551615 engine { } topology { torus { dims: [2, 3, 4] mesh: true } }",
      "engine { adaptive_window: false }",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    const proto::Scenario scenario = protobuf_text_parse(text, "t.pbtxt").scenario;
    EXPECT_EQ(fast_text_print(scenario).value_or("(none)"), protobuf_text(scenario));
  }
}

TEST(FastTextPrint, LeavesUnknownFieldsToProtobuf) {
  proto::Scenario scenario;
  scenario.set_seed(3);
  scenario.GetReflection()->MutableUnknownFields(&scenario)->AddVarint(999, 1);
  EXPECT_FALSE(fast_text_print(scenario));
}

}  // namespace
}  // namespace netwarp::scenarios
