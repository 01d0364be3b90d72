// Where the time of a LogGPS call goes, for the trace predictor: each blocking routine of
// Table 4 as an ordered list of segments, each in one of four parts (the breakdown of the
// paper's §2 and of the simulator's per-call records):
//   overhead   CPU work of the calling process: o' and the per-byte O terms;
//   send_wait  a rendezvous sender waiting for a late receiver: T4 - (2o' + L) when positive;
//   recv_wait  a receiver waiting for the message: the max{} term of (7)-(9) (for (9) the
//              wait for the REQ);
//   sync       the rendezvous handshake and, for the receiver, the data in flight after it.
// Segments, per call (d = tr - ts):
//   send k <= S   overhead T1
//   send k > S    overhead o' (REQ out), sync L, send_wait max{d - (o' + L), 0},
//                 sync o' + o' + L (receiver reads REQ, sends ACK, ACK flies),
//                 overhead o' (ACK read), overhead T1'
//                 -> overhead 2o' + T1', sync 2o' + 2L: together T4 + T5 + T1' (eq 5)
//   recv k <= S   recv_wait max{T1 + T2 - d, 0} (T2' for k > s), overhead T3
//   recv k > S    recv_wait max{o' + L - d, 0}, overhead o' + o' (read REQ, send ACK),
//                 sync L + o' + T1' + T2' (ACK flies, sender reads it and sends the data),
//                 overhead T3'  -> eq (9)
// The parts add up exactly (in floating point, by construction) to total(); end times are
// call time + total(). Nonblocking calls follow (6), (10), (11): Isend and Irecv are o' of
// overhead; MPI_Wait is the tail of the blocking call's segments after tw - ti, or o' of
// overhead (the completion check) when at most o' of it is left.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/validation/loggps.hpp"

namespace netwarp::validation {

struct CallSplit {
  double overhead = 0;
  double send_wait = 0;
  double recv_wait = 0;
  double sync = 0;
  double total() const { return overhead + send_wait + recv_wait + sync; }
};

// The same split in integer picoseconds: each part rounded, the rounding difference moved to
// the largest part so that the parts add up to llround(total() * 1000).
struct CallSplitPs {
  std::int64_t overhead_ps = 0;
  std::int64_t send_wait_ps = 0;
  std::int64_t recv_wait_ps = 0;
  std::int64_t sync_ps = 0;
  std::int64_t total_ps() const { return overhead_ps + send_wait_ps + recv_wait_ps + sync_ps; }
};
CallSplitPs to_ps(const CallSplit& split);

enum class CallPart { overhead, send_wait, recv_wait, sync };
struct CallSegment {
  CallPart part;
  double ns;
};

struct PairTimes {
  double send_end = 0;
  double recv_end = 0;
  CallSplit send;
  CallSplit recv;
};

// A blocking MPI_Send called at ts and its blocking MPI_Recv called at tr (ns).
PairTimes loggps_blocking_pair(const LogGpsParams& p, std::uint64_t k, double ts, double tr);

struct NonblockingTimes {
  double start_end = 0;  // end of the MPI_Isend / MPI_Irecv call
  double wait_end = 0;   // end of the MPI_Wait call
  CallSplit start;
  CallSplit wait;
};

// MPI_Isend at ti, its MPI_Wait at tw >= ti; the matching receive is called at tr (its ti if
// it is an MPI_Irecv). Throws std::invalid_argument when tw < ti.
NonblockingTimes loggps_nonblocking_send(const LogGpsParams& p, std::uint64_t k, double ti,
                                         double tw, double tr);
// MPI_Irecv at ti, its MPI_Wait at tw >= ti; the matching send is called at ts.
NonblockingTimes loggps_nonblocking_recv(const LogGpsParams& p, std::uint64_t k, double ti,
                                         double tw, double ts);

namespace loggps {

// The ordered segments of a blocking send / receive (see the table above).
std::vector<CallSegment> send_segments(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts);
std::vector<CallSegment> recv_segments(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts);
CallSplit split_of(const std::vector<CallSegment>& segments);
// MPI_Wait's split (11): the segments left after `elapsed` = tw - ti, or o' of overhead.
CallSplit wait_split(const LogGpsParams& p, const std::vector<CallSegment>& blocking,
                     double elapsed);

}  // namespace loggps
}  // namespace netwarp::validation
