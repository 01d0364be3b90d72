// What SIGINT, SIGTERM and SIGHUP do to a running netwarp command: the staging folders it has
// open (StagedFolder) are removed, rank 0 prints one line (what was interrupted, the simulated
// time reached, that nothing was written) and the process exits 128 + the signal's number
// (130, 143, 129; exit_codes.hpp). All of it happens in the handler with async-signal-safe
// calls only (openat, getdents64, unlinkat, write, _exit): a run can be stopped in any state,
// from any thread, without waiting for the simulation to reach a point where it could unwind.
//
//   interrupt::install("run scenarios/incast.pbtxt", context.is_root());
//   ... interrupt::note_simulated_time(progress.now) from the progress callback ...
#pragma once

#include <cstdint>
#include <string>

namespace netwarp::apps::interrupt {

// Installs the handlers. `what` names the command in the line; only `prints` ranks print it.
void install(const std::string& what, bool prints);
// The simulated time reached so far (the progress callback's), for the line.
void note_simulated_time(std::int64_t ps);
// Folders the handler removes, whole (at most 8 at a time, paths under 4 KiB).
void add_staging(const std::string& path);
void remove_staging(const std::string& path);

// Removes every staging folder still registered: for a process ending on an error mid-run.
void remove_staging_now();

// From inside a Deferred scope, once the results are in place: a signal now says so.
void note_results_written();

// Holds the three signals off while a staging folder is moved into place, so a signal sees it
// either whole and staged or committed, never half moved: one that comes meanwhile (to any
// thread) is acted on when the last Deferred scope closes.
class Deferred {
 public:
  Deferred();
  ~Deferred();
  Deferred(const Deferred&) = delete;
  Deferred& operator=(const Deferred&) = delete;
};

// "1.250 ms": the text of `ps` the handler writes (integer arithmetic only), for tests.
std::string time_text(std::int64_t ps);

}  // namespace netwarp::apps::interrupt
