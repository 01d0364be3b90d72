// OPENMPI_TUNED for the v-collectives: alltoallv by Open MPI's communicator-size rule
// (basic_linear or pairwise), gatherv and scatterv as coll/basic's linear ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "netwarp/mpiemul/collectives.hpp"

namespace netwarp::mpiemul {
namespace {

TEST(OpenMpiTunedV, ChoosesAsOpenMpisFixedRules) {
  struct Point {
    CallKind kind;
    RankId size;
    std::string_view ompi;
    std::string_view netwarp;
  };
  const Point points[] = {
      {CallKind::alltoallv, 2, "pairwise", "pairwise"},
      {CallKind::alltoallv, 3, "pairwise", "pairwise"},
      {CallKind::alltoallv, 4, "basic_linear", "linear"},
      {CallKind::alltoallv, 63, "basic_linear", "linear"},
      {CallKind::alltoallv, 64, "pairwise", "pairwise"},
      {CallKind::alltoallv, 200, "basic_linear", "linear"},
      {CallKind::alltoallv, 512, "pairwise", "pairwise"},
      {CallKind::alltoallv, 1024, "basic_linear", "linear"},
      {CallKind::gatherv, 2, "basic_linear", "linear"},
      {CallKind::gatherv, 4096, "basic_linear", "linear"},
      {CallKind::scatterv, 100, "basic_linear", "linear"},
  };
  for (const Point& pt : points)
    for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{1} << 20}) {
      const OpenMpiChoice c = openmpi_tuned_choice(pt.kind, pt.size, bytes);
      EXPECT_EQ(c.ompi_name, pt.ompi) << call_kind_name(pt.kind) << " " << pt.size;
      EXPECT_EQ(c.netwarp_name, pt.netwarp) << call_kind_name(pt.kind) << " " << pt.size;
      EXPECT_FALSE(c.stand_in);
    }
}

// allgatherv decides by the mean block (Open MPI's per_rank_dsize).
TEST(OpenMpiTunedV, AllgathervChoosesByTheMeanBlock) {
  struct Point {
    RankId size;
    std::uint64_t mean;
    std::string_view ompi;
    std::string_view netwarp;
  };
  const Point points[] = {
      {2, 100, "ring", "ring"},
      {2, 3000, "two_proc", "ring"},
      {4, 100, "default", "gather_bcast"},
      {4, 1000, "neighbor", "ring"},
      {4, 100000, "bruck", "recursive_doubling"},
      {6, 100000, "bruck", "ring"},
      {16, 500, "bruck", "recursive_doubling"},
      {16, 1 << 20, "ring", "ring"},
      {200, 2000, "neighbor", "ring"},
      {2048, 100, "bruck", "recursive_doubling"},
  };
  for (const Point& pt : points) {
    const OpenMpiChoice c = openmpi_tuned_choice(CallKind::allgatherv, pt.size, pt.mean);
    EXPECT_EQ(c.ompi_name, pt.ompi) << pt.size << " " << pt.mean;
    EXPECT_EQ(c.netwarp_name, pt.netwarp) << pt.size << " " << pt.mean;
  }
}

// 4 ranks, blocks 10..40 (mean 25): Open MPI's default, a linear gatherv to rank 0 then the
// bcast of all 100 bytes Open MPI chooses for 4 ranks (binomial), even with the binomial
// gather configured; the fixed ring instead passes blocks to the next rank.
std::vector<std::pair<std::int32_t, std::uint64_t>> sends_of_rank_2(const CollectiveAlgorithms& a) {
  const std::vector<std::uint64_t> counts = {10, 20, 30, 40};
  RankProgramBuilder b(2, 4);
  add_allgatherv(b, a, counts);
  std::vector<std::pair<std::int32_t, std::uint64_t>> sends;
  for (const Op& op : b.take().ops)
    if (op.kind == OpKind::send) sends.emplace_back(op.peer, op.bytes);
  return sends;
}

TEST(OpenMpiTunedV, SmallAllgathervIsALinearGathervAndABcast) {
  using Sends = std::vector<std::pair<std::int32_t, std::uint64_t>>;
  CollectiveAlgorithms a;
  a.gather = GatherAlgorithm::binomial;
  a.selection = CollectiveSelection::openmpi_tuned;
  EXPECT_EQ(sends_of_rank_2(a), (Sends{{0, 30}, {3, 100}}));
  a.selection = CollectiveSelection::fixed;
  EXPECT_EQ(sends_of_rank_2(a), (Sends{{3, 30}, {3, 20}, {3, 10}}));
}

std::size_t waits(const RankProgram& p) {
  return static_cast<std::size_t>(std::count_if(
      p.ops.begin(), p.ops.end(), [](const Op& op) { return op.kind == OpKind::wait; }));
}

// 16 ranks: basic_linear posts every request and waits once; fixed runs 15 exchange steps.
TEST(OpenMpiTunedV, AlltoallvOf16RanksIsLinear) {
  const std::vector<std::uint64_t> counts(16, 100);
  CollectiveAlgorithms a;
  a.selection = CollectiveSelection::openmpi_tuned;
  RankProgramBuilder tuned(5, 16);
  add_alltoallv(tuned, a, counts, counts);
  const RankProgram linear = tuned.take();
  EXPECT_EQ(waits(linear), 1u);
  EXPECT_EQ(linear.ops.size(), 2u * 15 + 1);
  a.selection = CollectiveSelection::fixed;
  RankProgramBuilder fixed(5, 16);
  add_alltoallv(fixed, a, counts, counts);
  EXPECT_EQ(waits(fixed.take()), 15u);
  // 64 ranks: pairwise again under OPENMPI_TUNED.
  a.selection = CollectiveSelection::openmpi_tuned;
  RankProgramBuilder big(5, 64);
  add_alltoallv(big, a, std::vector<std::uint64_t>(64, 8), std::vector<std::uint64_t>(64, 8));
  EXPECT_EQ(waits(big.take()), 63u);
}

// gatherv with the binomial gather configured: OPENMPI_TUNED sends every block to the root.
TEST(OpenMpiTunedV, GathervIsLinearWhateverTheConfiguredGather) {
  const std::vector<std::uint64_t> counts = {1, 2, 3, 4, 5, 6, 7, 8};
  CollectiveAlgorithms a;
  a.gather = GatherAlgorithm::binomial;
  a.selection = CollectiveSelection::openmpi_tuned;
  for (RankId r = 1; r < 8; ++r) {
    RankProgramBuilder b(r, 8);
    add_gatherv(b, a, 0, counts);
    const RankProgram p = b.take();
    for (const Op& op : p.ops)
      if (op.kind == OpKind::send || op.kind == OpKind::recv) {
        EXPECT_EQ(op.kind, OpKind::send) << "rank " << r;
        EXPECT_EQ(op.peer, 0) << "rank " << r;
        EXPECT_EQ(op.bytes, counts[r]);
      }
  }
  a.selection = CollectiveSelection::fixed;
  RankProgramBuilder relay(2, 8);  // binomial: rank 2 receives rank 3's block
  add_gatherv(relay, a, 0, counts);
  const RankProgram q = relay.take();
  EXPECT_TRUE(std::any_of(q.ops.begin(), q.ops.end(),
                          [](const Op& op) { return op.kind == OpKind::recv; }));
}

}  // namespace
}  // namespace netwarp::mpiemul
