// calls.csv: one row per finished call, in canonical order, with LogGPS's split of its time.
#include <fmt/format.h>

#include "netwarp/mpiemul/mpi_outputs.hpp"

namespace netwarp::mpiemul {

void write_calls_csv(const MpiResults& results, std::ostream& out) {
  out << "rank,call,kind,peer,tag,bytes,protocol,start_ps,end_ps,duration_ps,overhead_ps,"
         "send_wait_ps,recv_wait_ps,sync_ps,compute_ps\n";
  fmt::memory_buffer buffer;
  for (const CallRecord& c : results.calls) {
    fmt::format_to(std::back_inserter(buffer), "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                   c.rank, c.call, call_kind_name(c.kind), c.peer, c.tag, c.bytes,
                   protocol_name(c.protocol), c.start_ps, c.end_ps, c.end_ps - c.start_ps,
                   c.overhead_ps, c.send_wait_ps, c.recv_wait_ps, c.sync_ps, c.compute_ps);
    if (buffer.size() >= 1 << 16) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

}  // namespace netwarp::mpiemul
