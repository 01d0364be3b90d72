// The congestion-control hooks dispatched on the configured algorithm (a switch: no virtual
// calls on the per-ACK path). NewReno's rules are the defaults the others fall back on.
#include "transport/congestion_control.hpp"

#include "transport/cubic.hpp"
#include "transport/dctcp.hpp"
#include "transport/dctcp_ns3.hpp"
#include "transport/new_reno.hpp"

namespace netwarp::netmodels::tcp_cc {

void on_open(TcpSenderState& s, const TcpConfig& config) {
  if (config.congestion_control != CongestionControl::dctcp) return;
  if (config.dctcp_reading == DctcpReading::ns3) return dctcp_ns3::on_open(s, config);
  dctcp::on_open(s, config);
}

void on_data_acked(TcpSenderState& s, const TcpConfig& config, const AckedData& ack) {
  if (config.congestion_control == CongestionControl::dctcp)
    dctcp::on_data_acked(s, config, ack.bytes, ack.ece);
}

void grow(TcpSenderState& s, const TcpConfig& config, const AckedData& ack) {
  switch (config.congestion_control) {
    case CongestionControl::cubic:
      return cubic::grow(s, config, ack.bytes, ack.now);
    case CongestionControl::new_reno:
    case CongestionControl::dctcp:
      return new_reno::grow(s, ack.bytes);
  }
}

void on_fast_retransmit(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight) {
  switch (config.congestion_control) {
    case CongestionControl::cubic:
      return cubic::on_fast_retransmit(s, config, flight);
    case CongestionControl::new_reno:
    case CongestionControl::dctcp:  // RFC 8257 3.4: loss as conventional TCP
      return new_reno::on_fast_retransmit(s, flight);
  }
}

void on_timeout(TcpSenderState& s, const TcpConfig& config, bool is_repeat, std::uint64_t flight) {
  switch (config.congestion_control) {
    case CongestionControl::cubic:
      return cubic::on_timeout(s, config, is_repeat, flight);
    case CongestionControl::new_reno:
    case CongestionControl::dctcp:
      return new_reno::on_timeout(s, is_repeat, flight);
  }
}

bool reacts_to_ecn(const TcpConfig& config) {
  return config.sends_ect();
}

void on_ecn_echo(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight) {
  switch (config.congestion_control) {
    case CongestionControl::cubic:
      return cubic::on_ecn_echo(s, config, flight);
    case CongestionControl::dctcp:
      return dctcp::on_ecn_echo(s);
    case CongestionControl::new_reno:
      return new_reno::on_ecn_echo(s, flight);
  }
}

void on_recovery_exit(TcpSenderState& s, const TcpConfig& config) {
  new_reno::on_recovery_exit(s, config);
}

}  // namespace netwarp::netmodels::tcp_cc
