// OTF2 collective records (MpiCollectiveEnd: operation, root, bytes sent and received) as
// trace actions. The byte counts are read as Score-P records them (N = the communicator's
// size; see Score-P's scorep_mpi_coll byte calculation): bcast root sends N x, every rank
// receives the message; reduce: every rank sends the message; allreduce, allgather, alltoall
// send N x the block; gather(v) send the rank's block; scatter(v) receive the rank's block;
// allgatherv sends N x the rank's block; reduce_scatter receives N x the rank's block.
// In-place calls record less; they are read the same way.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <vector>

#include "netwarp/mpiemul/proto/trace.pb.h"

namespace netwarp::mpiemul {

struct Otf2Definitions;

// One collective call of a rank, in call order: the vector collectives' per-rank lists are
// assembled from these once every rank is read.
struct Otf2CollectiveCall {
  int action = -1;  // index in the rank's actions
  OTF2_CollectiveOp op = 0;
  OTF2_CommRef comm = 0;        // the OTF2 communicator it was made on
  std::uint64_t own_block = 0;  // the rank's block (gatherv, scatterv, allgatherv, ...)
  std::uint64_t sent = 0;       // as recorded
  std::uint64_t received = 0;
};

// Sets `action` to the collective on a communicator of `ranks` ranks (root: a rank of it); the
// returned call's action index and communicator are left to the caller.
// Throws Otf2Unsupported for operations the program model does not have.
Otf2CollectiveCall add_collective(proto::Action& action, OTF2_CollectiveOp op, std::int32_t root,
                                  std::uint64_t sent, std::uint64_t received, std::uint32_t ranks);

// Sets the communicator handle of a collective action (0: MPI_COMM_WORLD).
void set_collective_comm(proto::Action& action, std::uint32_t handle);

// Fills the per-rank lists of the vector collectives from the k-th call on a communicator of
// each of its members, in communicator rank order. calls[r] are world rank r's calls. Throws
// Otf2Unsupported when the members of a communicator made different calls.
void fill_vector_collectives(proto::Trace& trace,
                             const std::vector<std::vector<Otf2CollectiveCall>>& calls,
                             const Otf2Definitions& definitions);

// "MPI_Allgatherv" for OTF2_COLLECTIVE_OP_ALLGATHERV; "operation N" when unknown.
std::string collective_op_name(OTF2_CollectiveOp op);

}  // namespace netwarp::mpiemul
