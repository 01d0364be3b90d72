// The exit statuses of netwarp and its cross-check programs (netwarp-simgrid, netwarp-ns3): one
// table, printed in `netwarp --help` and README.md ("Exit codes"). Results are written (and
// replace an earlier run's) only for 0, 3 and 4; after any other status the --out folder is as
// it was before the run.
#pragma once

namespace netwarp::apps::exit_code {

inline constexpr int kSuccess = 0;
inline constexpr int kBadInput = 2;    // scenario, trace, pattern, parameter file, CLI usage
inline constexpr int kDeadlock = 3;    // an MPI program that cannot finish (results written)
inline constexpr int kIncomplete = 4;  // end_time stopped the run with work left (results written)
inline constexpr int kOutOfMemory = 5;
inline constexpr int kInternal = 70;  // a failed NW_CHECK or an unexpected exception (EX_SOFTWARE)
// 128 + the signal's number (interrupt.hpp): stopped by SIGHUP, SIGINT (Ctrl-C), SIGTERM.
inline constexpr int kHangup = 129;
inline constexpr int kInterrupted = 130;
inline constexpr int kTerminated = 143;

// The table as `--help` prints it.
inline constexpr const char* kTable =
    "Exit codes:\n"
    "  0   success\n"
    "  2   bad input: scenario, trace, pattern, parameter file or command line\n"
    "  3   deadlock: an MPI program that cannot finish (results are written)\n"
    "  4   incomplete: the scenario's end_time stopped the run with work left (results are\n"
    "      written, \"completed\": false)\n"
    "  5   out of memory\n"
    "  70  internal error (a failed check or an unexpected exception)\n"
    "  129, 130, 143  stopped by SIGHUP, SIGINT (Ctrl-C), SIGTERM: one line says what was\n"
    "      stopped; its staging folder is removed\n"
    "Only 0, 3 and 4 write results; otherwise the --out folder keeps what it held before.\n";

}  // namespace netwarp::apps::exit_code
