// MpiRank: one simulated MPI rank on its own CPU of a host (the host's MpiHostLp runs all of
// its ranks and shares the NIC and connections between them).
//
// The rank executes its program's operations one at a time on a single CPU. An activity
// (compute, the overhead of the current call, or a piece of protocol work) keeps the CPU busy
// until it ends; then the rank goes on. Incoming messages are matched by the NIC at arrival,
// in arrival order (posted-receive and unexpected queues, MPI's non-overtaking rule), but the
// protocol work they cause (copying eager data out, answering a rendezvous request, pushing
// data after clear-to-send) only runs while the rank is inside an MPI call: there is no
// progress thread, as in MPI libraries without asynchronous progress. After the program ends
// the rank keeps progressing (as MPI_Finalize would).
//
// Costs (HostCosts): every protocol message costs o to send and o to receive. Eager send:
// o + k*Oss; eager receive: o + k*Ors (+ a copy at memory bandwidth if it waited in the
// unexpected buffer). Rendezvous (RTS/CTS): sender o (REQ), then 2o + k*Osl once clear to
// send arrives; receiver 2o when it matches the REQ (receive it, send CTS), then o + k*Orl
// when the data is in. Posting a blocking receive is free; irecv, test and a wait that finds
// everything done cost o (LogGPS's floor). With a peer on the same host (HostLink's shared
// memory) eager is up to SharedMemoryConfig::eager_bytes and costs o + a copy on each side;
// above it the receiver does one copy and sends a FIN (mpi-emul/HOST_MODEL.md).
//
// Every call's time is split into overhead (CPU in MPI), send wait (waiting for a late
// receiver or for eager credit), receive wait (waiting for a message), synchronisation
// (rendezvous handshakes) and compute; the split is emitted as a CallRecord when it ends.
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/mpiemul/records.hpp"
#include "netwarp/netmodels/stream_transport.hpp"
#include "rank/host_link.hpp"
#include "rank/match_queues.hpp"
#include "rank/mpi_context.hpp"
#include "rank/mpi_events.hpp"

namespace netwarp::mpiemul {

class MpiRank {
 public:
  // `link` is the host's, shared by all of its ranks.
  MpiRank(RankId rank, netmodels::NodeId host, HostLink& link, const MpiContext& mpi);

  void init(engine::InitCtx& ctx);
  // A transfer to this rank, from the network or from a rank of the same host.
  void on_transfer(const netmodels::ReceivedTransfer& t, RankId src, engine::EventCtx& ctx);
  void on_wake(const RankWake& ev, engine::EventCtx& ctx);
  // Runs the rank unless its CPU is busy (after transfers were handed to it).
  void advance_if_idle(engine::EventCtx& ctx);
  void finish(engine::FinishCtx& ctx) const;
  void visit_state(engine::StateVisitor& v) const;

 private:
  enum class Activity : std::uint8_t { none, compute, own, work };
  // Why a blocked rank waits; decides where the blocked time goes.
  enum class Phase : std::uint8_t {
    idle,
    send_throttled,  // eager data waits for credit: send wait
    send_rts,        // rendezvous: waiting for clear to send (or the read to finish): sync
    recv_posted,     // no message yet: receive wait
    recv_rndv,       // rendezvous matched, data on its way: sync
    recv_copy,       // matched, protocol work queued
    complete,
  };
  enum class WorkKind : std::uint8_t {
    eager_copy,
    rts_reply,
    cts_push,
    rndv_data,
    fin,
    rndv_fragment,  // a pipelined fragment before the last is copied out
    single_copy,    // intra-node rendezvous: the receiver copies from the sender's buffer
  };

  struct Cpu {
    std::int64_t activity_cost_ps = 0;
    std::int64_t block_start_ps = 0;
    std::int64_t done_ps = -1;  // when the program's last call ended
    std::uint32_t op = 0;       // current op
    std::uint32_t call = 0;     // current call
    std::uint32_t wake_seq = 0;
    Activity activity = Activity::none;
    std::uint8_t op_started = 0;  // the op's own action is done; it waits for completion
    std::uint8_t blocked = 0;
    Phase block_phase = Phase::idle;
    // The current wait's requests before this index are complete (they never go back), so a
    // waitall over P requests is not rescanned from its start on every arrival.
    std::uint32_t wait_done = 0;
    std::uint32_t reserved = 0;
  };
  struct CallAccount {
    std::int64_t start_ps = 0;
    std::int64_t overhead_ps = 0;
    std::int64_t send_wait_ps = 0;
    std::int64_t recv_wait_ps = 0;
    std::int64_t sync_ps = 0;
    std::int64_t compute_ps = 0;
    Protocol protocol = Protocol::none;
    std::uint8_t started = 0;
    std::uint8_t reserved[6] = {};
  };
  struct Request {  // what completion and the send's own action need; the rest is records
    std::int64_t lateness_ps = 0;  // send (get): how late the receiver matched
    std::uint32_t target = 0;      // send (direct): the receiver's request written to
    Phase phase = Phase::idle;
    Protocol protocol = Protocol::none;  // send: chosen when it starts
    std::uint8_t reserved[2] = {};
  };
  struct WorkItem {
    std::int64_t cost_ps = 0;
    std::int64_t aux = 0;
    std::uint32_t request = 0;  // this rank's request the work is for
    RankId peer = 0;
    std::uint32_t peer_op = 0;
    WorkKind kind = WorkKind::eager_copy;
    std::uint8_t credit = 0;  // return eager credit to the peer when done
    std::uint8_t reserved[2] = {};
  };
  struct Unexpected {  // an envelope that arrived before its receive
    std::int64_t arrived_ps = 0;
    RankId src = 0;
    std::uint32_t send_op = 0;
    TransferKind kind = TransferKind::eager;
    std::uint8_t reserved[3] = {};
    std::int32_t tag = 0;
  };
  struct PeerOp {  // (rank, op) names a message across ranks
    RankId rank;
    std::uint32_t op;
    auto operator<=>(const PeerOp&) const = default;
  };
  struct PeerSeq {
    RankId rank;
    std::uint32_t reserved = 0;
    std::uint64_t seq;
    auto operator<=>(const PeerSeq&) const = default;
  };
  struct Held {  // an envelope held back for eager credit (or behind one that is)
    std::int64_t since_ps = 0;
    std::uint32_t send_op = 0;
    TransferKind kind = TransferKind::eager;
    std::uint8_t reserved[3] = {};
  };
  struct ReceiveRequest {  // sender-side matching: a receive posted at the peer
    std::uint32_t recv_op = 0;
    std::uint32_t request = 0;
  };

  const RankProgram& program() const { return mpi_.rank_program(rank_); }

  // CPU and program position (mpi_rank.cpp).
  void advance(engine::EventCtx& ctx);
  void start_activity(Activity a, SimTime cost, engine::EventCtx& ctx);
  void activity_done(engine::EventCtx& ctx);
  void block(engine::EventCtx& ctx);
  void unblock(engine::EventCtx& ctx);
  void begin_call_if_due(engine::EventCtx& ctx);
  void finish_op(engine::EventCtx& ctx);
  void end_call(engine::EventCtx& ctx);
  bool in_mpi() const;
  void note_protocol(Protocol p, engine::EventCtx& ctx);
  template <class F>
  void update_account(engine::EventCtx& ctx, F&& f) {
    CallAccount acc = account_.get();
    f(acc);
    ctx.set(account_, acc);
  }

  // Operations' own actions (rank_ops.cpp).
  void start_own_action(const Op& op, engine::EventCtx& ctx);
  void own_action_done(const Op& op, engine::EventCtx& ctx);
  bool op_complete(const Op& op) const;
  void note_wait_progress(const Op& op, engine::EventCtx& ctx);
  Phase waiting_phase(const Op& op) const;
  Protocol choose_protocol(const Op& op, bool direct) const;
  bool take_receive_request(const Op& op, engine::EventCtx& ctx);
  void post_receive(const Op& op, engine::EventCtx& ctx);

  // Arrivals and matching (arrivals.cpp).
  void on_envelope(RankId src, const netmodels::TransferTag& tag, engine::EventCtx& ctx);
  void match_envelope(RankId src, std::uint32_t send_op, TransferKind kind, std::uint32_t recv_op,
                      bool unexpected, std::int64_t arrived_ps, engine::EventCtx& ctx);
  void on_credit(RankId peer, std::uint64_t bytes, engine::EventCtx& ctx);
  void release_held(RankId peer, engine::EventCtx& ctx);

  // Sending envelopes and protocol work (work_items.cpp).
  void send_envelope(std::uint32_t send_op, TransferKind kind, engine::EventCtx& ctx);
  void inject(RankId peer, TransferKind kind, std::uint32_t word, std::uint64_t bytes,
              std::int64_t aux, engine::EventCtx& ctx);
  void queue_work(const WorkItem& w, engine::EventCtx& ctx);
  void work_done(const WorkItem& w, engine::EventCtx& ctx);
  void complete_request(std::uint32_t request, engine::EventCtx& ctx);
  void set_phase(std::uint32_t request, Phase phase, engine::EventCtx& ctx);
  void carve_lateness(std::int64_t lateness_ps, engine::EventCtx& ctx);
  Protocol protocol_of(TransferKind kind, std::uint64_t bytes) const;
  SimTime send_cost(std::uint64_t bytes, bool rendezvous) const;
  SimTime local_copy_cost(std::uint64_t bytes) const;
  SimTime local_single_copy_cost(std::uint64_t bytes) const;
  // A point-to-point op whose peer runs on this host (intra-node transport).
  bool is_local(const Op& op) const {
    return op.peer != kAnySource && mpi_.same_host(static_cast<RankId>(op.peer), rank_);
  }
  SimTime recv_cost(std::uint64_t bytes, bool rendezvous) const;

  const netmodels::NodeId host_;
  const MpiContext& mpi_;
  const RankId rank_;
  HostLink& link_;
  engine::Rev<Cpu> cpu_;
  engine::Rev<CallAccount> account_;
  engine::RevVector<Request> requests_;
  engine::RevFifo<WorkItem> work_;
  PostedReceives posted_;                       // indexed by (context, source, tag)
  UnexpectedEnvelopes<Unexpected> unexpected_;  // indexed by (context, source, tag)
  engine::RevMap<PeerOp, std::uint32_t>
      rendezvous_in_;  // matched (sender, send op) -> recv request
  engine::RevHashMap<RankId, std::uint64_t> credit_in_use_;   // eager bytes not yet credited back
  engine::RevMap<PeerSeq, Held> held_;                        // per peer, in send order
  engine::RevMap<PeerSeq, ReceiveRequest> receive_requests_;  // per peer, in arrival order
  engine::RevCounter next_seq_;
  engine::RevCounter unexpected_bytes_;
  engine::Rev<std::uint64_t> unexpected_peak_bytes_;
  engine::RevCounter unexpected_messages_;
  engine::RevCounter throttled_sends_;
  engine::RevCounter throttle_wait_ps_;
  engine::RevCounter direct_hits_;
  engine::RevCounter direct_misses_;
};

}  // namespace netwarp::mpiemul
