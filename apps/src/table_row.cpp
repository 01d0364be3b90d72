// TableRow: JSON and CSV text of one results-table row, the same bytes as nlohmann's dump.
#include "table_row.hpp"

#include <fmt/format.h>

#include <array>
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

const std::string& TableRow::JsonKeys::prefix(std::size_t i, const char* key, std::size_t indent) {
  if (indent != indent_) {
    keys_.clear();
    indent_ = indent;
  }
  if (i >= keys_.size()) keys_.resize(i + 1);
  Key& k = keys_[i];
  if (k.prefix.empty() || k.name != key) {
    k.name = key;
    k.prefix.clear();
    append_key(k.prefix, i, key, indent);
  }
  return k.prefix;
}

void TableRow::push(const Field& field) {
  if (size_ == kMaxFields) throw std::logic_error("TableRow: too many fields");
  fields_[size_++] = field;
}

void TableRow::add(const char* key, double value) {
  Field f{key, Kind::real, 0, {}, 0, 0, value, {}};
  // As nlohmann's dump prints a double: null when not finite, else its shortest round-trip
  // text (at most 24 characters: "-1.7976931348623157e+308").
  if (!std::isfinite(value)) {
    std::memcpy(f.real_text, "null", 4);
    f.real_size = 4;
  } else {
    char* end = nlohmann::detail::to_chars(f.real_text, f.real_text + sizeof f.real_text, value);
    f.real_size = static_cast<std::uint8_t>(end - f.real_text);
  }
  push(f);
}

void TableRow::add_time_or_null(const char* key, std::int64_t value_ps) {
  if (value_ps >= 0) return add(key, value_ps);
  add_absent(key);
}

void TableRow::add(const char* key, std::string_view value) {
  push({key, Kind::text, 0, {}, 0, 0, 0, value});
}

void TableRow::add_absent(const char* key) {
  push({key, Kind::absent, 0, {}, 0, 0, 0, {}});
}

void TableRow::append_number(std::string& out, std::size_t i) const {
  const Field& f = fields_[i];
  switch (f.kind) {
    case Kind::signed_integer: {
      const fmt::format_int text(f.signed_value);
      out.append(text.data(), text.size());
      break;
    }
    case Kind::unsigned_integer: {
      const fmt::format_int text(f.unsigned_value);
      out.append(text.data(), text.size());
      break;
    }
    case Kind::real:
      out.append(f.real_text, f.real_size);
      break;
    case Kind::text:
    case Kind::absent:
      break;
  }
}

void TableRow::append_value_json(std::string& out, std::size_t i) const {
  if (fields_[i].kind == Kind::text) return append_json_string(out, fields_[i].text);
  if (fields_[i].kind == Kind::absent) {
    out += "null";
    return;
  }
  append_number(out, i);
}

void TableRow::append_json(std::string& out, std::size_t indent, JsonKeys* keys) const {
  if (size_ == 0) {
    out += "{}";
    return;
  }
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
  for (std::size_t i = 0; i < size_; ++i) {
    if (i != 0) out += ',';
    if (fields_[i].kind == Kind::text) {
      out += fields_[i].text;
    } else {
      append_number(out, i);
    }
  }
  out += '\n';
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
        j[f.key] = std::string(f.text);
        break;
      case Kind::absent:
        j[f.key] = nullptr;
        break;
    }
  }
  return j;
}

}  // namespace netwarp::apps
