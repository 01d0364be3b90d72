// TableRow: JSON and CSV text of one results-table row, the same bytes as nlohmann's dump.
#include "table_row.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace netwarp::apps {
namespace {

// A JSON scalar as netwarp writes JSON (json_text): invalid UTF-8 replaced, not thrown.
std::string scalar_text(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// Printable ASCII other than the quote and the backslash: JSON text needs no escape then.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c <= 0x7e; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();

bool is_plain(std::string_view text) {
  for (const char c : text)
    if (!kPlain[static_cast<unsigned char>(c)]) return false;
  return true;
}

void append_json_string(std::string& out, std::string_view text) {
  if (!is_plain(text)) {
    out += scalar_text(nlohmann::ordered_json(std::string(text)));
    return;
  }
  const std::size_t at = out.size();
  out.resize(at + text.size() + 2);
  char* p = out.data() + at;
  p[0] = '"';
  std::memcpy(p + 1, text.data(), text.size());
  p[text.size() + 1] = '"';
}

// What precedes the value of field `i`: its line, the indent and `"key": `.
void append_key(std::string& out, std::size_t i, const char* key, std::size_t indent) {
  out += i == 0 ? "\n" : ",\n";
  out.append(indent + 2, ' ');
  append_json_string(out, key);
  out += ": ";
}

}  // namespace

const std::string& TableRow::JsonKeys::remake(std::size_t i, const char* key, std::size_t indent) {
  if (indent != indent_) {
    keys_.clear();
    indent_ = indent;
  }
  if (i >= keys_.size()) keys_.resize(i + 1);
  Kept& k = keys_[i];
  k.key = key;
  k.prefix.clear();
  append_key(k.prefix, i, key, indent);
  return k.prefix;
}

TableRow::Field& TableRow::next(Key key, Kind kind) {
  if (size_ == kMaxFields) throw std::logic_error("TableRow: too many fields");
  Field& f = fields_[size_++];
  f.key = key.text();
  f.kind = kind;
  f.number_size = 0;
  return f;
}

void TableRow::add_signed(Key key, std::int64_t value) {
  Field& f = next(key, Kind::signed_integer);
  f.signed_value = value;
  const auto end = std::to_chars(f.number_text, f.number_text + sizeof f.number_text, value).ptr;
  f.number_size = static_cast<std::uint8_t>(end - f.number_text);
}

void TableRow::add_unsigned(Key key, std::uint64_t value) {
  Field& f = next(key, Kind::unsigned_integer);
  f.unsigned_value = value;
  const auto end = std::to_chars(f.number_text, f.number_text + sizeof f.number_text, value).ptr;
  f.number_size = static_cast<std::uint8_t>(end - f.number_text);
}

void TableRow::add(Key key, double value) {
  Field& f = next(key, Kind::real);
  f.real_value = value;
  // As nlohmann's dump prints a double: null when not finite, else its shortest round-trip
  // text (at most 24 characters: "-1.7976931348623157e+308").
  if (!std::isfinite(value)) {
    std::memcpy(f.number_text, "null", 4);
    f.number_size = 4;
  } else {
    char* end =
        nlohmann::detail::to_chars(f.number_text, f.number_text + sizeof f.number_text, value);
    f.number_size = static_cast<std::uint8_t>(end - f.number_text);
  }
}

void TableRow::add_time_or_null(Key key, std::int64_t value_ps) {
  if (value_ps >= 0) return add(key, value_ps);
  add_absent(key);
}

void TableRow::add(Key key, std::string_view value) {
  next(key, Kind::text).text = {value.data(), value.size()};
}

void TableRow::add_absent(Key key) {
  next(key, Kind::absent);
}

void TableRow::append_value_json(std::string& out, std::size_t i) const {
  if (fields_[i].kind == Kind::text) return append_json_string(out, fields_[i].text.view());
  if (fields_[i].kind == Kind::absent) {
    out += "null";
    return;
  }
  out.append(fields_[i].number_text, fields_[i].number_size);
}

namespace {

char* put(char* at, std::string_view text) {
  std::memcpy(at, text.data(), text.size());
  return at + text.size();
}

}  // namespace

// A number's text copied as its whole array (a copy of constant size, two vector moves) with
// kNumberSlack room after `at`.
char* TableRow::put_number(char* at, const NumberText& text, std::size_t size) {
  std::memcpy(at, text, sizeof text);
  return at + size;
}

std::size_t TableRow::value_size(std::size_t i) const {
  const Field& f = fields_[i];
  if (f.kind == Kind::text) return f.text.size;
  return f.kind == Kind::absent ? 4 : f.number_size;
}

bool TableRow::append_json_in_place(std::string& out, std::size_t indent, JsonKeys& keys) const {
  std::size_t size = 3 + indent;  // '{', and after the last field '\n', the indent and '}'
  for (std::size_t i = 0; i < size_; ++i) {
    const Field& f = fields_[i];
    if (f.kind == Kind::text && !is_plain(f.text.view())) return false;
    size += keys.prefix(i, f.key, indent).size() + value_size(i) + (f.kind == Kind::text ? 2 : 0);
  }
  const std::size_t at = out.size();
  out.resize(at + size + kNumberSlack);
  char* w = out.data() + at;
  *w++ = '{';
  for (std::size_t i = 0; i < size_; ++i) {
    const Field& f = fields_[i];
    w = put(w, keys.prefix(i, f.key, indent));  // each kept by the first pass
    switch (f.kind) {
      case Kind::text:
        *w++ = '"';
        w = put(w, f.text.view());
        *w++ = '"';
        break;
      case Kind::absent:
        w = put(w, "null");
        break;
      default:
        w = put_number(w, f.number_text, f.number_size);
    }
  }
  *w++ = '\n';
  std::memset(w, ' ', indent);
  w[indent] = '}';
  out.resize(at + size);
  return true;
}

void TableRow::append_json(std::string& out, std::size_t indent, JsonKeys* keys) const {
  if (size_ == 0) {
    out += "{}";
    return;
  }
  if (keys != nullptr && append_json_in_place(out, indent, *keys)) return;
  out += '{';
  for (std::size_t i = 0; i < size_; ++i) {
    if (keys != nullptr) {
      out += keys->prefix(i, fields_[i].key, indent);
    } else {
      append_key(out, i, fields_[i].key, indent);
    }
    append_value_json(out, i);
  }
  out += '\n';
  out.append(indent, ' ');
  out += '}';
}

void TableRow::append_csv_header(std::string& out) const {
  for (std::size_t i = 0; i < size_; ++i) {
    if (i != 0) out += ',';
    out += fields_[i].key;
  }
  out += '\n';
}

void TableRow::append_csv(std::string& out) const {
  std::size_t size = size_ == 0 ? 1 : size_;  // the commas and the newline
  for (std::size_t i = 0; i < size_; ++i)
    if (fields_[i].kind != Kind::absent) size += value_size(i);
  const std::size_t at = out.size();
  out.resize(at + size + kNumberSlack);
  char* w = out.data() + at;
  for (std::size_t i = 0; i < size_; ++i) {
    if (i != 0) *w++ = ',';
    const Field& f = fields_[i];
    if (f.kind == Kind::text) {
      w = put(w, f.text.view());
    } else {
      w = put_number(w, f.number_text, f.number_size);  // absent: empty
    }
  }
  *w = '\n';
  out.resize(at + size);
}

nlohmann::ordered_json TableRow::to_json() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < size_; ++i) {
    const Field& f = fields_[i];
    switch (f.kind) {
      case Kind::signed_integer:
        j[f.key] = f.signed_value;
        break;
      case Kind::unsigned_integer:
        j[f.key] = f.unsigned_value;
        break;
      case Kind::real:
        j[f.key] = f.real_value;
        break;
      case Kind::text:
        j[f.key] = std::string(f.text.view());
        break;
      case Kind::absent:
        j[f.key] = nullptr;
        break;
    }
  }
  return j;
}

}  // namespace netwarp::apps
