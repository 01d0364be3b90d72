// `netwarp fit`: a model's parameters fitted from benchmarks run in the packet simulator on a
// scenario's platform (validation principles in DESIGN.md), as the JSON of params_json.hpp.
//   loggps    ping-pong RTT curves at w = 0 and w = W over sizes spanning s and S, and the
//             MPI_Send call times (LOGGPS.md §4.1-4.2, least squares);
//   hockney, loggp   the same w = 0 curve and send-call times; LogGP's g from a burst of
//             empty sends (Kielmann's g(0));
//   plogp     Kielmann's procedure (burst g(0), RTT(0), RTT(m, 0), o_s(m), o_r(m));
//   mpiete    the MPI_Recv time T_comm(size) from rank 0 to rank 1 (seed 004);
//   plogp-br  plogp, plus g(m, C_k) from concurrent ping-pongs for the phases of the scenario's
//             all-to-all, and q, T_RTO and flow control from the scenario.
// When the platform runs several ranks on a host, every fitted file also gets "intra_node"
// (params_json.hpp): a ping-pong between two ranks of one host over sizes up to and beyond the
// shared-memory eager limit (the MPI library's setting, mpi.host.shm_eager_bytes); eager send
// calls give o and the copy cost (o + k copy), the eager round trips 4o + 2L + 4k copy the
// latency, the single-copy ones 4o + 2L + 2 setup + 2k single_copy the rest (replay.hpp's
// IntraNodeParams), each line by least squares.
#pragma once

#include <nlohmann/json.hpp>

#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/model_names.hpp"

namespace netwarp::validation {

struct FitOptions {
  double w_ns = 0;  // LogGPS: the dummy loop W; 0: 4 x the largest w = 0 RTT measured
};

// Throws std::invalid_argument for models that are not fitted (flow, simgrid) or that cannot
// be fitted on this scenario (plogp-br without an all-to-all program).
nlohmann::ordered_json fit_model(ModelKind kind, const scenarios::LoadedScenario& loaded,
                                 const scenarios::MpiRunSpec& spec, const FitOptions& options = {});

}  // namespace netwarp::validation
