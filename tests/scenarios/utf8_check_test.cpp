// Scenario strings must be UTF-8 (RFC 3629): the first bad byte is found, and the loader names
// the field and where it was written.
#include <gtest/gtest.h>

#include <string>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "utf8_check.hpp"

namespace netwarp::scenarios {
namespace {

constexpr auto kValid = std::string_view::npos;

TEST(Utf8Check, AcceptsAsciiAndWellFormedSequences) {
  EXPECT_EQ(first_invalid_utf8(""), kValid);
  EXPECT_EQ(first_invalid_utf8("incast-16"), kValid);
  EXPECT_EQ(first_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), kValid);
}

TEST(Utf8Check, FindsTheFirstByteOfAnIllFormedSequence) {
  EXPECT_EQ(first_invalid_utf8("ab\xFF"), 2u);
  EXPECT_EQ(first_invalid_utf8("a\xC3"), 1u);             // truncated
  EXPECT_EQ(first_invalid_utf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(first_invalid_utf8("x\xED\xA0\x80"), 1u);     // a surrogate
  EXPECT_EQ(first_invalid_utf8("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("\xE2\x82"), 0u);
}

TEST(Utf8Check, NamesTheFieldOfANestedOrRepeatedString) {
  proto::Scenario s;
  s.mutable_outputs()->add_pcap_nodes("host0");
  s.mutable_outputs()->add_pcap_nodes("ho\xFFst1");
  try {
    check_utf8_strings(s);
    FAIL() << "no error";
  } catch (const netmodels::InputError& e) {
    EXPECT_EQ(e.field(), "outputs.pcap_nodes[1]");
    EXPECT_EQ(e.message(), "not valid UTF-8 (byte 0xFF at offset 2); use plain text");
  }
}

TEST(Utf8Check, LoaderRejectsAnInvalidNameWithItsLineAndColumn) {
  const std::string text =
      "topology { star { hosts: 2 } }\nname: \"a\xFF\"\n"
      "workload { flows { flow { src: 0 dst: 1 bytes: 10 } } }\n";
  try {
    load_scenario_text(text, "s.pbtxt", {});
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()),
              "s.pbtxt:2:1: name: not valid UTF-8 (byte 0xFF at offset 1); use plain text");
  }
}

}  // namespace
}  // namespace netwarp::scenarios
