// Enum numbers the schema does not define. Proto3 enums are open: the text and binary parsers
// keep `order: 9` as the number 9, and code that switches on the enum then runs its default. Every
// reader of a scenario or trace file refuses such a value, through this one walk over the whole
// message tree by reflection, so a field added to a schema is covered without further code.
#pragma once

#include <google/protobuf/message.h>

#include <optional>
#include <string>

namespace netwarp::mpiemul {

struct UndefinedEnum {
  std::string field;  // dotted path, "[i]" for elements: "workload.all_to_all.order"
  int number = 0;
  std::string message;  // "9 is not a defined Order (known: ...)"
};

// The first enum field (singular, repeated, or a map value) whose number has no name in its
// enum type, in field-number order, depth first; nullopt when every enum value is defined.
std::optional<UndefinedEnum> first_undefined_enum(const google::protobuf::Message& message);

}  // namespace netwarp::mpiemul
