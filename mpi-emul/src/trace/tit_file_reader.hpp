// Reads a SimGrid time-independent trace file line by line, as SimGrid's replay reader does:
// blanks around a line are trimmed, empty lines and lines starting with '#' are skipped, and
// the rest is split into tokens at runs of spaces and tabs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace netwarp::mpiemul {

struct TitLine {
  std::uint32_t number = 0;              // from 1
  std::vector<std::string_view> tokens;  // never empty; views into the reader's current line
};

class TitFileReader {
 public:
  // `name` is how errors name the file (the path as the user wrote it). Throws TraceError when
  // the file cannot be opened.
  TitFileReader(const std::filesystem::path& path, std::string name);

  // The next line with content, valid until the following call; nullptr at the end.
  const TitLine* next();
  const std::string& name() const { return name_; }

 private:
  std::ifstream in_;
  std::string name_;
  std::string text_;
  TitLine line_;
};

// Parses a whole token as a decimal integer (optional sign); nullopt otherwise.
std::optional<std::int64_t> parse_integer(std::string_view token);

}  // namespace netwarp::mpiemul
