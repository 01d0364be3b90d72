// MPIETE (Horii, Iwabuchi, Yamana; seed 004, docs/models/trace-replay.md): a program's run time
// from its trace and one communication table T_comm(size), the time rank 1 needs to receive
// `size` bytes from rank 0 with MPI_RECV, timed from the MPI_RECV call, measured on two target
// nodes (here: on the scenario's platform in the packet simulator, with both calls made at the
// same instant). One table serves every rank pair; sizes between the measured ones are
// interpolated linearly (the paper does not say how).
//
// Replay rules (§2.5) as the trace predictor applies them (replay_models.hpp): computation keeps
// its time; starting a transfer and waiting for a send take 0; a receive ends at
// max(receive posted, matching send posted) + T_comm(size). The max with the send is our change
// to rule (6) (TRACE-REPLAY.md): the paper's rule ignores a late sender.
//
// Units: ns, sizes in bytes.
#pragma once

#include <cstdint>

#include "netwarp/validation/plogp.hpp"

namespace netwarp::validation {

struct MpieteParams {
  Table t_comm;  // ns by message size
};

inline double t_comm(const MpieteParams& p, std::uint64_t size) {
  return p.t_comm(size);
}

}  // namespace netwarp::validation
