// fast_text_print: decodes the serialized scenario (fields in number order, as
// Reflection::ListFields lists them for TextFormat::Printer) and prints each field as protobuf
// 3.21's Printer does with its defaults: two spaces per level, "name: value", "name {" ... "}",
// doubles as SimpleDtoa, strings as CEscape, enums by name (by number when undefined).
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "schema_table.hpp"
#include "text_print.hpp"

namespace netwarp::scenarios {
namespace {

using schema::Field;
using schema::Kind;
using schema::Message;

struct Malformed {};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  bool done() const { return pos_ >= bytes_.size(); }
  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (done()) throw Malformed{};
      const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
      value |= std::uint64_t{byte & 0x7Fu} << shift;
      if (byte < 0x80) return value;
    }
    throw Malformed{};
  }
  std::uint64_t fixed64() {
    if (bytes_.size() - pos_ < 8) throw Malformed{};
    std::uint64_t value = 0;
    for (int byte = 0; byte < 8; ++byte)
      value |= std::uint64_t{static_cast<unsigned char>(bytes_[pos_++])} << (8 * byte);
    return value;
  }
  std::string_view delimited() {
    const std::uint64_t size = varint();
    if (size > bytes_.size() - pos_) throw Malformed{};
    const std::string_view part = bytes_.substr(pos_, size);
    pos_ += size;
    return part;
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

// protobuf's SimpleDtoa: 15 significant digits, 17 where 15 do not read back as the value.
std::string double_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general,
                           std::numeric_limits<double>::digits10)
                 .ptr;
  double back = 0;
  std::from_chars(buffer, end, back);
  if (back != value)
    end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general,
                        std::numeric_limits<double>::max_digits10)
              .ptr;
  return std::string(buffer, end);
}

// protobuf's CEscape: C escapes, other bytes outside printable ASCII as three octal digits.
void append_escaped(std::string& out, std::string_view bytes) {
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (byte < 0x20 || byte >= 0x7F) {
          const char octal[] = {'\\', static_cast<char>('0' + (byte >> 6)),
                                static_cast<char>('0' + ((byte >> 3) & 7)),
                                static_cast<char>('0' + (byte & 7))};
          out.append(octal, sizeof octal);
        } else {
          out.push_back(c);
        }
    }
  }
}

std::string enum_text(const Field& field, std::int32_t number) {
  const schema::Enum& type = schema::kEnums[field.type];
  for (int i = 0; i < type.value_count; ++i)
    if (type.values[i].number == number) return std::string(type.values[i].name);
  return std::to_string(number);
}

std::string varint_text(const Field& field, std::uint64_t value) {
  switch (field.kind) {
    case Kind::kInt32:
      return std::to_string(static_cast<std::int32_t>(value));
    case Kind::kInt64:
      return std::to_string(static_cast<std::int64_t>(value));
    case Kind::kUint32:
      return std::to_string(static_cast<std::uint32_t>(value));
    case Kind::kUint64:
      return std::to_string(value);
    case Kind::kBool:
      return value != 0 ? "true" : "false";
    case Kind::kEnum:
      return enum_text(field, static_cast<std::int32_t>(value));
    default:
      throw Malformed{};
  }
}

std::string fixed64_text(const Field& field, std::uint64_t bits) {
  if (field.kind != Kind::kDouble) throw Malformed{};
  double value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return double_text(value);
}

const Field& field_numbered(const Message& type, std::uint64_t number) {
  for (int i = 0; i < type.field_count; ++i)
    if (type.fields[i].number == number) return type.fields[i];
  throw Malformed{};
}

void print_message(const Message& type, std::string_view wire, int depth, std::string& out);

void print_line(std::string& out, int depth, const Field& field, const std::string& value) {
  out.append(static_cast<std::size_t>(2 * depth), ' ');
  out.append(field.name);
  out += ": ";
  out += value;
  out += '\n';
}

void print_delimited(const Field& field, std::string_view bytes, int depth, std::string& out) {
  if (field.kind == Kind::kMessage) {
    out.append(static_cast<std::size_t>(2 * depth), ' ');
    out.append(field.name);
    out += " {\n";
    print_message(schema::kMessages[field.type], bytes, depth + 1, out);
    out.append(static_cast<std::size_t>(2 * depth), ' ');
    out += "}\n";
  } else if (field.kind == Kind::kString) {
    std::string value = "\"";
    append_escaped(value, bytes);
    value += '"';
    print_line(out, depth, field, value);
  } else if (field.repeated) {  // packed numbers
    WireReader packed(bytes);
    while (!packed.done())
      print_line(out, depth, field,
                 field.kind == Kind::kDouble ? fixed64_text(field, packed.fixed64())
                                             : varint_text(field, packed.varint()));
  } else {
    throw Malformed{};
  }
}

void print_message(const Message& type, std::string_view wire, int depth, std::string& out) {
  WireReader reader(wire);
  while (!reader.done()) {
    const std::uint64_t key = reader.varint();
    const Field& field = field_numbered(type, key >> 3);
    switch (key & 7) {
      case 0:
        print_line(out, depth, field, varint_text(field, reader.varint()));
        break;
      case 1:
        print_line(out, depth, field, fixed64_text(field, reader.fixed64()));
        break;
      case 2:
        print_delimited(field, reader.delimited(), depth, out);
        break;
      default:
        throw Malformed{};
    }
  }
}

}  // namespace

std::optional<std::string> fast_text_print(const proto::Scenario& scenario) {
  std::string wire;
  if (!scenario.SerializeToString(&wire)) return std::nullopt;
  std::string text;
  try {
    print_message(schema::kMessages[schema::kScenarioMessage], wire, 0, text);
  } catch (const Malformed&) {
    return std::nullopt;
  }
  return text;
}

}  // namespace netwarp::scenarios
