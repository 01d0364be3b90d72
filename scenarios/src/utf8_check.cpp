// UTF-8 check of every string field of a scenario, by protobuf reflection.
#include "utf8_check.hpp"

#include <fmt/format.h>

#include <string>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::scenarios {
namespace {

namespace pb = google::protobuf;

bool is_continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// Length of the well-formed sequence at text[i] (RFC 3629 section 4, UTF8-octets), 0 if none.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4;
  else
    return 0;
  if (lead == 0xE0) low = 0xA0;   // no overlong 3-byte forms
  if (lead == 0xED) high = 0x9F;  // no surrogates
  if (lead == 0xF0) low = 0x90;   // no overlong 4-byte forms
  if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  if (i + length > text.size() || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (!is_continuation(byte(k))) return 0;
  return length;
}

void check_string(const std::string& value, const std::string& path) {
  const std::size_t at = first_invalid_utf8(value);
  if (at == std::string_view::npos) return;
  throw netmodels::InputError(
      path, fmt::format("not valid UTF-8 (byte 0x{:02X} at offset {}); use plain text",
                        static_cast<unsigned char>(value[at]), at));
}

void check_message(const pb::Message& message, const std::string& prefix) {
  const pb::Descriptor& type = *message.GetDescriptor();
  const pb::Reflection& reflection = *message.GetReflection();
  for (int i = 0; i < type.field_count(); ++i) {
    const pb::FieldDescriptor* field = type.field(i);
    const bool is_string = field->type() == pb::FieldDescriptor::TYPE_STRING;
    const bool is_message = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
    if (!is_string && !is_message) continue;
    const std::string path = prefix.empty() ? field->name() : prefix + "." + field->name();
    if (!field->is_repeated()) {
      if (!reflection.HasField(message, field) && is_message) continue;
      if (is_string) check_string(reflection.GetString(message, field), path);
      if (is_message) check_message(reflection.GetMessage(message, field), path);
      continue;
    }
    for (int j = 0; j < reflection.FieldSize(message, field); ++j) {
      const std::string element = path + "[" + std::to_string(j) + "]";
      if (is_string) check_string(reflection.GetRepeatedString(message, field, j), element);
      if (is_message) check_message(reflection.GetRepeatedMessage(message, field, j), element);
    }
  }
}

}  // namespace

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = sequence_length(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

void check_utf8_strings(const pb::Message& message) {
  check_message(message, "");
}

}  // namespace netwarp::scenarios
