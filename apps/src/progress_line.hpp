// The progress line: simulated time, the percentage of end_time done, ETA and event rate on
// stderr, rewritten in place. Only on a terminal (under mpirun: when mpirun's own terminal
// relays rank 0's stderr) and never when CI=true; rank 0 only.
#pragma once

#include <functional>
#include <string>

#include "app_context.hpp"
#include "netwarp/engine/kernel.hpp"

namespace netwarp::apps {

bool progress_wanted();
// No progress line from now on in this process (a sweep's point run beside others: --jobs).
void turn_progress_line_off();
// A callback for KernelConfig::on_progress: it tells interrupt:: the simulated time reached and,
// on rank 0 when progress is wanted, draws the line. Every rank gets one (the optimistic kernel's
// report is a collective).
std::function<void(const engine::Progress&)> make_progress_line(const AppContext& context);
// Clears the line if one was drawn.
void end_progress_line();
// Whether a line is on the terminal now (read by the signal handler, interrupt.cpp).
bool is_progress_line_drawn();

// The line's text: "[netwarp] t = 1.25 ms of 10 ms (12%), ETA 1 min 5 s, 2.31 M events/s".
// The percentage is rounded down (100% only at the end); without an end time it says that
// the total is unknown.
std::string progress_text(const engine::Progress& progress);
// "850 ns", "12.5 us", "1.25 ms", "3.5 s".
std::string sim_time_text(engine::SimTime time);
// Whole percent of `end` that `now` is, rounded down, at most 100.
int percent_done(engine::SimTime now, engine::SimTime end);
// "ETA 42 s", "ETA 3 min 5 s", "ETA 2 h 10 min".
std::string eta_text(double seconds);

}  // namespace netwarp::apps
