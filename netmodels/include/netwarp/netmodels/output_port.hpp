// OutputPort: one sending side of a link. A FIFO of admitted packets served at the port rate,
// then the propagation delay to the peer. A packet costs one event per hop: on admission its
// departure is known (max(now, line free) + serialisation), so its arrival at the peer is
// scheduled at once, and the buffer's occupancy follows from the departure times kept here.
//
// The buffer holds admitted packets until their last bit has left (the one on the wire
// included). Drop-tail: a packet that does not fit in buffer_bytes / buffer_packets is dropped.
// Credit flow control: the port holds credit for the peer's input buffer, per virtual channel;
// a packet leaves only with credit for its size on the channel it will occupy there (its
// channel plus the link's vc_step), otherwise it waits here (back-pressure) until
// CreditReturned. Channels wait independently, so a blocked one never holds up another.
//
// With traffic classes (PortSettings::classes, switch ports only) the departure order depends on
// later arrivals, so admitted packets wait in their class queue (ClassQueues) and the line takes
// one packet at a time: each transmission schedules a PortReady at its last bit, when the
// scheduler picks the next (two events per hop instead of one).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/front_inline_deque.hpp"
#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/rev_fifo.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/netmodels/packet.hpp"
#include "netwarp/netmodels/port_intervals.hpp"
#include "netwarp/netmodels/records.hpp"

namespace netwarp::netmodels {

struct PortSettings {
  NodeId node = 0;
  PortIndex index = 0;
  Port link;                       // peer, its port, latency; link.rate_bps is the line rate
  std::uint64_t buffer_bytes = 0;  // drop-tail limits; 0: unlimited
  std::uint32_t buffer_packets = 0;
  std::uint64_t ecn_threshold_bytes = 0;
  SimTime jitter;  // uniform random gap before each packet goes on the wire, in [0, jitter]
  std::uint64_t credit_bytes = 0;       // credit per virtual channel toward the peer; 0: none
  bool count_frame_in_service = true;   // SwitchConfig
  bool arrival_first = false;           // SwitchConfig
  bool traced = false;                  // emit QueueSample records
  bool mirrored = false;                // emit a PacketTrace for every departure (pcap)
  std::int64_t sample_interval_ps = 0;  // emit PortSample records per interval; 0: none
  bool record_drops = false;            // emit a DropRecord per drop (OutputSpec::drops_by_class)
  // Traffic classes (SwitchConfig::classes); null: one FIFO. Not with credit_bytes.
  const std::vector<PortClassConfig>* classes = nullptr;
  PortScheduler scheduler = PortScheduler::strict_priority;
  std::uint64_t quantum_bytes = 0;  // DRR quantum of weight 1: the largest frame
  const RedConfig* red = nullptr;   // the switch's RED for classes without their own
  MarkAt mark_at = MarkAt::enqueue;
  const PfcConfig* pfc = nullptr;  // PFC of the lossless classes (switch ports)
  // SwitchConfig::mark_ns3_red: the threshold and buffer_bytes count the IP bytes (wire bytes
  // less frame_overhead_bytes) queued behind the frame on the wire and the next one.
  bool mark_ns3_red = false;
  std::uint32_t frame_overhead_bytes = 0;
};

class ClassQueues;
class PfcIngress;
class SharedPool;

// Told about every packet the port puts on the wire (the switch returns credit upstream).
class TransmitObserver {
 public:
  virtual void transmitted(const Packet& packet, SimTime done, engine::EventCtx& ctx) = 0;

 protected:
  ~TransmitObserver() = default;
};

class alignas(64) OutputPort {
 public:
  explicit OutputPort(const PortSettings& settings);
  OutputPort(OutputPort&&) noexcept;
  ~OutputPort();

  // A packet for this port at ctx.now(): sent, queued, or dropped (returns false).
  bool offer(Packet packet, engine::EventCtx& ctx, TransmitObserver* observer = nullptr);
  void on_credit(std::uint64_t bytes, std::uint8_t vc, engine::EventCtx& ctx,
                 TransmitObserver* observer = nullptr);
  // A packet for this port removed by fault injection (NetworkSpec::drops): counted as a drop.
  void count_injected_drop(const Packet& packet, engine::EventCtx& ctx);
  // With classes: the line finished a packet (PortReady); the scheduler sends the next.
  void on_ready(engine::EventCtx& ctx, TransmitObserver* observer = nullptr);
  bool has_classes() const { return classes_ != nullptr; }
  // The switch's shared buffer (SwitchConfig::shared_buffer), which outlives the port: its
  // dynamic thresholds admit into the port's classes instead of the private limits.
  void attach_pool(SharedPool* pool);

  // PFC (PortSettings::pfc), on a port with classes.
  // A PAUSE for `priority` arrived on this port's link: its class stops until `until` (now:
  // resumed); the frame on the wire finishes.
  void on_pause(std::uint8_t priority, SimTime until, engine::EventCtx& ctx,
                TransmitObserver* observer = nullptr);
  // Ingress accounting of a lossless packet that arrived on this port's link (is_lossless):
  // admit_ingress holds its bytes unless they overflow XOFF + headroom (counted; the packet is
  // to be dropped), release_ingress when it leaves the switch. Each sends PAUSE or resume
  // frames up the link (this port's line) as the thresholds say; `xoff_bytes` is XOFF now
  // (static, or the shared pool's dynamic one).
  bool admit_ingress(const Packet& packet, std::uint64_t xoff_bytes, engine::EventCtx& ctx);
  void release_ingress(const Packet& packet, std::uint64_t xoff_bytes, engine::EventCtx& ctx);
  // PfcRefresh: a PAUSE sent for `priority` is half over; sent again while above XON.
  void on_pause_refresh(std::uint8_t priority, std::uint64_t xoff_bytes, engine::EventCtx& ctx);
  bool is_lossless(const Packet& packet) const;

  // The link it sends on: peer, the peer's port, rate (the NIC's for a host), latency.
  const Port& link() const { return link_; }
  std::uint64_t buffered_bytes() const { return static_cast<std::uint64_t>(buffered_bytes_.get()); }
  SimTime free_at() const { return free_at_.get(); }
  // The bytes still in the buffer at `now`: buffered_bytes() less departures not yet expired.
  std::uint64_t queued_bytes(SimTime now) const;
  // How long a packet offered now would wait before going on the wire: the line's scheduled
  // work plus the packets waiting for credit (adaptive routing's queue estimate).
  SimTime backlog(SimTime now) const;
  PortRecord totals() const;
  // At the end of the run: queue samples for departures not yet reported, up to `end`.
  void finish(engine::FinishCtx& ctx) const;
  void visit_bytes(engine::StateVisitor& v) const;

 private:
  struct InFlight {  // scheduled, not fully sent
    std::int64_t start_ps;
    std::int64_t done_ps;
    std::uint64_t wire_bytes;
  };
  static constexpr std::size_t kInlineInFlight = 4;
  bool fits(std::uint32_t wire_bytes, SimTime now) const;
  std::uint64_t queue_disc_bytes(SimTime now) const;
  bool admit_ns3_red(Packet& packet, engine::EventCtx& ctx);
  std::uint64_t in_service_bytes(SimTime now) const;
  void expire(engine::EventCtx& ctx, bool include_now, PortInterval& interval);
  void admit(Packet& packet, engine::EventCtx& ctx);
  void account_admitted(const Packet& packet, engine::EventCtx& ctx);
  bool offer_to_class(Packet& packet, PortInterval& interval, engine::EventCtx& ctx,
                      TransmitObserver* observer);
  void serve_classes(engine::EventCtx& ctx, TransmitObserver* observer);
  void drop(const Packet& packet, PortInterval& interval, engine::EventCtx& ctx);
  void record_drop(const Packet& packet, engine::EventCtx& ctx) const;
  void transmit(const Packet& packet, std::uint8_t vc, engine::EventCtx& ctx,
                TransmitObserver* observer);
  void sample(engine::EventCtx& ctx, SimTime at, std::uint8_t event);
  void sample_class(engine::EventCtx& ctx, std::size_t c, std::uint8_t event);
  SimTime random_gap(engine::EventCtx& ctx) const;
  engine::TieFields start_fields(const engine::EventCtx& ctx) const;
  bool is_sampled() const { return policy_->sample_interval_ps > 0; }
  // The sampling interval's sums to update; unsampled, the empty ones interval_ always holds,
  // without loading its cache line (the port's last) on every packet.
  PortInterval current_interval() const { return is_sampled() ? interval_.get() : PortInterval{}; }
  PortLevel level() const;
  void advance_interval(PortInterval& interval, std::int64_t at_ps, engine::EventCtx& ctx) const;
  void store_interval(const PortInterval& interval, engine::EventCtx& ctx);
  void finish_intervals(engine::FinishCtx& ctx) const;
  std::uint64_t buffered_packets() const;
  // PFC: a PAUSE (quanta > 0) or resume frame for class c goes up the link at the next frame
  // boundary, ahead of queued packets; a PortReady comes at `at` (unless one is due then).
  void send_pause_frame(std::size_t c, std::uint32_t quanta, engine::EventCtx& ctx);
  void ready_at(SimTime at, engine::EventCtx& ctx);
  void wake_at_pause_end(engine::EventCtx& ctx);
  void arm_pause_refresh(std::size_t c, engine::EventCtx& ctx);

  // What a port's settings hold beyond its link and identity, the same for most ports: kept
  // once per distinct value (PortPolicy::intern), a pointer per port. At a million hosts the
  // ports' copies were 448 bytes per host.
  struct PortPolicy {
    std::uint64_t buffer_bytes = 0;
    std::uint64_t ecn_threshold_bytes = 0;
    std::uint64_t credit_bytes = 0;
    std::int64_t sample_interval_ps = 0;
    SimTime jitter;
    std::uint32_t buffer_packets = 0;
    bool count_frame_in_service = true;
    bool arrival_first = false;
    bool record_drops = false;
    bool mark_ns3_red = false;
    std::uint32_t frame_overhead_bytes = 0;
    bool operator==(const PortPolicy&) const = default;
    static const PortPolicy* intern(const PortSettings& settings);
  };

  // What every packet touches first, in the port's first two cache lines (the class is aligned
  // to them): at a fat tree of k = 32 each line of a port is a miss.
  const Port link_;
  const NodeId node_;
  const PortIndex index_;
  const bool traced_;
  const bool mirrored_;
  const PortPolicy* const policy_;
  engine::Rev<SimTime> free_at_;          // when the line finishes the last scheduled packet
  engine::RevCounter buffered_bytes_;     // in_flight_ + waiting_
  std::unique_ptr<ClassQueues> classes_;  // null: one FIFO (the default)
  engine::RevCounter packets_sent_;
  engine::RevCounter bytes_sent_;
  engine::Rev<std::uint64_t> max_bytes_;
  engine::Rev<std::uint64_t> max_packets_;
  engine::Rev<std::int64_t> first_sent_ps_{-1};
  // Scheduled packets, by departure: the first kInlineInFlight in the port's third and fourth
  // lines (in a ring behind a pointer, the front missed again after the port's lines had).
  alignas(
      64) engine::RevFifo<InFlight, engine::FrontInlineDeque<InFlight, kInlineInFlight>> in_flight_;
  // Then what credit flow control, ns-3's tie order, drops, sampling and PFC use.
  // The tie fields of the last frame's arrival (ns-3 schedules the next frame's from that
  // frame's completion, which has the same); kept under TieOrder::fifo_creator only.
  engine::Rev<engine::TieFields> last_sent_;
  std::array<engine::RevFifo<Packet>, kVirtualChannels> waiting_;  // per channel, for credit
  std::array<engine::RevCounter, kVirtualChannels> credits_;
  engine::RevCounter packets_dropped_;
  engine::RevCounter bytes_dropped_;
  engine::RevCounter ecn_marked_;
  engine::Rev<PortInterval> interval_;  // the current sampling interval's sums
  std::unique_ptr<PfcIngress> pfc_;     // null: no PFC (switch ports with PFC only)
  engine::Rev<SimTime> ready_at_;       // the latest PortReady scheduled
  engine::Rev<SimTime> pause_wake_at_;  // the PortReady pending for a pause's end
};

// The line of a port with classes is free: PortReady{port} at the last bit of each packet.
struct PortReady {
  std::uint32_t port = 0;
  std::uint32_t reserved = 0;
};

// A PFC PAUSE frame (IEEE 802.1Qbb) for `priority` reached `port` (the port whose sending it
// pauses) at its last bit: pause for `quanta` x 512 bit times of that port's line; 0 resumes.
struct PauseFrame {
  std::uint16_t port = 0;
  std::uint8_t priority = 0;
  std::uint8_t reserved = 0;
  std::uint32_t quanta = 0;
};

// When a PAUSE of `quanta` received at `now` ends for the port sending on `link`: 512 bit times
// of its line per quantum (0: now, a resume).
SimTime pause_end(const Port& link, std::uint32_t quanta, SimTime now);
// A PAUSE frame on the wire: the 64 B minimum Ethernet frame (MAC control) plus the preamble and
// inter-frame gap, 20 B.
inline constexpr std::uint32_t kPauseFrameWireBytes = 84;

// A port's PAUSE for `priority` is half over: refresh it while the ingress is above XON.
struct PfcRefresh {
  std::uint16_t port = 0;
  std::uint8_t priority = 0;
  std::uint8_t reserved[5] = {};
};

}  // namespace netwarp::netmodels
