// Reduce algorithms: only the messages are modelled, the reduction arithmetic costs no time.
// Every message is the whole buffer.
//  binomial: the bcast tree reversed. Relative to the root, rank v receives from each of its
//    children v + 2^j, then sends the combined buffer to its parent (v with its lowest set bit
//    cleared). ceil(log2 P) rounds, P - 1 messages.
//  linear: every other rank sends to the root. P - 1 messages, all to the root.
#include <vector>

#include "collectives/binomial_tree.hpp"
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace collectives {
namespace {
void post_binomial_reduce(RankProgramBuilder& b, RankId root, std::uint64_t bytes,
                          std::int32_t tag) {
  const BinomialTree tree(b.size(), root);
  const RankId v = tree.relative(b.rank());
  std::vector<std::uint32_t> requests;
  for (RankId child : tree.children(v))
    requests.push_back(b.post_irecv(static_cast<std::int32_t>(tree.absolute(child)), tag, bytes));
  if (!requests.empty()) b.post_waitall(requests);
  if (v != 0) b.post_send(tree.absolute(tree.parent(v)), tag, bytes);
}

void post_linear_reduce(RankProgramBuilder& b, RankId root, std::uint64_t bytes, std::int32_t tag) {
  if (b.rank() != root) {
    b.post_send(root, tag, bytes);
    return;
  }
  std::vector<std::uint32_t> requests;
  for (RankId r = 0; r < b.size(); ++r)
    if (r != root) requests.push_back(b.post_irecv(static_cast<std::int32_t>(r), tag, bytes));
  if (!requests.empty()) b.post_waitall(requests);
}
}  // namespace

void post_reduce(RankProgramBuilder& b, ReduceAlgorithm algorithm, RankId root, std::uint64_t bytes,
                 std::int32_t tag) {
  if (algorithm == ReduceAlgorithm::binomial)
    post_binomial_reduce(b, root, bytes, tag);
  else
    post_linear_reduce(b, root, bytes, tag);
}
}  // namespace collectives

void add_reduce(RankProgramBuilder& b, const CollectiveAlgorithms& configured, RankId root,
                std::uint64_t bytes) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::reduce, b.size(), bytes);
  collectives::check_root("reduce", root, b.size());
  b.begin_call(CallKind::reduce, static_cast<std::int32_t>(root), bytes);
  collectives::post_reduce(b, a.reduce, root, bytes,
                           collectives::collective_tag(CallKind::reduce, 0));
  b.end_call();
}

}  // namespace netwarp::mpiemul
