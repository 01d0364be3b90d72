// Point-to-point models without protocol switches: Hockney, LogP and LogGP.
//
// Units: times in ns, per-byte costs in ns/byte, sizes in bytes. Every function is pure.
// "Isolated message" below means one message whose receive is called at the same moment as its
// send, on an idle network.
//
//   HockneyParams h{.alpha = 5000, .beta = 0.1};
//   double t = message_time(h, 4096);   // 5409.6 ns
#pragma once

#include <cstdint>

namespace netwarp::validation {

// Hockney: T(k) = alpha + k * beta. The model has no split between CPU and network, so a
// blocking send and a receive posted with it are both taken to last the whole T(k).
struct HockneyParams {
  double alpha = 0;  // ns: start-up time
  double beta = 0;   // ns/byte: inverse bandwidth
};

// LogP (Culler et al.): fixed small messages, so every function ignores the size k. It is
// LogGP with G = 0.
struct LogPParams {
  double L = 0;  // ns: latency
  double o = 0;  // ns: send and receive overhead
  double g = 0;  // ns: gap between consecutive messages
  std::uint32_t P = 2;
};

// LogGP (Alexandrov et al.): a k-byte message takes o + (k - 1)G + L + o for k >= 1 and
// 2o + L for k = 0. A send call costs o; consecutive sends of k bytes are max(g, o + (k-1)G)
// apart (max(g, o) for k = 0).
struct LogGpParams {
  double L = 0;  // ns: latency
  double o = 0;  // ns: send and receive overhead
  double g = 0;  // ns: gap between consecutive messages
  double G = 0;  // ns/byte: gap per byte of a long message
  std::uint32_t P = 2;
};

// Time from the send call to the end of the receive of an isolated k-byte message.
double message_time(const HockneyParams& p, std::uint64_t k);
double message_time(const LogPParams& p, std::uint64_t k);
double message_time(const LogGpParams& p, std::uint64_t k);

// Duration of a blocking send call: T(k) for Hockney, o for LogP and LogGP.
double send_time(const HockneyParams& p, std::uint64_t k);
double send_time(const LogPParams& p, std::uint64_t k);
double send_time(const LogGpParams& p, std::uint64_t k);

// Duration of a blocking receive called together with the send of an isolated message: the
// whole message time in every model (the receiver waits for the data, then pays o).
double recv_time(const HockneyParams& p, std::uint64_t k);
double recv_time(const LogPParams& p, std::uint64_t k);
double recv_time(const LogGpParams& p, std::uint64_t k);

// Ping-pong round trip of k bytes each way: 2 * message_time.
double rtt(const HockneyParams& p, std::uint64_t k);
double rtt(const LogPParams& p, std::uint64_t k);
double rtt(const LogGpParams& p, std::uint64_t k);

// n messages of k bytes sent back to back to one receiver: time from the first send call to
// the end of the last receive. Hockney: n * T(k) (each message holds the link for all of it).
// LogP/LogGP: (n - 1) * gap + message_time(k), gap as above. 0 for n = 0.
double back_to_back(const HockneyParams& p, std::uint64_t n, std::uint64_t k);
double back_to_back(const LogPParams& p, std::uint64_t n, std::uint64_t k);
double back_to_back(const LogGpParams& p, std::uint64_t n, std::uint64_t k);

// Gap between the starts of consecutive k-byte sends under LogGP: max(g, o + (k - 1)G).
double loggp_send_gap(const LogGpParams& p, std::uint64_t k);

}  // namespace netwarp::validation
