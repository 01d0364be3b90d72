// printable(): the one helper every error and warning line goes through.
#include "netwarp/netmodels/printable.hpp"

#include <gtest/gtest.h>

#include <string>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::netmodels {
namespace {

TEST(Printable, EscapesControlBytesSoANulCannotCutTheLine) {
  const std::string nul_line("list.txt:1: \0: cannot open", 26);
  EXPECT_EQ(printable(nul_line), "list.txt:1: \\x00: cannot open");
  EXPECT_EQ(printable("a\rb\nc\td\x7f\x1b"), "a\\rb\\nc\td\\x7f\\x1b");
  EXPECT_EQ(printable(printable(nul_line)), printable(nul_line));  // idempotent
}

TEST(Printable, CutsALongLineAtACharacterAndSaysHowLongItWas) {
  const std::string line = "f.tit:2: bad action '" + std::string(100'000, 'x') + "'";
  const std::string shown = printable(line);
  EXPECT_LE(shown.size(), kMaxLineBytes + 40);
  EXPECT_TRUE(shown.starts_with("f.tit:2: bad action 'xxx"));
  ASSERT_EQ(line.size(), 100'022u);
  EXPECT_TRUE(shown.ends_with("x... (100022 bytes in all)")) << shown.substr(990);
  // Never half a UTF-8 character before the note: "é" is two bytes.
  std::string accents;
  for (int i = 0; i < 600; ++i) accents += "\xc3\xa9";
  const std::string cut = printable(accents, 11);
  EXPECT_EQ(cut,
            std::string("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9") + "... (1200 bytes in all)");
}

TEST(Printable, InputErrorsArePrintable) {
  const FileInputError error(std::string("x\0y.csv", 7), 3, "bad\rfield");
  EXPECT_STREQ(error.what(), "x\\x00y.csv:3: bad\\rfield");
}

}  // namespace
}  // namespace netwarp::netmodels
