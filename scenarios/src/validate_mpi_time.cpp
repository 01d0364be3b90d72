// The time budget of an MPI scenario: each per-byte host cost times the largest message it can
// apply to (eager costs: mpi.protocol.eager_bytes; rendezvous costs: the kernel's largest
// message), then the kernel's whole sequence of messages and compute (sizes x repetitions,
// bytes x iterations). A connection carries any number of bytes (64-bit stream offsets).
// Traces and generated applications are checked as they are expanded
// (mpiemul::TraceProgramOptions).
#include <fmt/format.h>

#include <algorithm>

#include "validate.hpp"
#include "validate_time.hpp"

namespace netwarp::scenarios {

using netmodels::WorstCaseTime;

namespace {

// The largest message of a built-in kernel; 0 for traces and generated applications.
std::uint64_t largest_kernel_message(const proto::Mpi& mpi) {
  switch (mpi.program_case()) {
    case proto::Mpi::kPingpong:
      return *std::max_element(mpi.pingpong().sizes().begin(), mpi.pingpong().sizes().end());
    case proto::Mpi::kAlltoall:
      return mpi.alltoall().bytes();
    case proto::Mpi::kRing:
      return mpi.ring().bytes();
    case proto::Mpi::kCollective:
      return mpi.collective().bytes();
    default:
      return 0;
  }
}

void require_cost_within_budget(const std::string& field, double ns_per_byte, std::uint64_t bytes,
                                const std::string& bytes_source) {
  const WorstCaseTime cost = WorstCaseTime::per_byte(bytes, ns_per_byte);
  if (!cost.is_within_budget())
    fail(field, fmt::format("{} ns per byte x {} B ({}) take {}", ns_per_byte, bytes, bytes_source,
                            netmodels::over_budget(cost)));
}

// Intra-node messages (several ranks per host): two copies of an eager message (sender in,
// receiver out), one single copy of a larger one.
void validate_shared_memory_costs(const proto::Mpi& mpi) {
  const proto::MpiHost& h = mpi.host();
  require_cost_within_budget("mpi.host.shm_gbytes_per_s", 2 / h.shm_gbytes_per_s(),
                             h.shm_eager_bytes(), "mpi.host.shm_eager_bytes");
  const std::uint64_t largest = largest_kernel_message(mpi);
  if (largest > h.shm_eager_bytes())
    require_cost_within_budget("mpi.host.shm_single_copy_gbytes_per_s",
                               1 / h.shm_single_copy_gbytes_per_s(), largest,
                               "the largest message");
}

void validate_host_costs(const proto::Mpi& mpi) {
  const proto::MpiHost& h = mpi.host();
  if (mpi_ranks_per_host(mpi) > 1) validate_shared_memory_costs(mpi);
  const std::uint64_t eager = mpi.protocol().eager_bytes();
  const std::string eager_source = "mpi.protocol.eager_bytes";
  require_cost_within_budget("mpi.host.send_eager_ns_per_byte", h.send_eager_ns_per_byte(), eager,
                             eager_source);
  require_cost_within_budget("mpi.host.recv_eager_ns_per_byte", h.recv_eager_ns_per_byte(), eager,
                             eager_source);
  if (h.copy_gbytes_per_s() > 0)
    require_cost_within_budget("mpi.host.copy_gbytes_per_s", 1.0 / h.copy_gbytes_per_s(), eager,
                               eager_source);
  const std::uint64_t largest = largest_kernel_message(mpi);
  if (largest <= eager) return;
  require_cost_within_budget("mpi.host.send_rendezvous_ns_per_byte",
                             h.send_rendezvous_ns_per_byte(), largest, "the largest message");
  require_cost_within_budget("mpi.host.recv_rendezvous_ns_per_byte",
                             h.recv_rendezvous_ns_per_byte(), largest, "the largest message");
}

// One message between two ranks at worst: o on each side of each protocol message (a
// rendezvous has three), the per-byte costs of both sides, the network.
WorstCaseTime message_time(const proto::Mpi& mpi, const PathBound& path, std::uint64_t bytes) {
  const proto::MpiHost& h = mpi.host();
  const bool is_rendezvous = bytes > mpi.protocol().eager_bytes();
  const double copy = h.copy_gbytes_per_s() > 0 ? 1.0 / h.copy_gbytes_per_s() : 0;
  double per_byte = is_rendezvous
                        ? h.send_rendezvous_ns_per_byte() + h.recv_rendezvous_ns_per_byte()
                        : h.send_eager_ns_per_byte() + h.recv_eager_ns_per_byte() + copy;
  WorstCaseTime fixed = WorstCaseTime::from_ns(h.o_ns()).times(6);
  if (mpi_ranks_per_host(mpi) > 1) {  // an intra-node message may cost more than the network's
    const bool is_single_copy = bytes > h.shm_eager_bytes();
    per_byte = std::max(
        per_byte, is_single_copy ? 1 / h.shm_single_copy_gbytes_per_s() : 2 / h.shm_gbytes_per_s());
    fixed += WorstCaseTime::from_ns(2 * h.shm_latency_ns() + h.shm_single_copy_setup_ns());
  }
  return fixed + WorstCaseTime::per_byte(bytes, per_byte) +
         path.message(bytes + mpi.protocol().envelope_bytes());
}

// `count` rounds of `once`: past the budget, the field of the round's size when one round is
// already too long, else the count's field.
void require_rounds_within_budget(const std::string& once_field, WorstCaseTime once,
                                  const std::string& count_field, std::uint64_t count) {
  if (!once.is_within_budget())
    fail(once_field, fmt::format("one round takes {}", netmodels::over_budget(once)));
  const WorstCaseTime all = once.times(std::max<std::uint64_t>(count, 1));
  if (!all.is_within_budget())
    fail(count_field, fmt::format("{} rounds of {} each take {}", count, once.describe(),
                                  netmodels::over_budget(all)));
}

void validate_pingpong(const proto::Mpi& mpi, const PathBound& path) {
  const proto::PingPong& p = mpi.pingpong();
  WorstCaseTime round;
  int largest = 0;
  for (int i = 0; i < p.sizes_size(); ++i) {
    round += message_time(mpi, path, p.sizes(i)).times(2) + WorstCaseTime::from_ns(p.w_us() * 1000);
    if (p.sizes(i) > p.sizes(largest)) largest = i;
  }
  require_rounds_within_budget(fmt::format("mpi.pingpong.sizes[{}]", largest), round,
                               "mpi.pingpong.repetitions", p.repetitions());
}

// Kernels whose rounds send `messages` messages of `bytes` per rank, then compute.
void validate_kernel_rounds(const std::string& kernel, const proto::Mpi& mpi, const PathBound& path,
                            std::uint64_t messages, std::uint64_t bytes, double compute_us,
                            std::uint32_t iterations) {
  const WorstCaseTime round =
      message_time(mpi, path, bytes).times(messages) + WorstCaseTime::from_ns(compute_us * 1000);
  require_rounds_within_budget(kernel + ".bytes", round, kernel + ".iterations", iterations);
}

}  // namespace

void validate_program_time_budget(const proto::Scenario& scenario, const mpiemul::Program& program,
                                  const std::string& size_field) {
  const PathBound path(scenario);
  const proto::Mpi& mpi = scenario.mpi();
  WorstCaseTime compute, messages;
  std::uint64_t sends = 0, bytes = 0;
  for (const mpiemul::RankProgram& rank : program.ranks)
    for (const mpiemul::Op& op : rank.ops) {
      if (op.kind == mpiemul::OpKind::compute) compute += WorstCaseTime::from_ps(op.bytes);
      if (op.kind != mpiemul::OpKind::send) continue;
      messages += message_time(mpi, path, op.bytes);
      ++sends;
      bytes = op.bytes > UINT64_MAX - bytes ? UINT64_MAX : bytes + op.bytes;
    }
  const WorstCaseTime total = compute + messages;
  if (total.is_within_budget()) return;
  if (compute >= messages)
    fail("mpi.host.flops",
         fmt::format("{} flop/s: the program's compute, summed over its {} ranks, takes {}",
                     mpi.host().flops(), program.size(), netmodels::over_budget(total)));
  fail(size_field,
       fmt::format("the program's {} messages ({} B) one after another over the slowest link ({}) "
                   "and the host costs take {}",
                   sends, bytes, path.slowest_field(), netmodels::over_budget(total)));
}

void validate_mpi_time_budget(const proto::Scenario& scenario, const PathBound& path) {
  const proto::Mpi& mpi = scenario.mpi();
  validate_host_costs(mpi);
  const std::uint64_t ranks = mpi_rank_count(scenario);
  switch (mpi.program_case()) {
    case proto::Mpi::kPingpong:
      return validate_pingpong(mpi, path);
    case proto::Mpi::kAlltoall:
      return validate_kernel_rounds("mpi.alltoall", mpi, path, ranks - 1, mpi.alltoall().bytes(),
                                    mpi.alltoall().compute_us(), mpi.alltoall().iterations());
    case proto::Mpi::kRing:
      return validate_kernel_rounds("mpi.ring", mpi, path, ranks, mpi.ring().bytes(), 0,
                                    mpi.ring().iterations());
    case proto::Mpi::kCollective:
      return validate_kernel_rounds("mpi.collective", mpi, path, ranks, mpi.collective().bytes(),
                                    mpi.collective().compute_us(), mpi.collective().iterations());
    default:
      return;
  }
}

}  // namespace netwarp::scenarios
