// Fitting LogGPS parameters from benchmark curves (LOGGPS.md §4.1-4.2): instead of the paper's
// two intercepts and five slopes, one weighted linear least-squares fit over every point.
//
// With s, S and W fixed, each point is linear in the eight unknowns (o', L, Oss, Ors, Osl, Orl,
// Gs, Gl) (Table 6 with T4 = 2o' + L; at w = W the max{} term is taken as 0):
//   RTT, w = 0,  k <= s       4o' + 2L + 2k(Oss + Ors + Gs)
//   RTT, w = 0,  s < k <= S   4o' + 2L + 2k(Oss + Ors) + 2s Gs + 2(k - s) Gl
//   RTT, w = 0,  k > S        12o' + 6L + 2k(Osl + Orl) + 2s Gs + 2(k - s) Gl
//   RTT, w = W,  k <= S       W + 2o' + k(Oss + Ors)
//   RTT, w = W,  k > S        W + 10o' + 4L + k(2Osl + Orl) + s Gs + (k - s) Gl
//   MPI_Send,    k <= S       o' + k Oss        (separates Oss from Ors)
//   NIC sharing, k > S        (shared - alone) = c + 2k Gl: concurrent round trips of two
//                             ranks of one host with two of another less one pair's (§3 with
//                             two messages each way; measured when given). Gl is
//                             half the slope of a line over these points (its intercept c free:
//                             overlapping handshakes, which §3 leaves out) and fixed in the rest.
//                             The ping-pong alone ties Gl to Ors through the eager segment, and a
//                             packet MPI's copy of unexpected messages (w = W) then lands in Ors
//                             and leaves Gl short; the contention rule scales Gl, so it must be
//                             the cost sharing multiplies.
// Rows are divided by the measured value, so the fit minimises the squared relative errors,
// the quantity the residuals report. Choices, each recorded in the report's notes:
//   - no w = 0 point with s < k <= S (always so when s == S): Gl and Orl are then separable
//     only through the s Gl inside the k > S intercepts, so Gl is fixed at 0 and Orl carries
//     Orl + Gl, as in the paper's Cenju-4 row (unless NIC-sharing points set Gl);
//   - NIC-sharing points whose line does not grow with k are left out (Gl from the ping-pong);
//   - a parameter that comes out negative is fixed at 0 and the rest refitted;
//   - after the fit, every w = W point whose max{} term is not 0 under the fitted parameters
//     is named (W too small for it).
// Too few points: every RTT segment above (except w = 0, s < k <= S, see above) needs at
// least 2 distinct sizes, MPI_Send at least 1 and NIC sharing (when given) 2; otherwise
// std::invalid_argument says which.
#pragma once

#include "netwarp/validation/fit_samples.hpp"
#include "netwarp/validation/loggps.hpp"

namespace netwarp::validation {

using LogGpsFit = ModelFit<LogGpsParams>;

// Residual series: "w0", "wW", "send". Throws std::invalid_argument on bad or too few points.
LogGpsFit fit_loggps(const LogGpsSamples& samples);

}  // namespace netwarp::validation
