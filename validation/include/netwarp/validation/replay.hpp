// Trace-driven prediction (seed 000 §4.3, seed 004 §2.5): replays an MPI program (a trace
// turned into an mpiemul::Program, or a built-in kernel) against a model of message costs and
// predicts its run time and where each rank's time goes.
//
// The replay is a small discrete-event simulation in predicted time, in nanoseconds (double):
// ranks execute their operations in order; messages match in MPI order (first posted receive
// that fits, non-overtaking per sender); waits use the predicted call times, not the traced
// ones (the digest's reading of §4.3).
//
// Message timing, for a message of k bytes sent at ts and received by a call at tr:
//   eager (k <= eager_limit): the sender pays send_overhead(k) (LogGPS T1); the data enters
//     the network then (no earlier than the sender's previous injection + gap) and arrives
//     after wire(k) (T2 / T2'); the receive ends at max(arrival, tr) + recv_overhead(k) (T3).
//   rendezvous: the request (REQ) costs o' and arrives after L; when the receive is posted the
//     receiver pays o' and answers (T5 = o' + L + o'); then the sender pays the data overhead
//     (T1'), the data travels (T2') and the receiver pays T3'. This is Table 4's (5) and (9).
//   Non-blocking calls cost o' (eqs (6), (10)); a wait ends at max(tw + o', the requests'
//   completion) (eq (11), sign corrected).
// With a ReplayNetwork (the flow model), wire times come from the network's bandwidth sharing
// instead of wire(k): the data is started as a flow and arrives when the flow completes plus
// the network's latency.
//
// Several ranks per host (ReplayLayout): a message between two ranks of one host takes the
// intra-node path (IntraNodeParams, the packet simulation's shared-memory transport) and never
// the network; the network messages of the ranks of one host share its NIC: a rank's next
// injection waits the model's gap after its own previous one, and any rank's waits the NIC's
// part of the gap (the per-byte part: LogGP's (k - 1)G, PlogP's g(m) - g(0)) after the host's
// previous one; LogGPS's bandwidth-sharing count is the larger of the network messages in
// flight to the receiver's host and from the sender's host (the receiver-side rule of §3
// applied to both ends of the shared NIC), leaving out those of the same sender and receiver
// (one pair's messages go in order on one stream, not side by side). It is taken when the
// data is sent (an eager message's post; a rendezvous message's answer, after the handshake)
// and again when it enters the network, with every message entering at that instant counted,
// and the larger count sets its costs: concurrent sends of one host's ranks share alike,
// whatever the algorithm.
// The NIC is also one queue: a control message (a rendezvous request or its answer) leaves a
// host only once the data its ranks put on the NIC before it has left (a model: its wire time
// less the latency, sharing included; a ReplayNetwork: the bytes at the NIC's rate, in order),
// as the packet simulation's NIC sends whole messages in order: a rank's answer waits behind
// another rank's data going out.
//
// Where the time goes (per rank, sums exactly to the rank's end time):
//   compute    compute operations;
//   overhead   CPU costs of MPI: send/recv overheads, o' of non-blocking calls, REQ handling;
//   recv_wait  a receiver waiting for its sender: eager data, or the REQ of a rendezvous;
//   send_wait  a rendezvous sender waiting for a receiver that posted late;
//   sync       the rest of a rendezvous: REQ latency, the answer, and for the receiver the
//              sender's data overhead and the data's travel (the packet simulation's MPI
//              ranks count the same way, so the two breakdowns compare).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::validation {

// What a model says about a network message of k bytes while `senders` messages share the
// NIC of its receiver's or its sender's host (contention; 1 when alone).
struct MessageCosts {
  double send_overhead = 0;  // sender CPU for the data (T1, T1')
  double recv_overhead = 0;  // receiver CPU for the data (T3, T3')
  double wire = 0;           // injection to arrival (T2, T2'), unless a ReplayNetwork times it
  double gap = 0;            // least time between two injections of one sender rank (0: none)
  // The part of the gap that is the NIC's (the bytes' serialisation): the least time before
  // the next injection of any rank of the sender's host. <= gap; 0: none.
  double nic = 0;
  // The receive's time after the data is there counts as receive wait, not overhead (a model
  // whose receive time is one measured figure, as MPIETE's T_comm).
  bool recv_time_is_wait = false;
};

class ReplayModel {
 public:
  virtual ~ReplayModel() = default;
  virtual std::string name() const = 0;
  // Largest message sent eagerly; larger ones use the rendezvous handshake.
  virtual std::uint64_t eager_limit() const { return std::numeric_limits<std::uint64_t>::max(); }
  virtual double control_overhead() const = 0;  // o': a non-blocking call, a REQ or its answer
  virtual double latency() const = 0;           // L: travel of a control message
  virtual MessageCosts costs(std::uint64_t bytes, std::uint32_t senders) const = 0;
};

// A network that shares bandwidth between transfers (the flow model). Transfers are started
// at the current time; the replay advances it to the next completion.
class ReplayNetwork {
 public:
  virtual ~ReplayNetwork() = default;
  // Starts `bytes` from the host of rank `src` to that of rank `dst` at time `now_ns`.
  virtual void start(std::uint64_t id, mpiemul::RankId src, mpiemul::RankId dst,
                     std::uint64_t bytes, double now_ns) = 0;
  // The earliest completion among the started transfers (infinity when none).
  virtual double next_completion_ns() = 0;
  // Advances to `now_ns` (<= next_completion_ns()) and returns the transfers finished then.
  virtual std::vector<std::uint64_t> advance(double now_ns) = 0;
  // Time from the end of a transfer to the data being at the receiver (route latency).
  virtual double arrival_delay_ns(mpiemul::RankId src, mpiemul::RankId dst) const = 0;
  // Time `bytes` of data take on the NIC of rank `src`'s host alone (its injection link).
  virtual double serialization_ns(mpiemul::RankId src, std::uint64_t bytes) const = 0;
};

// A message between two ranks of one host, as the packet simulation's shared-memory
// transport times it (mpiemul::SharedMemoryConfig; ns, ns/byte):
//   eager (k <= eager_bytes): the sender pays o + k copy, the envelope is visible `latency`
//     later, the receiver pays o + k copy once both are there;
//   single copy (k > eager_bytes): the sender pays o for the request (visible after `latency`);
//     once matched the receiver pays o + single_copy_setup + k single_copy and its receive
//     ends; the FIN reaches the sender `latency` later and it pays o.
struct IntraNodeParams {
  double latency = 0;
  double o = 0;
  double copy = 0;  // per byte, each side of the eager path
  std::uint64_t eager_bytes = 0;
  double single_copy_setup = 0;
  double single_copy = 0;  // per byte
};

// Where the ranks run. Default: every rank on a host of its own.
struct ReplayLayout {
  std::vector<std::uint32_t> rank_hosts;  // host index of each rank; empty: rank r on host r
  // Costs of pairs on one host; without them such pairs are timed as network pairs (still
  // sharing their host's NIC).
  std::optional<IntraNodeParams> intra;
};

struct TimeSplit {
  double compute = 0;
  double overhead = 0;
  double send_wait = 0;
  double recv_wait = 0;
  double sync = 0;
  double total() const { return compute + overhead + send_wait + recv_wait + sync; }
};

struct RankPrediction {
  double end_ns = 0;
  TimeSplit split;
};

// One call of the program as the model times it (the replay's own calls, in program order).
struct CallPrediction {
  mpiemul::RankId rank = 0;
  std::uint32_t call = 0;  // index in the rank's program (Program::ranks[rank].calls)
  double start_ns = 0;
  double end_ns = 0;
  TimeSplit split;  // sums to end_ns - start_ns
};

// When a message met its receive, as the packet run's MessageRecord::matched_ps counts it: an
// eager message when its data is in and the receive is posted, a rendezvous one when its
// request is in and the receive is posted.
struct MessagePrediction {
  mpiemul::RankId src = 0;
  mpiemul::RankId dst = 0;
  std::uint32_t send_op = 0;  // op index in the sender's program
  std::uint32_t recv_op = 0;  // op index in the receiver's program
  double matched_ns = 0;
};

struct Prediction {
  std::string model;
  double run_time_ns = 0;  // latest rank end
  std::vector<RankPrediction> ranks;
  std::uint64_t messages = 0;
  std::uint64_t rendezvous_messages = 0;
  // Every call of every rank, rank by rank in call order; empty for a model without a replay
  // (plogp-br's closed form).
  std::vector<CallPrediction> calls;
  // Every message, in the order they were sent; empty with `calls`.
  std::vector<MessagePrediction> matched;
};

// Throws std::runtime_error naming the stuck ranks when the program cannot finish (a receive
// no send matches, a rendezvous send nobody receives).
Prediction predict_program(const mpiemul::Program& program, const ReplayModel& model,
                           ReplayNetwork* network = nullptr, const ReplayLayout& layout = {});

}  // namespace netwarp::validation
