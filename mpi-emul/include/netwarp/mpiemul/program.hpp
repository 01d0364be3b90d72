// Programs the simulated MPI ranks execute. A rank's program is a list of calls (what the user
// wrote: send, bcast, compute, ...) and the primitive operations each call expands into
// (compute, send, recv, wait, test). Collectives expand into point-to-point operations when
// the program is built, so the simulator only ever executes primitives. Programs are built
// once and only read afterwards; every LP of every rank holds the same copy.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netwarp/engine/sim_time.hpp"

namespace netwarp::mpiemul {

using engine::SimTime;
using RankId = std::uint32_t;

inline constexpr std::int32_t kAnySource = -1;
inline constexpr std::int32_t kAnyTag = -1;

// Communicators. Communicator c (0: MPI_COMM_WORLD) has two matching contexts, as MPI's
// separate context ids: 2c for its point-to-point traffic and 2c + 1 for its collectives, so a
// collective's messages never match a user's receive and traffic of two communicators never
// mixes. Op::comm holds the context; its peers are always world ranks.
using CommId = std::uint16_t;
inline constexpr CommId kWorldComm = 0;
inline constexpr CommId kNoComm = 0xffff;  // MPI_COMM_NULL: the rank is not in the communicator
inline constexpr CommId kMaxComms = 0x7fff;
constexpr std::uint16_t point_to_point_context(CommId comm) {
  return static_cast<std::uint16_t>(comm * 2);
}
constexpr std::uint16_t collective_context(CommId comm) {
  return static_cast<std::uint16_t>(comm * 2 + 1);
}
constexpr CommId comm_of_context(std::uint16_t context) {
  return static_cast<CommId>(context / 2);
}
inline constexpr std::uint16_t kCommWorld = point_to_point_context(kWorldComm);
inline constexpr std::uint16_t kCommCollective = collective_context(kWorldComm);

// What the user called. Collectives and sendrecv are one call made of several operations.
enum class CallKind : std::uint8_t {
  compute,
  send,
  isend,
  recv,
  irecv,
  wait,
  waitall,
  test,
  sendrecv,
  barrier,
  bcast,
  reduce,
  allreduce,
  alltoall,
  alltoallv,
  gather,
  scatter,
  allgather,
  gatherv,
  scatterv,
  allgatherv,
  reduce_scatter,
  comm_split,  // communicator creation: no operations, the communicator is known at build
  comm_dup,
  comm_create,
  ibarrier,  // non-blocking collectives: completed by wait, waitall or test
  ibcast,
  iallreduce,
  ialltoall,
};
inline constexpr int kCallKindCount = 29;
std::string_view call_kind_name(CallKind kind);

enum class OpKind : std::uint8_t {
  compute,  // the CPU is busy for `bytes` picoseconds
  send,     // start a send of `bytes` to `peer` with `tag`; request `request`
  recv,     // post a receive from `peer` (or kAnySource) with `tag` (or kAnyTag)
  wait,     // block until requests wait_list[request .. request + count) are complete
  test,     // poll: make progress, never block
};

// One primitive operation. Blocking send/recv have a request too; `blocking` makes the rank
// wait for it before the next operation, with blocking-call costs (see rank/ for the model).
struct Op {
  OpKind kind = OpKind::compute;
  std::uint8_t blocking = 0;
  std::uint16_t comm = kCommWorld;
  std::int32_t peer = 0;
  std::int32_t tag = 0;
  std::uint32_t request = 0;  // send/recv: its request id; wait/test: first wait_list index
  std::uint32_t count = 0;    // wait/test: number of requests
  std::uint64_t bytes = 0;    // send/recv: message bytes; compute: duration in ps
};

// MPI matching: a receive posted for (recv_peer, recv_tag) on recv_comm takes a message sent by
// `src` with `tag` on `comm`; kAnySource and kAnyTag match any. (Among the matches, the first
// posted receive and the first sent message win: that order is the caller's.)
constexpr bool receive_matches(std::int32_t recv_peer, std::int32_t recv_tag,
                               std::uint16_t recv_comm, RankId src, std::int32_t tag,
                               std::uint16_t comm) {
  return recv_comm == comm && (recv_peer == kAnySource || static_cast<RankId>(recv_peer) == src) &&
         (recv_tag == kAnyTag || recv_tag == tag);
}
constexpr bool receive_matches(const Op& recv, RankId src, const Op& send) {
  return receive_matches(recv.peer, recv.tag, recv.comm, src, send.tag, send.comm);
}

// One call as the user wrote it, covering ops [first_op, first_op + op_count).
struct Call {
  CallKind kind = CallKind::compute;
  std::uint8_t reserved = 0;
  CommId comm = kWorldComm;  // the communicator the call was made on
  std::int32_t peer = -1;    // point-to-point peer, collective root (world ranks); -1: none
  std::int32_t tag = -1;
  std::uint64_t bytes = 0;  // the call's message size (per peer for collectives)
  std::uint32_t first_op = 0;
  std::uint32_t op_count = 0;
};

struct RankProgram {
  std::vector<Op> ops;
  std::vector<Call> calls;
  std::vector<std::uint32_t> wait_list;  // request ids that wait/test ops refer to
  std::uint32_t request_count = 0;
  // Where each call came from, for a program read from a trace: source_file's line of calls[i]
  // is call_lines[i] (0: unknown, e.g. the waitall closing requests the trace left open).
  // Empty for a built-in kernel.
  std::string source_file;
  std::vector<std::uint32_t> call_lines;
};

// A communicator's members: members[i] is the world rank of communicator rank i.
struct Communicator {
  std::vector<RankId> members;
  std::string origin;  // how it was made, for reports: "MPI_COMM_WORLD", "split of 0 (color 2)"
  RankId size() const { return static_cast<RankId>(members.size()); }
  // The communicator rank of world rank `world`; -1 when it is not a member.
  std::int32_t rank_of(RankId world) const;
  std::vector<std::pair<RankId, RankId>> by_world;  // (world rank, communicator rank), sorted
};

// The communicators of a program, made at build time by the collective creation calls. Every
// creation is a collective over its parent, so the builders of all ranks share one table.
class Communicators {
 public:
  explicit Communicators(RankId world_size);  // communicator 0: MPI_COMM_WORLD
  const Communicator& operator[](CommId id) const;
  CommId count() const { return static_cast<CommId>(comms_.size()); }

  // MPI_Comm_split: colors[i] and keys[i] are parent rank i's; a negative color is
  // MPI_UNDEFINED. Members are ordered by (key, parent rank). Returns each parent rank's new
  // communicator (kNoComm for an undefined color).
  std::vector<CommId> split(CommId parent, std::span<const std::int32_t> colors,
                            std::span<const std::int32_t> keys);
  CommId dup(CommId parent);
  // MPI_Comm_create: `group` lists parent ranks in the new communicator's rank order.
  CommId create(CommId parent, std::span<const RankId> group);
  std::vector<Communicator> take() { return std::move(comms_); }

 private:
  CommId add(std::vector<RankId> members, std::string origin);
  std::vector<Communicator> comms_;
};

// Every rank's program; ranks.size() is the number of simulated MPI ranks. communicators[c] is
// communicator c (empty: MPI_COMM_WORLD only).
struct Program {
  std::vector<RankProgram> ranks;
  std::vector<Communicator> communicators;
  RankId size() const { return static_cast<RankId>(ranks.size()); }
};

// Builds one rank's program call by call. The user-level calls (send, irecv, ...) are one call
// each. A collective is begin_call(...), any number of post_* operations, end_call().
class RankProgramBuilder {
 public:
  RankProgramBuilder(RankId rank, RankId size) : rank_(rank), size_(size) {}
  // The rank and size in the communicator in use (MPI_COMM_WORLD unless use_communicator).
  RankId rank() const { return comm_ == nullptr ? rank_ : comm_rank_; }
  RankId size() const { return comm_ == nullptr ? size_ : comm_->size(); }
  RankId world_rank() const { return rank_; }
  RankId world_size() const { return size_; }

  // The calls that follow are made on communicator `id` (which this rank must be a member
  // of; `comm` must outlive its use): peers and roots are its ranks, translated to world
  // ranks, and messages use its contexts. use_world() goes back to MPI_COMM_WORLD.
  void use_communicator(CommId id, const Communicator& comm);
  void use_world();
  CommId communicator() const { return comm_id_; }
  // A communicator creation call (no operations).
  void comm_call(CallKind kind, CommId parent);

  // Non-blocking collectives: begin_nonblocking(kind), then the collective's begin_call ...
  // end_call (an add_* function), then end_nonblocking() returns the call's handle, which
  // wait, waitall and test accept as a request. The call itself has no operations; its
  // schedule runs inside the first wait, waitall or test that names the handle. This is an MPI
  // library without asynchronous progress: a non-blocking collective advances only when the
  // rank waits for it (schedules of several rounds could not progress in the background).
  // Its messages use tags of their own (kNonblockingTag), so they never match a blocking
  // collective's.
  void begin_nonblocking(CallKind kind);
  std::uint32_t end_nonblocking();
  static constexpr std::uint32_t kNonblockingHandle = 0x80000000u;
  static constexpr std::int32_t kNonblockingTag = 1 << 20;

  void compute(SimTime duration);
  void send(RankId dst, std::int32_t tag, std::uint64_t bytes);
  std::uint32_t isend(RankId dst, std::int32_t tag, std::uint64_t bytes);
  void recv(std::int32_t src, std::int32_t tag, std::uint64_t bytes);  // src may be kAnySource
  std::uint32_t irecv(std::int32_t src, std::int32_t tag, std::uint64_t bytes);
  void wait(std::uint32_t request);
  void waitall(std::span<const std::uint32_t> requests);
  void test(std::uint32_t request);
  void sendrecv(RankId dst, std::int32_t send_tag, std::uint64_t send_bytes, std::int32_t src,
                std::int32_t recv_tag, std::uint64_t recv_bytes);

  // A multi-operation call (collectives). Operations posted inside use kCommCollective.
  void begin_call(CallKind kind, std::int32_t root, std::uint64_t bytes);
  std::uint32_t post_isend(RankId dst, std::int32_t tag, std::uint64_t bytes);
  std::uint32_t post_irecv(std::int32_t src, std::int32_t tag, std::uint64_t bytes);
  void post_send(RankId dst, std::int32_t tag, std::uint64_t bytes);
  void post_recv(std::int32_t src, std::int32_t tag, std::uint64_t bytes);
  void post_waitall(std::span<const std::uint32_t> requests);
  void post_compute(SimTime duration);
  void end_call();

  RankProgram take();
  // The operations added so far (a trace reader checks each action's).
  std::span<const Op> ops() const { return program_.ops; }
  std::size_t call_count() const { return program_.calls.size(); }

 private:
  std::uint32_t add_op(Op op);
  std::uint32_t add_message_op(OpKind kind, bool blocking, std::uint16_t comm, std::int32_t peer,
                               std::int32_t tag, std::uint64_t bytes);
  void add_wait(OpKind kind, std::span<const std::uint32_t> requests);
  void single_call(CallKind kind, std::int32_t peer, std::int32_t tag, std::uint64_t bytes);
  void close_single_call();
  std::int32_t to_world(std::int32_t peer) const;
  bool is_nonblocking_handle(std::uint32_t request) const;
  void run_nonblocking(std::uint32_t handle);
  void wait_requests(OpKind kind, std::span<const std::uint32_t> requests);

  struct Deferred {  // a non-blocking collective's schedule, waiting for its completion call
    std::vector<Op> ops;
    bool done = false;
  };

  RankId rank_;
  RankId size_;
  RankProgram program_;
  const Communicator* comm_ = nullptr;
  CommId comm_id_ = kWorldComm;
  RankId comm_rank_ = 0;
  bool in_call_ = false;
  CallKind nonblocking_kind_ = CallKind::compute;
  bool nonblocking_next_ = false;  // begin_nonblocking called, begin_call not yet
  bool capturing_ = false;         // operations go to deferred_.back()
  std::vector<Deferred> deferred_;
};

}  // namespace netwarp::mpiemul
