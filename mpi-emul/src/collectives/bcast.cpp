// Broadcast algorithms; every message is the whole buffer.
//  binomial: relative to the root, rank v receives from v with its lowest set bit cleared,
//    then sends to v + 2^j for the powers 2^j below that bit, largest subtree first.
//    ceil(log2 P) rounds, P - 1 messages.
//  linear: the root sends to every other rank. P - 1 messages, all from the root.
#include <vector>

#include "collectives/binomial_tree.hpp"
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace collectives {
namespace {
void post_binomial_bcast(RankProgramBuilder& b, RankId root, std::uint64_t bytes,
                         std::int32_t tag) {
  const BinomialTree tree(b.size(), root);
  const RankId v = tree.relative(b.rank());
  if (v != 0) b.post_recv(static_cast<std::int32_t>(tree.absolute(tree.parent(v))), tag, bytes);
  std::vector<std::uint32_t> requests;
  for (RankId child : tree.children(v))
    requests.push_back(b.post_isend(tree.absolute(child), tag, bytes));
  if (!requests.empty()) b.post_waitall(requests);
}

void post_linear_bcast(RankProgramBuilder& b, RankId root, std::uint64_t bytes, std::int32_t tag) {
  if (b.rank() != root) {
    b.post_recv(static_cast<std::int32_t>(root), tag, bytes);
    return;
  }
  std::vector<std::uint32_t> requests;
  for (RankId r = 0; r < b.size(); ++r)
    if (r != root) requests.push_back(b.post_isend(r, tag, bytes));
  if (!requests.empty()) b.post_waitall(requests);
}
}  // namespace

void post_bcast(RankProgramBuilder& b, BcastAlgorithm algorithm, RankId root, std::uint64_t bytes,
                std::int32_t tag) {
  if (algorithm == BcastAlgorithm::binomial)
    post_binomial_bcast(b, root, bytes, tag);
  else
    post_linear_bcast(b, root, bytes, tag);
}
}  // namespace collectives

void add_bcast(RankProgramBuilder& b, const CollectiveAlgorithms& configured, RankId root,
               std::uint64_t bytes) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::bcast, b.size(), bytes);
  collectives::check_root("bcast", root, b.size());
  b.begin_call(CallKind::bcast, static_cast<std::int32_t>(root), bytes);
  collectives::post_bcast(b, a.bcast, root, bytes, collectives::collective_tag(CallKind::bcast, 0));
  b.end_call();
}

}  // namespace netwarp::mpiemul
