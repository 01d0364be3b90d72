// RED (Floyd and Jacobson 1993; RFC 2309, RFC 7567) as an ECN marker: the marking probability of
// a queue of `q` bytes and the EWMA average of the queue. The probability is the linear profile
// p_b (max_probability at max_bytes, always at and above max_bytes), used as it is, as the
// DCQCN paper's switches (Zhu et al. 2015, section 3.1: K_min, K_max, P_max on the egress queue)
// and commodity WRED do; ns-3's RedQueueDisc scales it further by the packets since the last
// mark (Floyd's count, p_a = p_b / (1 - count p_b)), which is not modelled.
#pragma once

#include <cmath>
#include <cstdint>

#include "netwarp/netmodels/network_config.hpp"

namespace netwarp::netmodels {

inline double red_probability(const RedConfig& red, double q) {
  const auto min = static_cast<double>(red.min_bytes);
  const auto max = static_cast<double>(red.max_bytes);
  if (q < min) return 0;
  if (q >= max) return 1;
  return red.max_probability * (q - min) / (max - min);
}

// The average after a packet sees `q` bytes: avg + w (q - avg), RFC 2309's low-pass filter.
// A queue idle for `idle_frames` frame times first decays as if that many empty samples had
// arrived: (1 - w)^m avg (Floyd and Jacobson, section 4; ns-3's RedQueueDisc does the same).
inline double red_average(double avg, double weight, double q, double idle_frames) {
  if (idle_frames > 0) avg *= std::pow(1 - weight, idle_frames);
  return avg + weight * (q - avg);
}

}  // namespace netwarp::netmodels
