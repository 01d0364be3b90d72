// calls CSV of predict, calls_compare.csv of validate and the error ranking of call_compare.hpp.
#include "netwarp/validation/call_compare.hpp"

#include "netwarp/mpiemul/mpi_outputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

namespace netwarp::validation {
namespace {

using mpiemul::CallRecord;
using mpiemul::RankId;

std::int64_t ps(double ns) {
  return std::llround(ns * 1000.0);
}

// The predicted call of (rank, call), found through the offset of each rank's first call.
class CallIndex {
 public:
  explicit CallIndex(const Prediction& p) : calls_(p.calls) {
    for (std::size_t i = 0; i < calls_.size(); ++i)
      if (i == 0 || calls_[i].rank != calls_[i - 1].rank) first_[calls_[i].rank] = i;
  }
  const CallPrediction* find(RankId rank, std::uint32_t call) const {
    const auto it = first_.find(rank);
    if (it == first_.end()) return nullptr;
    const std::size_t i = it->second + call;
    if (i >= calls_.size() || calls_[i].rank != rank || calls_[i].call != call) return nullptr;
    return &calls_[i];
  }

 private:
  const std::vector<CallPrediction>& calls_;
  std::map<RankId, std::size_t> first_;
};

void append_split(fmt::memory_buffer& b, const TimeSplit& s) {
  fmt::format_to(std::back_inserter(b), ",{},{},{},{},{}", ps(s.overhead), ps(s.send_wait),
                 ps(s.recv_wait), ps(s.sync), ps(s.compute));
}

void append_record_split(fmt::memory_buffer& b, const CallRecord& c) {
  fmt::format_to(std::back_inserter(b), ",{},{},{},{},{}", c.overhead_ps, c.send_wait_ps,
                 c.recv_wait_ps, c.sync_ps, c.compute_ps);
}

void flush_if_full(fmt::memory_buffer& b, std::ostream& out, bool force = false) {
  if (!force && b.size() < (1 << 16)) return;
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
  b.clear();
}

constexpr const char* kSplitColumns = "overhead_ps,send_wait_ps,recv_wait_ps,sync_ps,compute_ps";

std::string compare_header(const std::vector<ModelCalls>& models) {
  std::string h = "rank,call,kind,source,packet_start_ps,packet_end_ps";
  for (const char* part : {"overhead", "send_wait", "recv_wait", "sync", "compute"})
    h += fmt::format(",packet_{}_ps", part);
  for (const auto& m : models) {
    h += fmt::format(",{0}_start_ps,{0}_end_ps", m.model);
    for (const char* part : {"overhead", "send_wait", "recv_wait", "sync", "compute"})
      h += fmt::format(",{}_{}_ps", m.model, part);
    h += fmt::format(",{}_error_ps", m.model);
  }
  return h + "\n";
}

// Sums |error| per key.
struct ErrorSums {
  std::map<std::string, CallErrorRow> rows;
  double total = 0;
  void add(const std::string& key, double abs_error) {
    CallErrorRow& row = rows[key];
    row.key = key;
    ++row.calls;
    row.abs_error_ns += abs_error;
    total += abs_error;
  }
  std::vector<CallErrorRow> ranked() const {
    std::vector<CallErrorRow> out;
    for (const auto& [key, row] : rows) out.push_back(row);
    for (auto& row : out) row.share = total > 0 ? row.abs_error_ns / total : 0;
    std::stable_sort(out.begin(), out.end(), [](const CallErrorRow& a, const CallErrorRow& b) {
      return a.abs_error_ns > b.abs_error_ns;
    });
    return out;
  }
};

}  // namespace

std::string call_source(const mpiemul::Program& program, const std::string& program_name,
                        RankId rank, std::uint32_t call) {
  const mpiemul::RankProgram& p = program.ranks[rank];
  if (call < p.call_lines.size() && p.call_lines[call] > 0)
    return fmt::format("{}:{}", p.source_file, p.call_lines[call]);
  if (!p.source_file.empty()) return fmt::format("{} (rank {} call {})", p.source_file, rank, call);
  return fmt::format("{} call {}", program_name, call);
}

void write_predicted_calls_csv(const Prediction& prediction, const mpiemul::Program& program,
                               const std::string& program_name, std::ostream& out) {
  out << "rank,call,kind,source,start_ps,end_ps,duration_ps," << kSplitColumns << "\n";
  fmt::memory_buffer b;
  for (const CallPrediction& c : prediction.calls) {
    const mpiemul::Call& call = program.ranks[c.rank].calls[c.call];
    fmt::format_to(std::back_inserter(b), "{},{},{},\"{}\",{},{},{}", c.rank, c.call,
                   mpiemul::call_kind_name(call.kind),
                   call_source(program, program_name, c.rank, c.call), ps(c.start_ns), ps(c.end_ns),
                   ps(c.end_ns) - ps(c.start_ns));
    append_split(b, c.split);
    b.push_back('\n');
    flush_if_full(b, out);
  }
  flush_if_full(b, out, true);
}

std::vector<CallErrorTable> compare_calls(const mpiemul::MpiResults& packet,
                                          const mpiemul::Program& program,
                                          const std::string& program_name,
                                          const std::vector<ModelCalls>& models,
                                          std::ostream& csv) {
  csv << compare_header(models);
  std::vector<CallIndex> indexes;
  for (const auto& m : models) indexes.emplace_back(*m.prediction);
  std::vector<ErrorSums> by_kind(models.size());
  std::vector<ErrorSums> by_source(models.size());
  fmt::memory_buffer b;
  for (const CallRecord& c : packet.calls) {
    const std::string kind(mpiemul::call_kind_name(c.kind));
    const std::string source = call_source(program, program_name, c.rank, c.call);
    fmt::format_to(std::back_inserter(b), "{},{},{},\"{}\",{},{}", c.rank, c.call, kind, source,
                   c.start_ps, c.end_ps);
    append_record_split(b, c);
    for (std::size_t m = 0; m < models.size(); ++m) {
      const CallPrediction* p = indexes[m].find(c.rank, c.call);
      if (p == nullptr) {
        b.append(std::string_view(",,,,,,,,"));
        continue;
      }
      const std::int64_t error = (ps(p->end_ns) - ps(p->start_ns)) - (c.end_ps - c.start_ps);
      fmt::format_to(std::back_inserter(b), ",{},{}", ps(p->start_ns), ps(p->end_ns));
      append_split(b, p->split);
      fmt::format_to(std::back_inserter(b), ",{}", error);
      const double abs_ns = std::abs(static_cast<double>(error)) / 1000.0;
      by_kind[m].add(kind, abs_ns);
      by_source[m].add(source, abs_ns);
    }
    b.push_back('\n');
    flush_if_full(b, csv);
  }
  flush_if_full(b, csv, true);
  std::vector<CallErrorTable> tables;
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (models[m].prediction->calls.empty()) continue;
    tables.push_back(
        {models[m].model, by_kind[m].total, by_kind[m].ranked(), by_source[m].ranked()});
  }
  return tables;
}

namespace {

void append_process(fmt::memory_buffer& b, int pid, const std::string& name, RankId ranks) {
  auto out = std::back_inserter(b);
  fmt::format_to(out,
                 "{}{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"tid\":0,"
                 "\"args\":{{\"name\":\"{}\"}}}},\n"
                 "{{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":{},\"tid\":0,"
                 "\"args\":{{\"sort_index\":{}}}}}",
                 pid == 0 ? "" : ",\n", pid, name, pid, pid);
  for (RankId r = 0; r < ranks; ++r)
    fmt::format_to(out,
                   ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},"
                   "\"args\":{{\"name\":\"{} rank {}\"}}}}",
                   pid, r, name, r);
}

void append_slice(fmt::memory_buffer& b, int pid, RankId rank, std::string_view kind,
                  std::uint32_t call, std::int64_t start_ps, std::int64_t end_ps,
                  const TimeSplit& split_ns) {
  fmt::format_to(std::back_inserter(b),
                 ",\n{{\"name\":\"{}\",\"cat\":\"call\",\"ph\":\"X\",\"pid\":{},\"tid\":{},"
                 "\"ts\":{},\"dur\":{},\"args\":{{\"call\":{},\"overhead_ps\":{},"
                 "\"send_wait_ps\":{},\"recv_wait_ps\":{},\"sync_ps\":{},\"compute_ps\":{}}}}}",
                 kind, pid, rank, mpiemul::ps_to_us_decimal(start_ps),
                 mpiemul::ps_to_us_decimal(end_ps - start_ps), call, ps(split_ns.overhead),
                 ps(split_ns.send_wait), ps(split_ns.recv_wait), ps(split_ns.sync),
                 ps(split_ns.compute));
}

TimeSplit split_of(const CallRecord& c) {
  const auto ns = [](std::int64_t v) { return static_cast<double>(v) / 1000.0; };
  return {ns(c.compute_ps), ns(c.overhead_ps), ns(c.send_wait_ps), ns(c.recv_wait_ps),
          ns(c.sync_ps)};
}

}  // namespace

std::string write_compare_timeline(const mpiemul::MpiResults& packet,
                                   const mpiemul::Program& program,
                                   const std::vector<ModelCalls>& models, std::ostream& out,
                                   const TimelineLimit& limit) {
  const RankId ranks = std::min<RankId>(program.size(), limit.ranks);
  std::uint32_t most_calls = 0;
  for (const mpiemul::RankProgram& p : program.ranks)
    most_calls = std::max(most_calls, static_cast<std::uint32_t>(p.calls.size()));
  const auto shown = [&](RankId rank, std::uint32_t call) {
    return rank < ranks && call < limit.calls_per_rank;
  };
  fmt::memory_buffer b;
  fmt::format_to(std::back_inserter(b), "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  append_process(b, 0, "packet", ranks);
  for (const CallRecord& c : packet.calls) {
    if (!shown(c.rank, c.call)) continue;
    append_slice(b, 0, c.rank, mpiemul::call_kind_name(c.kind), c.call, c.start_ps, c.end_ps,
                 split_of(c));
    flush_if_full(b, out);
  }
  int pid = 0;
  for (const ModelCalls& m : models) {
    if (m.prediction->calls.empty()) continue;
    append_process(b, ++pid, m.model, ranks);
    for (const CallPrediction& c : m.prediction->calls) {
      if (!shown(c.rank, c.call)) continue;
      append_slice(b, pid, c.rank,
                   mpiemul::call_kind_name(program.ranks[c.rank].calls[c.call].kind), c.call,
                   ps(c.start_ns), ps(c.end_ns), c.split);
      flush_if_full(b, out);
    }
  }
  fmt::format_to(std::back_inserter(b), "\n]}}\n");
  flush_if_full(b, out, true);
  std::string left_out;
  if (ranks < program.size()) left_out = fmt::format("ranks 0-{} of {}", ranks - 1, program.size());
  if (most_calls > limit.calls_per_rank)
    left_out += fmt::format("{}the first {} calls of each rank (of up to {})",
                            left_out.empty() ? "" : ", ", limit.calls_per_rank, most_calls);
  return left_out;
}

std::string call_error_markdown(const std::vector<CallErrorTable>& tables,
                                std::size_t max_sources) {
  std::string md;
  auto out = std::back_inserter(md);
  for (const CallErrorTable& t : tables) {
    fmt::format_to(out, "\n#### {}: where the call-time error is ({:.3f} us of |error| in all)\n\n",
                   t.model, t.total_abs_error_ns / 1e3);
    fmt::format_to(
        out, "| call kind | calls | sum of \\|error\\| (us) | share |\n|---|---:|---:|---:|\n");
    for (const CallErrorRow& r : t.kinds)
      fmt::format_to(out, "| {} | {} | {:.3f} | {:.1f} % |\n", r.key, r.calls, r.abs_error_ns / 1e3,
                     100 * r.share);
    fmt::format_to(out,
                   "\n| call source | calls | sum of \\|error\\| (us) | share |\n"
                   "|---|---:|---:|---:|\n");
    for (std::size_t i = 0; i < t.sources.size() && i < max_sources; ++i) {
      const CallErrorRow& r = t.sources[i];
      fmt::format_to(out, "| {} | {} | {:.3f} | {:.1f} % |\n", r.key, r.calls, r.abs_error_ns / 1e3,
                     100 * r.share);
    }
    if (t.sources.size() > max_sources)
      fmt::format_to(out, "\n({} more sources in calls_compare.csv)\n",
                     t.sources.size() - max_sources);
  }
  return md;
}

}  // namespace netwarp::validation
