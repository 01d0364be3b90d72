// How the whole job ends on an internal error (NW_CHECK, an error raised on one rank mid-run):
// in an MPI job MPI_Abort, which the engine's MPI part installs when it starts MPI; otherwise
// the process exits.
#pragma once

namespace netwarp::engine {

using JobAbort = void (*)(int status);
// `abort` (nullptr: none) runs first in abort_job.
void set_job_abort(JobAbort abort);
// Ends the whole job with `status`: the installed JobAbort, then _Exit.
[[noreturn]] void abort_job(int status);

}  // namespace netwarp::engine
