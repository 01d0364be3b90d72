// Every failure of a command as one line on stderr and an exit status (exit_codes.hpp): what
// main() makes of an exception out of a command, and a sweep's forked point of one out of its
// run.
#pragma once

#include <string>
#include <string_view>

#include "app_context.hpp"

namespace netwarp::apps {

// An error message as one printable line (netmodels::printable): the control characters of
// input text it quotes become \r, \xNN escapes, and a long one is cut.
std::string one_line(std::string_view message);
// "netwarp: error: MESSAGE" on stderr, from the root rank only.
void print_error(const AppContext& context, const std::string& message);
// Inside a catch block: prints the exception being handled as one line and returns its exit
// status. A failure in the middle of a run on one of several ranks ends the whole job (every
// partition's thread, or every process of the MPI job): then it does not return.
int failure_status(const AppContext& context);

}  // namespace netwarp::apps
