// ScenarioError: a mistake in a scenario, located in its file. It is a netmodels::InputError
// (field + message) that also knows the file and, when the field was written in the file, its
// line and column. what() is the one line a person reads, printed verbatim by the apps:
//   incast.pbtxt:14:5: switch.buffer_bytes: must hold at least one packet (1538 B), got 100
//   incast.pbtxt: topology.fat_tree.p: must be >= 1, got 0      (field not in the file)
//   incast.pbtxt:12:7: Expected identifier, got: }              (syntax: no field)
#pragma once

#include <string>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::scenarios {

// A place in a scenario file, counted from 1 (0: unknown).
struct SourceLoc {
  int line = 0;
  int column = 0;
  bool is_known() const { return line > 0; }
};

class ScenarioError : public netmodels::InputError {
 public:
  ScenarioError(std::string file, SourceLoc loc, std::string field, const std::string& message);
  const char* what() const noexcept override { return text_.c_str(); }
  const std::string& file() const { return file_; }
  SourceLoc loc() const { return loc_; }

 private:
  std::string file_;
  SourceLoc loc_;
  std::string text_;
};

}  // namespace netwarp::scenarios
