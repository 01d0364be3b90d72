// A trace is checked against the time budget and a message limit as it is expanded: compute and
// sleep times (and message costs) that add up past the budget, and a message at or past
// message_limit_bytes (a scenario sets it just under 2^63 - 1), are refused at the trace's file
// and line.
#include <gtest/gtest.h>

#include "mpi-emul/trace_test_support.hpp"

namespace netwarp::mpiemul {
namespace {

using testing::temp_dir;
using testing::trace_error;
using testing::write_file;

class TraceBudget : public ::testing::Test {
 protected:
  void SetUp() override { path_ = (temp_dir("budget") / "t.tit").string(); }
  std::string error_of(const std::string& text, const TraceProgramOptions& options) {
    write_file(path_, text);
    return trace_error([&] { program_from_trace(read_tit(path_), options); });
  }
  std::string at(int line, const std::string& message) const {
    return fmt::format("{}:{}: {}", path_, line, message);
  }
  std::string path_;
};

TEST_F(TraceBudget, SleepsThatAddUpPastTheBudgetAreRefusedWhereTheyPassIt) {
  // Each sleep fits SimTime; together they pass 2^63 ps.
  EXPECT_EQ(error_of("0 sleep 600000\n0 sleep 600000\n1 init\n", {}),
            at(2,
               "sleep: rank 0's compute, sleeps and message costs up to here add up to 1.2e+06 "
               "s of simulated time, more than the 1e+06 s (11.6 days) a run can simulate"));
  EXPECT_EQ(error_of("0 sleep 5000000\n0 sleep 5000000\n1 init\n", {}),
            at(1,
               "sleep: rank 0's compute, sleeps and message costs up to here add up to 5e+06 "
               "s of simulated time, more than the 1e+06 s (11.6 days) a run can simulate"));
}

TEST_F(TraceBudget, ComputeAtTheFlopRateCountsToo) {
  TraceProgramOptions options;
  options.flops_per_second = 1;
  EXPECT_EQ(error_of("0 compute 2000000\n1 init\n", options),
            at(1,
               "compute: rank 0's compute, sleeps and message costs up to here add up to 2e+06 "
               "s of simulated time, more than the 1e+06 s (11.6 days) a run can simulate"));
}

TEST_F(TraceBudget, MessageCostsCount) {
  TraceProgramOptions options;
  options.host_ns_per_byte = 1e9;  // one second per byte
  EXPECT_EQ(error_of("0 send 1 0 2000000\n1 recv 0 0 2000000\n", options),
            at(1,
               "send: rank 0's compute, sleeps and message costs up to here add up to 2e+06 "
               "s of simulated time, more than the 1e+06 s (11.6 days) a run can simulate"));
}

TEST_F(TraceBudget, MessagesOverTheLimitAreRefusedAtTheirLine) {
  TraceProgramOptions options;
  options.message_limit_bytes = std::uint64_t{1} << 32;
  EXPECT_EQ(
      error_of("0 send 1 0 4294967296\n1 recv 0 0 4294967296\n", options),
      at(1, "send: sends 4294967296 B to rank 1: a message must be smaller than 4294967296 B"));
  EXPECT_EQ(
      error_of("0 bcast 4294967296\n1 bcast 4294967296\n", options),
      at(1, "bcast: sends 4294967296 B to rank 1: a message must be smaller than 4294967296 B"));
}

// Only each message is limited, not what one rank sends another in all.
TEST_F(TraceBudget, PairTotalsPastFourGiBExpand) {
  TraceProgramOptions options;
  options.message_limit_bytes = std::uint64_t{1} << 32;
  write_file(path_,
             "0 send 1 0 3000000000\n0 send 1 0 3000000000\n"
             "1 recv 0 0 3000000000\n1 recv 0 0 3000000000\n");
  EXPECT_NO_THROW(program_from_trace(read_tit(path_), options));
}

TEST_F(TraceBudget, WithoutLimitsTheSameTraceExpands) {
  write_file(path_, "0 send 1 0 4294967296\n1 recv 0 0 4294967296\n0 sleep 600000\n");
  EXPECT_NO_THROW(program_from_trace(read_tit(path_), TraceProgramOptions{}));
}

}  // namespace
}  // namespace netwarp::mpiemul
