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
#include <vector>

#include "netwarp/engine/sim_time.hpp"

namespace netwarp::mpiemul {

using engine::SimTime;
using RankId = std::uint32_t;

inline constexpr std::int32_t kAnySource = -1;
inline constexpr std::int32_t kAnyTag = -1;

// Communicators: user point-to-point traffic and the internal one of collectives, so a
// collective's messages never match a user's receive (as MPI's separate context ids).
inline constexpr std::uint16_t kCommWorld = 0;
inline constexpr std::uint16_t kCommCollective = 1;

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
};
inline constexpr int kCallKindCount = 22;
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
  std::int32_t peer = -1;  // point-to-point peer, collective root; -1: none
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

// Every rank's program; ranks.size() is the number of simulated MPI ranks.
struct Program {
  std::vector<RankProgram> ranks;
  RankId size() const { return static_cast<RankId>(ranks.size()); }
};

// Builds one rank's program call by call. The user-level calls (send, irecv, ...) are one call
// each. A collective is begin_call(...), any number of post_* operations, end_call().
class RankProgramBuilder {
 public:
  RankProgramBuilder(RankId rank, RankId size) : rank_(rank), size_(size) {}
  RankId rank() const { return rank_; }
  RankId size() const { return size_; }

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

  RankId rank_;
  RankId size_;
  RankProgram program_;
  bool in_call_ = false;
};

}  // namespace netwarp::mpiemul
