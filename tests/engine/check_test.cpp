// NW_CHECK: a failed check prints one located line and ends the process with 70, the
// internal-error status of netwarp's exit-code table (apps/src/exit_codes.hpp).
#include <gtest/gtest.h>

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {
namespace {

void fail_a_check(int value) {
  NW_CHECK(value == 0, "value is {}", value);
}

TEST(Check, FailedCheckExitsWithTheInternalErrorStatus) {
  EXPECT_EXIT(fail_a_check(3), ::testing::ExitedWithCode(70),
              "internal error: .*check_test.cpp:[0-9]+: check failed: value == 0: value is 3");
}

TEST(Check, PassingCheckDoesNothing) {
  fail_a_check(0);
}

}  // namespace
}  // namespace netwarp::engine
