// run_cross_check: std::system with stderr captured, for the cross-check programs.
#include "cross_check_process.hpp"

#include <cstdlib>
#include <fstream>

#include "shell_quote.hpp"

namespace netwarp::validation {
namespace {

namespace fs = std::filesystem;

std::string last_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::string last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  const std::size_t marker = last.find(": error: ");
  return marker == std::string::npos ? last : last.substr(marker + 9);
}

}  // namespace

CrossCheckOutcome run_cross_check(const std::string& command, const fs::path& out_file) {
  const fs::path errors = fs::path(out_file.string() + ".stderr");
  const int status =
      std::system((command + " > /dev/null 2> " + shell_quote(errors.string())).c_str());
  CrossCheckOutcome outcome{status == 0, {}};
  std::error_code ignored;
  if (!outcome.ok) {
    outcome.error = last_line(errors);
    if (outcome.error.empty()) outcome.error = "exited with status " + std::to_string(status);
    fs::remove(out_file, ignored);
  }
  fs::remove(errors, ignored);
  return outcome;
}

}  // namespace netwarp::validation
