// SwitchLp: an output-queued switch. A packet arriving on any port goes to the output port its
// route names (static destination routing, or per packet for multipath and adaptive routers); with
// credit flow control the switch returns the packet's credit to the upstream port once the packet
// has left through its output port. With a shared buffer, every port's class queues draw on the
// switch's pool (SharedPool).
#pragma once

#include <memory>
#include <vector>

#include "netwarp/engine/lp.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/netmodels/output_port.hpp"
#include "port/shared_pool.hpp"
#include "routing/multipath_selector.hpp"

namespace netwarp::netmodels {

class SwitchLp final : private TransmitObserver {
 public:
  using Handles =
      engine::EventSet<PacketArrived, CreditReturned, PortReady, PauseFrame, PfcRefresh>;
  SwitchLp(NodeId self, const NetworkContext& net);

  void init(engine::InitCtx&) {}
  void on(const PacketArrived& ev, engine::EventCtx& ctx);
  void on(const CreditReturned& ev, engine::EventCtx& ctx);
  void on(const PortReady& ev, engine::EventCtx& ctx);
  void on(const PauseFrame& ev, engine::EventCtx& ctx);
  void on(const PfcRefresh& ev, engine::EventCtx& ctx);
  void finish(engine::FinishCtx& ctx);
  void visit_state(engine::StateVisitor& v) const;

 private:
  void transmitted(const Packet& packet, SimTime done, engine::EventCtx& ctx) override;
  void forward(const Packet& packet, PortIndex out, engine::EventCtx& ctx);
  // PFC's XOFF threshold now: the static one, or alpha x the shared pool's free bytes.
  std::uint64_t xoff_bytes() const;
  // The port of a per-packet router; may mark `packet` as sent on a non-minimal path.
  PortIndex choose_port(Packet& packet, SimTime now) const;

  const NodeId self_;
  const NetworkContext& net_;
  const bool returns_credit_;
  const bool traced_;
  const bool per_packet_routing_;
  bool has_pfc_ = false;              // a port holds lossless classes to PFC's thresholds
  std::vector<OutputPort> ports_;     // sized at construction, never resized
  MultipathSelector multipath_;       // topology.multipath's choice among equal-cost next hops
  std::unique_ptr<SharedPool> pool_;  // SwitchConfig::shared_buffer; null: private buffers
};

}  // namespace netwarp::netmodels
