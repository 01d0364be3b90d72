// RevHashMap: the same contents as an ordered map under puts, erases (backward shifts, growth)
// and undo, and the same state bytes as a RevMap holding the same entries.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "engine/reversible_harness.hpp"

namespace netwarp::engine {
namespace {

using testing::Flow;
using testing::Harness;
using testing::make_flow;
using testing::state_bytes;

std::map<std::uint32_t, Flow> as_map(const RevHashMap<std::uint32_t, Flow>& m) {
  std::map<std::uint32_t, Flow> out;
  for (const auto& [k, v] : m.sorted_entries()) out.emplace(k, v);
  return out;
}

void expect_same(const RevHashMap<std::uint32_t, Flow>& m,
                 const std::map<std::uint32_t, Flow>& model) {
  ASSERT_EQ(m.size(), model.size());
  EXPECT_EQ(as_map(m), model);
  for (const auto& [k, v] : model) {
    ASSERT_NE(m.find(k), nullptr) << "key " << k;
    EXPECT_EQ(*m.find(k), v);
  }
}

TEST(RevHashMap, FindsWhatWasPutAndNothingElse) {
  Harness h;
  EventCtx ctx = h.unlogged_ctx();
  RevHashMap<std::uint32_t, Flow> flows;
  EXPECT_EQ(flows.find(3u), nullptr);
  for (std::uint32_t k = 0; k < 100; ++k) ctx.put(flows, k * 3, make_flow(k));
  EXPECT_EQ(flows.size(), 100u);
  for (std::uint32_t k = 0; k < 300; ++k) {
    if (k % 3 == 0) {
      ASSERT_NE(flows.find(k), nullptr);
      EXPECT_EQ(*flows.find(k), make_flow(k / 3));
    } else {
      EXPECT_FALSE(flows.contains(k));
    }
  }
}

// Random puts and erases on a small key range (long probe runs, many backward shifts and
// growths), undone to random marks: contents always equal an ordered map's replay.
TEST(RevHashMap, RandomPutsErasesAndUndoMatchAnOrderedMap) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevHashMap<std::uint32_t, Flow> flows;
  std::map<std::uint32_t, Flow> model;
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    const std::uint64_t mark = h.undo.mark();
    const std::map<std::uint32_t, Flow> before = model;
    const int steps = static_cast<int>(rng() % 64);
    for (int i = 0; i < steps; ++i) {
      // Keys 0..63 and multiples of 64: many share a home slot.
      const auto k = static_cast<std::uint32_t>(rng() % 2 == 0 ? rng() % 64 : (rng() % 64) * 64);
      if (rng() % 3 == 0) {
        EXPECT_EQ(ctx.erase(flows, k), model.erase(k) == 1);
      } else {
        const Flow f = make_flow(rng() % 1000);
        ctx.put(flows, k, f);
        model[k] = f;
      }
      expect_same(flows, model);
    }
    if (rng() % 2 == 0) {
      h.undo.undo_to(mark);
      model = before;
      expect_same(flows, model);
    }
  }
}

TEST(RevHashMap, StateBytesEqualARevMapsWithTheSameEntries) {
  Harness h;
  EventCtx ctx = h.unlogged_ctx();
  RevHashMap<std::uint32_t, Flow> hashed;
  RevMap<std::uint32_t, Flow> ordered;
  EXPECT_EQ(state_bytes(hashed), state_bytes(ordered));
  for (std::uint32_t k : {90u, 3u, 4000u, 17u, 5u}) {
    ctx.put(hashed, k, make_flow(k));
    ctx.put(ordered, k, make_flow(k));
  }
  ctx.erase(hashed, 17u);
  ctx.erase(ordered, 17u);
  EXPECT_EQ(state_bytes(hashed), state_bytes(ordered));
}

}  // namespace
}  // namespace netwarp::engine
