// The workload's messages as ns-3 applications: one TCP connection per message, set up
// (SYN, SYN-ACK, ACK) at time 0 by a MessageSender on the source host, the message's bytes
// handed to TCP at its start time (start 0: TCP holds them until the handshake completes), and
// a MessageSink per receiving host that counts what each connection delivers. ns-3's BulkSend
// connects only when it starts, so it cannot separate connection set-up from data.
//
// FlowLedger holds every flow's record; the applications write into it from ns-3's callbacks
// and trace sources, and the run stops when every message is acknowledged and delivered.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"

namespace netwarp::ns3_check {

// One message's outcome, in netwarp's results.json terms.
struct FlowOutcome {
  std::int64_t start_ps = -1;      // when its bytes were handed to TCP
  std::int64_t delivered_ps = -1;  // when the receiver had every byte
  std::int64_t completed_ps = -1;  // when the sender saw the last byte acknowledged
  std::uint64_t segments_sent = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t fast_retransmits = 0;
  std::uint64_t retransmission_timeouts = 0;
};

class MessageSender;

class FlowLedger {
 public:
  FlowLedger(const netmodels::Workload& workload, netmodels::CongestionControl control);

  const netmodels::Message& message(netmodels::MessageId id) const {
    return workload_.messages[id];
  }
  FlowOutcome& outcome(netmodels::MessageId id) { return outcomes_[id]; }
  // The senders' congestion control (NEW_RENO or CUBIC; ns3_fields.cpp refuses the others).
  netmodels::CongestionControl congestion_control() const { return control_; }
  const std::vector<FlowOutcome>& outcomes() const { return outcomes_; }

  // A sender's local (address, port) once bound, so the sink can name the flow it accepts.
  void register_endpoint(ns3::Ipv4Address address, std::uint16_t port, netmodels::MessageId id);
  // -1 when unknown.
  std::int64_t flow_of(ns3::Ipv4Address address, std::uint16_t port) const;

  // Messages marked after_previous wait for their host's previous message: the sender of
  // message `id` is told when that one completes.
  void set_sender(netmodels::MessageId id, MessageSender* sender) { senders_[id] = sender; }
  MessageSender* next_of(netmodels::MessageId id) const;
  // Whether an after_previous message waits: false for a host's first message.
  bool waits_for_previous(netmodels::MessageId id) const {
    return workload_.messages[id].after_previous && has_previous_[id];
  }

  void mark_delivered(netmodels::MessageId id);
  void mark_completed(netmodels::MessageId id);

 private:
  void stop_when_done();

  const netmodels::Workload& workload_;
  netmodels::CongestionControl control_;
  std::vector<FlowOutcome> outcomes_;
  std::vector<MessageSender*> senders_;
  std::vector<netmodels::MessageId> next_of_;  // the host's next message; kNoMessage when none
  std::vector<bool> has_previous_;             // the host sent an earlier message
  std::map<std::pair<std::uint32_t, std::uint16_t>, netmodels::MessageId> endpoints_;
  std::size_t finished_ = 0;  // delivered + completed events seen
};

// Connects at its start (time 0) and hands the message's bytes to TCP at the message's start
// time, or, for after_previous, when the host's previous message completed if that is later.
class MessageSender : public ns3::Application {
 public:
  MessageSender(FlowLedger& ledger, netmodels::MessageId id, ns3::Ipv4Address peer,
                std::uint16_t peer_port);
  void release_after_previous();  // the previous message of this host completed

 private:
  void StartApplication() override;
  void StopApplication() override {}
  void hand_data_when_ready();
  void on_highest_ack(ns3::SequenceNumber32 before, ns3::SequenceNumber32 after);
  void on_segment_sent(ns3::Ptr<const ns3::Packet> packet, const ns3::TcpHeader& header,
                       ns3::Ptr<const ns3::TcpSocketBase> socket);

  FlowLedger& ledger_;
  netmodels::MessageId id_;
  ns3::Ipv4Address peer_;
  std::uint16_t peer_port_;
  ns3::Ptr<ns3::TcpSocketBase> socket_;
  bool start_time_reached_ = false;
  bool previous_done_ = false;
  bool handed_ = false;
  std::uint32_t highest_sent_end_ = 0;  // one past the highest data sequence number sent
};

// Accepts every connection on its port and counts each flow's bytes.
class MessageSink : public ns3::Application {
 public:
  MessageSink(FlowLedger& ledger, std::uint16_t port);

 private:
  void StartApplication() override;
  void StopApplication() override {}
  void on_accept(ns3::Ptr<ns3::Socket> socket, const ns3::Address& from);
  void on_receive(ns3::Ptr<ns3::Socket> socket);

  FlowLedger& ledger_;
  std::uint16_t port_;
  ns3::Ptr<ns3::Socket> listener_;
  std::map<ns3::Socket*, std::pair<std::int64_t, std::uint64_t>> received_;  // flow, bytes
};

}  // namespace netwarp::ns3_check
