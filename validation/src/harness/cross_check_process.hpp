// Running a cross-check program (netwarp-ns3, netwarp-simgrid) for `netwarp validate`: its
// report goes to a file, its one-line error (a refused setting names the field) is kept for the
// model's row, and nothing it left half written stays behind when it fails.
#pragma once

#include <filesystem>
#include <string>

namespace netwarp::validation {

struct CrossCheckOutcome {
  bool ok = false;
  std::string error;  // failed: its last line on stderr, "TOOL: error: " removed
};

// Runs `command` (already quoted, without redirections) with stdout discarded and stderr kept in
// a temporary file beside `out_file`. On failure `out_file` is removed.
CrossCheckOutcome run_cross_check(const std::string& command,
                                  const std::filesystem::path& out_file);

}  // namespace netwarp::validation
