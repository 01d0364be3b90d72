// InputError: a mistake in user input (a scenario field, a topology parameter, a trace line).
// Builders throw it naming the field by its dotted path ("topology.fat_tree.p"); the scenario
// loader adds the file and, where it knows it, line and column. Printed as one line, exit 2:
// what() is printable() (control bytes escaped, cut when long); field() and message() are raw.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "netwarp/netmodels/printable.hpp"

namespace netwarp::netmodels {

class InputError : public std::runtime_error {
 public:
  InputError(std::string field, const std::string& message)
      : std::runtime_error(printable(field.empty() ? message : field + ": " + message)),
        field_(std::move(field)),
        message_(message) {}
  const std::string& field() const { return field_; }      // dotted path, may be empty
  const std::string& message() const { return message_; }  // without the field

 private:
  std::string field_;
  std::string message_;
};

// A mistake at a line of an input file other than the scenario (a flows CSV, a pattern file):
// what() is "FILE:LINE: message" ("FILE: message" for line 0, the whole file), printed as it is.
class FileInputError : public InputError {
 public:
  FileInputError(std::string file, std::uint32_t line, const std::string& message)
      : InputError("", (line == 0 ? file : file + ":" + std::to_string(line)) + ": " + message),
        file_(std::move(file)),
        line_(line),
        reason_(message) {}
  const std::string& file() const { return file_; }
  std::uint32_t line() const { return line_; }
  const std::string& reason() const { return reason_; }  // without file and line

 private:
  std::string file_;
  std::uint32_t line_;
  std::string reason_;
};

}  // namespace netwarp::netmodels
