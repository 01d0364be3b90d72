// A program whose ranks all finish while a send was never received (issue 14: it ran, exited 0
// and reported nothing): MpiTotals lists the send, and unreceived_message names rank, peer, tag
// and size, in every kernel.
#include <gtest/gtest.h>

#include "mpi-emul/mpi_fixtures.hpp"
#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {
namespace {

using testing::config_for;
using testing::run_mpi;
using testing::star_platform;

// Rank 0 sends twice to rank 1 (tags 7 and 8); rank 1 receives only tag 8.
Program program_with_an_unmatched_send() {
  RankProgramBuilder r0(0, 2);
  r0.send(1, 7, 100);
  r0.send(1, 8, 200);
  RankProgramBuilder r1(1, 2);
  r1.recv(0, 8, 200);
  r1.compute(engine::us(10));
  Program p;
  p.ranks.push_back(r0.take());
  p.ranks.push_back(r1.take());
  return p;
}

TEST(UnreceivedSends, AreListedWhenEveryRankFinished) {
  const Program program = program_with_an_unmatched_send();
  const testing::MpiRun run =
      run_mpi(star_platform(2, 1'000'000'000, engine::us(1)), program, config_for(program));
  EXPECT_TRUE(run.totals.finished);
  ASSERT_EQ(run.totals.unreceived.size(), 1u);
  const UnreceivedSend& s = run.totals.unreceived[0];
  EXPECT_EQ(s.rank, 0u);
  EXPECT_EQ(s.peer, 1);
  EXPECT_EQ(s.tag, 7);
  EXPECT_EQ(s.bytes, 100u);
  EXPECT_EQ(unreceived_message(run.totals),
            "1 send was never received: rank 0's send to 1 (tag 7, 100 B, op 0)");
}

TEST(UnreceivedSends, NoneWhenEverySendIsReceived) {
  RankProgramBuilder r0(0, 2);
  r0.send(1, 7, 100);
  RankProgramBuilder r1(1, 2);
  r1.recv(0, 7, 100);
  Program program;
  program.ranks.push_back(r0.take());
  program.ranks.push_back(r1.take());
  const testing::MpiRun run =
      run_mpi(star_platform(2, 1'000'000'000, engine::us(1)), program, config_for(program));
  EXPECT_TRUE(run.totals.finished);
  EXPECT_TRUE(run.totals.unreceived.empty());
  EXPECT_EQ(unreceived_message(run.totals), "");
}

}  // namespace
}  // namespace netwarp::mpiemul
