// Validators of an MPI scenario: rank count and placement, host costs, protocol thresholds
// (a short message must fit one packet), collective algorithm names and the built-in kernels
// (the generated applications through their generators' own checks).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "mpi_names.hpp"
#include "netwarp/mpiemul/generators.hpp"
#include "netwarp/mpiemul/mpi_config.hpp"
#include "validate.hpp"

namespace netwarp::scenarios {

namespace {

constexpr double kMinNormal = std::numeric_limits<double>::min();
// 1e21 flop/s, a thousand times the fastest machine: a flop still takes a whole femtosecond.
constexpr double kMaxFlops = 1e21;

// Subnormal values are no one's intended setting and lose their precision in any product.
void require_non_negative(const std::string& field, double value) {
  if (!std::isfinite(value) || value < 0) fail(field, fmt::format("must be >= 0, got {}", value));
  if (std::fpclassify(value) == FP_SUBNORMAL)
    fail(field, fmt::format("must be 0 or at least {}, got {}", kMinNormal, value));
}

void require_time_us(const std::string& field, double us) {
  require_non_negative(field, us);
  if (us * 1000 > static_cast<double>(kMaxTimeNs))
    fail(field, fmt::format("must be <= {} us, got {}", kMaxTimeNs / 1000, us));
}

void require_in_range(const std::string& field, double value, double min, double max) {
  if (!std::isfinite(value) || value < min || value > max)
    fail(field, fmt::format("must be in [{}, {}], got {}", min, max, value));
}

// The intra-node transport: a bandwidth of at least 1e-3 GB/s keeps a byte's copy under a
// microsecond; the eager limit stays a plausible shared-buffer size.
void validate_shared_memory(const proto::MpiHost& h) {
  require_in_range("mpi.host.shm_latency_ns", h.shm_latency_ns(), 0, 1e6);
  require_in_range("mpi.host.shm_gbytes_per_s", h.shm_gbytes_per_s(), 1e-3, 1e6);
  require_at_most("mpi.host.shm_eager_bytes", h.shm_eager_bytes(), std::uint64_t{1} << 31);
  require_in_range("mpi.host.shm_single_copy_gbytes_per_s", h.shm_single_copy_gbytes_per_s(), 1e-3,
                   1e6);
  require_in_range("mpi.host.shm_single_copy_setup_ns", h.shm_single_copy_setup_ns(), 0, 1e9);
}

void validate_host(const proto::MpiHost& h) {
  require_non_negative("mpi.host.o_ns", h.o_ns());
  if (h.o_ns() > static_cast<double>(kMaxTimeNs)) fail("mpi.host.o_ns", "is too large");
  require_non_negative("mpi.host.send_eager_ns_per_byte", h.send_eager_ns_per_byte());
  require_non_negative("mpi.host.recv_eager_ns_per_byte", h.recv_eager_ns_per_byte());
  require_non_negative("mpi.host.send_rendezvous_ns_per_byte", h.send_rendezvous_ns_per_byte());
  require_non_negative("mpi.host.recv_rendezvous_ns_per_byte", h.recv_rendezvous_ns_per_byte());
  require_non_negative("mpi.host.copy_gbytes_per_s", h.copy_gbytes_per_s());
  if (!std::isfinite(h.flops()) || h.flops() < 1 || h.flops() > kMaxFlops)
    fail("mpi.host.flops", fmt::format("must be in [1, {}] flop/s, got {}", kMaxFlops, h.flops()));
  validate_shared_memory(h);
}

void validate_protocol(const proto::Scenario& scenario) {
  const proto::MpiProtocol& p = scenario.mpi().protocol();
  const proto::Links& links = scenario.links();
  require_at_least("mpi.protocol.envelope_bytes", p.envelope_bytes(), 1);
  require_at_most("mpi.protocol.unexpected_buffer_bytes", p.unexpected_buffer_bytes(),
                  kMaxBufferBytes);
  const std::uint64_t payload = std::uint64_t{links.mtu_bytes()} - links.header_bytes();
  if (p.short_bytes() + p.envelope_bytes() > payload)
    fail("mpi.protocol.short_bytes",
         fmt::format("a short message must fit one packet with its envelope: {} + {} B is more "
                     "than the {} B a packet carries (links.mtu_bytes - links.header_bytes)",
                     p.short_bytes(), p.envelope_bytes(), payload));
  if (p.eager_bytes() < p.short_bytes())
    fail("mpi.protocol.eager_bytes",
         fmt::format("must be >= short_bytes ({}), got {}", p.short_bytes(), p.eager_bytes()));
  require_at_most("mpi.protocol.eager_bytes", p.eager_bytes(), kMaxMpiMessageBytes / 2);
  if (p.fragment_bytes() != 0) {
    require_at_least("mpi.protocol.fragment_bytes", p.fragment_bytes(), 1024);
    require_at_most("mpi.protocol.fragment_bytes", p.fragment_bytes(), std::uint64_t{1} << 31);
  }
}

// With several ranks per host an explicit placement may name a host up to ranks_per_host
// times.
void validate_shared_explicit_placement(const proto::Scenario& scenario, std::uint64_t hosts) {
  const auto& list = scenario.placement().explicit_().hosts();
  const std::uint32_t per_host = mpi_ranks_per_host(scenario.mpi());
  std::map<std::uint32_t, std::uint32_t> placed;
  for (int i = 0; i < list.size(); ++i) {
    const std::string field = fmt::format("placement.explicit.hosts[{}]", i);
    if (list[i] >= hosts)
      fail(field, fmt::format("host {} does not exist ({} hosts)", list[i], hosts));
    if (++placed[list[i]] > per_host)
      fail(field, fmt::format("host {} is listed more than mpi.ranks_per_host ({}) times", list[i],
                              per_host));
  }
}

void validate_algorithm(const std::string& field, const std::string& name, RankCount ranks,
                        CollectiveFamily family) {
  try {
    check_algorithm_name(family, name, ranks);
  } catch (const std::invalid_argument& e) {
    fail(field, e.what());
  }
}

void validate_collectives(const proto::MpiCollectives& c, RankCount ranks) {
  validate_algorithm("mpi.collectives.bcast", c.bcast(), ranks, CollectiveFamily::bcast);
  validate_algorithm("mpi.collectives.reduce", c.reduce(), ranks, CollectiveFamily::reduce);
  validate_algorithm("mpi.collectives.allreduce", c.allreduce(), ranks,
                     CollectiveFamily::allreduce);
  validate_algorithm("mpi.collectives.alltoall", c.alltoall(), ranks, CollectiveFamily::alltoall);
  validate_algorithm("mpi.collectives.barrier", c.barrier(), ranks, CollectiveFamily::barrier);
  validate_algorithm("mpi.collectives.gather", c.gather(), ranks, CollectiveFamily::gather);
  validate_algorithm("mpi.collectives.allgather", c.allgather(), ranks,
                     CollectiveFamily::allgather);
}

// A generator's parameter error at its scenario field: "ranks" is mpi.ranks (or mpi when the
// rank count comes from the hosts), "class" the kernel's size_class.
template <class Check>
void validate_generator(const proto::Scenario& scenario, const std::string& kernel, Check check) {
  try {
    check();
  } catch (const mpiemul::GeneratorError& e) {
    if (e.parameter() == "ranks")
      fail(scenario.mpi().ranks() != 0 ? "mpi.ranks" : "mpi",
           fmt::format("{} ({})", e.message(), e.app()));
    fail(kernel + "." + (e.parameter() == "class" ? "size_class" : e.parameter()), e.message());
  }
}

void validate_gauss(const proto::Scenario& scenario, RankCount ranks) {
  const proto::GaussKernel& g = scenario.mpi().gauss();
  validate_generator(scenario, "mpi.gauss", [&] {
    const mpiemul::GaussParams params{g.n(), g.fragment_bytes(),
                                      mpiemul::gauss_forward(g.forward())};
    mpiemul::check_gauss(params, ranks);
  });
}

void validate_npb(const proto::Scenario& scenario, RankCount ranks) {
  const proto::NpbKernel& k = scenario.mpi().npb();
  if (k.app() != "cg" && k.app() != "lu")
    fail("mpi.npb.app", fmt::format("must be cg or lu, got '{}'", k.app()));
  validate_generator(scenario, "mpi.npb", [&] {
    const mpiemul::NpbParams params{mpiemul::npb_class(k.app(), k.size_class()), k.iterations()};
    if (k.app() == "cg") mpiemul::check_npb_cg(params, ranks);
    if (k.app() == "lu") mpiemul::check_npb_lu(params, ranks);
  });
}

void validate_program(const proto::Scenario& scenario, RankCount ranks) {
  const proto::Mpi& mpi = scenario.mpi();
  switch (mpi.program_case()) {
    case proto::Mpi::kPingpong:
      if (mpi.pingpong().sizes_size() == 0)
        fail("mpi.pingpong.sizes", "must list at least one message size");
      for (int i = 0; i < mpi.pingpong().sizes_size(); ++i)
        require_at_most(fmt::format("mpi.pingpong.sizes[{}]", i), mpi.pingpong().sizes(i),
                        kMaxMpiMessageBytes);
      return require_time_us("mpi.pingpong.w_us", mpi.pingpong().w_us());
    case proto::Mpi::kAlltoall:
      validate_algorithm("mpi.alltoall.algorithm", mpi.alltoall().algorithm(), ranks,
                         CollectiveFamily::alltoall);
      require_at_least("mpi.alltoall.bytes", mpi.alltoall().bytes(), 1);
      require_at_most("mpi.alltoall.bytes", mpi.alltoall().bytes(), kMaxMpiMessageBytes / 4);
      return require_time_us("mpi.alltoall.compute_us", mpi.alltoall().compute_us());
    case proto::Mpi::kRing:
      require_at_least("mpi.ring.bytes", mpi.ring().bytes(), 1);
      return require_at_most("mpi.ring.bytes", mpi.ring().bytes(), kMaxMpiMessageBytes / 4);
    case proto::Mpi::kCollective:
      if (!is_collective_kernel_kind(mpi.collective().kind()))
        fail("mpi.collective.kind",
             fmt::format("unknown collective '{}' (bcast, reduce, allreduce, barrier, "
                         "allgather, gather, scatter)",
                         mpi.collective().kind()));
      if (mpi.collective().root() >= ranks)
        fail("mpi.collective.root",
             fmt::format("rank {} does not exist ({} ranks)", mpi.collective().root(), ranks));
      require_at_most("mpi.collective.bytes", mpi.collective().bytes(), kMaxMpiMessageBytes / 4);
      return require_time_us("mpi.collective.compute_us", mpi.collective().compute_us());
    case proto::Mpi::kGauss:
      return validate_gauss(scenario, ranks);
    case proto::Mpi::kNpb:
      return validate_npb(scenario, ranks);
    case proto::Mpi::kTrace:
      if (mpi.trace().path().empty()) fail("mpi.trace.path", "must name a trace file or folder");
      return;
    case proto::Mpi::PROGRAM_NOT_SET:
      return;  // --trace may give it; the builder reports a missing program
  }
}

}  // namespace

std::uint32_t mpi_ranks_per_host(const proto::Mpi& mpi) {
  return std::max<std::uint32_t>(mpi.ranks_per_host(), 1);
}

std::uint64_t mpi_rank_count(const proto::Scenario& scenario) {
  if (scenario.mpi().ranks() != 0) return scenario.mpi().ranks();
  if (scenario.mpi().has_hosts())
    return host_set_count(scenario.mpi().hosts()) * mpi_ranks_per_host(scenario.mpi());
  if (scenario.placement().has_explicit_())
    return static_cast<std::uint64_t>(scenario.placement().explicit_().hosts_size());
  return topology_host_count(scenario.topology()) * mpi_ranks_per_host(scenario.mpi());
}

void validate_mpi(const proto::Scenario& scenario) {
  const std::uint64_t hosts = topology_host_count(scenario.topology());
  const proto::Mpi& mpi = scenario.mpi();
  require_at_most("mpi.ranks_per_host", mpi.ranks_per_host(), mpiemul::kMaxRanksPerHost);
  require_at_most("mpi.priority", mpi.priority(), 7);
  const std::uint32_t per_host = mpi_ranks_per_host(mpi);
  if (!mpi.name().empty()) validate_class_characters(mpi.name(), "mpi.name");
  if (mpi.has_hosts()) {
    validate_host_set(mpi.hosts(), "mpi.hosts", hosts);
    if (scenario.placement().has_explicit_())
      fail("mpi.hosts", "give the job's hosts here or in placement.explicit, not both");
  }
  const std::uint64_t usable = mpi.has_hosts() ? host_set_count(mpi.hosts()) : hosts;
  if (mpi.ranks() > usable * per_host)
    fail("mpi.ranks",
         fmt::format("{} ranks do not fit on {} hosts ({} rank(s) per host, "
                     "mpi.ranks_per_host{})",
                     mpi.ranks(), usable, per_host, mpi.has_hosts() ? ", mpi.hosts" : ""));
  if (scenario.placement().has_explicit_() && !mpi.has_hosts()) {
    const auto listed = static_cast<std::uint64_t>(scenario.placement().explicit_().hosts_size());
    if (mpi.ranks() != 0 && listed != mpi.ranks())
      fail("placement.explicit.hosts",
           fmt::format("must list one host per rank (mpi.ranks: {}), got {}", mpi.ranks(), listed));
    if (per_host == 1) {
      validate_explicit_placement(scenario, hosts);
    } else {
      validate_shared_explicit_placement(scenario, hosts);
    }
  }
  const std::uint64_t ranks = mpi_rank_count(scenario);
  if (ranks < 2)
    fail(mpi.ranks() != 0 ? "mpi.ranks" : "mpi",
         fmt::format("needs at least 2 ranks, got {}", ranks));
  validate_host(mpi.host());
  validate_protocol(scenario);
  validate_collectives(mpi.collectives(), static_cast<RankCount>(ranks));
  validate_program(scenario, static_cast<RankCount>(ranks));
}

}  // namespace netwarp::scenarios
