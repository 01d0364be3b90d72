// timeline.json: the calls of every rank as Chrome/Perfetto trace events, written one event per
// line straight to the stream, then each matched message as a flow arrow from its send call to
// its receive call. Times are exact: microseconds with six decimals from integer
// picoseconds, never through floating point.
#include <fmt/format.h>

#include <algorithm>
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

// The call of `rank` that holds operation `op`, or nullptr (a program without that call, a
// call the run did not finish). `calls` is sorted by (rank, call).
const CallRecord* call_of_op(const std::vector<CallRecord>& calls, const Program& program,
                             RankId rank, std::uint32_t op) {
  if (rank >= program.size()) return nullptr;
  const std::vector<Call>& program_calls = program.ranks[rank].calls;
  const auto after =
      std::upper_bound(program_calls.begin(), program_calls.end(), op,
                       [](std::uint32_t o, const Call& c) { return o < c.first_op; });
  if (after == program_calls.begin()) return nullptr;
  const auto index = static_cast<std::uint32_t>(after - program_calls.begin() - 1);
  const auto it =
      std::lower_bound(calls.begin(), calls.end(), std::pair{rank, index},
                       [](const CallRecord& c, const std::pair<RankId, std::uint32_t>& k) {
                         return std::pair{c.rank, c.call} < k;
                       });
  if (it == calls.end() || it->rank != rank || it->call != index) return nullptr;
  return &*it;
}

std::int64_t clamp_into(std::int64_t ps, const CallRecord& c) {
  return std::clamp(ps, c.start_ps, c.end_ps);
}

// `ps` moved strictly inside the call when it lasts 2 ps or more: a flow event on a boundary
// would bind to whichever of two adjacent slices the viewer picks.
std::int64_t strictly_inside(std::int64_t ps, const CallRecord& c) {
  if (c.end_ps - c.start_ps < 2) return clamp_into(ps, c);
  return std::clamp(ps, c.start_ps + 1, c.end_ps - 1);
}

bool is_collective(CallKind kind) {
  return kind >= CallKind::barrier;
}

// A message as a flow arrow (trace-event flow events "s" and "f" sharing the message's id) from
// the start of its send call to its receive call at the match, bound to the enclosing slices;
// a collective's message is also a slice nested in the receiver's collective slice, from when
// both calls were running to the match.
void append_message(Buffer& buffer, const MessageRecord& m, std::uint64_t id,
                    const CallRecord& send, const CallRecord& recv) {
  auto out = std::back_inserter(buffer);
  const std::int64_t at = strictly_inside(std::max(m.matched_ps, send.start_ps), recv);
  if (is_collective(recv.kind)) {
    const std::int64_t from = clamp_into(send.start_ps, recv);
    fmt::format_to(out,
                   ",\n{{\"name\":\"message from {}\",\"cat\":\"message\",\"ph\":\"X\","
                   "\"pid\":0,\"tid\":{},\"ts\":",
                   m.src, m.dst);
    append_us(buffer, from);
    fmt::format_to(out, ",\"dur\":");
    append_us(buffer, at - from);
    fmt::format_to(out, ",\"args\":{{\"src\":{},\"bytes\":{},\"tag\":{},\"protocol\":\"{}\"}}}}",
                   m.src, m.bytes, m.tag, protocol_name(m.protocol));
  }
  fmt::format_to(out,
                 ",\n{{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":{},"
                 "\"pid\":0,\"tid\":{},\"ts\":",
                 id, m.src);
  append_us(buffer, std::min(strictly_inside(send.start_ps, send), at));
  fmt::format_to(out, ",\"args\":{{\"bytes\":{},\"dst\":{}}}}}", m.bytes, m.dst);
  fmt::format_to(out,
                 ",\n{{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\","
                 "\"id\":{},\"pid\":0,\"tid\":{},\"ts\":",
                 id, m.dst);
  append_us(buffer, at);
  buffer.push_back('}');
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
  std::uint64_t id = 0;
  for (const MessageRecord& m : results.messages) {
    const CallRecord* send = call_of_op(results.calls, program, m.src, m.send_op);
    const CallRecord* recv = call_of_op(results.calls, program, m.dst, m.recv_op);
    if (send == nullptr || recv == nullptr) continue;
    append_message(buffer, m, id++, *send, *recv);
    if (buffer.size() >= kFlushBytes) flush(buffer, out);
  }
  fmt::format_to(std::back_inserter(buffer), "\n]}}\n");
  flush(buffer, out);
}

}  // namespace netwarp::mpiemul
