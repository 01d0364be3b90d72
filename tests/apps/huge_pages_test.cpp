// --huge-pages' pure parts: the flag among the arguments, the tunables added, the end-of-run note.
#include "huge_pages.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace netwarp::apps {
namespace {

bool requested(std::vector<std::string> args) {
  args.insert(args.begin(), "netwarp");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  return huge_pages_requested(static_cast<int>(args.size()), argv.data());
}

TEST(HugePages, TheFlagCountsBeforeADoubleDashOnly) {
  EXPECT_TRUE(requested({"run", "x.pbtxt", "--huge-pages", "--threads", "2"}));
  EXPECT_FALSE(requested({"run", "x.pbtxt", "--threads", "2"}));
  EXPECT_FALSE(requested({"run", "--", "--huge-pages"}));
  EXPECT_FALSE(requested({"run", "--huge-pages=1"}));
}

TEST(HugePages, TunablesTheUserSetStayAndOursFillTheRest) {
  EXPECT_EQ(huge_page_tunables(""), "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1");
  EXPECT_EQ(huge_page_tunables("glibc.malloc.arena_max=4"),
            "glibc.malloc.arena_max=4:glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables("glibc.malloc.hugetlb=2"),
            "glibc.malloc.hugetlb=2:glibc.malloc.arena_max=1");
  EXPECT_EQ(huge_page_tunables("glibc.cpu.hwcaps=-AVX512F"),
            "glibc.cpu.hwcaps=-AVX512F:glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1");
}

TEST(HugePages, TheNoteComesOnlyForBigRunsWithoutThemWhereTheKernelGivesThemOnRequest) {
  const std::uint64_t big = std::uint64_t{7} << 30;
  int asked = 0;
  const auto mode = [&asked](std::string answer) {
    return [&asked, answer] {
      ++asked;
      return answer;
    };
  };
  const std::string note = huge_pages_hint(big, false, mode("madvise"));
  EXPECT_NE(note.find("7.0 GiB"), std::string::npos) << note;
  EXPECT_NE(note.find("--huge-pages"), std::string::npos) << note;
  EXPECT_EQ(huge_pages_hint(big, false, mode("always")), "");
  EXPECT_EQ(huge_pages_hint(big, false, mode("never")), "");
  EXPECT_EQ(huge_pages_hint(big, false, mode("")), "");
  EXPECT_NE(huge_pages_hint(kHugePagesHintBytes, false, mode("madvise")), "");
  EXPECT_EQ(asked, 5);
  // Small runs, and runs with them, do not read the kernel's mode at all.
  EXPECT_EQ(huge_pages_hint(big, true, mode("madvise")), "");
  EXPECT_EQ(huge_pages_hint(kHugePagesHintBytes - 1, false, mode("madvise")), "");
  EXPECT_EQ(asked, 5);
}

}  // namespace
}  // namespace netwarp::apps
