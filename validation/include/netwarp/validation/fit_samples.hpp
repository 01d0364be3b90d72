// What the parameter fits read and report: benchmark points measured in the packet simulator
// (or on hardware) and per-point residuals of the fitted model. Times in ns, sizes in bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netwarp::validation {

struct SizePoint {
  std::uint64_t k = 0;  // bytes
  double ns = 0;        // measured time
};

// Concurrent ping-pongs of k bytes between two ranks of one host and two of another (shared), and
// the same program with one of the pairs (alone): the largest round trip of each.
struct NicSharingPoint {
  std::uint64_t k = 0;
  double alone_ns = 0;
  double shared_ns = 0;
};

// The LogGPS benchmarks (LOGGPS.md §4.1-4.2), also used for the Hockney and LogGP fits:
// blocking ping-pong round trips with a dummy loop of w = 0 and w = W on P0, and the duration
// of the blocking MPI_Send call at k <= S (o' + k Oss); and what sharing a NIC adds to a round
// trip of k > S bytes (LogGPS only; empty: not measured).
struct LogGpsSamples {
  std::uint64_t s = 0;  // short limit of the MPI library
  std::uint64_t S = 0;  // eager limit of the MPI library
  double W_ns = 0;      // the large dummy loop
  std::vector<SizePoint> rtt_w0;
  std::vector<SizePoint> rtt_wW;
  std::vector<SizePoint> send;
  std::vector<NicSharingPoint> nic_shared;
};

struct FitResidual {
  std::string series;  // "w0", "wW", "send", ...
  std::uint64_t k = 0;
  double measured_ns = 0;
  double model_ns = 0;
  double error_pct = 0;  // 100 (model - measured) / measured
};

struct FitReport {
  std::vector<FitResidual> residuals;
  double max_abs_error_pct = 0;
  std::vector<std::string> notes;  // choices made and warnings, one sentence each
};

template <class Params>
struct ModelFit {
  Params params;
  FitReport report;
};

// Appends a residual row and updates max_abs_error_pct.
void add_residual(FitReport& report, std::string series, std::uint64_t k, double measured_ns,
                  double model_ns);

}  // namespace netwarp::validation
