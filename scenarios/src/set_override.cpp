// --set overrides: walk a dotted path through the scenario by reflection, creating messages
// (and switching oneofs) on the way, then parse the value for the last field's type. Errors
// name the whole assignment and either the known fields at the failing level or the kind of
// value expected.
#include "set_override.hpp"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "name_list.hpp"
#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::scenarios {

namespace {

namespace pb = google::protobuf;
using Field = pb::FieldDescriptor;

struct Failure {
  std::string reason;
};

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// A path step: "flow[2]" selects entry 2 of the list `flow`; "workloads[incast]" the entry of
// `workloads` whose `name` is "incast"; "flow" the field itself.
struct Step {
  std::string field;
  std::optional<int> index;
  std::string key;  // [name]
  bool selects() const { return index.has_value() || !key.empty(); }
};

Step split_step(const std::string& name) {
  const auto open = name.find('[');
  if (open == std::string::npos || name.back() != ']') return {name, std::nullopt, ""};
  const std::string inside = name.substr(open + 1, name.size() - open - 2);
  if (inside.empty()) throw Failure{"empty selector in '" + name + "'"};
  if (!std::isdigit(static_cast<unsigned char>(inside.front())))
    return {name.substr(0, open), std::nullopt, inside};
  int index = -1;
  const auto [end, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), index);
  if (ec != std::errc{} || end != inside.data() + inside.size() || index < 0)
    throw Failure{"bad index in '" + name + "'"};
  return {name.substr(0, open), index, ""};
}

// The entry of the repeated message field whose `name` is `key`.
pb::Message& entry_named(pb::Message& message, const Field& field, const std::string& key) {
  const pb::Reflection& r = *message.GetReflection();
  const Field* name = field.message_type()->FindFieldByName("name");
  if (name == nullptr || name->cpp_type() != Field::CPPTYPE_STRING || name->is_repeated())
    throw Failure{"'" + field.name() + "' entries have no name: select one by index, [i]"};
  std::string known;
  for (int i = 0; i < r.FieldSize(message, &field); ++i) {
    pb::Message& entry = *r.MutableRepeatedMessage(&message, &field, i);
    const std::string entry_name = entry.GetReflection()->GetString(entry, name);
    if (entry_name == key) return entry;
    known += (known.empty() ? "" : ", ") + entry_name;
  }
  throw Failure{"no entry of '" + field.name() + "' is named '" + key +
                "' (named: " + (known.empty() ? std::string("none") : known) + ")"};
}

const Field& find_field(const pb::Descriptor& type, const std::string& name) {
  const Field* field = type.FindFieldByName(name);
  if (field == nullptr)
    throw Failure{"unknown field '" + name + "' (known: " + known_field_names(type) + ")"};
  return *field;
}

// 1k = 1000, 1Ki = 1024 ..., optionally followed by B.
std::optional<std::uint64_t> unit_multiplier(std::string suffix) {
  if (suffix.ends_with('B')) suffix.pop_back();
  const std::pair<const char*, std::uint64_t> units[] = {{"", 1},
                                                         {"k", 1000},
                                                         {"K", 1000},
                                                         {"M", 1000'000},
                                                         {"G", 1000'000'000},
                                                         {"T", 1000'000'000'000},
                                                         {"Ki", 1ull << 10},
                                                         {"Mi", 1ull << 20},
                                                         {"Gi", 1ull << 30},
                                                         {"Ti", 1ull << 40}};
  for (const auto& [name, multiplier] : units)
    if (suffix == name) return multiplier;
  return std::nullopt;
}

// Parses "[-]digits[unit]" into a signed 128-bit-safe pair (negative, magnitude).
std::pair<bool, std::uint64_t> parse_integer(const std::string& value) {
  const bool negative = value.starts_with('-');
  const char* first = value.data() + (negative ? 1 : 0);
  const char* last = value.data() + value.size();
  std::uint64_t magnitude = 0;
  const auto [end, ec] = std::from_chars(first, last, magnitude);
  const auto multiplier = unit_multiplier(std::string(end, last));
  if (ec == std::errc::result_out_of_range) throw Failure{"integer out of range: '" + value + "'"};
  if (ec != std::errc{} || !multiplier) throw Failure{"expected an integer, got '" + value + "'"};
  if (magnitude > std::numeric_limits<std::uint64_t>::max() / *multiplier)
    throw Failure{"integer out of range: '" + value + "'"};
  return {negative, magnitude * *multiplier};
}

template <typename T>
T parse_ranged(const std::string& value) {
  const auto [negative, magnitude] = parse_integer(value);
  if (negative && magnitude != 0) {
    if constexpr (std::is_unsigned_v<T>) {
      throw Failure{"expected a non-negative integer, got '" + value + "'"};
    } else {
      if (magnitude > std::uint64_t{std::numeric_limits<T>::max()} + 1)
        throw Failure{"integer out of range: '" + value + "'"};
      return static_cast<T>(-static_cast<std::int64_t>(magnitude - 1) - 1);
    }
  }
  if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
    throw Failure{"integer out of range: '" + value + "'"};
  return static_cast<T>(magnitude);
}

double parse_real(const std::string& value) {
  double result = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), result);
  if (ec != std::errc{} || end != value.data() + value.size() || value.empty())
    throw Failure{"expected a number, got '" + value + "'"};
  return result;
}

bool parse_bool(const std::string& value) {
  const std::string text = lower(value);
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw Failure{"expected true or false, got '" + value + "'"};
}

const pb::EnumValueDescriptor& parse_enum(const Field& field, const std::string& value) {
  const pb::EnumDescriptor& type = *field.enum_type();
  std::vector<std::string> names;
  for (int i = 0; i < type.value_count(); ++i) {
    if (lower(type.value(i)->name()) == lower(value)) return *type.value(i);
    names.push_back(type.value(i)->name());
  }
  throw Failure{"expected one of " + join_names(names) + ", got '" + value + "'"};
}

// Sets a singular field or appends to a repeated one.
template <typename T, typename V>
void put(pb::Message& message, const Field& field, V value,
         void (pb::Reflection::*set)(pb::Message*, const Field*, T) const,
         void (pb::Reflection::*add)(pb::Message*, const Field*, T) const) {
  const pb::Reflection& r = *message.GetReflection();
  (r.*(field.is_repeated() ? add : set))(&message, &field, value);
}

void set_scalar(pb::Message& message, const Field& field, const std::string& value) {
  using R = pb::Reflection;
  switch (field.cpp_type()) {
    case Field::CPPTYPE_INT32:
      return put(message, field, parse_ranged<std::int32_t>(value), &R::SetInt32, &R::AddInt32);
    case Field::CPPTYPE_INT64:
      return put(message, field, parse_ranged<std::int64_t>(value), &R::SetInt64, &R::AddInt64);
    case Field::CPPTYPE_UINT32:
      return put(message, field, parse_ranged<std::uint32_t>(value), &R::SetUInt32, &R::AddUInt32);
    case Field::CPPTYPE_UINT64:
      return put(message, field, parse_ranged<std::uint64_t>(value), &R::SetUInt64, &R::AddUInt64);
    case Field::CPPTYPE_DOUBLE:
      return put(message, field, parse_real(value), &R::SetDouble, &R::AddDouble);
    case Field::CPPTYPE_FLOAT:
      return put(message, field, static_cast<float>(parse_real(value)), &R::SetFloat, &R::AddFloat);
    case Field::CPPTYPE_BOOL:
      return put(message, field, parse_bool(value), &R::SetBool, &R::AddBool);
    case Field::CPPTYPE_ENUM:
      return put(message, field, &parse_enum(field, value), &R::SetEnum, &R::AddEnum);
    case Field::CPPTYPE_STRING:
      return put(message, field, value, &R::SetString, &R::AddString);
    case Field::CPPTYPE_MESSAGE:
      return;
  }
}

// Keeps the text of the first error of a nested text-format value.
class FirstMessage : public pb::io::ErrorCollector {
 public:
  void AddError(int, pb::io::ColumnNumber, const std::string& message) override {
    if (first_.empty()) first_ = message;
  }
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

void set_message(pb::Message& parent, const Field& field, const std::string& value) {
  pb::Message& message = *parent.GetReflection()->MutableMessage(&parent, &field);
  message.Clear();
  pb::TextFormat::Parser parser;
  FirstMessage errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(value, &message))
    throw Failure{"expected the fields of " + field.message_type()->name() +
                  " in text format (known: " + known_field_names(*field.message_type()) +
                  "), got '" + value + "': " + errors.first()};
}

void set_value(pb::Message& message, const Field& field, const std::string& value) {
  if (field.cpp_type() == Field::CPPTYPE_MESSAGE) {
    if (field.is_repeated()) throw Failure{"a list of messages: set one element's fields, [i]"};
    set_message(message, field, value);
    return;
  }
  if (!field.is_repeated()) return set_scalar(message, field, value);
  message.GetReflection()->ClearField(&message, &field);
  std::size_t start = 0;
  while (start <= value.size() && !value.empty()) {
    const auto comma = std::min(value.find(',', start), value.size());
    set_scalar(message, field, value.substr(start, comma - start));
    start = comma + 1;
  }
}

// The message named by `name` inside `message`, created (or selected in its oneof) if needed.
pb::Message& step_into(pb::Message& message, const std::string& name) {
  const Step step = split_step(name);
  const std::string& field_name = step.field;
  const Field& field = find_field(*message.GetDescriptor(), field_name);
  const pb::Reflection& r = *message.GetReflection();
  if (field.cpp_type() != Field::CPPTYPE_MESSAGE)
    throw Failure{"'" + field_name + "' is not a message, it has no fields"};
  if (!field.is_repeated()) {
    if (step.selects()) throw Failure{"'" + field_name + "' is not a list"};
    return *r.MutableMessage(&message, &field);
  }
  if (!step.key.empty()) return entry_named(message, field, step.key);
  const int size = r.FieldSize(message, &field);
  if (!step.index)
    throw Failure{"'" + field_name + "' is a list: give an index, [0.." + std::to_string(size) +
                  ")"};
  if (*step.index >= size)
    throw Failure{"index " + std::to_string(*step.index) + " out of range: '" + field_name +
                  "' has " + std::to_string(size) + " entries"};
  return *r.MutableRepeatedMessage(&message, &field, *step.index);
}

// A note when setting `name` inside `message` (at `prefix`) switches its oneof away from another
// member, whose settings are then dropped.
void note_oneof_switch(const pb::Message& message, const std::string& prefix,
                       const std::string& name, std::vector<std::string>& notes) {
  const Field* field = message.GetDescriptor()->FindFieldByName(split_step(name).field);
  if (field == nullptr || field->containing_oneof() == nullptr) return;
  const pb::OneofDescriptor& oneof = *field->containing_oneof();
  const Field* current = message.GetReflection()->GetOneofFieldDescriptor(message, &oneof);
  if (current == nullptr || current == field) return;
  notes.push_back(prefix + field->name() + " replaces " + prefix + current->name() + " (one of " +
                  prefix + oneof.name() + "; the settings of " + current->name() + " are dropped)");
}

std::string apply(pb::Message& root, const std::string& assignment,
                  std::vector<std::string>& notes) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) throw Failure{"expected path.to.field=value"};
  const std::string path = assignment.substr(0, equals);
  const std::string value = assignment.substr(equals + 1);
  pb::Message* message = &root;
  std::size_t start = 0;
  for (auto dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
    note_oneof_switch(*message, path.substr(0, start), path.substr(start, dot - start), notes);
    message = &step_into(*message, path.substr(start, dot - start));
    start = dot + 1;
  }
  const std::string last = path.substr(start);
  note_oneof_switch(*message, path.substr(0, start), last, notes);
  if (split_step(last).selects()) throw Failure{"an index selects a list element to go into"};
  set_value(*message, find_field(*message->GetDescriptor(), last), value);
  return path;
}

}  // namespace

std::string apply_override(pb::Message& root, const std::string& assignment) {
  std::vector<std::string> notes;
  return apply_override(root, assignment, notes);
}

std::string apply_override(pb::Message& root, const std::string& assignment,
                           std::vector<std::string>& notes) {
  try {
    std::vector<std::string> found;
    const std::string path = apply(root, assignment, found);
    for (const std::string& note : found) notes.push_back("--set " + assignment + ": " + note);
    return path;
  } catch (const Failure& failure) {
    throw netmodels::InputError("--set " + assignment, failure.reason);
  }
}

std::optional<std::uint64_t> unsigned_with_unit(const std::string& text) {
  try {
    const auto [negative, magnitude] = parse_integer(text);
    if (negative) return std::nullopt;
    return magnitude;
  } catch (const Failure&) {
    return std::nullopt;
  }
}

}  // namespace netwarp::scenarios
