// RankModel: one simulated MPI rank's CPU and protocol engine, without SimGrid. It replays the
// rank's primitive operations with exactly the rules of the packet simulation's MPI host
// (mpi-emul/src/rank/mpi_host_lp.hpp), so that the network model is the only difference:
//   - one CPU: an activity (compute, a call's own overhead, a piece of protocol work) keeps it
//     busy; arrivals are matched at once (posted and unexpected queues, in order) but their
//     protocol work runs only while the rank is inside MPI (no progress thread);
//   - costs (HostCosts): eager send o + k*Oss, eager receive o + k*Ors (+ the unexpected-buffer
//     copy), rendezvous: sender o (REQ), 2o + k*Osl on clear to send; receiver 2o on the REQ,
//     o + k*Orl on the data; get mode and sender-side matching as in the packet simulation;
//     irecv, test and a wait that finds everything done cost o; a blocking receive post is free;
//   - a bounded unexpected buffer gives each sender eager credit, as there;
//   - ranks of one host talk through the shared-memory transport (SharedMemoryConfig): eager up
//     to shm.eager_bytes with a copy on each side, above it one copy by the receiver straight
//     from the sender's buffer, then a FIN.
// Time is not kept here: the driver asks next(), sleeps for the returned cost, calls
// activity_done(), and waits for a transfer when the rank is blocked.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "netwarp/mpiemul/mpi_config.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "transfer.hpp"

namespace netwarp::simgrid_check {

using mpiemul::SimTime;

struct RankStep {
  enum class Kind : std::uint8_t { busy, blocked, finished };
  Kind kind = Kind::blocked;
  SimTime cost;  // busy: how long the CPU is busy before activity_done()
};

class RankModel {
 public:
  RankModel(RankId rank, const mpiemul::Program& program, const mpiemul::MpiConfig& config,
            TransferSink& network);

  // Runs every zero-cost step; returns busy (call activity_done() after `cost`), blocked (wait
  // for a transfer) or finished (program done and no protocol work left).
  RankStep next();
  void activity_done();
  // A transfer from another rank arrived (in connection order).
  void on_transfer(const Transfer& t);

  bool program_done() const { return op_ >= program().ops.size(); }
  std::uint32_t current_op() const { return op_; }

 private:
  enum class Activity : std::uint8_t { none, compute, own, work };
  enum class Protocol : std::uint8_t { eager, rendezvous, direct };
  enum class WorkKind : std::uint8_t {
    eager_copy,
    rts_reply,
    cts_push,
    rndv_data,
    fin,
    single_copy
  };
  struct Request {
    bool complete = false;
    Protocol protocol = Protocol::eager;
    std::uint32_t target = 0;  // direct send: the receiver's request written to
  };
  struct WorkItem {
    SimTime cost;
    WorkKind kind = WorkKind::eager_copy;
    std::uint32_t request = 0;  // this rank's request the work is for
    RankId peer = 0;
    std::uint32_t peer_op = 0;
    bool credit = false;  // return eager credit to the peer when done
  };
  struct Envelope {  // arrived before its receive
    RankId src = 0;
    std::uint32_t send_op = 0;
    TransferKind kind = TransferKind::eager;
  };
  struct Held {  // waits for eager credit (or behind one that does)
    std::uint32_t send_op = 0;
    TransferKind kind = TransferKind::eager;
  };
  struct ReceiveRequest {  // sender-side matching: a receive posted at the peer
    std::uint32_t recv_op = 0;
    std::uint32_t request = 0;
  };

  const mpiemul::RankProgram& program() const { return program_.ranks[rank_]; }
  const mpiemul::Op& peer_op(RankId peer, std::uint32_t op) const {
    return program_.ranks[peer].ops[op];
  }
  bool in_mpi() const;
  void start_activity(Activity a, SimTime cost);
  void finish_op();

  // Operations' own actions (rank_ops.cpp).
  void start_own_action(const mpiemul::Op& op);
  void own_action_done(const mpiemul::Op& op);
  bool op_complete(const mpiemul::Op& op) const;
  Protocol choose_protocol(const mpiemul::Op& op, bool direct) const;
  bool take_receive_request(const mpiemul::Op& op);
  void post_receive(const mpiemul::Op& op);

  // Arrivals and matching (rank_arrivals.cpp).
  void on_envelope(const Transfer& t);
  void match_envelope(RankId src, std::uint32_t send_op, TransferKind kind, std::uint32_t recv_op,
                      bool unexpected);
  void on_credit(RankId peer, std::uint64_t bytes);
  void release_held(RankId peer);

  // Sending and protocol work (rank_work.cpp).
  void send_envelope(std::uint32_t send_op, TransferKind kind);
  void inject(RankId peer, TransferKind kind, std::uint32_t word, std::uint64_t bytes,
              std::int64_t aux = 0);
  void work_done(const WorkItem& w);
  SimTime send_cost(std::uint64_t bytes, bool rendezvous) const;
  SimTime recv_cost(std::uint64_t bytes, bool rendezvous) const;
  // The intra-node transport (mpi-emul's MpiRank::local_copy_cost, local_single_copy_cost).
  bool same_host(RankId a, RankId b) const;
  bool is_local(const mpiemul::Op& op) const;
  SimTime local_copy_cost(std::uint64_t bytes) const;
  SimTime local_single_copy_cost(std::uint64_t bytes) const;

  const RankId rank_;
  const mpiemul::Program& program_;
  const mpiemul::MpiConfig& config_;
  TransferSink& network_;
  std::vector<bool> op_in_compute_call_;
  std::uint64_t credit_share_ = 0;  // eager credit toward one receiver; 0: unlimited

  std::uint32_t op_ = 0;
  bool op_started_ = false;  // the op's own action is done; it waits for completion
  Activity activity_ = Activity::none;
  SimTime activity_cost_;
  std::vector<Request> requests_;
  std::deque<WorkItem> work_;
  std::deque<std::uint32_t> posted_;  // receive ops, in post order
  std::deque<Envelope> unexpected_;   // in arrival order
  std::map<std::pair<RankId, std::uint32_t>, std::uint32_t> rendezvous_in_;  // -> recv request
  std::vector<std::uint64_t> credit_in_use_;                                 // per receiver
  std::map<RankId, std::deque<Held>> held_;
  std::map<RankId, std::deque<ReceiveRequest>> receive_requests_;
};

}  // namespace netwarp::simgrid_check
