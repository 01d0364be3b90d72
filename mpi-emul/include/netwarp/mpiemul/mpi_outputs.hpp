// Results of an MPI run as things a person opens: the "mpi" section of results.json, a
// Chrome/Perfetto timeline (one track per rank, one slice per call), calls.csv and the summary
// printed on stdout. All of them read sorted MpiResults (MpiResults::sort), so their content
// does not depend on the kernel or the number of MPI processes.
//
//   results.sort();
//   const MpiTotals t = results.totals(program);
//   json["mpi"] = mpi_results_json(results, t, program);
//   std::ofstream timeline(dir + "/timeline.json");
//   write_timeline_json(results, program, timeline);
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>

#include "netwarp/mpiemul/mpi_results.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/records.hpp"

namespace netwarp::mpiemul {

// "none", "short", "eager", "rendezvous", "direct", "mixed".
std::string protocol_name(Protocol protocol);

// run_time_ps, finished, deadlock (null or deadlock_message), ranks (one object per rank),
// totals (the ranks summed), messages (per protocol), call_kinds (per kind that was called) and
// stuck_ranks. Keys keep the order written here.
nlohmann::ordered_json mpi_results_json(const MpiResults& results, const MpiTotals& totals,
                                        const Program& program);

// Trace-event JSON (chrome://tracing, ui.perfetto.dev): process "netwarp MPI" (pid 0), one
// thread per rank (tid = rank), one complete event per call with its breakdown in args. Times
// are microseconds written exactly from integer picoseconds. Streamed: memory does not grow
// with the number of calls.
void write_timeline_json(const MpiResults& results, const Program& program, std::ostream& out);

// Picoseconds as an exact decimal number of microseconds: 1234567 -> "1.234567".
std::string ps_to_us_decimal(std::int64_t ps);

// One row per call: rank,call,kind,peer,tag,bytes,protocol,start_ps,end_ps,duration_ps,
// overhead_ps,send_wait_ps,recv_wait_ps,sync_ps,compute_ps.
void write_calls_csv(const MpiResults& results, std::ostream& out);

// A few lines for stdout: run time, where the time went (summed over ranks), messages per
// protocol, and the deadlock line when ranks did not finish.
std::string format_mpi_summary(const MpiTotals& totals);

}  // namespace netwarp::mpiemul
