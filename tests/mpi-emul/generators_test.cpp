// Tests of the synthetic applications (mpi-emul/src/generators/, mpi-emul/GENERATORS.md):
// messages and bytes against hand-computed formulas, flops, fragmenting, NPB layouts, every
// parameter error, runs without deadlock (eager and all-synchronous sends, and on a star with
// eager and rendezvous S), and the TIT writer's round trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "mpi_fixtures.hpp"
#include "netwarp/mpiemul/generators.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/netmodels/units.hpp"
#include "program_checker.hpp"
#include "trace_test_support.hpp"

namespace netwarp::mpiemul {
namespace {

using checker::ExecutionResult;
using checker::SendMode;
using testing::describe_program;

// (dst, tag, bytes) of every send and isend of one rank, in order.
using SendList = std::vector<std::tuple<std::int32_t, std::int32_t, std::uint64_t>>;

SendList sends_of(const proto::Trace& trace, RankId rank) {
  SendList sends;
  for (const proto::Action& a : trace.ranks(static_cast<int>(rank)).actions()) {
    if (a.has_send()) sends.emplace_back(a.send().dst(), a.send().tag(), a.send().bytes());
    if (a.has_isend()) sends.emplace_back(a.isend().dst(), a.isend().tag(), a.isend().bytes());
  }
  return sends;
}

double flops_of(const proto::Trace& trace, RankId rank) {
  double flops = 0;
  for (const proto::Action& a : trace.ranks(static_cast<int>(rank)).actions())
    if (a.has_compute()) flops += a.compute().flops();
  return flops;
}

Program program_of(const proto::Trace& trace) {
  return program_from_trace(trace, TraceProgramOptions{});
}

// Runs with eager and with synchronous (rendezvous-like) sends: every message matched with a
// receive of its size, nothing stuck.
void expect_clean_runs(const proto::Trace& trace) {
  const Program program = program_of(trace);
  for (SendMode mode : {SendMode::eager, SendMode::synchronous}) {
    const ExecutionResult r = checker::execute(program, mode);
    EXPECT_TRUE(r.is_clean()) << r.describe();
    for (const checker::MatchedMessage& m : r.messages) {
      EXPECT_EQ(m.send_bytes, m.recv_bytes) << m.src << " -> " << m.dst << " tag " << m.tag;
      EXPECT_NE(m.src, m.dst);
    }
  }
}

// ---- gauss ----

TEST(GaussGenerator, RankZeroSendsThePivotMessagesItRootsOrForwards) {
  // n = 8, P = 4: rank 0 is the root of steps 0 and 4 and forwards in steps 2, 3 and 6 (its
  // successor, rank 1, is the root of steps 1 and 5).
  const proto::Trace t = gauss_trace({8, 0, GaussForward::blocking}, 4);
  EXPECT_EQ(sends_of(t, 0),
            (SendList{{1, 0, 112}, {1, 2, 80}, {1, 3, 64}, {1, 4, 48}, {1, 6, 16}}));
  expect_clean_runs(t);
}

TEST(GaussGenerator, EveryStepReachesEveryOtherRankOnce) {
  for (const auto& [n, ranks] : {std::pair{8u, 4u}, {100u, 7u}, {33u, 2u}}) {
    const TraceTotals totals = trace_totals(gauss_trace({n, 0, GaussForward::blocking}, ranks));
    // P - 1 hops per step; the steps' messages are 16 (n - 1 - k): 16 n (n - 1) / 2 in all.
    EXPECT_EQ(totals.messages, std::uint64_t{n - 1} * (ranks - 1)) << n << " " << ranks;
    EXPECT_EQ(totals.bytes, std::uint64_t{ranks - 1} * 16 * n * (n - 1) / 2) << n << " " << ranks;
  }
}

TEST(GaussGenerator, LongestMessageAtN1024IsJustUnderS) {
  EXPECT_EQ(gauss_pivot_bytes(1024, 0), 16368u);
  const proto::Trace t = gauss_trace({1024, 0, GaussForward::blocking}, 16);
  std::uint64_t longest = 0;
  for (RankId r = 0; r < 16; ++r)
    for (const auto& [dst, tag, bytes] : sends_of(t, r)) longest = std::max(longest, bytes);
  EXPECT_EQ(longest, 16368u);
  EXPECT_GT(gauss_pivot_bytes(1025, 0), 16383u);
}

TEST(GaussGenerator, UpdatesAddUpToTheEliminationFlops) {
  // Step k updates the n - 1 - k rows below k, 2 (n - k) flops each, whichever rank owns them.
  const std::uint32_t n = 40;
  const proto::Trace t = gauss_trace({n, 0, GaussForward::blocking}, 6);
  double total = 0;
  for (RankId r = 0; r < 6; ++r) total += flops_of(t, r);
  double expected = 0;
  for (std::uint32_t k = 0; k + 1 < n; ++k) expected += 2.0 * (n - k) * (n - 1 - k);
  EXPECT_EQ(total, expected);
}

TEST(GaussGenerator, FragmentsKeepTheBytesAndCapEveryPiece) {
  const std::uint32_t n = 64;
  const RankId ranks = 4;
  const std::uint64_t fragment = 100;
  const proto::Trace whole = gauss_trace({n, 0, GaussForward::blocking}, ranks);
  const proto::Trace pieces = gauss_trace({n, fragment, GaussForward::blocking}, ranks);
  EXPECT_EQ(trace_totals(pieces).bytes, trace_totals(whole).bytes);
  std::uint64_t expected_messages = 0;
  for (std::uint32_t k = 0; k + 1 < n; ++k)
    expected_messages += (ranks - 1) * ((gauss_pivot_bytes(n, k) + fragment - 1) / fragment);
  EXPECT_EQ(trace_totals(pieces).messages, expected_messages);
  for (RankId r = 0; r < ranks; ++r)
    for (const auto& [dst, tag, bytes] : sends_of(pieces, r)) EXPECT_LE(bytes, fragment);
  expect_clean_runs(pieces);
}

TEST(GaussGenerator, IsendForwardingWaitsAfterTheUpdate) {
  const proto::Trace t = gauss_trace({8, 40, GaussForward::isend}, 4);
  // Rank 2 in step 0: receives 112 B in pieces of 40, 40, 32, forwarding each at once, then
  // updates its rows, then waits for its sends.
  const auto& a = t.ranks(2).actions();
  ASSERT_GE(a.size(), 8);
  EXPECT_TRUE(a[0].has_recv() && a[1].has_isend() && a[2].has_recv() && a[3].has_isend());
  EXPECT_TRUE(a[4].has_recv() && a[5].has_isend() && a[6].has_compute() && a[7].has_waitall());
  EXPECT_EQ(a[5].isend().bytes(), 32u);
  EXPECT_TRUE(sends_of(t, 3).size() < sends_of(t, 0).size());  // rank 3 forwards less often
  for (const proto::Action& action : t.ranks(1).actions()) EXPECT_FALSE(action.has_send());
  expect_clean_runs(t);
}

TEST(GaussGenerator, ParameterErrorsNameTheParameter) {
  auto error = [](const GaussParams& p, RankId ranks) -> std::string {
    try {
      gauss_trace(p, ranks);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error({8, 0, GaussForward::blocking}, 16), "gauss.n: must be >= ranks (16), got 8");
  EXPECT_EQ(error({8, 0, GaussForward::blocking}, 1), "gauss.ranks: must be >= 2, got 1");
  EXPECT_EQ(error({70000, 0, GaussForward::blocking}, 16), "gauss.n: must be <= 65536, got 70000");
  EXPECT_EQ(error({65536, 1, GaussForward::blocking}, 16),
            "gauss.fragment_bytes: 1 B pieces make 515388211200 messages, more than 16777216");
  EXPECT_EQ(error({8, 0, static_cast<GaussForward>(7)}, 4),
            "gauss.forward: must be blocking or isend");
  try {
    gauss_forward("nonblocking");
    FAIL() << "no error";
  } catch (const GeneratorError& e) {
    EXPECT_STREQ(e.what(), "gauss.forward: must be blocking or isend, got 'nonblocking'");
    EXPECT_EQ(e.parameter(), "forward");
  }
  EXPECT_EQ(gauss_forward("isend"), GaussForward::isend);
}

// ---- NPB CG ----

TEST(NpbCgGenerator, ClassSOnFourRanksHasNpbsMessages) {
  // 2 x 2 grid, na = 1400: every rank holds a 700 x 700 block; one reduction partner (the
  // other column of its row), transpose partner rank ^ 3 for ranks 1 and 2, itself for 0 and 3.
  // Per outer iteration: 53 scalar exchanges (rho; 25 x (p.q, rho); ||r||; the 2-double norm),
  // 26 row sums and 26 transposes of 700 doubles.
  const proto::Trace t = npb_cg_trace({NpbClass::S, 1}, 4);
  for (RankId r = 0; r < 4; ++r) {
    const bool has_transpose = r == 1 || r == 2;
    const SendList sends = sends_of(t, r);
    EXPECT_EQ(sends.size(), has_transpose ? 105u : 79u) << r;
    std::uint64_t bytes = 0;
    for (const auto& [dst, tag, size] : sends) {
      bytes += size;
      EXPECT_NE(dst, static_cast<std::int32_t>(r));
    }
    EXPECT_EQ(bytes, 52u * 8 + 16 + 26u * 5600 + (has_transpose ? 26u * 5600 : 0)) << r;
    EXPECT_EQ(std::get<0>(sends.front()), static_cast<std::int32_t>(r ^ 1)) << r;
  }
  // Flops of one outer iteration: A.p is 2 * na * nonzer (nonzer + 1) / P = 39200, the adds
  // of a row sum 700, the vector updates 10 x 700 per inner iteration.
  const double cols = 700;
  const double inner = 39200 + cols + 2 * cols + 1 + 6 * cols + 1 + 2 * cols;
  const double outer = 2 * cols + 1 + 39200 + cols + 3 * cols + 1 + 4 * cols + 2 + cols;
  EXPECT_EQ(flops_of(t, 1), 25 * inner + outer);
  expect_clean_runs(t);
}

TEST(NpbCgGenerator, RectangularGridsMatchEverySend) {
  // 2, 8 and 32 ranks: npcols = 2 nprows, the split row sums of NPB's non-square layout.
  for (RankId ranks : {2u, 8u, 32u}) {
    SCOPED_TRACE(ranks);
    expect_clean_runs(npb_cg_trace({NpbClass::W, 1}, ranks));
  }
  // Class B's niter, and the override.
  const auto outer_sends = [](const proto::Trace& t) { return sends_of(t, 1).size(); };
  EXPECT_EQ(outer_sends(npb_cg_trace({NpbClass::B, 0}, 4)),
            75 * outer_sends(npb_cg_trace({NpbClass::B, 1}, 4)));
  EXPECT_EQ(outer_sends(npb_cg_trace({NpbClass::S, 0}, 4)),
            15 * outer_sends(npb_cg_trace({NpbClass::S, 1}, 4)));
}

// ---- NPB LU ----

TEST(NpbLuGenerator, ClassSOnFourRanksHasNpbsMessages) {
  // 2 x 2 grid of 6 x 6 x 12 points, 5 x 5 interior: 10 planes per sweep, edges of 5 x 5
  // doubles = 200 B (each rank sends in one sweep only, to two neighbours); rhs twice
  // (before the loop and in it), two 10 x 6 x 12-double faces = 5760 B each.
  const proto::Trace t = npb_lu_trace({NpbClass::S, 1}, 4);
  for (RankId r = 0; r < 4; ++r) {
    const SendList sends = sends_of(t, r);
    EXPECT_EQ(sends.size(), 24u) << r;
    std::uint64_t bytes = 0;
    for (const auto& s : sends) bytes += std::get<2>(s);
    EXPECT_EQ(bytes, 20u * 200 + 4u * 5760) << r;
  }
  // The first: rhs's face to the south neighbour, tagged from_n (2) as in NPB.
  EXPECT_EQ(sends_of(t, 0).front(),
            (std::tuple<std::int32_t, std::int32_t, std::uint64_t>{1, 2, 5760}));
  int allreduces = 0;
  for (const proto::Action& a : t.ranks(3).actions())
    if (a.has_allreduce()) ++allreduces;
  EXPECT_EQ(allreduces, 3);
  expect_clean_runs(t);
  expect_clean_runs(npb_lu_trace({NpbClass::W, 2}, 8));
  expect_clean_runs(npb_lu_trace({NpbClass::A, 1}, 32));
}

TEST(NpbGenerators, ParameterErrorsNameTheParameter) {
  auto error = [](auto generate) -> std::string {
    try {
      generate();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error([] { npb_cg_trace({}, 6); }), "cg.ranks: must be a power of two >= 2, got 6");
  EXPECT_EQ(error([] { npb_cg_trace({}, 1); }), "cg.ranks: must be a power of two >= 2, got 1");
  EXPECT_EQ(error([] {
              npb_cg_trace({NpbClass::S, 0}, 1024);
            }),
            "cg.ranks: must be <= 700 for class S (na = 1400), got 1024");
  EXPECT_EQ(error([] {
              npb_cg_trace({NpbClass::S, 100001}, 4);
            }),
            "cg.iterations: must be <= 100000, got 100001");
  EXPECT_EQ(error([] {
              npb_cg_trace({static_cast<NpbClass>(9), 0}, 4);
            }),
            "cg.class: must be S, W, A or B");
  EXPECT_EQ(error([] { npb_lu_trace({}, 12); }), "lu.ranks: must be a power of two >= 2, got 12");
  EXPECT_EQ(error([] {
              npb_lu_trace({NpbClass::S, 0}, 8);
            }),
            "lu.ranks: 8 ranks (4 x 2 grid) leave 3 x 6 points of class S (12^3) to a rank; NPB "
            "needs at least 4 x 4");
  EXPECT_EQ(error([] {
              npb_lu_trace({NpbClass::A, 100001}, 4);
            }),
            "lu.iterations: must be <= 100000, got 100001");
  EXPECT_EQ(error([] { npb_class("lu", "C"); }), "lu.class: must be S, W, A or B, got 'C'");
  EXPECT_EQ(npb_class("cg", "B"), NpbClass::B);
  EXPECT_EQ(npb_class_name(NpbClass::W), "W");
}

std::uint64_t action_count(const proto::Trace& trace) {
  std::uint64_t count = 0;
  for (const proto::RankTrace& rank : trace.ranks()) count += rank.actions_size();
  return count;
}

// The memory estimate relies on the bounds: never below the trace's actions, and close enough
// (within 2x) that a run is not refused for actions it will not have.
void expect_tight_bound(std::uint64_t bound, const proto::Trace& trace, const std::string& what) {
  const std::uint64_t actual = action_count(trace);
  EXPECT_GE(bound, actual) << what;
  EXPECT_LE(bound, 2 * actual) << what;
}

TEST(GeneratorActionBounds, CoverEveryActionAndStayClose) {
  for (const RankId ranks : {2u, 4u, 8u, 16u, 32u}) {
    const std::string at = " on " + std::to_string(ranks) + " ranks";
    expect_tight_bound(npb_cg_action_bound({NpbClass::S, 2}, ranks),
                       npb_cg_trace({NpbClass::S, 2}, ranks), "cg" + at);
    expect_tight_bound(gauss_action_bound({64, 0, GaussForward::blocking}, ranks),
                       gauss_trace({64, 0, GaussForward::blocking}, ranks), "gauss" + at);
    expect_tight_bound(gauss_action_bound({64, 100, GaussForward::isend}, ranks),
                       gauss_trace({64, 100, GaussForward::isend}, ranks), "gauss fragments" + at);
  }
  for (const RankId ranks : {2u, 4u}) {
    expect_tight_bound(npb_lu_action_bound({NpbClass::S, 3}, ranks),
                       npb_lu_trace({NpbClass::S, 3}, ranks), "lu S on " + std::to_string(ranks));
  }
  expect_tight_bound(npb_lu_action_bound({NpbClass::W, 2}, 8), npb_lu_trace({NpbClass::W, 2}, 8),
                     "lu W on 8");
}

TEST(GeneratorActionBounds, SaturateInsteadOfWrapping) {
  EXPECT_EQ(gauss_action_bound({65536, 1, GaussForward::blocking}, 0xffffffffu), UINT64_MAX);
  EXPECT_GT(npb_cg_action_bound({NpbClass::B, 100000}, 32768), std::uint64_t{1} << 40);
}

// ---- runs on a network ----

struct RunCase {
  std::string name;
  proto::Trace trace;
};

std::vector<RunCase> small_programs() {
  return {
      {"gauss blocking", gauss_trace({24, 0, GaussForward::blocking}, 4)},
      {"gauss isend fragments", gauss_trace({24, 100, GaussForward::isend}, 4)},
      {"cg", npb_cg_trace({NpbClass::S, 1}, 4)},
      {"lu", npb_lu_trace({NpbClass::S, 1}, 4)},
  };
}

TEST(Generators, ProgramsFinishOnAStarWithEagerAndRendezvousMessages) {
  using namespace testing;
  const auto spec = star_platform(4, netmodels::gbps(10), engine::ns(500));
  for (const RunCase& c : small_programs()) {
    const Program program = program_of(c.trace);
    for (std::uint64_t eager : {std::uint64_t{16384}, std::uint64_t{64}}) {
      SCOPED_TRACE(c.name + " S=" + std::to_string(eager));
      ProtocolConfig protocol;
      protocol.short_bytes = 32;
      protocol.eager_bytes = eager;
      HostCosts costs;
      costs.o = engine::ns(500);
      const MpiRun run = run_mpi(spec, program, config_for(program, costs, protocol));
      EXPECT_TRUE(run.totals.finished) << deadlock_message(run.totals);
      EXPECT_GT(run.totals.run_time_ps, 0);
      expect_breakdowns_add_up(run.results);
    }
  }
}

// ---- TIT writer ----

TEST(TitWriter, GeneratedTracesReadBackAsTheSameProgram) {
  const auto dir = testing::temp_dir("generators_tit");
  for (const RunCase& c : small_programs()) {
    SCOPED_TRACE(c.name);
    const auto path = dir / "app.tit";
    write_tit(c.trace, path);
    EXPECT_EQ(describe_program(program_of(read_tit(path))), describe_program(program_of(c.trace)));
    write_trace(c.trace, dir / "app.txt");  // by name: TIT too
    EXPECT_EQ(describe_program(program_of(read_trace(dir / "app.txt"))),
              describe_program(program_of(c.trace)));
  }
}

// Every action the TIT reader knows, read from the test fixtures, survives write and read.
TEST(TitWriter, EveryReadableActionRoundTrips) {
  const auto dir = testing::temp_dir("tit_round_trip");
  for (const char* name : {"p2p.tit", "collectives.tit"}) {
    SCOPED_TRACE(name);
    proto::Trace original = read_tit(testing::trace_data(name));
    write_tit(original, dir / "again.tit");
    proto::Trace again = read_tit(dir / "again.tit");
    for (proto::Trace* t : {&original, &again})
      for (proto::RankTrace& rank : *t->mutable_ranks()) {
        rank.clear_source_file();
        for (proto::Action& a : *rank.mutable_actions()) a.clear_line();
      }
    EXPECT_EQ(again.SerializeAsString(), original.SerializeAsString());
  }
}

TEST(TitWriter, RefusesWhatTitCannotSay) {
  const auto dir = testing::temp_dir("tit_errors");
  const std::string path = (dir / "t.tit").string();
  proto::Trace t;
  EXPECT_EQ(testing::trace_error([&] { write_tit(t, path); }), path + ": the trace has no ranks");
  t.add_ranks()->add_actions()->mutable_compute()->set_flops(5);
  t.add_ranks()->add_actions()->mutable_sendrecv()->set_dst(0);
  EXPECT_EQ(testing::trace_error([&] { write_tit(t, path); }),
            path +
                ": rank 1 action 0: sendrecv has no TIT action netwarp reads; write the trace "
                "as .pb or .pbtxt");
  t.mutable_ranks(1)->mutable_actions(0)->mutable_alltoallv()->add_send_bytes(1);
  EXPECT_EQ(testing::trace_error([&] { write_tit(t, path); }),
            path +
                ": rank 1 action 0: alltoallv.send_bytes has 1 entries; TIT needs one per rank "
                "(2)");
}

}  // namespace
}  // namespace netwarp::mpiemul
