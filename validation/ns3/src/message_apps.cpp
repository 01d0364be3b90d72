// MessageSender, MessageSink and the FlowLedger they report to.
#include "message_apps.hpp"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-dctcp.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace netwarp::ns3_check {
namespace {

using netmodels::MessageId;

constexpr MessageId kNoMessage = ~MessageId{0};

std::int64_t now_ps() {
  return ns3::Simulator::Now().GetPicoSeconds();
}

// A congestion control (TcpNewReno, TcpCubic or TcpDctcp, with the attributes tcp_settings.cpp set
// as their defaults) that counts, per flow, the recovery episodes TcpSocketBase starts: it
// announces every fast retransmit (EnterRecovery) as CA_RECOVERY and every retransmission
// timeout (ReTxTimeout) as CA_LOSS, also when the state already was CA_LOSS.
template <class Base>
class Counting : public Base {
 public:
  explicit Counting(FlowOutcome* outcome) : outcome_(outcome) {}
  void CongestionStateSet(ns3::Ptr<ns3::TcpSocketState> tcb,
                          const ns3::TcpSocketState::TcpCongState_t state) override {
    if (state == ns3::TcpSocketState::CA_RECOVERY) ++outcome_->fast_retransmits;
    if (state == ns3::TcpSocketState::CA_LOSS) ++outcome_->retransmission_timeouts;
    Base::CongestionStateSet(tcb, state);
  }

 private:
  FlowOutcome* outcome_;
};

ns3::Ptr<ns3::TcpCongestionOps> counting_control(netmodels::CongestionControl control,
                                                 FlowOutcome* outcome) {
  if (control == netmodels::CongestionControl::cubic)
    return ns3::CreateObject<Counting<ns3::TcpCubic>>(outcome);
  if (control == netmodels::CongestionControl::dctcp)
    return ns3::CreateObject<Counting<ns3::TcpDctcp>>(outcome);
  return ns3::CreateObject<Counting<ns3::TcpNewReno>>(outcome);
}

}  // namespace

FlowLedger::FlowLedger(const netmodels::Workload& workload, netmodels::CongestionControl control)
    : workload_(workload),
      control_(control),
      outcomes_(workload.messages.size()),
      senders_(workload.messages.size(), nullptr),
      next_of_(workload.messages.size(), kNoMessage),
      has_previous_(workload.messages.size(), false) {
  std::map<netmodels::NodeId, MessageId> last_of_host;
  for (const auto& m : workload.messages) {
    const auto it = last_of_host.find(m.src);
    if (it != last_of_host.end()) {
      next_of_[it->second] = m.id;
      has_previous_[m.id] = true;
    }
    last_of_host[m.src] = m.id;
  }
}

void FlowLedger::register_endpoint(ns3::Ipv4Address address, std::uint16_t port, MessageId id) {
  endpoints_[{address.Get(), port}] = id;
}

std::int64_t FlowLedger::flow_of(ns3::Ipv4Address address, std::uint16_t port) const {
  const auto it = endpoints_.find({address.Get(), port});
  return it == endpoints_.end() ? -1 : std::int64_t{it->second};
}

MessageSender* FlowLedger::next_of(MessageId id) const {
  const MessageId next = next_of_[id];
  if (next == kNoMessage || !workload_.messages[next].after_previous) return nullptr;
  return senders_[next];
}

void FlowLedger::mark_delivered(MessageId id) {
  outcomes_[id].delivered_ps = now_ps();
  stop_when_done();
}

void FlowLedger::mark_completed(MessageId id) {
  outcomes_[id].completed_ps = now_ps();
  if (MessageSender* next = next_of(id)) next->release_after_previous();
  stop_when_done();
}

void FlowLedger::stop_when_done() {
  if (++finished_ == 2 * outcomes_.size()) ns3::Simulator::Stop();
}

MessageSender::MessageSender(FlowLedger& ledger, MessageId id, ns3::Ipv4Address peer,
                             std::uint16_t peer_port)
    : ledger_(ledger),
      id_(id),
      peer_(peer),
      peer_port_(peer_port),
      previous_done_(!ledger.waits_for_previous(id)) {}

void MessageSender::StartApplication() {
  const netmodels::Message& m = ledger_.message(id_);
  socket_ = ns3::DynamicCast<ns3::TcpSocketBase>(
      ns3::Socket::CreateSocket(GetNode(), ns3::TcpSocketFactory::GetTypeId()));
  socket_->SetAttribute("SndBufSize", ns3::UintegerValue(static_cast<std::uint32_t>(m.bytes)));
  socket_->SetCongestionControlAlgorithm(
      counting_control(ledger_.congestion_control(), &ledger_.outcome(id_)));
  socket_->TraceConnectWithoutContext("HighestRxAck",
                                      ns3::MakeCallback(&MessageSender::on_highest_ack, this));
  socket_->TraceConnectWithoutContext("Tx",
                                      ns3::MakeCallback(&MessageSender::on_segment_sent, this));
  socket_->Bind();
  ns3::Address local;
  socket_->GetSockName(local);
  const auto bound = ns3::InetSocketAddress::ConvertFrom(local);
  ledger_.register_endpoint(GetNode()->GetObject<ns3::Ipv4>()->GetAddress(1, 0).GetLocal(),
                            bound.GetPort(), id_);
  socket_->Connect(ns3::InetSocketAddress(peer_, peer_port_));
  const std::int64_t start = m.start.ps();
  if (start == now_ps()) {
    start_time_reached_ = true;
    hand_data_when_ready();
  } else {
    ns3::Simulator::Schedule(ns3::PicoSeconds(start - now_ps()), [this] {
      start_time_reached_ = true;
      hand_data_when_ready();
    });
  }
}

void MessageSender::release_after_previous() {
  previous_done_ = true;
  hand_data_when_ready();
}

// TcpSocketBase::Send queues the bytes in SYN_SENT and ESTABLISHED alike.
void MessageSender::hand_data_when_ready() {
  if (handed_ || !start_time_reached_ || !previous_done_) return;
  handed_ = true;
  const auto bytes = static_cast<std::uint32_t>(ledger_.message(id_).bytes);
  ledger_.outcome(id_).start_ps = now_ps();
  socket_->Send(ns3::Create<ns3::Packet>(bytes), 0);
}

// ns-3's initial sequence number is 0: data bytes are 1..bytes, fully acknowledged at bytes + 1.
void MessageSender::on_highest_ack(ns3::SequenceNumber32, ns3::SequenceNumber32 after) {
  FlowOutcome& o = ledger_.outcome(id_);
  if (o.completed_ps >= 0 || !handed_) return;
  if (std::uint64_t{after.GetValue()} >= ledger_.message(id_).bytes + 1)
    ledger_.mark_completed(id_);
}

void MessageSender::on_segment_sent(ns3::Ptr<const ns3::Packet> packet,
                                    const ns3::TcpHeader& header,
                                    ns3::Ptr<const ns3::TcpSocketBase>) {
  if (packet->GetSize() == 0) return;
  FlowOutcome& o = ledger_.outcome(id_);
  ++o.segments_sent;
  const std::uint32_t seq = header.GetSequenceNumber().GetValue();
  if (seq < highest_sent_end_) ++o.retransmitted_segments;
  highest_sent_end_ = std::max(highest_sent_end_, seq + packet->GetSize());
}

MessageSink::MessageSink(FlowLedger& ledger, std::uint16_t port) : ledger_(ledger), port_(port) {}

void MessageSink::StartApplication() {
  listener_ = ns3::Socket::CreateSocket(GetNode(), ns3::TcpSocketFactory::GetTypeId());
  listener_->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), port_));
  listener_->Listen();
  listener_->SetAcceptCallback(
      ns3::MakeNullCallback<bool, ns3::Ptr<ns3::Socket>, const ns3::Address&>(),
      ns3::MakeCallback(&MessageSink::on_accept, this));
}

void MessageSink::on_accept(ns3::Ptr<ns3::Socket> socket, const ns3::Address& from) {
  const auto address = ns3::InetSocketAddress::ConvertFrom(from);
  received_[ns3::PeekPointer(socket)] = {ledger_.flow_of(address.GetIpv4(), address.GetPort()), 0};
  socket->SetRecvCallback(ns3::MakeCallback(&MessageSink::on_receive, this));
}

void MessageSink::on_receive(ns3::Ptr<ns3::Socket> socket) {
  auto& [flow, bytes] = received_[ns3::PeekPointer(socket)];
  while (const ns3::Ptr<ns3::Packet> packet = socket->Recv()) {
    if (packet->GetSize() == 0) break;
    bytes += packet->GetSize();
  }
  if (flow < 0) return;
  const auto id = static_cast<MessageId>(flow);
  if (bytes >= ledger_.message(id).bytes && ledger_.outcome(id).delivered_ps < 0)
    ledger_.mark_delivered(id);
}

}  // namespace netwarp::ns3_check
