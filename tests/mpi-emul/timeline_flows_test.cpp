// timeline.json's messages: one flow arrow per matched message from its send call to its receive
// call (flow events "s" and "f" with one id), and a collective's messages nested in its slice.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mpi_fixtures.hpp"
#include "netwarp/mpiemul/collectives.hpp"
#include "netwarp/mpiemul/mpi_outputs.hpp"

namespace netwarp::mpiemul {
namespace {

using testing::config_for;
using testing::run_mpi;
using testing::star_platform;

// A ring of sends (isend + recv + wait), then an allreduce, on 4 ranks.
Program ring_and_allreduce() {
  Program program;
  constexpr RankId kSize = 4;
  for (RankId r = 0; r < kSize; ++r) {
    RankProgramBuilder b(r, kSize);
    const std::uint32_t q = b.isend((r + 1) % kSize, 5, 2000);
    b.recv(static_cast<std::int32_t>((r + kSize - 1) % kSize), 5, 2000);
    b.wait(q);
    add_allreduce(b, CollectiveAlgorithms{}, 64);
    program.ranks.push_back(b.take());
  }
  return program;
}

// The slice of `tid` that holds time `ts` (the latest starting at or before it).
const nlohmann::json* slice_at(const nlohmann::json& events, int tid, double ts) {
  const nlohmann::json* found = nullptr;
  for (const auto& e : events)
    if (e["ph"] == "X" && e["cat"] == "mpi" && e["tid"] == tid && e["ts"].get<double>() <= ts &&
        ts <= e["ts"].get<double>() + e["dur"].get<double>())
      found = &e;
  return found;
}

TEST(TimelineFlows, EverySendHasOneArrowToItsReceive) {
  const Program program = ring_and_allreduce();
  HostCosts costs;  // every call lasts: a flow event binds to one slice, not to a boundary
  costs.o = engine::us(1);
  const auto run = run_mpi(star_platform(4, 1'000'000'000, engine::us(1)), program,
                           config_for(program, costs), true);
  ASSERT_TRUE(run.totals.finished);
  std::ostringstream out;
  write_timeline_json(run.results, program, out);
  const nlohmann::json j = nlohmann::json::parse(out.str());
  const nlohmann::json& events = j["traceEvents"];
  std::map<std::uint64_t, nlohmann::json> starts, finishes;
  for (const auto& e : events) {
    if (e["ph"] == "s") {
      EXPECT_TRUE(starts.emplace(e["id"].get<std::uint64_t>(), e).second);
    } else if (e["ph"] == "f") {
      EXPECT_TRUE(finishes.emplace(e["id"].get<std::uint64_t>(), e).second);
    }
  }
  ASSERT_EQ(starts.size(), run.results.messages.size());
  ASSERT_EQ(finishes.size(), starts.size());
  std::size_t ring_arrows = 0;
  for (const auto& [id, s] : starts) {
    ASSERT_TRUE(finishes.count(id)) << "id " << id;
    const nlohmann::json& f = finishes.at(id);
    EXPECT_EQ(f["bp"], "e");
    EXPECT_LE(s["ts"].get<double>(), f["ts"].get<double>());
    EXPECT_EQ(s["args"]["dst"], f["tid"]);
    const nlohmann::json* send = slice_at(events, s["tid"].get<int>(), s["ts"].get<double>());
    const nlohmann::json* recv = slice_at(events, f["tid"].get<int>(), f["ts"].get<double>());
    ASSERT_NE(send, nullptr);
    ASSERT_NE(recv, nullptr);
    if ((*send)["name"] == "isend") {
      ++ring_arrows;
      EXPECT_EQ((*recv)["name"], "recv");
      EXPECT_EQ((*send)["args"]["peer"], f["tid"]);
      EXPECT_EQ((*recv)["args"]["peer"], s["tid"]);
    } else {
      EXPECT_EQ((*send)["name"], "allreduce");
      EXPECT_EQ((*recv)["name"], "allreduce");
    }
  }
  EXPECT_EQ(ring_arrows, 4u);
  // The allreduce's messages are slices inside the receiver's allreduce slice.
  std::size_t nested = 0;
  for (const auto& e : events) {
    if (e["ph"] != "X" || e.value("cat", "") != "message") continue;
    ++nested;
    const nlohmann::json* parent = slice_at(events, e["tid"].get<int>(), e["ts"].get<double>());
    ASSERT_NE(parent, nullptr);
    EXPECT_EQ((*parent)["name"], "allreduce");
    EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(),
              (*parent)["ts"].get<double>() + (*parent)["dur"].get<double>() + 1e-9);
  }
  EXPECT_EQ(nested, run.results.messages.size() - 4);
}

}  // namespace
}  // namespace netwarp::mpiemul
