// add_collective and fill_vector_collectives: see otf2_collectives.hpp.
#include "otf2_collectives.hpp"

#include <fmt/format.h>

#include <array>
#include <map>
#include <string>

#include "otf2_definitions.hpp"

namespace netwarp::mpiemul {

namespace {

constexpr std::array<const char*, 23> kOpNames = {"MPI_Barrier",
                                                  "MPI_Bcast",
                                                  "MPI_Gather",
                                                  "MPI_Gatherv",
                                                  "MPI_Scatter",
                                                  "MPI_Scatterv",
                                                  "MPI_Allgather",
                                                  "MPI_Allgatherv",
                                                  "MPI_Alltoall",
                                                  "MPI_Alltoallv",
                                                  "MPI_Alltoallw",
                                                  "MPI_Allreduce",
                                                  "MPI_Reduce",
                                                  "MPI_Reduce_scatter",
                                                  "MPI_Scan",
                                                  "MPI_Exscan",
                                                  "MPI_Reduce_scatter_block",
                                                  "create handle",
                                                  "destroy handle",
                                                  "allocate",
                                                  "deallocate",
                                                  "create handle and allocate",
                                                  "destroy handle and deallocate"};

// A total over all peers as per-peer blocks: OTF2 records only the total, so an alltoallv's
// blocks are taken equal (the remainder one byte each to the lowest ranks).
void set_spread(google::protobuf::RepeatedField<std::uint64_t>& field, std::uint64_t total,
                std::uint32_t ranks) {
  field.Clear();
  for (std::uint32_t r = 0; r < ranks; ++r) field.Add(total / ranks + (r < total % ranks ? 1 : 0));
}

// One communicator's calls: [i] are those of its rank i (world rank world[i]), in order.
struct CommCalls {
  std::vector<std::uint32_t> world;
  std::vector<std::vector<Otf2CollectiveCall>> calls;
};

void set_per_rank_blocks(google::protobuf::RepeatedField<std::uint64_t>& field,
                         const CommCalls& comm, std::size_t k) {
  field.Clear();
  for (const auto& rank_calls : comm.calls) field.Add(rank_calls[k].own_block);
}

bool is_vector_collective(OTF2_CollectiveOp op) {
  return op == OTF2_COLLECTIVE_OP_GATHERV || op == OTF2_COLLECTIVE_OP_SCATTERV ||
         op == OTF2_COLLECTIVE_OP_ALLGATHERV || op == OTF2_COLLECTIVE_OP_REDUCE_SCATTER ||
         op == OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
}

void fill_call(proto::Trace& trace, const CommCalls& comm, std::size_t k) {
  const auto& calls = comm.calls;
  for (std::size_t r = 0; r < calls.size(); ++r) {
    const Otf2CollectiveCall& call = calls[r][k];
    if (call.op != calls[0][k].op)
      throw Otf2Unsupported(fmt::format("collective call {} of rank {} is {} but rank {}'s is {}",
                                        k + 1, comm.world[r], collective_op_name(call.op),
                                        comm.world[0], collective_op_name(calls[0][k].op)));
    if (!is_vector_collective(call.op)) continue;
    proto::Action& action =
        *trace.mutable_ranks(static_cast<int>(comm.world[r]))->mutable_actions(call.action);
    switch (call.op) {
      case OTF2_COLLECTIVE_OP_GATHERV:
        set_per_rank_blocks(*action.mutable_gatherv()->mutable_recv_bytes(), comm, k);
        break;
      case OTF2_COLLECTIVE_OP_SCATTERV:
        set_per_rank_blocks(*action.mutable_scatterv()->mutable_send_bytes(), comm, k);
        break;
      case OTF2_COLLECTIVE_OP_ALLGATHERV:
        set_per_rank_blocks(*action.mutable_allgatherv()->mutable_recv_bytes(), comm, k);
        break;
      default:
        set_per_rank_blocks(*action.mutable_reduce_scatter()->mutable_recv_bytes(), comm, k);
        break;
    }
  }
}

}  // namespace

std::string collective_op_name(OTF2_CollectiveOp op) {
  return op < kOpNames.size() ? kOpNames[op] : fmt::format("collective operation {}", op);
}

Otf2CollectiveCall add_collective(proto::Action& action, OTF2_CollectiveOp op, std::int32_t root,
                                  std::uint64_t sent, std::uint64_t received, std::uint32_t ranks) {
  Otf2CollectiveCall call{-1, op, 0, sent, received};
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      action.mutable_barrier();
      break;
    case OTF2_COLLECTIVE_OP_BCAST:
      action.mutable_bcast()->set_bytes(received);
      action.mutable_bcast()->set_root(root);
      break;
    case OTF2_COLLECTIVE_OP_REDUCE:
      action.mutable_reduce()->set_bytes(sent);
      action.mutable_reduce()->set_root(root);
      break;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
      action.mutable_allreduce()->set_bytes(sent / ranks);
      break;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
      action.mutable_alltoall()->set_send_bytes(sent / ranks);
      action.mutable_alltoall()->set_recv_bytes(received / ranks);
      break;
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
      set_spread(*action.mutable_alltoallv()->mutable_send_bytes(), sent, ranks);
      set_spread(*action.mutable_alltoallv()->mutable_recv_bytes(), received, ranks);
      break;
    case OTF2_COLLECTIVE_OP_GATHER:
      action.mutable_gather()->set_send_bytes(sent);
      action.mutable_gather()->set_recv_bytes(received / ranks);
      action.mutable_gather()->set_root(root);
      break;
    case OTF2_COLLECTIVE_OP_SCATTER:
      action.mutable_scatter()->set_send_bytes(sent / ranks);
      action.mutable_scatter()->set_recv_bytes(received);
      action.mutable_scatter()->set_root(root);
      break;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
      action.mutable_allgather()->set_send_bytes(sent / ranks);
      action.mutable_allgather()->set_recv_bytes(received / ranks);
      break;
    case OTF2_COLLECTIVE_OP_GATHERV:
      call.own_block = sent;
      action.mutable_gatherv()->set_send_bytes(sent);
      action.mutable_gatherv()->set_root(root);
      break;
    case OTF2_COLLECTIVE_OP_SCATTERV:
      call.own_block = received;
      action.mutable_scatterv()->set_recv_bytes(received);
      action.mutable_scatterv()->set_root(root);
      break;
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
      call.own_block = sent / ranks;
      action.mutable_allgatherv()->set_send_bytes(call.own_block);
      break;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
      call.own_block = received / ranks;
      action.mutable_reduce_scatter();
      break;
    default:
      throw Otf2Unsupported(
          fmt::format("{}: the program model has no such collective", collective_op_name(op)));
  }
  return call;
}

void set_collective_comm(proto::Action& action, std::uint32_t handle) {
  const auto* reflection = action.GetReflection();
  const auto* kind = action.GetDescriptor()->FindOneofByName("kind");
  const auto* field = reflection->GetOneofFieldDescriptor(action, kind);
  google::protobuf::Message* collective = reflection->MutableMessage(&action, field);
  const auto* comm = collective->GetDescriptor()->FindFieldByName("comm");
  collective->GetReflection()->SetUInt32(collective, comm, handle);
}

void fill_vector_collectives(proto::Trace& trace,
                             const std::vector<std::vector<Otf2CollectiveCall>>& calls,
                             const Otf2Definitions& definitions) {
  const auto ranks = static_cast<std::uint32_t>(calls.size());
  std::map<OTF2_CommRef, CommCalls> by_comm;
  for (const auto& rank_calls : calls)
    for (const Otf2CollectiveCall& call : rank_calls) by_comm.try_emplace(call.comm);
  for (auto& [ref, comm] : by_comm) {
    const Otf2CommInfo info = comm_info(definitions, ref, ranks);
    comm.world = info.members;
    for (const std::uint32_t member : comm.world) {
      auto& mine = comm.calls.emplace_back();
      for (const Otf2CollectiveCall& call : calls[member])
        if (call.comm == ref) mine.push_back(call);
    }
    for (std::size_t i = 1; i < comm.calls.size(); ++i)
      if (comm.calls[i].size() != comm.calls[0].size())
        throw Otf2Unsupported(
            fmt::format("rank {} makes {} collective calls on {} but rank {} makes {}",
                        comm.world[i], comm.calls[i].size(),
                        info.kind == CommKind::world ? "MPI_COMM_WORLD" : "'" + info.name + "'",
                        comm.world[0], comm.calls[0].size()));
    for (std::size_t k = 0; k < comm.calls[0].size(); ++k) fill_call(trace, comm, k);
  }
}

}  // namespace netwarp::mpiemul
