// steps_compare.csv and the per-step error tables of step_compare.hpp.
#include "netwarp/validation/step_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <tuple>

namespace netwarp::validation {
namespace {

using mpiemul::CallKind;
using mpiemul::RankId;

std::int64_t ps(double ns) {
  return std::llround(ns * 1000.0);
}

// A collective call: one call made of messages among several ranks.
bool is_collective(CallKind kind) {
  return kind >= CallKind::barrier && kind != CallKind::comm_split && kind != CallKind::comm_dup &&
         kind != CallKind::comm_create;
}

// The index of the call of `program` that holds operation `op`, or -1.
std::int64_t call_of(const mpiemul::RankProgram& program, std::uint32_t op) {
  const auto& calls = program.calls;
  auto it = std::upper_bound(calls.begin(), calls.end(), op,
                             [](std::uint32_t o, const auto& c) { return o < c.first_op; });
  if (it == calls.begin()) return -1;
  --it;
  if (op >= it->first_op + it->op_count) return -1;
  return it - calls.begin();
}

// "round k" for the rounds of a recursive-doubling allreduce (its tag's phase 2 + k - 1, see
// mpi-emul's allreduce.cpp), else the step's number in the call.
std::string step_label(std::int32_t tag, std::uint32_t number) {
  const int phase = tag & 0xff;
  if ((tag >> 8) == static_cast<int>(CallKind::allreduce) && phase >= 2)
    return fmt::format("round {}", phase - 1);
  return fmt::format("step {}", number);
}

// A message received inside a collective, from the packet run.
struct Received {
  RankId dst = 0;
  std::uint32_t recv_op = 0;
  std::uint32_t call = 0;
  RankId src = 0;
  std::uint64_t bytes = 0;
  std::int32_t tag = 0;
  std::int64_t matched_ps = 0;
};

std::vector<Received> received_in_collectives(const mpiemul::MpiResults& packet,
                                              const mpiemul::Program& program) {
  std::vector<Received> out;
  for (const mpiemul::MessageRecord& m : packet.messages) {
    const mpiemul::RankProgram& p = program.ranks[m.dst];
    const std::int64_t call = call_of(p, m.recv_op);
    if (call < 0 || !is_collective(p.calls[static_cast<std::size_t>(call)].kind)) continue;
    out.push_back(
        {m.dst, m.recv_op, static_cast<std::uint32_t>(call), m.src, m.bytes, m.tag, m.matched_ps});
  }
  std::sort(out.begin(), out.end(), [](const Received& a, const Received& b) {
    return std::tie(a.dst, a.recv_op) < std::tie(b.dst, b.recv_op);
  });
  return out;
}

// One model's matches and call starts, looked up by (rank, op) and (rank, call).
class ModelTimes {
 public:
  explicit ModelTimes(const Prediction& p) : calls_(p.calls) {
    for (const MessagePrediction& m : p.matched)
      matched_.push_back({m.dst, m.recv_op, m.matched_ns});
    std::sort(matched_.begin(), matched_.end());
  }
  bool has_messages() const { return !matched_.empty(); }
  const double* matched(RankId dst, std::uint32_t op) const {
    const auto it =
        std::lower_bound(matched_.begin(), matched_.end(), std::make_tuple(dst, op, -INFINITY));
    if (it == matched_.end() || std::get<0>(*it) != dst || std::get<1>(*it) != op) return nullptr;
    return &std::get<2>(*it);
  }
  const double* call_start(RankId rank, std::uint32_t call) const {
    const auto it = std::lower_bound(calls_.begin(), calls_.end(), std::make_pair(rank, call),
                                     [](const CallPrediction& c, const auto& key) {
                                       return std::make_pair(c.rank, c.call) < key;
                                     });
    if (it == calls_.end() || it->rank != rank || it->call != call) return nullptr;
    return &it->start_ns;
  }

 private:
  std::vector<std::tuple<RankId, std::uint32_t, double>> matched_;
  const std::vector<CallPrediction>& calls_;
};

std::int64_t packet_call_start(const mpiemul::MpiResults& packet, RankId rank, std::uint32_t call,
                               std::int64_t fallback) {
  const auto it =
      std::lower_bound(packet.calls.begin(), packet.calls.end(), std::make_pair(rank, call),
                       [](const mpiemul::CallRecord& c, const auto& key) {
                         return std::make_pair(c.rank, c.call) < key;
                       });
  if (it == packet.calls.end() || it->rank != rank || it->call != call) return fallback;
  return it->start_ps;
}

struct StepSums {
  std::map<std::pair<std::string, std::string>, StepErrorRow> rows;
  double total = 0;
  void add(const std::string& kind, const std::string& step, double abs_error_ns) {
    StepErrorRow& row = rows[{kind, step}];
    row.kind = kind;
    row.step = step;
    ++row.messages;
    row.abs_error_ns += abs_error_ns;
    total += abs_error_ns;
  }
  std::vector<StepErrorRow> ranked() const {
    std::vector<StepErrorRow> out;
    for (const auto& [key, row] : rows) out.push_back(row);
    for (auto& row : out) row.share = total > 0 ? row.abs_error_ns / total : 0;
    std::stable_sort(out.begin(), out.end(), [](const StepErrorRow& a, const StepErrorRow& b) {
      return a.abs_error_ns > b.abs_error_ns;
    });
    return out;
  }
};

std::string header(const std::vector<ModelCalls>& models) {
  std::string h = "rank,call,kind,step,src,bytes,packet_matched_ps,packet_step_ps";
  for (const ModelCalls& m : models)
    h += fmt::format(",{0}_matched_ps,{0}_step_ps,{0}_error_ps", m.model);
  return h + "\n";
}

}  // namespace

std::vector<StepErrorTable> compare_steps(const mpiemul::MpiResults& packet,
                                          const mpiemul::Program& program,
                                          const std::vector<ModelCalls>& models,
                                          std::ostream& csv) {
  csv << header(models);
  std::vector<ModelTimes> times;
  for (const ModelCalls& m : models) times.emplace_back(*m.prediction);
  std::vector<StepSums> sums(models.size());
  const std::vector<Received> received = received_in_collectives(packet, program);
  fmt::memory_buffer b;
  std::int64_t packet_prev = 0;
  std::vector<const double*> model_prev(models.size());
  std::uint32_t number = 0;
  for (std::size_t i = 0; i < received.size(); ++i) {
    const Received& r = received[i];
    const bool first = i == 0 || received[i - 1].dst != r.dst || received[i - 1].call != r.call;
    if (first) {
      number = 0;
      packet_prev = packet_call_start(packet, r.dst, r.call, r.matched_ps);
      for (std::size_t m = 0; m < models.size(); ++m)
        model_prev[m] = times[m].call_start(r.dst, r.call);
    }
    const mpiemul::CallKind kind = program.ranks[r.dst].calls[r.call].kind;
    const std::string kind_name(mpiemul::call_kind_name(kind));
    const std::string step = step_label(r.tag, ++number);
    const std::int64_t packet_step = r.matched_ps - packet_prev;
    packet_prev = r.matched_ps;
    fmt::format_to(std::back_inserter(b), "{},{},{},{},{},{},{},{}", r.dst, r.call, kind_name, step,
                   r.src, r.bytes, r.matched_ps, packet_step);
    for (std::size_t m = 0; m < models.size(); ++m) {
      const double* matched = times[m].matched(r.dst, r.recv_op);
      if (matched == nullptr || model_prev[m] == nullptr) {
        b.append(std::string_view(",,,"));
        model_prev[m] = nullptr;
        continue;
      }
      const std::int64_t model_step = ps(*matched) - ps(*model_prev[m]);
      model_prev[m] = matched;
      const std::int64_t error = model_step - packet_step;
      fmt::format_to(std::back_inserter(b), ",{},{},{}", ps(*matched), model_step, error);
      sums[m].add(kind_name, step, std::abs(static_cast<double>(error)) / 1000.0);
    }
    b.push_back('\n');
    if (b.size() >= (1 << 16)) {
      csv.write(b.data(), static_cast<std::streamsize>(b.size()));
      b.clear();
    }
  }
  csv.write(b.data(), static_cast<std::streamsize>(b.size()));
  std::vector<StepErrorTable> tables;
  for (std::size_t m = 0; m < models.size(); ++m)
    if (times[m].has_messages() && !sums[m].rows.empty())
      tables.push_back({models[m].model, sums[m].total, sums[m].ranked()});
  return tables;
}

std::string step_error_markdown(const std::vector<StepErrorTable>& tables, std::size_t max_rows) {
  std::string md;
  auto out = std::back_inserter(md);
  for (const StepErrorTable& t : tables) {
    fmt::format_to(out,
                   "\n#### {}: where the error is inside collectives ({:.3f} us of |error| in "
                   "all)\n\n| call kind | step | messages | sum of \\|error\\| (us) | share |\n"
                   "|---|---|---:|---:|---:|\n",
                   t.model, t.total_abs_error_ns / 1e3);
    for (std::size_t i = 0; i < t.steps.size() && i < max_rows; ++i) {
      const StepErrorRow& r = t.steps[i];
      fmt::format_to(out, "| {} | {} | {} | {:.3f} | {:.1f} % |\n", r.kind, r.step, r.messages,
                     r.abs_error_ns / 1e3, 100 * r.share);
    }
    if (t.steps.size() > max_rows)
      fmt::format_to(out, "\n({} more steps in the steps_compare file)\n",
                     t.steps.size() - max_rows);
  }
  return md;
}

}  // namespace netwarp::validation
