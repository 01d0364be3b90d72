// SwitchLp: routing to output ports and returning credit upstream.
#include "switch/switch_lp.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace netwarp::netmodels {

SwitchLp::SwitchLp(NodeId self, const NetworkContext& net)
    : self_(self),
      net_(net),
      returns_credit_(net.spec().switches.flow_control == FlowControl::credit),
      traced_(net.is_pcap_traced(self)),
      per_packet_routing_(net.topology().router->per_packet()),
      multipath_(net.topology(), self) {
  const auto port_count = net.topology().nodes[self].ports.size();
  ports_.reserve(port_count);
  std::uint64_t queues = 0;
  PoolOutputs pool_outputs{self, false, net.spec().outputs.sample_interval_ps};
  for (std::size_t p = 0; p < port_count; ++p) {
    const PortSettings settings = net.port_settings(self, static_cast<PortIndex>(p));
    if (settings.classes != nullptr) queues += settings.classes->size();
    pool_outputs.traced = pool_outputs.traced || settings.traced;
    has_pfc_ = has_pfc_ || (settings.pfc != nullptr && settings.pfc->enabled);
    ports_.emplace_back(settings);
  }
  const SharedBufferConfig& shared = net.spec().switches.shared_buffer;
  if (shared.bytes == 0) return;
  pool_ = std::make_unique<SharedPool>(shared, queues, pool_outputs);
  for (OutputPort& port : ports_) port.attach_pool(pool_.get());
}

void SwitchLp::on(const PacketArrived& ev, engine::EventCtx& ctx) {
  if (traced_)
    ctx.emit(PacketTrace{ctx.now().ps(), self_, trace_direction::received, ev.packet, 0});
  if (multipath_.is_active()) {
    const std::uint64_t flow_key = net_.flow_route_key(ev.packet);
    const std::uint64_t packet_key = packet_route_key(ev.packet, flow_key);
    return forward(ev.packet, multipath_.choose(ev.packet.dst, flow_key, packet_key, ctx), ctx);
  }
  if (!per_packet_routing_)
    return forward(ev.packet, net_.topology().next_port(self_, ev.packet.dst), ctx);
  Packet packet = ev.packet;  // the router may mark it non-minimal
  const PortIndex out = choose_port(packet, ctx.now());
  forward(packet, out, ctx);
}

void SwitchLp::forward(const Packet& packet, PortIndex out, engine::EventCtx& ctx) {
  if (net_.is_injected_drop(self_, packet)) {
    ports_[out].count_injected_drop(packet, ctx);
    if (returns_credit_) transmitted(packet, ctx.now(), ctx);  // its buffer space is free
    return;
  }
  // A lossless packet is held against its ingress port's XOFF + headroom (PFC), not the
  // egress limits; beyond the headroom it is lost, and counted as the configuration's fault.
  if (has_pfc_ && ports_[out].is_lossless(packet) &&
      !ports_[packet.in_port].admit_ingress(packet, xoff_bytes(), ctx))
    return ports_[out].count_injected_drop(packet, ctx);
  ports_[out].offer(packet, ctx, this);
}

std::uint64_t SwitchLp::xoff_bytes() const {
  const PfcConfig& pfc = net_.spec().switches.pfc;
  if (pfc.xoff_bytes != 0 || !pool_) return pfc.xoff_bytes;
  return static_cast<std::uint64_t>(pool_->threshold_bytes());
}

void SwitchLp::on(const PauseFrame& ev, engine::EventCtx& ctx) {
  OutputPort& port = ports_[ev.port];
  port.on_pause(ev.priority, pause_end(port.link(), ev.quanta, ctx.now()), ctx, this);
}

void SwitchLp::on(const PfcRefresh& ev, engine::EventCtx& ctx) {
  ports_[ev.port].on_pause_refresh(ev.priority, xoff_bytes(), ctx);
}

namespace {

class OutputLoad final : public PortLoad {
 public:
  OutputLoad(const std::vector<OutputPort>& ports, SimTime now) : ports_(ports), now_(now) {}
  std::int64_t backlog_ps(PortIndex port) const override { return ports_[port].backlog(now_).ps(); }

 private:
  const std::vector<OutputPort>& ports_;
  SimTime now_;
};

}  // namespace

PortIndex SwitchLp::choose_port(Packet& packet, SimTime now) const {
  RouteQuery query;
  query.src_host = packet.src;
  query.dst_host = packet.dst;
  query.in_port = packet.in_port;
  query.flow_key = net_.flow_route_key(packet);
  query.packet_key = packet_route_key(packet, query.flow_key);
  query.nonminimal = (packet.flags & packet_flags::nonminimal) != 0;
  const RouteChoice choice = net_.topology().router->choose(self_, query, OutputLoad(ports_, now));
  if (choice.nonminimal) packet.flags |= packet_flags::nonminimal;
  return choice.port;
}

void SwitchLp::on(const CreditReturned& ev, engine::EventCtx& ctx) {
  ports_[ev.port].on_credit(ev.bytes, ev.vc, ctx, this);
}

void SwitchLp::on(const PortReady& ev, engine::EventCtx& ctx) {
  ports_[ev.port].on_ready(ctx, this);
}

// The packet's bytes leave this switch's input buffer at `done`; the credit travels back.
void SwitchLp::transmitted(const Packet& packet, SimTime done, engine::EventCtx& ctx) {
  // PFC: a lossless packet leaves the switch's buffer as it goes on the wire. (Without PFC
  // the ingress port is not touched: at a fat tree k = 16 that cache miss was 10 % of the run.)
  if (has_pfc_ && ports_[packet.in_port].is_lossless(packet))
    ports_[packet.in_port].release_ingress(packet, xoff_bytes(), ctx);
  if (!returns_credit_) return;
  // This switch's own port on the packet's input cable leads back upstream (its settings are
  // hot; the topology's ports are a cache miss away).
  const Port& in = ports_[packet.in_port].link();
  ctx.send(in.peer, std::max(done - ctx.now() + in.latency, engine::ps(1)),
           CreditReturned{packet.wire_bytes, in.peer_port, packet.vc, {}});
}

void SwitchLp::finish(engine::FinishCtx& ctx) {
  for (const OutputPort& port : ports_) {
    ctx.emit(port.totals());
    port.finish(ctx);
  }
  if (!pool_) return;
  pool_->finish(ctx);
  ctx.emit(SwitchBufferRecord{self_, 0, net_.spec().switches.shared_buffer.bytes,
                              pool_->shared_bytes(), pool_->max_used_bytes()});
}

void SwitchLp::visit_state(engine::StateVisitor& v) const {
  for (std::size_t p = 0; p < ports_.size(); ++p) v(fmt::format("port{}", p), ports_[p]);
  if (multipath_.is_active()) v("multipath", multipath_);
  if (pool_) v("shared_buffer", *pool_);
}

}  // namespace netwarp::netmodels
