// main() of the unit test binaries: GoogleTest's, with a temporary folder of the process's own.
// ::testing::TempDir() is TEST_TMPDIR when it is set; here that is a fresh folder under the
// system's temporary folder, and TMPDIR too (std::filesystem::temp_directory_path, the programs
// a test starts), removed with everything the tests left in it when they end, so that runs of
// the tests leave nothing behind. A process that finds TEST_TMPDIR set (a death test's
// re-executed child, a caller's choice) uses it as it is and leaves it.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::string own;
  if (const char* given = std::getenv("TEST_TMPDIR"); given == nullptr || *given == '\0') {
    std::error_code no_tmp;
    std::filesystem::path base = std::filesystem::temp_directory_path(no_tmp);
    if (no_tmp) base = "/tmp";
    own = (base / "netwarp-test-XXXXXX").string();
    if (::mkdtemp(own.data()) == nullptr) {
      std::perror(own.c_str());
      return 1;
    }
    ::setenv("TEST_TMPDIR", own.c_str(), 1);
    ::setenv("TMPDIR", own.c_str(), 1);
    ::setenv("NETWARP_TEST_OWN_TMPDIR", "1", 1);  // for TestTempDir
  }
  const int status = RUN_ALL_TESTS();
  if (!own.empty()) {
    std::error_code ignored;  // a test that failed to clean up is not this one's failure
    std::filesystem::remove_all(own, ignored);
  }
  return status;
}
