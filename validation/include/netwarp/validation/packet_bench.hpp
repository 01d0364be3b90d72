// Benchmarks run in the packet simulator, as a user runs them on hardware to fit a model: the
// programs are built here and run in-process (sequential kernel) on a scenario's platform
// (topology, links, transport, MPI host costs and protocol thresholds).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "netwarp/mpiemul/mpi_results.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/netmodels/network_results.hpp"
#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/validation/report.hpp"

namespace netwarp::validation {

struct PacketRun {
  mpiemul::MpiResults results;  // sorted
  mpiemul::MpiTotals totals;
  double wall_seconds = 0;
  std::uint64_t events = 0;
};

// Runs `program` on the platform of `platform` (its network, host costs and protocol; ranks on
// its first program.size() rank hosts). Throws std::runtime_error when the program deadlocks.
PacketRun run_on_platform(const scenarios::MpiRunSpec& platform,
                          std::shared_ptr<const mpiemul::Program> program, std::uint64_t seed = 1);

// A network workload (no MPI) run to its end: every message delivered, or std::runtime_error.
struct WorkloadRun {
  netmodels::NetworkTotals totals;
  std::vector<FlowSample> flows;  // by message id
  double wall_seconds = 0;
  std::uint64_t events = 0;
};
WorkloadRun run_workload(netmodels::NetworkSpec spec, std::uint64_t seed = 1);
// Per message of a finished run (sorted results): start, delivery, completion, recovery.
std::vector<FlowSample> flow_samples(const netmodels::NetworkSpec& spec,
                                     const netmodels::NetworkResults& results);

// One point of a measured curve: message size and time in ns.
using Sample = std::pair<std::uint64_t, double>;

// Blocking ping-pong between ranks 0 and 1 (seed 000 Fig. 3): rank 0 sends k bytes, runs a
// dummy loop of w, receives k bytes back. Per size: the smallest RTT over `rounds` rounds, and
// the duration of rank 0's MPI_Send call.
struct PingPongCurve {
  double w_ns = 0;
  std::vector<Sample> rtt;
  std::vector<Sample> send_call;
};
PingPongCurve measure_pingpong(const scenarios::MpiRunSpec& platform,
                               const std::vector<std::uint64_t>& sizes, double w_ns,
                               std::uint32_t rounds = 2);

// Kielmann's PlogP measurements (seed 002 ref. 3) between ranks 0 and 1:
//   burst_ns        n back-to-back 0-byte sends from rank 0, until rank 1 has received the last
//                   (measured as the time of n sends answered by one 0-byte reply, minus RTT(0));
//   rtt0_ns         RTT of a 0-byte message answered by a 0-byte one;
//   rtt_m0          per m: RTT of an m-byte message answered by a 0-byte one;
//   send_call       per m: rank 0's MPI_Send call duration;
//   recv_call       per m: rank 1's MPI_Recv call duration when the message is already there.
struct KielmannData {
  std::uint32_t burst_count = 0;
  double burst_ns = 0;
  double rtt0_ns = 0;
  std::vector<Sample> rtt_m0, send_call, recv_call;
};
KielmannData measure_kielmann(const scenarios::MpiRunSpec& platform,
                              const std::vector<std::uint64_t>& sizes,
                              std::uint32_t burst_count = 16);

// MPIETE's communication data (seed 004): per size, rank 1's MPI_Recv call time when rank 0
// calls MPI_Send at the same instant, each size in a run of its own so both calls start
// together.
std::vector<Sample> measure_receive_times(const scenarios::MpiRunSpec& platform,
                                          const std::vector<std::uint64_t>& sizes);

// Concurrent ping-pongs of m bytes between every pair of `pattern` at once (seed 002 eq. (3)):
// the largest per-pair RTT, in ns.
double measure_concurrent_pingpong(
    const scenarios::MpiRunSpec& platform, mpiemul::RankId ranks,
    const std::vector<std::pair<mpiemul::RankId, mpiemul::RankId>>& pattern, std::uint64_t bytes);

}  // namespace netwarp::validation
