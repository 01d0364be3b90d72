// HostLink: how the ranks of one host reach other ranks. A transfer to a rank of the same
// host goes through the shared-memory transport: a LocalDelivery event on the host's own LP
// after SharedMemoryConfig::latency, never the NIC. Any other goes to the host's one
// StreamTransport (its NIC and one connection per peer host, shared by all of its ranks),
// with both ranks' slots in the tag (pack_slots).
//
// Pipelined rendezvous data (ProtocolConfig::fragment_bytes > 0) goes to the transport one
// fragment at a time: the messages of all ranks wait in one host-wide FIFO (one entry each,
// cut as they go), and the next fragment is handed over when the NIC has had time to put the
// previous one on the wire. Control
// messages (REQ, CTS, FIN, eager envelopes) go at once, so they wait behind at most one
// fragment instead of behind whole messages (Open MPI's pipeline protocol interleaves them at
// fragment granularity in the same way).
//
// Part of an LP: its state is reversible and visited by the owner.
#pragma once

#include <cstdint>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/netmodels/stream_transport.hpp"
#include "rank/mpi_context.hpp"
#include "rank/mpi_events.hpp"

namespace netwarp::mpiemul {

class HostLink {
 public:
  // shared_nic: the host's NIC when a workload's HostLp owns it (SharedHostLp); else its own.
  HostLink(netmodels::NodeId host, const netmodels::NetworkContext& net, const MpiContext& mpi,
           netmodels::OutputPort* shared_nic = nullptr);

  void send(RankId from, RankId to, netmodels::TransferTag tag, engine::EventCtx& ctx);
  // Rendezvous data of `bytes` from `from` to `to` (word: the send op), in fragments when
  // fragment_bytes is set; the receiver is handed `fragment` transfers and one `data` last.
  void send_data(RankId from, RankId to, std::uint32_t word, std::uint64_t bytes,
                 engine::EventCtx& ctx);
  void on_fragment_due(const FragmentDue& ev, engine::EventCtx& ctx);
  // Fragments handed to the network, for the run's summary.
  std::uint64_t fragments_sent() const { return static_cast<std::uint64_t>(fragments_sent_.get()); }

  netmodels::StreamTransport& transport() { return transport_; }
  const netmodels::StreamTransport& transport() const { return transport_; }
  void visit_state(engine::StateVisitor& v) const;

 private:
  struct Fragment {  // a message waiting to be cut into fragments
    std::uint64_t bytes = 0;
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    std::uint32_t word = 0;
    std::uint32_t reserved = 0;
  };
  struct Pacer {
    std::uint64_t due_seq = 0;  // the FragmentDue that is pending (0: none)
    std::uint64_t next_seq = 1;
  };

  void send_network(RankId from, RankId to, netmodels::TransferTag tag, engine::EventCtx& ctx);
  void send_next_fragment(engine::EventCtx& ctx);

  const netmodels::NodeId host_;
  const MpiContext& mpi_;
  const std::uint64_t nic_rate_bps_;
  netmodels::StreamTransport transport_;
  engine::RevFifo<Fragment> fragments_;
  engine::Rev<std::uint64_t> head_sent_;  // bytes of the front message already handed over
  engine::Rev<Pacer> pacer_;
  engine::RevCounter fragments_sent_;
};

}  // namespace netwarp::mpiemul
