// Walking scenario.proto by reflection against a cross-check's field table: the schema's leaf
// fields (for the coverage test) and the fields an effective scenario sets (for the refusal and
// the report's notes).
#include "netwarp/validation/field_coverage.hpp"

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <set>

namespace netwarp::validation {
namespace {

namespace pb = google::protobuf;
using scenarios::proto::Scenario;

// Deep enough for scenario.proto; a recursive message type would stop here.
constexpr int kMaxDepth = 16;

std::string join(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

bool is_message(const pb::FieldDescriptor* field) {
  return field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
}

// The rule for `path`: its own, else a non-mirrored rule of an enclosing message.
const FieldRule* rule_for(const CrossCheckFields& fields, const std::string& path) {
  const FieldRule* best = nullptr;
  for (const FieldRule& rule : fields.rules) {
    if (rule.field == path) return &rule;
    const bool encloses = path.size() > rule.field.size() && path.starts_with(rule.field) &&
                          path[rule.field.size()] == '.' && rule.coverage != Coverage::mirrored;
    if (encloses && (best == nullptr || rule.field.size() > best->field.size())) best = &rule;
  }
  return best;
}

// Leaf paths under `type`; `messages` collects the message-field paths passed through.
void schema_paths(const pb::Descriptor* type, const std::string& prefix, int depth,
                  std::vector<std::string>& leaves, std::vector<std::string>& messages) {
  for (int i = 0; i < type->field_count() && depth < kMaxDepth; ++i) {
    const pb::FieldDescriptor* field = type->field(i);
    const std::string path = join(prefix, field->name());
    if (is_message(field) && field->message_type()->field_count() > 0) {
      messages.push_back(path);
      schema_paths(field->message_type(), path, depth + 1, leaves, messages);
    } else {
      leaves.push_back(path);
    }
  }
}

std::string value_text(const pb::Message& message, const pb::FieldDescriptor* field) {
  if (is_message(field)) return "present";
  const pb::Reflection* reflection = message.GetReflection();
  if (!field->is_repeated()) {
    std::string text;
    pb::TextFormat::PrintFieldValueToString(message, field, -1, &text);
    return text;
  }
  std::string text = "[";
  for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
    std::string element;
    pb::TextFormat::PrintFieldValueToString(message, field, i, &element);
    text += (i == 0 ? "" : ", ") + element;
  }
  return text + "]";
}

// Whether the cross-check runs `value` as written. A rule without values accepts, when
// refused, only a field left unset (at its default).
bool accepted(const FieldRule& rule, const std::string& value, bool is_set,
              const Scenario& scenario) {
  if (rule.accepts) return rule.accepts(scenario);
  if (rule.values.empty()) return rule.coverage != Coverage::refused || !is_set;
  return std::find(rule.values.begin(), rule.values.end(), value) != rule.values.end();
}

bool is_set(const pb::Message& message, const pb::FieldDescriptor* field) {
  const pb::Reflection* reflection = message.GetReflection();
  return field->is_repeated() ? reflection->FieldSize(message, field) > 0
                              : reflection->HasField(message, field);
}

// Walks every field of the effective scenario: leaves judged even at their defaults (an unset
// transport.kind is LOSSLESS), messages entered unless absent members of a oneof.
struct Walk {
  const CrossCheckFields& fields;
  const Scenario& scenario;
  std::vector<FieldFinding> refused;
  std::vector<FieldFinding> notes;

  void judge(const FieldRule* rule, const std::string& path, const std::string& value, bool set) {
    if (rule == nullptr) {
      refused.push_back({path, value,
                         fmt::format("{} has no rule for this field yet ({}): refused rather "
                                     "than run as something else",
                                     fields.tool, fields.table)});
      return;
    }
    if (accepted(*rule, value, set, scenario)) return;
    const std::string what = value == "present" ? std::string("this section") : value;
    if (rule->coverage == Coverage::refused || rule->coverage == Coverage::mirrored)
      refused.push_back(
          {path, value, fmt::format("{} cannot mirror {}: {}", fields.tool, what, rule->why)});
    else if (rule->coverage == Coverage::noted)
      notes.push_back(
          {path, value,
           fmt::format("{} runs its own reading, not {}: {}", fields.tool, what, rule->why)});
  }

  void visit(const pb::Message& message, const std::string& prefix, int depth) {
    const pb::Descriptor* type = message.GetDescriptor();
    for (int i = 0; i < type->field_count(); ++i) {
      const pb::FieldDescriptor* field = type->field(i);
      const std::string path = join(prefix, field->name());
      const FieldRule* rule = rule_for(fields, path);
      const bool set = is_set(message, field);
      if (rule != nullptr && rule->field != path) continue;  // judged with its enclosing message
      if (!is_message(field)) {
        if (set || field->real_containing_oneof() == nullptr)
          judge(rule, path, value_text(message, field), set);
      } else if (rule != nullptr || field->message_type()->field_count() == 0) {
        if (set) judge(rule, path, "present", set);
      } else if (depth < kMaxDepth) {
        descend(message, field, path, set, depth);
      }
    }
  }

  void descend(const pb::Message& message, const pb::FieldDescriptor* field,
               const std::string& path, bool set, int depth) {
    const pb::Reflection* reflection = message.GetReflection();
    if (!field->is_repeated()) {
      if (set || field->real_containing_oneof() == nullptr)
        visit(reflection->GetMessage(message, field), path, depth + 1);
      return;
    }
    for (int i = 0; i < reflection->FieldSize(message, field); ++i)
      visit(reflection->GetRepeatedMessage(message, field, i), path, depth + 1);
  }
};

Walk walk(const CrossCheckFields& fields, const Scenario& scenario) {
  Walk w{fields, scenario, {}, {}};
  w.visit(scenario, "", 0);
  return w;
}

}  // namespace

std::vector<const CrossCheckFields*> all_cross_check_fields() {
  return {&ns3_fields(), &simgrid_fields()};
}

std::optional<FieldFinding> first_refused(const CrossCheckFields& fields,
                                          const Scenario& scenario) {
  // A whole refused section (an mpi section for a network cross-check) says most.
  const std::vector<FieldFinding> refused = walk(fields, scenario).refused;
  for (const FieldFinding& f : refused)
    if (f.value == "present") return f;
  if (refused.empty()) return std::nullopt;
  return refused.front();
}

std::vector<FieldFinding> noted_settings(const CrossCheckFields& fields, const Scenario& scenario) {
  return walk(fields, scenario).notes;
}

std::vector<std::string> unclassified_fields(const CrossCheckFields& fields) {
  std::vector<std::string> leaves;
  std::vector<std::string> messages;
  schema_paths(Scenario::descriptor(), "", 0, leaves, messages);
  std::vector<std::string> missing;
  for (const std::string& leaf : leaves)
    if (rule_for(fields, leaf) == nullptr) missing.push_back(leaf);
  return missing;
}

std::vector<std::string> misplaced_rules(const CrossCheckFields& fields) {
  std::vector<std::string> leaves;
  std::vector<std::string> messages;
  schema_paths(Scenario::descriptor(), "", 0, leaves, messages);
  const std::set<std::string> leaf_set(leaves.begin(), leaves.end());
  const std::set<std::string> message_set(messages.begin(), messages.end());
  std::vector<std::string> problems;
  std::set<std::string> seen;
  for (const FieldRule& rule : fields.rules) {
    const bool leaf = leaf_set.contains(rule.field);
    if (!seen.insert(rule.field).second)
      problems.push_back(fmt::format("{}: classified twice", rule.field));
    if (!leaf && !message_set.contains(rule.field))
      problems.push_back(fmt::format("{}: no such field in scenario.proto", rule.field));
    else if (!leaf && rule.coverage == Coverage::mirrored)
      problems.push_back(fmt::format(
          "{}: a message cannot be mirrored as a whole; classify each of its fields", rule.field));
    const bool uses_values = rule.coverage == Coverage::mirrored ||
                             rule.coverage == Coverage::refused || rule.coverage == Coverage::noted;
    if (!uses_values && (!rule.values.empty() || rule.accepts))
      problems.push_back(fmt::format("{}: values given to a rule that ignores them", rule.field));
    if (rule.coverage == Coverage::noted && rule.values.empty() && !rule.accepts)
      problems.push_back(fmt::format("{}: noted without the reading it follows", rule.field));
    if (rule.coverage != Coverage::mirrored && rule.coverage != Coverage::no_effect &&
        rule.why.empty())
      problems.push_back(fmt::format("{}: no reason given", rule.field));
  }
  return problems;
}

}  // namespace netwarp::validation
