// RankExpander's collectives: each trace collective becomes one collective call through the
// configured algorithms. Which traced size becomes the per-rank block follows MPI's rule of
// which arguments are significant where: gather and allgather and alltoall use the send block,
// scatter the receive block, gatherv and scatterv the root's lists. The computation of a
// reduction (reduce, allreduce, reducescatter flops) follows as a compute call, after the
// communication, where SimGrid's replay runs it.
#include <fmt/format.h>

#include "rank_expander.hpp"

namespace netwarp::mpiemul {

void RankExpander::add_collective(const proto::Action& action, const ActionSite& site) {
  using Kind = proto::Action::KindCase;
  const CollectiveAlgorithms& a = options_.algorithms;
  switch (action.kind_case()) {
    case Kind::kIbarrier:
    case Kind::kIbcast:
    case Kind::kIallreduce:
    case Kind::kIalltoall:
      return add_nonblocking(action, site);
    case Kind::kBarrier:
      return add_barrier(builder_, a);
    case Kind::kAllreduce:
      add_allreduce(builder_, a, action.allreduce().bytes());
      return add_reduction_flops(action.allreduce().flops(), site);
    case Kind::kAlltoall:
      return add_alltoall(builder_, a, action.alltoall().send_bytes());
    case Kind::kAllgather:
      return add_allgather(builder_, a, action.allgather().send_bytes());
    case Kind::kBcast:
    case Kind::kReduce:
    case Kind::kGather:
    case Kind::kScatter:
      return add_rooted(action, site);
    default:
      return add_vector(action, site);
  }
}

void RankExpander::add_rooted(const proto::Action& action, const ActionSite& site) {
  using Kind = proto::Action::KindCase;
  const CollectiveAlgorithms& a = options_.algorithms;
  const RankId root = checked_rank(collective_root(action), "root", site);
  switch (action.kind_case()) {
    case Kind::kBcast:
      return add_bcast(builder_, a, root, action.bcast().bytes());
    case Kind::kReduce:
      add_reduce(builder_, a, root, action.reduce().bytes());
      return add_reduction_flops(action.reduce().flops(), site);
    case Kind::kGather:
      return add_gather(builder_, a, root, action.gather().send_bytes());
    default:
      return add_scatter(builder_, a, root, action.scatter().recv_bytes());
  }
}

void RankExpander::add_vector(const proto::Action& action, const ActionSite& site) {
  using Kind = proto::Action::KindCase;
  const CollectiveAlgorithms& a = options_.algorithms;
  switch (action.kind_case()) {
    case Kind::kAlltoallv:
      return add_alltoallv(builder_, a,
                           checked_list(action.alltoallv().send_bytes(), "send_bytes", site),
                           checked_list(action.alltoallv().recv_bytes(), "recv_bytes", site));
    case Kind::kGatherv: {
      const RankId root = checked_rank(action.gatherv().root(), "root", site);
      const auto& at_root = plan_.root_call(comm_, collective_index_[comm_]).gatherv();
      return add_gatherv(builder_, a, root,
                         checked_list(at_root.recv_bytes(), "the root's recv_bytes", site));
    }
    case Kind::kScatterv: {
      const RankId root = checked_rank(action.scatterv().root(), "root", site);
      const auto& at_root = plan_.root_call(comm_, collective_index_[comm_]).scatterv();
      return add_scatterv(builder_, a, root,
                          checked_list(at_root.send_bytes(), "the root's send_bytes", site));
    }
    case Kind::kAllgatherv:
      return add_allgatherv(builder_, a,
                            checked_list(action.allgatherv().recv_bytes(), "recv_bytes", site));
    default:
      add_reduce_scatter(builder_, a,
                         checked_list(action.reduce_scatter().recv_bytes(), "recv_bytes", site));
      return add_reduction_flops(action.reduce_scatter().flops(), site);
  }
}

// A non-blocking collective: pending until a wait, waitall or test names it (Wait.collective,
// or a bare wait when it is the latest request). An iallreduce's flops follow the call at once.
void RankExpander::add_nonblocking(const proto::Action& action, const ActionSite& site) {
  using Kind = proto::Action::KindCase;
  const CollectiveAlgorithms& a = options_.algorithms;
  std::uint32_t handle = 0;
  switch (action.kind_case()) {
    case Kind::kIbarrier:
      handle = add_ibarrier(builder_, a);
      break;
    case Kind::kIbcast:
      handle = add_ibcast(builder_, a, checked_rank(action.ibcast().root(), "root", site),
                          action.ibcast().bytes());
      break;
    case Kind::kIallreduce:
      handle = add_iallreduce(builder_, a, action.iallreduce().bytes());
      break;
    default:
      handle = add_ialltoall(builder_, a, action.ialltoall().send_bytes());
      break;
  }
  pending_.add_collective(handle);
  if (action.kind_case() == Kind::kIallreduce)
    add_reduction_flops(action.iallreduce().flops(), site);
}

void RankExpander::add_reduction_flops(double flops, const ActionSite& site) {
  if (flops != 0) add_compute(flops, true, site);
}

}  // namespace netwarp::mpiemul
