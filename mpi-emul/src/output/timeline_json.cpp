// timeline.json: the calls of every rank as Chrome/Perfetto trace events, written one event per
// line straight to the stream. Times are exact: microseconds with six decimals from integer
// picoseconds, never through floating point.
#include <fmt/format.h>

#include <iterator>
#include <optional>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/mpiemul/mpi_outputs.hpp"

namespace netwarp::mpiemul {

namespace {

using Buffer = fmt::memory_buffer;

// Written to the stream whenever the buffer grows past this.
constexpr std::size_t kFlushBytes = 1 << 16;

void append_us(Buffer& buffer, std::int64_t ps) {
  const bool negative = ps < 0;
  // Unsigned negation: exact even for the most negative value.
  const std::uint64_t magnitude =
      negative ? 0 - static_cast<std::uint64_t>(ps) : static_cast<std::uint64_t>(ps);
  fmt::format_to(std::back_inserter(buffer), "{}{}.{:06}", negative ? "-" : "", magnitude / 1000000,
                 magnitude % 1000000);
}

void flush(Buffer& buffer, std::ostream& out) {
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  buffer.clear();
}

std::vector<std::optional<std::uint32_t>> hosts_by_rank(const MpiResults& results, RankId size) {
  std::vector<std::optional<std::uint32_t>> hosts(size);
  for (const RankSummary& s : results.ranks) {
    NW_CHECK(s.rank < size, "summary of rank {} in a {}-rank program", s.rank, size);
    hosts[s.rank] = s.host;
  }
  return hosts;
}

// The process name, then a named, ordered track per rank.
void append_metadata(Buffer& buffer, const MpiResults& results, const Program& program) {
  auto out = std::back_inserter(buffer);
  fmt::format_to(out,
                 "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
                 "\"args\":{{\"name\":\"netwarp MPI\"}}}}");
  const auto hosts = hosts_by_rank(results, program.size());
  for (RankId r = 0; r < program.size(); ++r) {
    const std::string name =
        hosts[r] ? fmt::format("rank {} (host {})", r, *hosts[r]) : fmt::format("rank {}", r);
    fmt::format_to(out,
                   ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":{0},"
                   "\"args\":{{\"name\":\"{1}\"}}}},\n"
                   "{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":{0},"
                   "\"args\":{{\"sort_index\":{0}}}}}",
                   r, name);
  }
}

void append_call(Buffer& buffer, const CallRecord& c) {
  auto out = std::back_inserter(buffer);
  fmt::format_to(out,
                 ",\n{{\"name\":\"{}\",\"cat\":\"mpi\",\"ph\":\"X\",\"pid\":0,\"tid\":{},\"ts\":",
                 call_kind_name(c.kind), c.rank);
  append_us(buffer, c.start_ps);
  fmt::format_to(out, ",\"dur\":");
  append_us(buffer, c.end_ps - c.start_ps);
  fmt::format_to(out,
                 ",\"args\":{{\"call\":{},\"peer\":{},\"tag\":{},\"bytes\":{},\"protocol\":\"{}\","
                 "\"overhead_ps\":{},\"send_wait_ps\":{},\"recv_wait_ps\":{},\"sync_ps\":{},"
                 "\"compute_ps\":{}}}}}",
                 c.call, c.peer, c.tag, c.bytes, protocol_name(c.protocol), c.overhead_ps,
                 c.send_wait_ps, c.recv_wait_ps, c.sync_ps, c.compute_ps);
}

}  // namespace

std::string ps_to_us_decimal(std::int64_t ps) {
  Buffer buffer;
  append_us(buffer, ps);
  return fmt::to_string(buffer);
}

void write_timeline_json(const MpiResults& results, const Program& program, std::ostream& out) {
  Buffer buffer;
  fmt::format_to(std::back_inserter(buffer), "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  append_metadata(buffer, results, program);
  for (const CallRecord& c : results.calls) {
    append_call(buffer, c);
    if (buffer.size() >= kFlushBytes) flush(buffer, out);
  }
  fmt::format_to(std::back_inserter(buffer), "\n]}}\n");
  flush(buffer, out);
}

}  // namespace netwarp::mpiemul
