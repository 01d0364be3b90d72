// What every subcommand gets from main: the rank exchange (MPI when started by mpirun, local
// otherwise) and the user-facing error type. Library code never parses argv or exits.
#pragma once

#include <stdexcept>
#include <string>

#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::apps {

class ThreadResults;

// A user mistake (bad flag value, impossible combination): one line on stderr, exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct AppContext {
  engine::RankExchange* exchange = nullptr;  // never null while a command runs
  bool threads = false;  // the ranks are partitions as threads of this process (--threads)
  // Set when every partition is a thread of this process (no MPI): records go to partition 0
  // in memory (thread_results.hpp).
  ThreadResults* thread_results = nullptr;
  bool is_root() const { return exchange->rank() == 0; }

  // Runs a check that only rank 0 can make (a file it will write) and makes its verdict
  // collective: every rank throws the UsageError, so none is left waiting in the run.
  template <class Check>
  void check_on_root(Check&& check) const {
    std::string message;
    if (is_root()) {
      try {
        check();
      } catch (const UsageError& e) {
        message = e.what();
      }
    }
    if (exchange->max(message.empty() ? 0 : 1) != 0) throw UsageError(message);
  }
};

}  // namespace netwarp::apps
