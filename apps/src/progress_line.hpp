// The progress line: simulated time, event rate and ETA on stderr, rewritten in place. Only on
// a terminal and never when CI=true; rank 0 only.
#pragma once

#include <functional>

#include "netwarp/engine/kernel.hpp"

namespace netwarp::apps {

bool progress_wanted();
// A callback for KernelConfig::on_progress, or an empty one when progress is not wanted.
std::function<void(const engine::Progress&)> make_progress_line();
// Clears the line if one was drawn.
void end_progress_line();

}  // namespace netwarp::apps
