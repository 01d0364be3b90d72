// Summary and JSON of a run's statistics.
#include "run_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <stdexcept>

#include "app_context.hpp"
#include "huge_pages.hpp"
#include "output_file.hpp"

namespace netwarp::apps {
namespace {

std::string grouped(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string bytes_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30))
    return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1ull << 30));
  if (bytes >= (1ull << 20))
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1ull << 20));
  return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024.0);
}

double per_event(const engine::RunStats& s, std::uint64_t bytes) {
  return s.peak_events_in_memory > 0
             ? static_cast<double>(bytes) / static_cast<double>(s.peak_events_in_memory)
             : 0.0;
}
double bytes_per_event(const engine::RunStats& s) {
  return per_event(s, s.engine_bytes_at_peak);
}

// The optimism window's range over the run: "unbounded", "2 us", or "0.5 us .. 64 us".
std::string window_text(const engine::RunStats& s) {
  const auto us = [](engine::SimTime t) {
    return t.is_max() ? std::string("unbounded") : fmt::format("{:g} us", t.to_us());
  };
  if (s.window_narrowest == s.window_widest) return us(s.window_narrowest);
  return us(s.window_narrowest) + " .. " + us(s.window_widest);
}

nlohmann::ordered_json partitions_json(const std::vector<engine::PartitionStats>& partitions) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (std::size_t rank = 0; rank < partitions.size(); ++rank) {
    const engine::PartitionStats& p = partitions[rank];
    nlohmann::ordered_json j;
    j["rank"] = rank;
    j["events_processed"] = p.events_processed;
    j["events_committed"] = p.events_committed;
    j["remote_events_sent"] = p.remote_events_sent;
    j["handling_seconds"] = p.handling_seconds;
    j["communication_seconds"] = p.communication_seconds;
    j["gvt_seconds"] = p.gvt_seconds;
    j["fossil_seconds"] = p.fossil_seconds;
    all.push_back(std::move(j));
  }
  return all;
}

// "4,375,588-4,399,284 events processed (largest 1.00x the mean), 1.79-2.24 s handling (1.10x)":
// how evenly the partitions shared the work; empty for fewer than two.
std::string balance_text(const std::vector<engine::PartitionStats>& partitions) {
  if (partitions.size() < 2) return "";
  const auto spread = [&](auto field) {
    double least = field(partitions[0]), most = least, sum = 0;
    for (const engine::PartitionStats& p : partitions) {
      least = std::min(least, field(p));
      most = std::max(most, field(p));
      sum += field(p);
    }
    const double mean = sum / static_cast<double>(partitions.size());
    return std::array<double, 3>{least, most, mean > 0 ? most / mean : 1.0};
  };
  const auto events = spread(
      [](const engine::PartitionStats& p) { return static_cast<double>(p.events_processed); });
  const auto handling = spread([](const engine::PartitionStats& p) { return p.handling_seconds; });
  return fmt::format(
      "per partition {}-{} events processed (largest {:.2f}x the mean), {:.3g}-{:.3g} s "
      "handling ({:.2f}x)\n",
      grouped(static_cast<std::uint64_t>(events[0])),
      grouped(static_cast<std::uint64_t>(events[1])), events[2], handling[0], handling[1],
      handling[2]);
}

}  // namespace

nlohmann::ordered_json stats_to_json(const engine::RunStats& s) {
  nlohmann::ordered_json j;
  j["kernel"] = s.kernel;
  j["sync"] = s.sync.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s.sync);
  j["ranks"] = s.ranks;
  j["events_processed"] = s.events_processed;
  j["events_committed"] = s.events_committed;
  j["events_safe"] = s.events_safe;
  j["events_rolled_back"] = s.events_rolled_back;
  j["rolled_back_primary"] = s.rolled_back_primary;
  j["rolled_back_secondary"] = s.rolled_back_secondary;
  j["rolled_back_for_memory"] = s.rolled_back_for_memory;
  j["rollbacks"] = s.rollbacks;
  j["remote_events_sent"] = s.remote_events_sent;
  j["anti_messages_sent"] = s.anti_messages_sent;
  j["gvt_rounds"] = s.gvt_rounds;
  j["sole_rank"] =
      s.sole_rank >= 0 ? nlohmann::ordered_json(s.sole_rank) : nlohmann::ordered_json();
  j["efficiency"] = s.efficiency;
  j["event_rate"] = s.event_rate;
  j["wall_seconds"] = s.wall_seconds;
  j["handling_seconds"] = s.handling_seconds;
  j["communication_seconds"] = s.communication_seconds;
  j["gvt_seconds"] = s.gvt_seconds;
  j["fossil_seconds"] = s.fossil_seconds;
  j["partitions"] = partitions_json(s.partitions);
  j["peak_rss_bytes"] = s.peak_rss_bytes;
  j["huge_pages"] = malloc_huge_pages();
  j["peak_events_in_memory"] = s.peak_events_in_memory;
  j["peak_uncommitted"] = s.peak_uncommitted;
  j["peak_engine_bytes_in_use"] = s.peak_engine_bytes_in_use;
  j["engine_bytes_at_peak"] = s.engine_bytes_at_peak;
  j["engine_bytes_per_event"] = bytes_per_event(s);
  j["event_store_bytes_at_peak"] = s.event_store_bytes_at_peak;
  j["event_store_bytes_per_event"] = per_event(s, s.event_store_bytes_at_peak);
  // No end time: null, not SimTime::max()'s 9223372036854775807.
  j["end_time_ps"] =
      s.end_time.is_max() ? nlohmann::ordered_json() : nlohmann::ordered_json(s.end_time.ps());
  j["digest"] = s.digest;
  return j;
}

std::string format_summary(const engine::RunStats& s) {
  std::string out;
  out +=
      fmt::format("kernel        {}{}, {} rank{}\n", s.kernel,
                  s.sync.empty() ? "" : " (sync " + s.sync + ")", s.ranks, s.ranks == 1 ? "" : "s");
  out += fmt::format(
      "events        {} committed, {} processed, {} rolled back ({} primary, {} "
      "secondary, {} for the memory cap, {} rollbacks), {} safe (no Time Warp bookkeeping)\n",
      grouped(s.events_committed), grouped(s.events_processed), grouped(s.events_rolled_back),
      grouped(s.rolled_back_primary), grouped(s.rolled_back_secondary),
      grouped(s.rolled_back_for_memory), grouped(s.rollbacks), grouped(s.events_safe));
  if (s.ranks > 1)
    out += fmt::format("messages      {} remote events, {} anti-messages, {} GVT rounds\n",
                       grouped(s.remote_events_sent), grouped(s.anti_messages_sent),
                       grouped(s.gvt_rounds));
  out += fmt::format("efficiency    {:.2f} %\n", 100 * s.efficiency);
  if (s.kernel == "optimistic")
    out += fmt::format(
        "time          {:.3f} s handling, {:.3f} s messages, {:.3f} s GVT, {:.3f} s "
        "fossil collection (largest rank)\n",
        s.handling_seconds, s.communication_seconds, s.gvt_seconds, s.fossil_seconds);
  if (const std::string balance = balance_text(s.partitions); !balance.empty())
    out += "balance       " + balance;
  out += fmt::format("event rate    {:.3f} M committed events/s ({:.3f} s wall)\n",
                     s.event_rate * 1e-6, s.wall_seconds);
  out += fmt::format(
      "memory        peak RSS {} (largest rank); engine {:.0f} B per event in memory at the "
      "peak of {} events",
      bytes_text(s.peak_rss_bytes), bytes_per_event(s), grouped(s.peak_events_in_memory));
  if (s.engine_bytes_at_peak != s.event_store_bytes_at_peak)
    out += fmt::format(" ({:.0f} B event store, the rest rollback logs)",
                       per_event(s, s.event_store_bytes_at_peak));
  if (malloc_huge_pages()) out += "; malloc asks for transparent huge pages";
  out += "\n";
  if (s.kernel == "optimistic" && s.sole_rank >= 0)
    out += fmt::format(
        "optimism      none needed: rank {} held every LP and handled the events in key order "
        "(no state saving, no rollback); the other ranks waited\n",
        s.sole_rank);
  else if (s.kernel == "optimistic")
    out += fmt::format(
        "optimism      at most {} uncommitted events and {} of engine memory in use "
        "(largest rank); window {}\n",
        grouped(s.peak_uncommitted), bytes_text(s.peak_engine_bytes_in_use), window_text(s));
  out += fmt::format("digest        {}\n", s.digest);
  return out;
}

void check_writable(const std::string& path) {
  output_file::check_writable<UsageError>(path);
}

std::string out_dir_or_default(const std::string& given, const std::string& scenario_name,
                               const std::string& fallback) {
  if (!given.empty()) return given;
  return "out/" + (scenario_name.empty() ? fallback : scenario_name);
}

void create_out_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw UsageError(fmt::format("--out: {}: {}", dir, ec.message()));
}

std::string json_text(const nlohmann::ordered_json& json) {
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write) {
  output_file::write_whole<UsageError>(path, write);
}

void write_json_file(const std::string& path, const nlohmann::ordered_json& json) {
  write_file_atomically(path, [&](std::ostream& out) { out << json_text(json) << '\n'; });
}

nlohmann::ordered_json rank_memory_json(const std::vector<RankMemory>& ranks) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < ranks.size(); ++r)
    rows.push_back({{"rank", r},
                    {"start_rss_bytes", ranks[r].start_bytes},
                    {"built_peak_rss_bytes", ranks[r].built_bytes},
                    {"peak_rss_bytes", ranks[r].peak_bytes}});
  return rows;
}

namespace {

// `text` (json_text of a value) with every line after the first indented by `spaces`: the value
// as it prints nested that deep. JSON text has no raw newline inside a string.
void put_indented(std::ostream& out, const std::string& text, std::size_t spaces) {
  const std::string indent(spaces, ' ');
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    out << indent;
    from = nl + 1;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace

JsonObjectStream::JsonObjectStream(std::ostream& out) : out_(out) {
  out_ << '{';
}

void JsonObjectStream::begin_field(std::string_view key) {
  out_ << (has_fields_ ? ",\n  " : "\n  ") << json_text(nlohmann::ordered_json(key)) << ": ";
  has_fields_ = true;
}

void JsonObjectStream::field(std::string_view key, const nlohmann::ordered_json& value) {
  begin_field(key);
  put_indented(out_, json_text(value), 2);
}

void JsonObjectStream::fields(const nlohmann::ordered_json& object) {
  if (!object.is_object()) throw std::logic_error("JsonObjectStream::fields: not an object");
  if (object.empty()) return;
  // The object's own text less its braces: "\n  \"key\": value,..." at this depth already, in
  // one pass of the serializer rather than one per field.
  const std::string text = json_text(object);
  if (has_fields_) out_ << ',';
  out_.write(text.data() + 1, static_cast<std::streamsize>(text.size() - 3));
  has_fields_ = true;
}

void JsonObjectStream::begin_array(std::string_view key) {
  begin_field(key);
  out_ << '[';
  has_rows_ = false;
}

void JsonObjectStream::row(const nlohmann::ordered_json& value) {
  out_ << (has_rows_ ? ",\n    " : "\n    ");
  put_indented(out_, json_text(value), 4);
  has_rows_ = true;
}

void JsonObjectStream::row(const TableRow& value) {
  text_.assign(has_rows_ ? ",\n    " : "\n    ");
  value.append_json(text_, 4, &row_keys_);
  out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
  has_rows_ = true;
}

void JsonObjectStream::end_array() {
  out_ << (has_rows_ ? "\n  ]" : "]");
}

void JsonObjectStream::close() {
  out_ << (has_fields_ ? "\n}\n" : "}\n");
}

}  // namespace netwarp::apps
