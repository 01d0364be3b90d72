// read_tit: every rank's TIT lines, in file order, into a proto::Trace whose actions remember
// the file and line they came from.
#include <fmt/format.h>

#include <vector>

#include "netwarp/mpiemul/trace.hpp"
#include "tit_grammar.hpp"
#include "tit_sources.hpp"

namespace netwarp::mpiemul {

namespace {

// Appends the actions of `file`'s lines; `only_rank` >= 0: every line must be that rank's.
void read_file(const TitFile& file, std::int64_t only_rank, std::vector<TitRankState>& states,
               proto::Trace& trace) {
  TitFileReader reader(file.path, file.name);
  const auto ranks = static_cast<std::uint32_t>(trace.ranks_size());
  while (const TitLine* line = reader.next()) {
    const std::uint32_t rank = line_rank(*line, file.name);
    if (only_rank >= 0 && rank != only_rank)
      throw TraceError(
          file.name, line->number,
          fmt::format("a line of rank {} in the trace file of rank {}", rank, only_rank));
    if (rank >= ranks)  // the shared file changed since its ranks were counted
      throw TraceError(
          file.name, line->number,
          fmt::format("rank {} is out of range (the trace has ranks 0 to {})", rank, ranks - 1));
    proto::Action action;
    if (parse_tit_line(file.name, *line, ranks, states[rank], action))
      *trace.mutable_ranks(static_cast<int>(rank))->add_actions() = std::move(action);
  }
}

}  // namespace

proto::Trace read_tit(const std::filesystem::path& path) {
  const TitSources sources = find_tit_sources(path);
  proto::Trace trace;
  for (std::uint32_t r = 0; r < sources.ranks; ++r)
    trace.add_ranks()->set_source_file(sources.files[sources.shared ? 0 : r].name);
  std::vector<TitRankState> states(sources.ranks);
  if (sources.shared) {
    read_file(sources.files.front(), -1, states, trace);
  } else {
    for (std::uint32_t r = 0; r < sources.ranks; ++r) read_file(sources.files[r], r, states, trace);
  }
  return trace;
}

}  // namespace netwarp::mpiemul
