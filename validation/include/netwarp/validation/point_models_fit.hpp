// Hockney and LogGP parameters from the same benchmark samples as LogGPS (fit_samples.hpp).
//
// Hockney: least squares of RTT(k)/2 = alpha + k beta over the w = 0 curve (all sizes, rows
// weighted by 1/measured like the LogGPS fit). Residuals: series "w0" against 2 T(k).
// LogGP:
//   o     intercept of the least-squares line through the MPI_Send call times with k <= s
//         (the LogGP send call costs o whatever the size; the slope, Oss, has no place in it);
//   L, G  least squares of RTT(k)/2 - 2o = L + max(k - 1, 0) G over the w = 0 curve (so the
//         rendezvous handshake, which LogGP does not know, is spread into L and G);
//   g     from a burst of n back-to-back 0-byte sends taking total_ns: g = total_ns / n, else
//         g = o (the paper found g folded into o' for MPI).
//   Residuals: "w0" against 2 message_time(k), "send" against o.
// A coefficient that comes out negative (no parameter file holds a negative time) is fixed at 0
// and the other coefficient of its line refitted alone; the notes say so.
// Throws std::invalid_argument when there are too few points (2 sizes for each line).
#pragma once

#include <cstdint>
#include <optional>

#include "netwarp/validation/fit_samples.hpp"
#include "netwarp/validation/point_models.hpp"

namespace netwarp::validation {

struct BurstSample {
  std::uint64_t n = 0;  // back-to-back 0-byte sends
  double total_ns = 0;  // from the first send call to the end of the last
};

ModelFit<HockneyParams> fit_hockney(const LogGpsSamples& samples);
ModelFit<LogGpParams> fit_loggp(const LogGpsSamples& samples,
                                std::optional<BurstSample> burst = std::nullopt);

}  // namespace netwarp::validation
