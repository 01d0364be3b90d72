// The unit test binaries' temporary folder (tests/temp_dir_main.cpp): one of the process's own,
// under the system's temporary folder, for GoogleTest's TempDir and TMPDIR alike. The ctest
// unit_tests_leave_no_files checks that it is gone, with what the tests wrote, at the end.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

TEST(TestTempDir, IsAFolderOfTheProcessOwnForTempDirAndTmpdir) {
  if (std::getenv("NETWARP_TEST_OWN_TMPDIR") == nullptr) GTEST_SKIP() << "TEST_TMPDIR was given";
  const std::string dir = ::testing::TempDir();
  ASSERT_FALSE(dir.empty());
  const std::filesystem::path folder = std::filesystem::path(dir).parent_path();  // drop the '/'
  EXPECT_TRUE(folder.filename().string().starts_with("netwarp-test-")) << dir;
  EXPECT_TRUE(std::filesystem::is_directory(folder)) << dir;
  const char* tmpdir = std::getenv("TMPDIR");
  ASSERT_NE(tmpdir, nullptr);
  EXPECT_EQ(std::filesystem::path(tmpdir), folder);
}

}  // namespace
