// Finding a TIT trace's files: a single file shared by all ranks (its ranks are those its lines
// name), a SimGrid replay list, or a directory of per-rank files named by rank.
#include "tit_sources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

namespace fs = std::filesystem;

// "0, 1, 3" for the ranks that have a file, at most ten of them.
std::string list_ranks(const std::map<std::uint32_t, TitFile>& found) {
  std::string out;
  std::size_t shown = 0;
  for (const auto& entry : found) {
    if (shown == 10) return out + ", ...";
    out += fmt::format("{}{}", shown++ == 0 ? "" : ", ", entry.first);
  }
  return out;
}

// Ranks 0 .. the highest found, in order; a gap is an error naming `where`.
TitSources per_rank_files(std::map<std::uint32_t, TitFile> found, const std::string& where) {
  TitSources sources;
  if (found.empty()) throw TraceError(where, 0, "no trace files");
  for (auto& [rank, file] : found) {
    if (rank != sources.files.size())
      throw TraceError(where, 0,
                       fmt::format("no trace file for rank {} (files found for ranks {})",
                                   sources.files.size(), list_ranks(found)));
    sources.files.push_back(std::move(file));
  }
  sources.ranks = static_cast<std::uint32_t>(sources.files.size());
  return sources;
}

// The ranks of a shared file are 0 .. the highest rank a line names; each must have a line.
TitSources shared_file(TitFile file) {
  TitFileReader reader(file.path, file.name);
  std::vector<bool> seen;
  while (const TitLine* line = reader.next()) {
    const std::uint32_t rank = line_rank(*line, file.name);
    if (rank >= seen.size()) seen.resize(rank + 1, false);
    seen[rank] = true;
  }
  if (seen.empty()) throw TraceError(file.name, 0, "the trace has no actions");
  const auto missing = std::find(seen.begin(), seen.end(), false);
  if (missing != seen.end())
    throw TraceError(file.name, 0,
                     fmt::format("no line for rank {} (lines name ranks up to {})",
                                 missing - seen.begin(), seen.size() - 1));
  TitSources sources;
  sources.ranks = static_cast<std::uint32_t>(seen.size());
  sources.shared = true;
  sources.files.push_back(std::move(file));
  return sources;
}

// The number a file name ends with, before or after dropping one extension.
std::optional<std::uint32_t> rank_of_file_name(std::string name) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::size_t start = name.size();
    while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1]))) --start;
    if (start < name.size() && name.size() - start <= 7)
      return static_cast<std::uint32_t>(std::stoul(name.substr(start)));
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot == 0) return std::nullopt;
    name.resize(dot);
  }
  return std::nullopt;
}

TitSources directory(const fs::path& dir) {
  const std::string where = dir.string();
  std::map<std::uint32_t, TitFile> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with('.') || !entry.is_regular_file()) continue;
    const TitFile file{entry.path(), (dir / name).string()};
    const auto rank = rank_of_file_name(name);
    if (!rank || *rank >= kMaxTraceRanks)
      throw TraceError(file.name, 0,
                       "cannot tell the rank from the file name (it must end "
                       "with the rank number, before or after its extension)");
    if (const auto [at, added] = found.emplace(*rank, file); !added)
      throw TraceError(
          file.name, 0,
          fmt::format("a second file for rank {} (the first is {})", *rank, at->second.name));
  }
  return per_rank_files(std::move(found), where);
}

// A relative path in a list is looked up beside the list, then from the working directory.
// Its errors name the list's line first: "list.txt:3: rank3.tit:5: ...".
TitFile listed_file(const fs::path& list, std::string_view entry, const std::string& list_line) {
  const fs::path named(entry);
  fs::path path = named.is_absolute() ? named : list.parent_path() / named;
  std::error_code ignored;
  if (!fs::exists(path, ignored) && fs::exists(named, ignored)) path = named;
  return TitFile{path, fmt::format("{}: {}", list_line, path.string())};
}

TitSources list_file(const fs::path& list) {
  TitFileReader reader(list, list.string());
  std::map<std::uint32_t, TitFile> files;
  while (const TitLine* line = reader.next()) {
    if (line->tokens.size() != 1)
      throw TraceError(reader.name(), line->number, "a replay list names one trace file per line");
    files.emplace(
        static_cast<std::uint32_t>(files.size()),
        listed_file(list, line->tokens[0], fmt::format("{}:{}", reader.name(), line->number)));
  }
  if (files.size() == 1) return shared_file(std::move(files.begin()->second));
  return per_rank_files(std::move(files), list.string());
}

// A list's first line is a path; a trace's starts with a rank number.
bool is_replay_list(const fs::path& path) {
  TitFileReader reader(path, path.string());
  const TitLine* first = reader.next();
  return first != nullptr && !parse_integer(first->tokens[0]).has_value();
}

}  // namespace

std::uint32_t line_rank(const TitLine& line, const std::string& file) {
  const auto rank = parse_integer(line.tokens[0]);
  if (!rank || *rank < 0 || *rank >= kMaxTraceRanks)
    throw TraceError(file, line.number,
                     fmt::format("'{}' is not a rank: a line starts with its rank (0 to {})",
                                 line.tokens[0], kMaxTraceRanks - 1));
  return static_cast<std::uint32_t>(*rank);
}

TitSources find_tit_sources(const fs::path& path) {
  try {
    if (fs::is_directory(path)) return directory(path);
    if (!fs::exists(path)) throw TraceError(path.string(), 0, "no such file or directory");
    if (is_replay_list(path)) return list_file(path);
    return shared_file(TitFile{path, path.string()});
  } catch (const fs::filesystem_error& e) {
    throw TraceError(e.path1().empty() ? path.string() : e.path1().string(), 0, e.code().message());
  }
}

}  // namespace netwarp::mpiemul
