// Which files hold which rank's TIT lines: the input forms of read_tit (see trace.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tit_file_reader.hpp"

namespace netwarp::mpiemul {

struct TitFile {
  std::filesystem::path path;
  std::string name;  // as errors show it
};

struct TitSources {
  std::uint32_t ranks = 0;
  bool shared = false;         // one file holds every rank's lines
  std::vector<TitFile> files;  // shared: the one file; otherwise files[r] holds rank r's lines
};

inline constexpr std::uint32_t kMaxTraceRanks = 1u << 20;

// Throws TraceError for unreadable paths, missing ranks and badly named rank files.
TitSources find_tit_sources(const std::filesystem::path& path);

// The rank a line starts with; throws TraceError when it is not a rank number below
// kMaxTraceRanks.
std::uint32_t line_rank(const TitLine& line, const std::string& file);

}  // namespace netwarp::mpiemul
