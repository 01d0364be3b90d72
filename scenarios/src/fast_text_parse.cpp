// fast_text_parse: a lexer and a recursive parser that follow protobuf 3.21's text format
// (io::Tokenizer with '#' comments and TextFormat::Parser's defaults) on the subset they accept,
// writing each message's wire bytes and a location tree shaped as TextFormat::ParseInfoTree. On
// anything outside the subset they throw Declined and the caller asks protobuf instead.
#include "text_parse.hpp"

#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "schema_table.hpp"
#include "utf8_check.hpp"

namespace netwarp::scenarios {
namespace {

using schema::Field;
using schema::Kind;
using schema::Message;

struct Declined {};

[[noreturn]] void decline() {
  throw Declined{};
}

constexpr int kMaxDepth = 64;  // deeper than any scenario; protobuf's binary parse allows 100

enum class TokenType { kEnd, kIdentifier, kInteger, kFloat, kString, kSymbol };

struct Token {
  TokenType type = TokenType::kEnd;
  std::string_view text;  // a string's bytes between its quotes
  int line = 0;           // from 0, as protobuf counts
  int column = 0;         // from 0; a tab advances to the next multiple of 8, as protobuf's does
};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) { advance(); }
  const Token& current() const { return token_; }
  bool at_symbol(char symbol) const {
    return token_.type == TokenType::kSymbol && token_.text[0] == symbol;
  }
  void advance();

 private:
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void step();
  void skip_space_and_comments();
  void read_number();
  void read_string();
  void finish(TokenType type, std::size_t start, int line, int column) {
    token_ = Token{type, text_.substr(start, pos_ - start), line, column};
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 0;
  int column_ = 0;
  Token token_;
};

void Lexer::step() {
  const char c = text_[pos_++];
  if (c == '\n') {
    ++line_;
    column_ = 0;
  } else if (c == '\t') {
    column_ += 8 - column_ % 8;
  } else {
    ++column_;
  }
}

void Lexer::skip_space_and_comments() {
  while (pos_ < text_.size()) {
    if (is_space(peek())) {
      step();
    } else if (peek() == '#') {
      while (pos_ < text_.size() && peek() != '\n') step();
    } else {
      return;
    }
  }
}

void Lexer::advance() {
  skip_space_and_comments();
  const std::size_t start = pos_;
  const int line = line_, column = column_;
  const char c = peek();
  if (pos_ >= text_.size()) {
    token_ = Token{TokenType::kEnd, {}, line, column};
  } else if (is_letter(c)) {
    while (is_letter(peek()) || is_digit(peek())) step();
    finish(TokenType::kIdentifier, start, line, column);
  } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
    read_number();
  } else if (c == '"' || c == '\'') {
    read_string();
  } else if (std::strchr("{}<>[]:,;-", c) != nullptr) {
    step();
    finish(TokenType::kSymbol, start, line, column);
  } else {
    decline();
  }
}

// Decimal and hexadecimal integers, decimal floats with an optional exponent. Octal, a float's
// 'f' suffix and a number glued to a name or a second '.' are left to protobuf.
void Lexer::read_number() {
  const std::size_t start = pos_;
  const int line = line_, column = column_;
  bool is_float = false;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
    step();
    step();
    if (!is_hex_digit(peek())) decline();
    while (is_hex_digit(peek())) step();
  } else if (peek() == '0' && is_digit(peek(1))) {
    decline();
  } else {
    while (is_digit(peek())) step();
    if (peek() == '.') {
      is_float = true;
      step();
      while (is_digit(peek())) step();
    }
    if (peek() == 'e' || peek() == 'E') {
      is_float = true;
      step();
      if (peek() == '+' || peek() == '-') step();
      if (!is_digit(peek())) decline();
      while (is_digit(peek())) step();
    }
  }
  if (is_letter(peek()) || is_digit(peek()) || peek() == '.') decline();
  finish(is_float ? TokenType::kFloat : TokenType::kInteger, start, line, column);
}

// A quoted string without escapes on one line.
void Lexer::read_string() {
  const int line = line_, column = column_;
  const char quote = peek();
  step();
  const std::size_t start = pos_;
  while (true) {
    if (pos_ >= text_.size() || peek() == '\n' || peek() == '\\') decline();
    if (peek() == quote) break;
    step();
  }
  token_ = Token{TokenType::kString, text_.substr(start, pos_ - start), line, column};
  step();
}

// Where fields were written within one message value: per field (by its index in the message's
// table) the place of each time it was written and the tree of each message value.
struct LocationTree {
  struct Entry {
    std::vector<SourceLoc> at;
    std::vector<std::unique_ptr<LocationTree>> nested;
    int values = 0;
  };
  std::map<int, Entry> fields;
};

void put_varint(std::string& wire, std::uint64_t value) {
  while (value >= 0x80) {
    wire.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  wire.push_back(static_cast<char>(value));
}

void put_tag(std::string& wire, std::uint32_t number, int wire_type) {
  put_varint(wire, (std::uint64_t{number} << 3) | static_cast<std::uint64_t>(wire_type));
}

void put_bytes(std::string& wire, std::uint32_t number, std::string_view bytes) {
  put_tag(wire, number, 2);
  put_varint(wire, bytes.size());
  wire.append(bytes);
}

int find_field(const Message& type, std::string_view name) {
  for (int i = 0; i < type.field_count; ++i)
    if (type.fields[i].name == name) return i;
  return -1;
}

// protobuf's Tokenizer::ParseInteger on the integers the lexer accepts, within [0, max].
std::uint64_t integer_value(std::string_view text, std::uint64_t max) {
  const bool hex = text.size() > 1 && (text[1] == 'x' || text[1] == 'X');
  if (hex) text.remove_prefix(2);
  std::uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value, hex ? 16 : 10);
  if (error != std::errc() || end != text.data() + text.size() || value > max) decline();
  return value;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : lexer_(text) {}

  std::string parse_root(LocationTree& tree) {
    std::string wire;
    parse_fields(schema::kMessages[schema::kScenarioMessage], wire, tree, '\0', 0);
    return wire;
  }

 private:
  const Token& current() const { return lexer_.current(); }
  void expect(char symbol) {
    if (!lexer_.at_symbol(symbol)) decline();
    lexer_.advance();
  }
  bool take(char symbol) {
    if (!lexer_.at_symbol(symbol)) return false;
    lexer_.advance();
    return true;
  }

  void parse_fields(const Message& type, std::string& wire, LocationTree& tree, char close,
                    int depth);
  void parse_value(const Field& field, std::string& wire, LocationTree::Entry& entry, int depth);
  void parse_message(const Field& field, std::string& wire, LocationTree::Entry& entry, int depth);
  std::uint64_t unsigned_value(std::uint64_t max);
  std::int64_t signed_value(std::uint64_t max);
  double double_value();
  bool bool_value();

  Lexer lexer_;
};

// Fields until `close` ('\0': the end of the text). A field written twice when it holds one
// value, or a second member of a oneof, is protobuf's to judge (an error, or an accepted zero).
void Parser::parse_fields(const Message& type, std::string& wire, LocationTree& tree, char close,
                          int depth) {
  std::vector<bool> written(type.field_count, false);
  std::vector<bool> oneof_written;
  while (close == '\0' ? current().type != TokenType::kEnd
                       : !lexer_.at_symbol('}') && !lexer_.at_symbol('>')) {
    const Token name = current();
    if (name.type != TokenType::kIdentifier) decline();
    const int index = find_field(type, name.text);
    if (index < 0) decline();
    const Field& field = type.fields[index];
    if (field.kind == Kind::kOther) decline();
    if (!field.repeated) {
      if (written[static_cast<std::size_t>(index)]) decline();
      written[static_cast<std::size_t>(index)] = true;
    }
    if (field.oneof >= 0) {
      const auto oneof = static_cast<std::size_t>(field.oneof);
      if (oneof_written.size() <= oneof) oneof_written.resize(oneof + 1, false);
      if (oneof_written[oneof]) decline();
      oneof_written[oneof] = true;
    }
    lexer_.advance();
    if (field.kind == Kind::kMessage)
      take(':');
    else
      expect(':');
    LocationTree::Entry& entry = tree.fields[index];
    if (field.repeated && take('[')) {
      if (!take(']')) {
        while (true) {
          parse_value(field, wire, entry, depth);
          if (take(']')) break;
          expect(',');
        }
      }
    } else {
      parse_value(field, wire, entry, depth);
    }
    if (!take(';')) take(',');
    entry.at.push_back(SourceLoc{name.line + 1, name.column + 1});
  }
}

void Parser::parse_message(const Field& field, std::string& wire, LocationTree::Entry& entry,
                           int depth) {
  char close = '}';
  if (take('<'))
    close = '>';
  else
    expect('{');
  if (depth >= kMaxDepth) decline();
  auto tree = std::make_unique<LocationTree>();
  std::string inner;
  parse_fields(schema::kMessages[field.type], inner, *tree, close, depth + 1);
  expect(close);
  put_bytes(wire, field.number, inner);
  entry.nested.push_back(std::move(tree));
}

std::uint64_t Parser::unsigned_value(std::uint64_t max) {
  if (current().type != TokenType::kInteger) decline();
  const std::uint64_t value = integer_value(current().text, max);
  lexer_.advance();
  return value;
}

std::int64_t Parser::signed_value(std::uint64_t max) {
  const bool negative = take('-');
  const std::uint64_t magnitude = unsigned_value(negative ? max + 1 : max);
  return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

// A decimal integer (as protobuf: converted from uint64) or float, optionally negated.
double Parser::double_value() {
  const bool negative = take('-');
  const std::string_view text = current().text;
  double value = 0;
  if (current().type == TokenType::kInteger) {
    if (text.size() > 1 && (text[1] == 'x' || text[1] == 'X')) decline();
    value = static_cast<double>(integer_value(text, std::numeric_limits<std::uint64_t>::max()));
  } else if (current().type == TokenType::kFloat) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) decline();
  } else {
    decline();
  }
  lexer_.advance();
  return negative ? -value : value;
}

bool Parser::bool_value() {
  if (current().type == TokenType::kInteger) return unsigned_value(1) != 0;
  if (current().type != TokenType::kIdentifier) decline();
  const std::string_view text = current().text;
  const bool is_true = text == "true" || text == "True" || text == "t";
  if (!is_true && text != "false" && text != "False" && text != "f") decline();
  lexer_.advance();
  return is_true;
}

void Parser::parse_value(const Field& field, std::string& wire, LocationTree::Entry& entry,
                         int depth) {
  ++entry.values;
  switch (field.kind) {
    case Kind::kMessage:
      parse_message(field, wire, entry, depth);
      return;
    case Kind::kString: {
      if (current().type != TokenType::kString) decline();
      std::string value;
      for (; current().type == TokenType::kString; lexer_.advance()) value += current().text;
      if (first_invalid_utf8(value) != std::string_view::npos) decline();
      put_bytes(wire, field.number, value);
      return;
    }
    case Kind::kEnum: {
      if (current().type != TokenType::kIdentifier) decline();
      const schema::Enum& type = schema::kEnums[field.type];
      const schema::EnumValue* found = nullptr;
      for (int i = 0; i < type.value_count && found == nullptr; ++i)
        if (type.values[i].name == current().text) found = &type.values[i];
      if (found == nullptr) decline();
      lexer_.advance();
      put_tag(wire, field.number, 0);
      put_varint(wire, static_cast<std::uint64_t>(std::int64_t{found->number}));
      return;
    }
    case Kind::kDouble: {
      const double value = double_value();
      std::uint64_t bits = 0;
      std::memcpy(&bits, &value, sizeof bits);
      put_tag(wire, field.number, 1);
      for (int byte = 0; byte < 8; ++byte) wire.push_back(static_cast<char>(bits >> (8 * byte)));
      return;
    }
    default:
      break;
  }
  std::uint64_t value = 0;
  switch (field.kind) {
    case Kind::kBool:
      value = bool_value() ? 1 : 0;
      break;
    case Kind::kInt32:
      value = static_cast<std::uint64_t>(signed_value(std::numeric_limits<std::int32_t>::max()));
      break;
    case Kind::kInt64:
      value = static_cast<std::uint64_t>(signed_value(std::numeric_limits<std::int64_t>::max()));
      break;
    case Kind::kUint32:
      value = unsigned_value(std::numeric_limits<std::uint32_t>::max());
      break;
    case Kind::kUint64:
      value = unsigned_value(std::numeric_limits<std::uint64_t>::max());
      break;
    default:
      decline();
  }
  put_tag(wire, field.number, 0);
  put_varint(wire, value);
}

// The loader's keys from the tree, as scenario_loader.cpp's record_locations makes them from
// protobuf's: a field's path at the first place it was written, each repeated element's path
// ("links[2]") at the place of its own writing where the tree has one.
void flatten(const LocationTree& tree, const Message& type, const std::string& prefix,
             std::map<std::string, SourceLoc>& out) {
  for (const auto& [index, entry] : tree.fields) {
    const Field& field = type.fields[index];
    const std::string path =
        prefix.empty() ? std::string(field.name) : prefix + "." + std::string(field.name);
    const Message* nested_type =
        field.kind == Kind::kMessage ? &schema::kMessages[field.type] : nullptr;
    if (!field.repeated) {
      out.emplace(path, entry.at.front());
      if (nested_type && !entry.nested.empty())
        flatten(*entry.nested.front(), *nested_type, path, out);
      continue;
    }
    for (int j = 0; j < entry.values && j < static_cast<int>(entry.at.size()); ++j) {
      const auto element = path + "[" + std::to_string(j) + "]";
      out.emplace(path, entry.at[static_cast<std::size_t>(j)]);
      out.emplace(element, entry.at[static_cast<std::size_t>(j)]);
      if (nested_type && j < static_cast<int>(entry.nested.size()))
        flatten(*entry.nested[static_cast<std::size_t>(j)], *nested_type, element, out);
    }
  }
}

}  // namespace

std::optional<ParsedText> fast_text_parse(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  LocationTree tree;
  std::string wire;
  try {
    wire = Parser(text).parse_root(tree);
  } catch (const Declined&) {
    return std::nullopt;
  }
  ParsedText parsed;
  if (!parsed.scenario.ParseFromString(wire)) return std::nullopt;
  flatten(tree, schema::kMessages[schema::kScenarioMessage], "", parsed.locations);
  return parsed;
}

}  // namespace netwarp::scenarios
