// The process's memory as netwarp reports it.
#include "netwarp/engine/process_info.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace netwarp::engine {
namespace {

TEST(ProcessInfo, ResidentMemoryGrowsWithTouchedPagesAndStaysUnderThePeak) {
  const std::uint64_t before = rss_bytes();
  ASSERT_GT(before, 0u);
  constexpr std::size_t kBytes = 64 << 20;
  const auto block = std::make_unique<char[]>(kBytes);
  std::memset(block.get(), 1, kBytes);  // resident only once written
  const std::uint64_t after = rss_bytes();
  EXPECT_GE(after, before + kBytes / 2);
  EXPECT_LE(after, peak_rss_bytes());
  EXPECT_EQ(block[kBytes - 1], 1);
}

}  // namespace
}  // namespace netwarp::engine
