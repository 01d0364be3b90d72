// Reduce_scatter: reduce the whole vector (the sum of all counts) to rank 0 with the
// configured reduce algorithm, then scatterv it from rank 0 with the configured gather
// algorithm, so rank r ends with counts[r] bytes. 2 (P - 1) messages; only messages are
// modelled, not the reduction arithmetic.
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

// The call records this rank's block.
void add_reduce_scatter(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                        std::span<const std::uint64_t> counts) {
  collectives::check_counts("reduce_scatter", counts, b.size());
  b.begin_call(CallKind::reduce_scatter, -1, counts[b.rank()]);
  collectives::post_reduce(b, a.reduce, 0, collectives::total(counts),
                           collectives::collective_tag(CallKind::reduce_scatter, 0));
  collectives::post_scatterv(b, a.gather, 0, counts,
                             collectives::collective_tag(CallKind::reduce_scatter, 1));
  b.end_call();
}

}  // namespace netwarp::mpiemul
