// Hockney, LogP and LogGP message, call and round-trip times (point_models.hpp).
#include "netwarp/validation/point_models.hpp"

#include <algorithm>

namespace netwarp::validation {

namespace {

LogGpParams as_loggp(const LogPParams& p) {
  return {p.L, p.o, p.g, 0.0, p.P};
}

// (k - 1) * G for k >= 1, and nothing for an empty message.
double bytes_after_first(const LogGpParams& p, std::uint64_t k) {
  return k == 0 ? 0.0 : static_cast<double>(k - 1) * p.G;
}

}  // namespace

double message_time(const HockneyParams& p, std::uint64_t k) {
  return p.alpha + static_cast<double>(k) * p.beta;
}
double message_time(const LogPParams& p, std::uint64_t k) {
  return message_time(as_loggp(p), k);
}
double message_time(const LogGpParams& p, std::uint64_t k) {
  return p.o + bytes_after_first(p, k) + p.L + p.o;
}

double send_time(const HockneyParams& p, std::uint64_t k) {
  return message_time(p, k);
}
double send_time(const LogPParams& p, std::uint64_t k) {
  return send_time(as_loggp(p), k);
}
double send_time(const LogGpParams& p, std::uint64_t /*k*/) {
  return p.o;
}

double recv_time(const HockneyParams& p, std::uint64_t k) {
  return message_time(p, k);
}
double recv_time(const LogPParams& p, std::uint64_t k) {
  return message_time(p, k);
}
double recv_time(const LogGpParams& p, std::uint64_t k) {
  return message_time(p, k);
}

double rtt(const HockneyParams& p, std::uint64_t k) {
  return 2.0 * message_time(p, k);
}
double rtt(const LogPParams& p, std::uint64_t k) {
  return 2.0 * message_time(p, k);
}
double rtt(const LogGpParams& p, std::uint64_t k) {
  return 2.0 * message_time(p, k);
}

double loggp_send_gap(const LogGpParams& p, std::uint64_t k) {
  return std::max(p.g, p.o + bytes_after_first(p, k));
}

double back_to_back(const HockneyParams& p, std::uint64_t n, std::uint64_t k) {
  return static_cast<double>(n) * message_time(p, k);
}
double back_to_back(const LogPParams& p, std::uint64_t n, std::uint64_t k) {
  return back_to_back(as_loggp(p), n, k);
}
double back_to_back(const LogGpParams& p, std::uint64_t n, std::uint64_t k) {
  if (n == 0) return 0.0;
  return static_cast<double>(n - 1) * loggp_send_gap(p, k) + message_time(p, k);
}

}  // namespace netwarp::validation
