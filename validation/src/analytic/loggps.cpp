// LogGPS communication, routine and round-trip times: docs/models/loggps.md, Tables 3, 4
// and 6, the jump at k = S, and the contention rule of §3.
#include "netwarp/validation/loggps.hpp"

#include <algorithm>
#include <stdexcept>

namespace netwarp::validation::loggps {

namespace {

double bytes(std::uint64_t k) {
  return static_cast<double>(k);
}

}  // namespace

LogGpsProtocol protocol(const LogGpsParams& p, std::uint64_t k) {
  if (k <= p.s) return LogGpsProtocol::short_msg;
  if (k <= p.S) return LogGpsProtocol::eager;
  return LogGpsProtocol::rendezvous;
}

double t1(const LogGpsParams& p, std::uint64_t k) {
  return p.o + bytes(k) * p.Oss;
}
double t2(const LogGpsParams& p, std::uint64_t k) {
  return bytes(k) * p.Gs + p.L;
}
double t3(const LogGpsParams& p, std::uint64_t k) {
  return p.o + bytes(k) * p.Ors;
}
double t4(const LogGpsParams& p, double tr_minus_ts) {
  return std::max(p.o + p.L, tr_minus_ts) + p.o;
}
double t5(const LogGpsParams& p) {
  return p.o + p.L + p.o;
}
double t1_long(const LogGpsParams& p, std::uint64_t k) {
  return p.o + bytes(k) * p.Osl;
}
// Wormhole: the first s bytes at Gs, the rest at Gl. Only used for k > s.
double t2_long(const LogGpsParams& p, std::uint64_t k) {
  return bytes(p.s) * p.Gs + (bytes(k) - bytes(p.s)) * p.Gl + p.L;
}
double t3_long(const LogGpsParams& p, std::uint64_t k) {
  return p.o + bytes(k) * p.Orl;
}

double comm_time(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts) {
  switch (protocol(p, k)) {
    case LogGpsProtocol::short_msg:
      return t1(p, k) + t2(p, k) + t3(p, k);  // (1)
    case LogGpsProtocol::eager:
      return t1(p, k) + t2_long(p, k) + t3(p, k);  // (2)
    case LogGpsProtocol::rendezvous:
      break;
  }
  return t4(p, tr_minus_ts) + t5(p) + t1_long(p, k) + t2_long(p, k) + t3_long(p, k);  // (3)
}

double send(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts) {
  if (k <= p.S) return t1(p, k);                      // (4)
  return t4(p, tr_minus_ts) + t5(p) + t1_long(p, k);  // (5)
}

double isend(const LogGpsParams& p) {
  return p.o;
}

double recv(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts) {
  switch (protocol(p, k)) {
    case LogGpsProtocol::short_msg:
      return std::max(t1(p, k) + t2(p, k) - tr_minus_ts, 0.0) + t3(p, k);  // (7)
    case LogGpsProtocol::eager:
      return std::max(t1(p, k) + t2_long(p, k) - tr_minus_ts, 0.0) + t3(p, k);  // (8)
    case LogGpsProtocol::rendezvous:
      break;
  }
  return std::max(p.o + p.L - tr_minus_ts, 0.0) + p.o + t5(p) + t1_long(p, k) + t2_long(p, k) +
         t3_long(p, k);  // (9)
}

double irecv(const LogGpsParams& p) {
  return p.o;
}

double wait(const LogGpsParams& p, double t_blocking, double ti, double tw) {
  return std::max(t_blocking - (tw - ti), p.o);
}

double rtt_network_excess(const LogGpsParams& p, std::uint64_t k, double w) {
  switch (protocol(p, k)) {
    case LogGpsProtocol::short_msg:
      return t1(p, k) + 2.0 * t2(p, k) + t3(p, k) - w;  // (12)
    case LogGpsProtocol::eager:
      return t1(p, k) + 2.0 * t2_long(p, k) + t3(p, k) - w;  // (13)
    case LogGpsProtocol::rendezvous:
      break;
  }
  return t2_long(p, k) + t3_long(p, k) + p.o + p.L - w;  // (14)
}

double rtt(const LogGpsParams& p, std::uint64_t k, double w) {
  const double waited = std::max(rtt_network_excess(p, k, w), 0.0);
  if (k <= p.S) return waited + w + t1(p, k) + t3(p, k);  // (12), (13)
  const double t4_min = t4(p, 0.0);                       // 2o' + L
  return waited + w + 2.0 * t1_long(p, k) + t2_long(p, k) + t3_long(p, k) + 2.0 * t4_min +
         2.0 * t5(p) - (p.o + p.L);  // (14)
}

double rtt_jump_w_large(const LogGpsParams& p) {
  const double s = bytes(p.s);
  const double S = bytes(p.S);
  return 8.0 * p.o + 4.0 * p.L + S * (2.0 * p.Osl - p.Oss) + S * (p.Orl - p.Ors) + s * p.Gs +
         (S - s) * p.Gl;
}

double rtt_jump_w0(const LogGpsParams& p) {
  const double S = bytes(p.S);
  return 8.0 * p.o + 4.0 * p.L + 2.0 * S * (p.Osl - p.Oss) + 2.0 * S * (p.Orl - p.Ors);
}

LogGpsParams contended(const LogGpsParams& p, std::uint64_t k, std::uint32_t senders) {
  if (senders == 0) throw std::invalid_argument("loggps contention: senders must be >= 1, got 0");
  LogGpsParams scaled = p;
  double* candidates[3] = {&scaled.Oss, &scaled.Ors, &scaled.Gs};
  if (protocol(p, k) == LogGpsProtocol::eager) candidates[2] = &scaled.Gl;
  if (protocol(p, k) == LogGpsProtocol::rendezvous) {
    candidates[0] = &scaled.Osl;
    candidates[1] = &scaled.Orl;
    candidates[2] = &scaled.Gl;
  }
  double* largest = candidates[0];
  for (double* c : candidates)
    if (*c > *largest) largest = c;
  *largest *= static_cast<double>(senders);
  return scaled;
}

}  // namespace netwarp::validation::loggps
