// TCP settings of the ns-3 run (README.md, "TCP"). Attribute names are ns-3.37's.
#include "tcp_settings.hpp"

#include <fmt/format.h>

#include <limits>

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-dctcp.h"
#include "ns3/tcp-prr-recovery.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace netwarp::ns3_check {
namespace {

using netmodels::SimTime;

// "Unlimited" receive buffer: large enough for any window the run can reach, and below the
// 2^30 a window scale of 14 can advertise.
constexpr std::uint32_t kLargeReceiveBuffer = 1U << 30;
// Retry counts high enough never to abandon a connection (ns-3's defaults give up after 6).
constexpr std::uint32_t kRetriesForever = std::numeric_limits<std::uint32_t>::max();

ns3::TimeValue time_value(SimTime t) {
  return ns3::TimeValue(ns3::PicoSeconds(t.ps()));
}

std::string largest_message_problem(const netmodels::Workload& workload) {
  for (const auto& m : workload.messages)
    if (m.bytes > std::numeric_limits<std::uint32_t>::max())
      return fmt::format("message {} has {} bytes; ns-3's TCP send buffer holds at most 2^32-1",
                         m.id, m.bytes);
  return {};
}

// The recovery ns-3 runs: TcpPrrRecovery for PRR (bytes, SSRB or CRB), else TcpClassicRecovery
// (with Sack on, over the SACK scoreboard: ns-3's reading of RFC 6675).
void apply_recovery(const netmodels::TcpConfig& tcp) {
  using ns3::Config::SetDefault;
  const bool prr = tcp.recovery == netmodels::TcpRecovery::prr;
  SetDefault("ns3::TcpL4Protocol::RecoveryType",
             ns3::TypeIdValue(prr ? ns3::TcpPrrRecovery::GetTypeId()
                                  : ns3::TcpClassicRecovery::GetTypeId()));
  SetDefault(
      "ns3::TcpPrrRecovery::ReductionBound",
      ns3::EnumValue(tcp.prr_conservative ? ns3::TcpPrrRecovery::CRB : ns3::TcpPrrRecovery::SSRB));
  SetDefault("ns3::TcpSocketBase::Sack", ns3::BooleanValue(tcp.sack));
}

bool runs_cubic(const netmodels::TcpConfig& tcp) {
  return tcp.congestion_control == netmodels::CongestionControl::cubic;
}

bool runs_dctcp(const netmodels::TcpConfig& tcp) {
  return tcp.congestion_control == netmodels::CongestionControl::dctcp;
}

// TcpDctcp with the scenario's g and initial alpha (it turns ECN on in DCTCP mode itself;
// UseEcn makes the handshake negotiate it as the DCTCP example does).
void apply_dctcp(const netmodels::TcpConfig& tcp) {
  using ns3::Config::SetDefault;
  SetDefault("ns3::TcpL4Protocol::SocketType", ns3::TypeIdValue(ns3::TcpDctcp::GetTypeId()));
  SetDefault("ns3::TcpDctcp::DctcpShiftG", ns3::DoubleValue(tcp.dctcp_g));
  SetDefault("ns3::TcpDctcp::DctcpAlphaOnInit", ns3::DoubleValue(tcp.dctcp_initial_alpha));
}

// TcpNewReno, TcpDctcp, or TcpCubic with the scenario's C and beta, fast convergence (as RFC
// 9438 4.7 and netwarp) and without HyStart: netwarp's CUBIC starts with standard slow start
// (4.10).
void apply_congestion_control(const netmodels::TcpConfig& tcp) {
  using ns3::Config::SetDefault;
  if (runs_dctcp(tcp)) return apply_dctcp(tcp);
  if (!runs_cubic(tcp)) {
    SetDefault("ns3::TcpL4Protocol::SocketType", ns3::TypeIdValue(ns3::TcpNewReno::GetTypeId()));
    return;
  }
  SetDefault("ns3::TcpL4Protocol::SocketType", ns3::TypeIdValue(ns3::TcpCubic::GetTypeId()));
  SetDefault("ns3::TcpCubic::C", ns3::DoubleValue(tcp.cubic_c));
  SetDefault("ns3::TcpCubic::Beta", ns3::DoubleValue(tcp.cubic_beta));
  SetDefault("ns3::TcpCubic::FastConvergence", ns3::BooleanValue(true));
  SetDefault("ns3::TcpCubic::HyStart", ns3::BooleanValue(false));
}

}  // namespace

std::string unsupported_reason(const netmodels::NetworkSpec& spec) {
  if (spec.workload.messages.empty()) return "the workload has no messages";
  if (spec.switches.buffer_bytes != 0 && spec.switches.buffer_packets != 0)
    return "switch.buffer_bytes and switch.buffer_packets are both set; ns-3's DropTailQueue "
           "has one limit (bytes or packets)";
  if (!spec.drops.empty())
    return "fault injection (drops) has no ns-3 counterpart (remove the drops)";
  if (spec.switches.ecn_threshold_bytes != 0 && spec.switches.buffer_packets != 0)
    return "switch.ecn_threshold_bytes with switch.buffer_packets: ns-3's RedQueueDisc counts its "
           "thresholds in the unit of its limit (use buffer_bytes)";
  return largest_message_problem(spec.workload);
}

std::string tcp_variant(const netmodels::TcpConfig& tcp) {
  const std::string recovery =
      tcp.recovery == netmodels::TcpRecovery::prr
          ? fmt::format("TcpPrrRecovery ({})", tcp.prr_conservative ? "CRB" : "SSRB")
          : "TcpClassicRecovery";
  std::string control = "TcpNewReno";
  if (runs_cubic(tcp))
    control = fmt::format("TcpCubic (C {}, Beta {}, HyStart off)", tcp.cubic_c, tcp.cubic_beta);
  if (runs_dctcp(tcp))
    control = fmt::format("TcpDctcp (DctcpShiftG {}, DctcpAlphaOnInit {})", tcp.dctcp_g,
                          tcp.dctcp_initial_alpha);
  return fmt::format("{}, Sack {}, {}", control, tcp.sack ? "on" : "off", recovery);
}

std::uint32_t segment_size(const netmodels::NetworkSpec& spec) {
  const std::uint32_t mss = spec.transport.tcp.mss_bytes;
  return mss != 0 ? mss : spec.format.max_payload();
}

void apply_tcp_defaults(const netmodels::NetworkSpec& spec, const Ns3Choices& choices) {
  using ns3::Config::SetDefault;
  const netmodels::TcpConfig& tcp = spec.transport.tcp;
  apply_congestion_control(tcp);
  apply_recovery(tcp);
  // Off: the 40 B IPv4 + TCP header of netwarp's PacketFormat holds for every data segment.
  SetDefault("ns3::TcpSocketBase::Timestamp", ns3::BooleanValue(false));
  SetDefault("ns3::TcpSocketBase::WindowScaling", ns3::BooleanValue(true));
  SetDefault("ns3::TcpSocketBase::LimitedTransmit",
             ns3::BooleanValue(tcp.limited_transmit || choices.limited_transmit));
  SetDefault("ns3::TcpSocketBase::MinRto", time_value(tcp.min_rto));
  // netwarp's RTO uses a clock granularity G of 1 ps (tcp_rtt.hpp); ns-3's default is 1 ms.
  SetDefault("ns3::TcpSocketBase::ClockGranularity", ns3::TimeValue(ns3::PicoSeconds(1)));
  SetDefault("ns3::TcpSocketBase::ReTxThreshold", ns3::UintegerValue(tcp.dupack_threshold));
  SetDefault("ns3::TcpSocketBase::UseEcn",
             ns3::EnumValue(tcp.sends_ect() ? ns3::TcpSocketState::On : ns3::TcpSocketState::Off));
  SetDefault("ns3::TcpSocket::SegmentSize", ns3::UintegerValue(segment_size(spec)));
  SetDefault("ns3::TcpSocket::InitialCwnd", ns3::UintegerValue(tcp.initial_window_segments));
  SetDefault("ns3::TcpSocket::DelAckCount", ns3::UintegerValue(tcp.delayed_ack ? 2 : 1));
  SetDefault("ns3::TcpSocket::DelAckTimeout", time_value(tcp.delayed_ack_timeout));
  const std::uint64_t window = tcp.receive_window_bytes;
  SetDefault("ns3::TcpSocket::RcvBufSize",
             ns3::UintegerValue(window != 0 && window < kLargeReceiveBuffer ? window
                                                                            : kLargeReceiveBuffer));
  // The RTO before any RTT sample: the SYN's timer (ConnTimeout) and, for data sent before a
  // sample exists, the estimator's initial SRTT (RTO = SRTT + max(G, 4 * 0)).
  SetDefault("ns3::TcpSocket::ConnTimeout", time_value(tcp.initial_rto));
  SetDefault("ns3::RttEstimator::InitialEstimation", time_value(tcp.initial_rto));
  SetDefault("ns3::TcpSocket::ConnCount", ns3::UintegerValue(kRetriesForever));
  SetDefault("ns3::TcpSocket::DataRetries", ns3::UintegerValue(kRetriesForever));
}

}  // namespace netwarp::ns3_check
