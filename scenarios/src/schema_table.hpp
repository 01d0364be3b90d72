// The scenario schema as plain tables, generated at build time from scenario.proto's descriptors
// (scenarios/tools/schema_table_gen.cpp) as constants (no initialiser runs at program start):
// what fast_text_parse and fast_text_print need to read and write a scenario without asking
// protobuf to build its descriptors at run time (text_parse.hpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace netwarp::scenarios::schema {

// How a field's value is read and written on the wire. kOther: a kind the fast parser leaves to
// protobuf (float, sint, fixed, bytes, maps, groups).
enum class Kind : std::uint8_t {
  kInt32,
  kInt64,
  kUint32,
  kUint64,
  kDouble,
  kBool,
  kString,
  kEnum,
  kMessage,
  kOther
};

struct Field {
  std::string_view name;
  std::uint32_t number;
  Kind kind;
  bool repeated;
  std::int16_t oneof;  // index within its message, -1 if none
  std::int16_t type;   // index into kMessages (kMessage) or kEnums (kEnum), else -1
};

struct Message {
  std::string_view full_name;
  const Field* fields;  // in declaration order
  std::uint16_t field_count;
};

struct EnumValue {
  std::string_view name;
  std::int32_t number;
};

struct Enum {
  const EnumValue* values;
  std::uint16_t value_count;
};

extern const Message kMessages[];
extern const Enum kEnums[];
extern const int kScenarioMessage;  // the index of netwarp.scenarios.proto.Scenario

}  // namespace netwarp::scenarios::schema
