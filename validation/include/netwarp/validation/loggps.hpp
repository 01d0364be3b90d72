// LogGPS (Ino, Fujimoto, Hagihara 2001), docs/models/loggps.md: LogGP plus the switch of MPI
// protocols by message size: short (k <= s) and eager (s < k <= S) without synchronisation,
// rendezvous (k > S) with a REQ/ACK handshake.
//
// Units: times in ns, per-byte parameters in ns/byte, sizes k in bytes. ts and tr are the call
// times of the send and of the matching receive; functions take d = tr - ts (may be negative).
//
//   const LogGpsParams p = loggps_preset("myrinet");
//   double t = loggps::comm_time(p, 16383, 0.0);   // eq (2): 298465.57 ns
//   double r = loggps::rtt(p, 20000, 0.0);         // eq (14) with w = 0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace netwarp::validation {

struct LogGpsParams {
  double L = 0;         // ns: network latency
  double o = 0;         // ns: o', overhead of sending or receiving a 0-byte message
  double Oss = 0;       // ns/byte: send overhead per byte, k <= S
  double Ors = 0;       // ns/byte: receive overhead per byte, k <= S
  double Osl = 0;       // ns/byte: send overhead per byte, k > S
  double Orl = 0;       // ns/byte: receive overhead per byte, k > S
  double Gs = 0;        // ns/byte: gap per byte of the first s bytes
  double Gl = 0;        // ns/byte: gap per byte beyond s bytes
  std::uint64_t s = 0;  // bytes: largest message in one packet (short protocol)
  std::uint64_t S = 0;  // bytes: largest message sent without synchronisation (eager)
};

enum class LogGpsProtocol { short_msg, eager, rendezvous };  // k <= s, s < k <= S, k > S

// Table 5 of the paper: "myrinet", "fast-ethernet", "cenju4". Cenju-4 only publishes
// Orl + Gl = 0.28 (and s = S = 1028): the preset uses Orl = 0.28, Gl = 0.
// Throws std::invalid_argument listing the known names.
LogGpsParams loggps_preset(std::string_view name);
std::vector<std::string> loggps_preset_names();  // sorted

namespace loggps {

LogGpsProtocol protocol(const LogGpsParams& p, std::uint64_t k);

// Table 3.
double t1(const LogGpsParams& p, std::uint64_t k);       // o' + k Oss
double t2(const LogGpsParams& p, std::uint64_t k);       // k Gs + L
double t3(const LogGpsParams& p, std::uint64_t k);       // o' + k Ors
double t4(const LogGpsParams& p, double tr_minus_ts);    // max{o' + L, tr - ts} + o'
double t5(const LogGpsParams& p);                        // o' + L + o'
double t1_long(const LogGpsParams& p, std::uint64_t k);  // T1' = o' + k Osl
double t2_long(const LogGpsParams& p, std::uint64_t k);  // T2' = s Gs + (k - s) Gl + L
double t3_long(const LogGpsParams& p, std::uint64_t k);  // T3' = o' + k Orl

// Communication time, eqs (1)-(3): send call to the end of the receive.
double comm_time(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts);

// MPI routine execution times, Table 4.
double send(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts);  // (4), (5)
double isend(const LogGpsParams& p);                                      // (6)
double recv(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts);  // (7)-(9)
double irecv(const LogGpsParams& p);                                      // (10)
// (11) with the digest's sign correction: max{Tblk - (tw - ti), o'}. Tblk: the blocking
// routine's time as if called at ti; ti: call of the nonblocking routine; tw: call of MPI_Wait.
double wait(const LogGpsParams& p, double t_blocking, double ti, double tw);

// Blocking ping-pong with a dummy loop of w ns on P0, Table 6 eqs (12)-(14). T4 is at its
// minimum 2o' + L (P1's receive is posted; P0's lateness is in the max{} term).
double rtt(const LogGpsParams& p, std::uint64_t k, double w);
// The max{} argument of (12)-(14) before clipping at 0: how long P0's receive would still wait
// for the network. The round trip ignores w's noise only while this is <= 0.
double rtt_network_excess(const LogGpsParams& p, std::uint64_t k, double w);

// Jump of the round trip at k = S, eq (14) minus eq (13) both evaluated at k = S:
// D(W) for a large w (max{} terms 0), with s*Gs (Fig. 5 prints S*Gs: a misprint), and D(0).
double rtt_jump_w_large(const LogGpsParams& p);
double rtt_jump_w0(const LogGpsParams& p);

// Contention (§3): `senders` processes send k bytes to one receiver at once. The largest of the
// per-byte parameters used by the formula for this k is multiplied by `senders`: {Oss, Ors, Gs}
// for k <= s, {Oss, Ors, Gl} for s < k <= S (the digest's ambiguity resolved by the formula's
// own terms), {Osl, Orl, Gl} for k > S. Ties go to the first in that order. senders == 1
// returns p; senders == 0 throws std::invalid_argument.
LogGpsParams contended(const LogGpsParams& p, std::uint64_t k, std::uint32_t senders);

}  // namespace loggps
}  // namespace netwarp::validation
