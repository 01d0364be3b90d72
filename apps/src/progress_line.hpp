// The progress line: simulated time, event rate and ETA on stderr, rewritten in place. Only on
// a terminal and never when CI=true; rank 0 only.
#pragma once

#include <functional>

#include "app_context.hpp"
#include "netwarp/engine/kernel.hpp"

namespace netwarp::apps {

bool progress_wanted();
// A callback for KernelConfig::on_progress, or an empty one when progress is not wanted. A
// collective: every rank calls it and gets a callback (a silent one off rank 0) or none.
std::function<void(const engine::Progress&)> make_progress_line(const AppContext& context);
// Clears the line if one was drawn.
void end_progress_line();

}  // namespace netwarp::apps
