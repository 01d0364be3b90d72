// One line naming the ranks that never finished and the call each was blocked in.
#pragma once

#include <string>

#include "netwarp/mpiemul/program.hpp"
#include "simgrid_run.hpp"

namespace netwarp::simgrid_check {

std::string deadlock_message(const SimgridRunResult& result, const mpiemul::Program& program);

}  // namespace netwarp::simgrid_check
