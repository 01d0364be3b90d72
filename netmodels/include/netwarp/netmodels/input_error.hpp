// InputError: a mistake in user input (a scenario field, a topology parameter, a trace line).
// Builders throw it naming the field by its dotted path ("topology.fat_tree.p"); the scenario
// loader adds the file and, where it knows it, line and column. Printed as one line, exit 2.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace netwarp::netmodels {

class InputError : public std::runtime_error {
 public:
  InputError(std::string field, const std::string& message)
      : std::runtime_error(field.empty() ? message : field + ": " + message),
        field_(std::move(field)),
        message_(message) {}
  const std::string& field() const { return field_; }      // dotted path, may be empty
  const std::string& message() const { return message_; }  // without the field

 private:
  std::string field_;
  std::string message_;
};

}  // namespace netwarp::netmodels
