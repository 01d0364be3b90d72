// Gather and scatter, plain and v-variants (counts[r] is rank r's block; the plain forms use
// `bytes` for every rank). The root's own block is a local copy. Blocks of 0 bytes are still
// sent as 0-byte messages, so the message pattern does not depend on the counts.
//  linear: every other rank sends its block straight to the root (gather), or the root sends
//    each rank its block (scatter). P - 1 messages.
//  binomial (MPICH): the bcast tree, relative to the root. Gather: rank v receives the
//    combined blocks of each child's subtree, then sends its whole subtree's blocks to its
//    parent. Scatter: the reverse, the largest subtree first. ceil(log2 P) rounds, P - 1
//    messages; the message between v and its parent carries the blocks of v's subtree.
#include <vector>

#include "collectives/binomial_tree.hpp"
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace collectives {
namespace {
void post_linear_gatherv(RankProgramBuilder& b, RankId root, std::span<const std::uint64_t> counts,
                         std::int32_t tag) {
  if (b.rank() != root) {
    b.post_send(root, tag, counts[b.rank()]);
    return;
  }
  std::vector<std::uint32_t> requests;
  for (RankId r = 0; r < b.size(); ++r)
    if (r != root) requests.push_back(b.post_irecv(static_cast<std::int32_t>(r), tag, counts[r]));
  if (!requests.empty()) b.post_waitall(requests);
}

void post_linear_scatterv(RankProgramBuilder& b, RankId root, std::span<const std::uint64_t> counts,
                          std::int32_t tag) {
  if (b.rank() != root) {
    b.post_recv(static_cast<std::int32_t>(root), tag, counts[b.rank()]);
    return;
  }
  std::vector<std::uint32_t> requests;
  for (RankId r = 0; r < b.size(); ++r)
    if (r != root) requests.push_back(b.post_isend(r, tag, counts[r]));
  if (!requests.empty()) b.post_waitall(requests);
}

void post_binomial_gatherv(RankProgramBuilder& b, RankId root,
                           std::span<const std::uint64_t> counts, std::int32_t tag) {
  const BinomialTree tree(b.size(), root);
  const RankId v = tree.relative(b.rank());
  std::vector<std::uint32_t> requests;
  for (RankId child : tree.children(v))
    requests.push_back(b.post_irecv(static_cast<std::int32_t>(tree.absolute(child)), tag,
                                    tree.subtree_bytes(child, counts)));
  if (!requests.empty()) b.post_waitall(requests);
  if (v != 0) b.post_send(tree.absolute(tree.parent(v)), tag, tree.subtree_bytes(v, counts));
}

void post_binomial_scatterv(RankProgramBuilder& b, RankId root,
                            std::span<const std::uint64_t> counts, std::int32_t tag) {
  const BinomialTree tree(b.size(), root);
  const RankId v = tree.relative(b.rank());
  if (v != 0)
    b.post_recv(static_cast<std::int32_t>(tree.absolute(tree.parent(v))), tag,
                tree.subtree_bytes(v, counts));
  std::vector<std::uint32_t> requests;
  for (RankId child : tree.children(v))
    requests.push_back(b.post_isend(tree.absolute(child), tag, tree.subtree_bytes(child, counts)));
  if (!requests.empty()) b.post_waitall(requests);
}
}  // namespace

void post_gatherv(RankProgramBuilder& b, GatherAlgorithm algorithm, RankId root,
                  std::span<const std::uint64_t> counts, std::int32_t tag) {
  if (algorithm == GatherAlgorithm::binomial)
    post_binomial_gatherv(b, root, counts, tag);
  else
    post_linear_gatherv(b, root, counts, tag);
}

void post_scatterv(RankProgramBuilder& b, GatherAlgorithm algorithm, RankId root,
                   std::span<const std::uint64_t> counts, std::int32_t tag) {
  if (algorithm == GatherAlgorithm::binomial)
    post_binomial_scatterv(b, root, counts, tag);
  else
    post_linear_scatterv(b, root, counts, tag);
}
}  // namespace collectives

void add_gatherv(RankProgramBuilder& b, const CollectiveAlgorithms& configured, RankId root,
                 std::span<const std::uint64_t> counts) {
  const CollectiveAlgorithms a =
      algorithms_for(configured, CallKind::gatherv, b.size(), counts[b.rank()]);
  collectives::check_root("gatherv", root, b.size());
  collectives::check_counts("gatherv", counts, b.size());
  b.begin_call(CallKind::gatherv, static_cast<std::int32_t>(root), counts[b.rank()]);
  collectives::post_gatherv(b, a.gather, root, counts,
                            collectives::collective_tag(CallKind::gatherv, 0));
  b.end_call();
}

void add_scatterv(RankProgramBuilder& b, const CollectiveAlgorithms& configured, RankId root,
                  std::span<const std::uint64_t> counts) {
  const CollectiveAlgorithms a =
      algorithms_for(configured, CallKind::scatterv, b.size(), counts[b.rank()]);
  collectives::check_root("scatterv", root, b.size());
  collectives::check_counts("scatterv", counts, b.size());
  b.begin_call(CallKind::scatterv, static_cast<std::int32_t>(root), counts[b.rank()]);
  collectives::post_scatterv(b, a.gather, root, counts,
                             collectives::collective_tag(CallKind::scatterv, 0));
  b.end_call();
}

void add_gather(RankProgramBuilder& b, const CollectiveAlgorithms& configured, RankId root,
                std::uint64_t bytes) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::gather, b.size(), bytes);
  collectives::check_root("gather", root, b.size());
  b.begin_call(CallKind::gather, static_cast<std::int32_t>(root), bytes);
  collectives::post_gatherv(b, a.gather, root, collectives::uniform_counts(b.size(), bytes),
                            collectives::collective_tag(CallKind::gather, 0));
  b.end_call();
}

void add_scatter(RankProgramBuilder& b, const CollectiveAlgorithms& configured, RankId root,
                 std::uint64_t bytes) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::scatter, b.size(), bytes);
  collectives::check_root("scatter", root, b.size());
  b.begin_call(CallKind::scatter, static_cast<std::int32_t>(root), bytes);
  collectives::post_scatterv(b, a.gather, root, collectives::uniform_counts(b.size(), bytes),
                             collectives::collective_tag(CallKind::scatter, 0));
  b.end_call();
}

}  // namespace netwarp::mpiemul
