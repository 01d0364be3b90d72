// Validator of transport.roce (RoCEv2 and DCQCN): timers and intervals > 0 and within the
// simulated time, DCQCN's gain in (0, 1], rates that a link can carry. RoCE carries packet
// workloads, or an MPI job (one stream per pair of hosts) on hosts that run nothing else.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "validate.hpp"

namespace netwarp::scenarios {
namespace {

constexpr std::uint64_t kMaxTimeUs = kMaxTimeNs / 1000;

void require_time_us(const std::string& field, std::uint64_t us) {
  require_at_least(field, us, 1);
  require_at_most(field, us, kMaxTimeUs);
}

void require_rate_mbps(const std::string& field, double mbps, bool may_be_zero) {
  const bool is_in_range =
      std::isfinite(mbps) && (may_be_zero ? mbps >= 0 : mbps > 0) && mbps <= 1e9;  // 1 Pbit/s
  if (!is_in_range)
    fail(field, fmt::format("must be {} 0 and at most 1e9 Mbit/s, got {}", may_be_zero ? ">=" : ">",
                            mbps));
}

void validate_dcqcn(const proto::Dcqcn& d, std::uint64_t link_rate_bps) {
  const std::string at = "transport.roce.dcqcn";
  if (!(d.g() > 0 && d.g() <= 1)) fail(at + ".g", fmt::format("must be in (0, 1], got {}", d.g()));
  require_time_us(at + ".alpha_timer_us", d.alpha_timer_us());
  require_time_us(at + ".rate_timer_us", d.rate_timer_us());
  require_time_us(at + ".cnp_interval_us", d.cnp_interval_us());
  require_at_least(at + ".byte_counter_bytes", d.byte_counter_bytes(), 1);
  require_rate_mbps(at + ".rai_mbps", d.rai_mbps(), true);
  require_rate_mbps(at + ".rhai_mbps", d.rhai_mbps(), true);
  require_rate_mbps(at + ".min_rate_mbps", d.min_rate_mbps(), false);
  if (d.min_rate_mbps() * 1e6 > static_cast<double>(link_rate_bps))
    fail(at + ".min_rate_mbps",
         fmt::format("must be at most the hosts' link rate ({} Mbit/s), got {}",
                     static_cast<double>(link_rate_bps) / 1e6, d.min_rate_mbps()));
}

}  // namespace

void validate_roce(const proto::Scenario& scenario) {
  const proto::Roce& roce = scenario.transport().roce();
  if (scenario.has_mpi() && has_workloads(scenario))
    fail("transport.kind",
         "ROCE carries packet workloads or an MPI job; both at once (one NIC shared by RoCE "
         "messages and MPI's RoCE streams) is not modelled");
  if (scenario.switch_().flow_control() == proto::Switch::CREDIT)
    fail("switch.flow_control",
         "CREDIT is InfiniBand's link-level flow control; ROCE runs on Ethernet (lossless with "
         "switch.pfc)");
  require_time_us("transport.roce.timeout_us", roce.timeout_us());
  require_at_least("transport.roce.ack_interval_packets", roce.ack_interval_packets(), 1);
  validate_dcqcn(roce.dcqcn(), static_cast<std::uint64_t>(scenario.links().rate_bps()));
}

}  // namespace netwarp::scenarios
