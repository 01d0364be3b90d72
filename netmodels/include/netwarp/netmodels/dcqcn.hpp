// DCQCN's reaction point (Zhu et al., SIGCOMM 2015, section 3.1 and Figure 7): the sender's
// current rate RC, target rate RT and congestion estimate alpha. A CNP cuts RC by alpha / 2
// (RT keeps the rate before the cut); alpha decays once per alpha_timer period without a CNP
// (applied when the next CNP comes, the only time alpha is read: no timer events); every
// rate_timer period and every byte_counter_bytes sent is an increase step: while neither count
// is past F, fast recovery (RC halfway to RT); then additive (RT += R_AI) or, once both are
// past F, hyper increase (RT += i x R_HAI, i the smaller count less F); RC goes halfway to RT
// at each step.
#pragma once

#include <cstdint>

#include "netwarp/netmodels/roce.hpp"

namespace netwarp::netmodels {

struct DcqcnRate {
  double rate_bps = 0;    // RC
  double target_bps = 0;  // RT
  double alpha = 1;
  std::uint64_t bytes_counted = 0;  // since the last byte-counter step
  std::uint32_t timer_steps = 0;    // T's count since the last cut
  std::uint32_t byte_steps = 0;     // BC's count since the last cut
};

DcqcnRate dcqcn_start(std::uint64_t line_rate_bps);
// A CNP arrived: cut, and reset the increase counts.
void dcqcn_on_cnp(DcqcnRate& r, const DcqcnConfig& c);
// `periods` alpha-timer periods passed without a CNP: alpha decays once for each.
void dcqcn_decay_alpha(DcqcnRate& r, const DcqcnConfig& c, std::uint64_t periods);
// The rate timer fired.
void dcqcn_on_rate_timer(DcqcnRate& r, const DcqcnConfig& c, std::uint64_t line_rate_bps);
// `bytes` were sent.
void dcqcn_on_sent(DcqcnRate& r, const DcqcnConfig& c, std::uint64_t bytes,
                   std::uint64_t line_rate_bps);

}  // namespace netwarp::netmodels
