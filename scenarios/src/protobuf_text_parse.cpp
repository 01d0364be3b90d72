// protobuf_text_parse: TextFormat::Parser with its first error as "FILE:LINE:COL: message"
// (protobuf counts from 0; we add 1), unknown field names answered by the known ones, and the
// ParseInfoTree flattened into dotted field paths so later checks can point at line:col.
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <sstream>

#include "name_list.hpp"
#include "netwarp/scenarios/units.hpp"
#include "text_parse.hpp"

namespace netwarp::scenarios {

namespace {

namespace pb = google::protobuf;
using Tree = pb::TextFormat::ParseInfoTree;

struct ParseError {
  SourceLoc loc;
  std::string message;
};

// The name a parse error is about, when protobuf reports it at the token after the name.
std::string misplaced_name(const std::string& message) {
  static const std::regex unknown_name(
      R"re((?:Message type "[\w.]+" has no field named|Unknown enumeration value of) "(\w+)".*)re");
  std::smatch match;
  return std::regex_match(message, match, unknown_name) ? match[1].str() : "";
}

// Column (from 0) of the last `name` before `column` on `line` (from 0), else `column`.
int column_of(const std::string& text, int line, int column, const std::string& name) {
  std::size_t start = 0;
  for (int l = 0; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string::npos) return column;
    ++start;
  }
  if (name.empty()) return column;
  const std::string before = text.substr(start, static_cast<std::size_t>(column));
  const auto at = before.rfind(name);
  return at == std::string::npos ? column : static_cast<int>(at);
}

// "Message type "netwarp.scenarios.proto.Switch" has no field named "bufer"." -> known names.
std::string explain(const std::string& message) {
  static const std::regex unknown_field(
      R"re(Message type "([\w.]+)" has no field named "(\w+)"\.?)re");
  std::smatch match;
  if (!std::regex_match(message, match, unknown_field)) return message;
  const pb::Descriptor* type =
      pb::DescriptorPool::generated_pool()->FindMessageTypeByName(match[1]);
  if (type == nullptr) return message;
  return "unknown field '" + match[2].str() + "' in " + type->name() +
         " (known: " + known_field_names(*type) + ")";
}

struct Token {
  int column = 0;  // from 0
  std::string text;
};

// The token around `column` (from 0) of `line` (from 0): "128KiB" in "buffer_bytes: 128KiB".
Token token_at(const std::string& text, int line, int column) {
  std::istringstream lines(text);
  std::string row;
  for (int l = 0; l <= line; ++l)
    if (!std::getline(lines, row)) return Token{column, ""};
  const auto is_token_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)); };
  auto first = std::min(static_cast<std::size_t>(std::max(column, 0)), row.size());
  auto last = first;
  while (first > 0 && is_token_char(row[first - 1])) --first;
  while (last < row.size() && is_token_char(row[last])) ++last;
  return Token{static_cast<int>(first), row.substr(first, last - first)};
}

// Protobuf text format has no units: "128KiB" is a number glued to a name. Says what to write.
std::string explain_unit_suffix(const std::string& token) {
  const std::string advice =
      "a scenario file takes plain numbers (protobuf text format has no unit suffixes; --set "
      "accepts them)";
  const auto value = unsigned_with_unit(token);
  if (!value) return "'" + token + "': " + advice;
  return "'" + token + "': write " + std::to_string(*value) + ": " + advice;
}

// Keeps the first error, located (at the offending name where protobuf points past it).
class FirstErrorCollector : public pb::io::ErrorCollector {
 public:
  explicit FirstErrorCollector(const std::string& text) : text_(text) {}
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (first_) return;
    if (message.starts_with("Need space between number and identifier")) {
      const Token token = token_at(text_, line, column);
      first_ = ParseError{SourceLoc{line + 1, token.column + 1}, explain_unit_suffix(token.text)};
      return;
    }
    const int name_column = column_of(text_, line, column, misplaced_name(message));
    first_ = ParseError{SourceLoc{line + 1, name_column + 1}, explain(message)};
  }
  void AddWarning(int, pb::io::ColumnNumber, const std::string&) override {}
  const std::optional<ParseError>& first() const { return first_; }

 private:
  const std::string& text_;
  std::optional<ParseError> first_;
};

void record(std::map<std::string, SourceLoc>& out, const std::string& path,
            pb::TextFormat::ParseLocation at) {
  out.emplace(path, SourceLoc{at.line + 1, at.column + 1});
}

void record_locations(const pb::Message& message, const Tree& tree, const std::string& prefix,
                      std::map<std::string, SourceLoc>& out) {
  const pb::Descriptor& type = *message.GetDescriptor();
  const pb::Reflection& reflection = *message.GetReflection();
  for (int i = 0; i < type.field_count(); ++i) {
    const pb::FieldDescriptor* field = type.field(i);
    const std::string path = prefix.empty() ? field->name() : prefix + "." + field->name();
    const bool is_message = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
    if (!field->is_repeated()) {
      const auto at = tree.GetLocation(field, -1);
      if (at.line < 0) continue;
      record(out, path, at);
      const Tree* nested = is_message ? tree.GetTreeForNested(field, -1) : nullptr;
      if (nested) record_locations(reflection.GetMessage(message, field), *nested, path, out);
      continue;
    }
    for (int j = 0; j < reflection.FieldSize(message, field); ++j) {
      const auto at = tree.GetLocation(field, j);
      if (at.line < 0) continue;
      const std::string element = path + "[" + std::to_string(j) + "]";
      record(out, path, at);  // the first element's place stands for the whole field
      record(out, element, at);
      const Tree* nested = is_message ? tree.GetTreeForNested(field, j) : nullptr;
      if (nested)
        record_locations(reflection.GetRepeatedMessage(message, field, j), *nested, element, out);
    }
  }
}

}  // namespace

ParsedText protobuf_text_parse(const std::string& text, const std::string& name) {
  pb::TextFormat::Parser parser;
  FirstErrorCollector errors(text);
  Tree tree;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&tree);
  ParsedText parsed;
  if (!parser.ParseFromString(text, &parsed.scenario)) {
    const auto first = errors.first().value_or(ParseError{{}, "cannot parse"});
    throw ScenarioError(name, first.loc, "", first.message);
  }
  record_locations(parsed.scenario, tree, "", parsed.locations);
  return parsed;
}

}  // namespace netwarp::scenarios
