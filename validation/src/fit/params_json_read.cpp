// Parameter sets from JSON, every field checked (params_json.hpp describes the format).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "json_fields.hpp"
#include "netwarp/validation/model_names.hpp"
#include "netwarp/validation/params_json.hpp"

namespace netwarp::validation {

namespace {

using fit::Json;
using fit::JsonObjectReader;
using netmodels::InputError;

Table read_table(const Json& value, const std::string& path) {
  if (!value.is_array() || value.empty())
    throw InputError(path, "must be a non-empty array of {\"m\": bytes, \"value\": ns}");
  std::vector<TablePoint> points;
  std::set<std::uint64_t> seen;
  for (std::size_t i = 0; i < value.size(); ++i) {
    JsonObjectReader point(value[i], fmt::format("{}[{}]", path, i));
    const std::uint64_t m = point.integer("m");
    if (!seen.insert(m).second) throw InputError(point.child("m"), fmt::format("m = {} twice", m));
    points.push_back({m, point.number("value")});
    point.reject_unknown_keys();
  }
  return Table(std::move(points));
}

std::uint32_t read_processors(JsonObjectReader& in) {
  const std::uint64_t P = in.integer("P");
  if (P < 1 || P > 0xFFFFFFFFu)
    throw InputError(in.child("P"), fmt::format("must be >= 1 processors, got {}", P));
  return static_cast<std::uint32_t>(P);
}

LogGpsParams read_loggps(JsonObjectReader& in) {
  LogGpsParams p;
  p.L = in.number("L");
  p.o = in.number("o");
  p.Oss = in.number("Oss");
  p.Ors = in.number("Ors");
  p.Osl = in.number("Osl");
  p.Orl = in.number("Orl");
  p.Gs = in.number("Gs");
  p.Gl = in.number("Gl");
  p.s = in.integer("s");
  p.S = in.integer("S");
  if (p.s > p.S)
    throw InputError(in.child("s"), fmt::format("must be <= S ({}), got {}", p.S, p.s));
  return p;
}

PlogpParams read_plogp(JsonObjectReader& in) {
  PlogpParams p;
  p.L = in.number("L");
  p.o_s = read_table(in.value("o_s"), in.child("o_s"));
  p.o_r = read_table(in.value("o_r"), in.child("o_r"));
  p.g = read_table(in.value("g"), in.child("g"));
  return p;
}

PlogpBrParams read_plogp_br(JsonObjectReader& in) {
  PlogpBrParams p;
  p.base = read_plogp(in);
  JsonObjectReader patterns(in.value("g_by_pattern"), in.child("g_by_pattern"));
  for (const auto& [name, table] : in.value("g_by_pattern").items())
    p.g_by_pattern.emplace(name, read_table(table, patterns.child(name)));
  p.q_bytes = in.number("q_bytes");
  p.flow_control = in.boolean("flow_control");
  p.rto_ns = in.number("rto_ns");
  return p;
}

ModelParams read_params(ModelKind kind, JsonObjectReader& in) {
  switch (kind) {
    case ModelKind::hockney:
      return HockneyParams{in.number("alpha"), in.number("beta")};
    case ModelKind::logp:
      return LogPParams{in.number("L"), in.number("o"), in.number("g"), read_processors(in)};
    case ModelKind::loggp:
      return LogGpParams{in.number("L"), in.number("o"), in.number("g"), in.number("G"),
                         read_processors(in)};
    case ModelKind::loggps:
      return read_loggps(in);
    case ModelKind::plogp:
      return read_plogp(in);
    case ModelKind::plogp_br:
      return read_plogp_br(in);
    case ModelKind::mpiete:
      return MpieteParams{read_table(in.value("t_comm"), in.child("t_comm"))};
    default:
      break;
  }
  throw InputError("model", fmt::format("'{}' has no parameter file", model_name(kind)));
}

ModelKind read_model(JsonObjectReader& in) {
  const std::string name = in.string("model");
  std::vector<std::string_view> known;
  for (const ModelKind kind : kParamsModels) {
    if (model_name(kind) == name) return kind;
    known.push_back(model_name(kind));
  }
  throw InputError("model",
                   fmt::format("unknown model '{}' (known: {})", name, fmt::join(known, ", ")));
}

void check_units(JsonObjectReader& in) {
  if (!in.has("units")) return;
  JsonObjectReader units(in.value("units"), "units");
  if (units.string("time") != "ns") throw InputError("units.time", "must be \"ns\"");
  if (units.string("per_byte") != "ns/byte")
    throw InputError("units.per_byte", "must be \"ns/byte\"");
  units.reject_unknown_keys();
}

FitReport read_fit(const Json& value) {
  JsonObjectReader in(value, "fit");
  FitReport fit;
  const Json& rows = in.value("residuals");
  if (!rows.is_array()) throw InputError("fit.residuals", "must be an array");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    JsonObjectReader row(rows[i], fmt::format("fit.residuals[{}]", i));
    fit.residuals.push_back({row.string("series"), row.integer("k"),
                             row.signed_number("measured_ns"), row.signed_number("model_ns"),
                             row.signed_number("error_pct")});
    row.reject_unknown_keys();
  }
  fit.max_abs_error_pct = in.number("max_abs_error_pct");
  const Json& notes = in.value("notes");
  if (!notes.is_array()) throw InputError("fit.notes", "must be an array of strings");
  for (std::size_t i = 0; i < notes.size(); ++i) {
    if (!notes[i].is_string())
      throw InputError(fmt::format("fit.notes[{}]", i), "must be a string");
    fit.notes.push_back(notes[i].get<std::string>());
  }
  in.reject_unknown_keys();
  return fit;
}

IntraNodeParams read_intra_node(const Json& value) {
  JsonObjectReader in(value, "intra_node");
  IntraNodeParams p;
  p.latency = in.number("latency");
  p.o = in.number("o");
  p.copy = in.number("copy");
  p.eager_bytes = in.integer("eager_bytes");
  p.single_copy_setup = in.number("single_copy_setup");
  p.single_copy = in.number("single_copy");
  in.reject_unknown_keys();
  return p;
}

}  // namespace

ParamsDocument params_from_json(const nlohmann::ordered_json& json) {
  JsonObjectReader top(json, "");
  const ModelKind kind = read_model(top);
  check_units(top);
  JsonObjectReader params(top.value("params"), "params");
  ParamsDocument document{read_params(kind, params), "", std::nullopt};
  params.reject_unknown_keys();
  if (top.has("source")) document.source = top.string("source");
  if (top.has("fit")) document.fit = read_fit(top.value("fit"));
  if (top.has("intra_node")) read_intra_node(top.value("intra_node"));  // intra_node_from_json
  // Where it was fitted (platform_record.hpp): read by predict, which compares it.
  if (top.has("platform") && !top.value("platform").is_object())
    throw InputError("platform", "must be an object (written by netwarp fit)");
  top.reject_unknown_keys();
  return document;
}

std::optional<IntraNodeParams> intra_node_from_json(const nlohmann::ordered_json& json) {
  if (!json.is_object() || !json.contains("intra_node")) return std::nullopt;
  return read_intra_node(json.at("intra_node"));
}

ParamsFileError::ParamsFileError(std::string file, const std::string& field,
                                 const std::string& message)
    : netmodels::InputError(field, message),
      file_(std::move(file)),
      text_(netmodels::printable(field.empty()
                                     ? fmt::format("{}: {}", file_, message)
                                     : fmt::format("{}: {}: {}", file_, field, message))) {}

namespace {

// "FILE:LINE:COL" of the 1-based byte offset a JSON parse error reports.
std::string at_byte(const std::string& path, const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte == 0 ? 0 : byte - 1, text.size());
  const std::size_t line_start = text.rfind('\n', end == 0 ? 0 : end - 1);
  const auto line =
      1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n');
  const std::size_t column = line_start == std::string::npos ? end + 1 : end - line_start;
  return fmt::format("{}:{}:{}", path, line, column);
}

}  // namespace

std::string json_syntax_error(const std::string& path, const std::string& text,
                              const nlohmann::json::parse_error& error) {
  // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error
  // while parsing value - invalid literal; last read: 'x'"; keep what and while reading what.
  const std::string what = error.what();
  const std::size_t parsing = what.find("while parsing ");
  std::string reason = "a syntax error";
  if (parsing != std::string::npos) {
    const std::string rest = what.substr(parsing + 14);
    const std::size_t dash = rest.find(" - ");
    reason = dash == std::string::npos
                 ? rest
                 : fmt::format("{}, reading a {}", rest.substr(dash + 3), rest.substr(0, dash));
  }
  return fmt::format("{}: not valid JSON: {}", at_byte(path, text, error.byte), reason);
}

ParamsDocument read_params_file(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw ParamsFileError(path, "", "is a directory");
  std::ifstream in(path);
  if (!in) throw ParamsFileError(path, "", fmt::format("cannot open: {}", std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  Json json;
  try {
    json = Json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw ParamsFileError(at_byte(path, text.str(), e.byte), "", "not valid JSON");
  } catch (const nlohmann::json::out_of_range&) {  // a number beyond double's range
    throw ParamsFileError(path, "", "not valid JSON: a number is out of range");
  }
  try {
    return params_from_json(json);
  } catch (const InputError& e) {
    throw ParamsFileError(path, e.field(), e.message());
  }
}

}  // namespace netwarp::validation
