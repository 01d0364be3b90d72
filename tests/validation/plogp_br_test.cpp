// PlogP-BR equations (1)-(12) worked by hand. Times in ns, sizes and q in bytes.
#include <gtest/gtest.h>

#include "netwarp/validation/plogp_br.hpp"

namespace netwarp::validation {
namespace {

constexpr double kTol = 1e-9;

// L = 3000, g(1024) = 10000, T_RTO = 200 us.
PlogpBrParams params(double q_bytes, bool flow_control = false) {
  PlogpBrParams p;
  p.base = {.L = 3000,
            .o_s = Table({{0, 1000}}),
            .o_r = Table({{0, 900}}),
            .g = Table({{0, 2000}, {1024, 10000}})};
  p.g_by_pattern = {{"xor1", Table({{1024, 10000}})},
                    {"xor2", Table({{1024, 12000}})},
                    {"xor3", Table({{1024, 15000}})}};
  p.q_bytes = q_bytes;
  p.flow_control = flow_control;
  p.rto_ns = 200000;
  return p;
}

TEST(PlogpBr, ExpectedPenaltiesSwitchExactlyAtNMinusOneTimesM) {
  // (n - 1) m = 4 * 1000 = 4000.
  EXPECT_EQ(plogp_br::e_q(1000, 5, 4000, false), 0);
  EXPECT_EQ(plogp_br::e_q(1000, 5, 3999.999, false), 1);
  EXPECT_EQ(plogp_br::e_q(1000, 5, 3999, false), 1);
  EXPECT_EQ(plogp_br::e_q(1001, 5, 4000, false), 1);  // 4004 > 4000
  EXPECT_EQ(plogp_br::e_q(1000, 5, 0, true), 0);      // flow control: no loss
  EXPECT_EQ(plogp_br::e_q(1 << 20, 1, 0, false), 0);  // one phase never overlaps
  EXPECT_EQ(plogp_br::e_q(1000, 0, 0, false), 0);
}

TEST(PlogpBr, PatternGapFromConcurrentPingPongs) {
  // (3): T_C / T_Ce = 30000 / 20000, g(m, C_e) + L = 6000 + 4000: 1.5 * 10000 - 4000.
  EXPECT_NEAR(plogp_br::g_pattern(30000, 20000, 6000, 4000), 11000, kTol);
  // The same pattern as the measurement pair gives g(m, C_e) back.
  EXPECT_NEAR(plogp_br::g_pattern(20000, 20000, 6000, 4000), 6000, kTol);
  EXPECT_THROW(plogp_br::g_pattern(1, 0, 6000, 4000), std::invalid_argument);
}

TEST(PlogpBr, PhasesPayOneRtoWhenTheQueueOverflows) {
  // (2), m = 1024, n = 4: 4 * 10000 + 3000, plus T_RTO iff q < 3 * 1024.
  EXPECT_NEAR(plogp_br::t_r(params(2048), 1024, 4), 243000, kTol);
  EXPECT_NEAR(plogp_br::t_r(params(3072), 1024, 4), 43000, kTol);
  EXPECT_NEAR(plogp_br::t_r(params(0, true), 1024, 4), 43000, kTol);
  // (4) over gaps 10000 + 12000 + 15000 (n = 3, (n - 1) m = 2048).
  const std::vector<double> gaps{10000, 12000, 15000};
  EXPECT_NEAR(plogp_br::t_br(params(2048), 1024, gaps), 40000, kTol);
  EXPECT_NEAR(plogp_br::t_br(params(2047), 1024, gaps), 240000, kTol);
}

TEST(PlogpBr, PhaseGapsByPatternName) {
  const auto gaps = plogp_br::phase_gaps(params(0), 1024, {"xor3", "xor1"});
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_NEAR(gaps[0], 15000, kTol);
  EXPECT_NEAR(gaps[1], 10000, kTol);
  try {
    plogp_br::phase_gaps(params(0), 1024, {"xor9"});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown pattern 'xor9' (known: xor1, xor2, xor3)");
  }
}

TEST(PlogpBr, AlltoallRankingFlipsOnceAnRtoHitsAlgorithmA) {
  const std::uint32_t ranks = 4;
  const std::uint64_t m = 1024;
  const PlogpBrParams roomy = params(4096);  // q >= (P - 2) m = 2048: E_q(m, 3) = 0
  const PlogpBrParams tight = params(1024);  // q < 2048: E_q(m, 3) = 1
  const std::vector<double> gaps = plogp_br::phase_gaps(roomy, m, {"xor1", "xor2", "xor3"});
  // (5) 3 * 10000 + 3000 < (7) 3 * (10000 + 3000): PlogP always prefers A (10).
  EXPECT_NEAR(plogp_br::alltoall_a_plogp(roomy.base, m, ranks), 33000, kTol);
  EXPECT_NEAR(plogp_br::alltoall_b_plogp(roomy.base, m, ranks), 39000, kTol);
  // (6) 37000 + 3000 (+ 200000 with the RTO); (8)/(9) 37000 + 3 * 3000.
  EXPECT_NEAR(plogp_br::alltoall_a(roomy, m, gaps), 40000, kTol);
  EXPECT_NEAR(plogp_br::alltoall_b(roomy, m, gaps), 46000, kTol);
  EXPECT_NEAR(plogp_br::alltoall_a(tight, m, gaps), 240000, kTol);
  EXPECT_NEAR(plogp_br::alltoall_b(tight, m, gaps), 46000, kTol);  // E_q(m, 1) = 0
  EXPECT_LT(plogp_br::alltoall_a(roomy, m, gaps), plogp_br::alltoall_b(roomy, m, gaps));  // (11)
  EXPECT_GT(plogp_br::alltoall_a(tight, m, gaps), plogp_br::alltoall_b(tight, m, gaps));  // (12)
}

}  // namespace
}  // namespace netwarp::validation
