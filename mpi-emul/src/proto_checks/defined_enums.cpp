// first_undefined_enum: a depth-first walk over every set field by protobuf reflection.
#include "netwarp/mpiemul/defined_enums.hpp"

#include <fmt/format.h>

#include <vector>

namespace netwarp::mpiemul {
namespace {

namespace pb = google::protobuf;

std::string known_names(const pb::EnumDescriptor& type) {
  std::string names;
  for (int i = 0; i < type.value_count(); ++i)
    names += fmt::format("{}{}", i == 0 ? "" : ", ", type.value(i)->name());
  return names;
}

std::optional<UndefinedEnum> check_number(const pb::FieldDescriptor& field, int number,
                                          const std::string& path) {
  const pb::EnumDescriptor& type = *field.enum_type();
  if (type.FindValueByNumber(number) != nullptr) return std::nullopt;
  return UndefinedEnum{path, number,
                       fmt::format("{} is not a defined {} value (known: {})", number, type.name(),
                                   known_names(type))};
}

std::optional<UndefinedEnum> walk(const pb::Message& message, const std::string& prefix) {
  const pb::Reflection& reflection = *message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection.ListFields(message, &fields);  // set fields only, by number
  for (const pb::FieldDescriptor* field : fields) {
    const bool is_enum = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_ENUM;
    const bool is_message = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
    if (!is_enum && !is_message) continue;
    const std::string path = prefix.empty() ? field->name() : prefix + "." + field->name();
    std::optional<UndefinedEnum> found;
    if (!field->is_repeated()) {
      found = is_enum ? check_number(*field, reflection.GetEnumValue(message, field), path)
                      : walk(reflection.GetMessage(message, field), path);
      if (found) return found;
      continue;
    }
    for (int j = 0; j < reflection.FieldSize(message, field); ++j) {
      const std::string element = fmt::format("{}[{}]", path, j);
      found = is_enum ? check_number(*field, reflection.GetRepeatedEnumValue(message, field, j),
                                     element)
                      : walk(reflection.GetRepeatedMessage(message, field, j), element);
      if (found) return found;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<UndefinedEnum> first_undefined_enum(const pb::Message& message) {
  return walk(message, "");
}

}  // namespace netwarp::mpiemul
