// read_trace and write_trace: the format follows the file name (.pb binary protobuf,
// .pbtxt/.txtpb text format; anything else reads as TIT, and .tit/.txt writes it). Text parse
// errors keep protobuf's position (counted from 0 by protobuf, from 1 here), and so does the
// table of where each action of a text trace was written (protobuf's ParseInfoTree).
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "netwarp/mpiemul/defined_enums.hpp"
#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

namespace fs = std::filesystem;
namespace pb = google::protobuf;

enum class TraceFormat { binary, text, tit };

TraceFormat format_of(const fs::path& path) {
  const std::string extension = path.extension().string();
  if (extension == ".pb") return TraceFormat::binary;
  if (extension == ".pbtxt" || extension == ".txtpb") return TraceFormat::text;
  return TraceFormat::tit;
}

class FirstErrorCollector : public pb::io::ErrorCollector {
 public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (!first_)
      first_ = TraceError(file_, static_cast<std::uint32_t>(line + 1), message,
                          static_cast<std::uint32_t>(column + 1));
  }
  void AddWarning(int, pb::io::ColumnNumber, const std::string&) override {}
  explicit FirstErrorCollector(std::string file) : file_(std::move(file)) {}
  const std::optional<TraceError>& first() const { return first_; }

 private:
  std::string file_;
  std::optional<TraceError> first_;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path.string(), 0, "cannot open the trace file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw TraceError(path.string(), 0, "cannot read the trace file");
  return text.str();
}

TraceLocations::Position position_of(const pb::TextFormat::ParseLocation& location) {
  return {static_cast<std::uint32_t>(location.line + 1),
          static_cast<std::uint32_t>(location.column + 1)};
}

// The position of each `actions` entry (its field name) of every rank.
TraceLocations action_locations(const proto::Trace& trace,
                                const pb::TextFormat::ParseInfoTree& tree,
                                const std::string& file) {
  const pb::FieldDescriptor* ranks = proto::Trace::descriptor()->FindFieldByName("ranks");
  const pb::FieldDescriptor* actions = proto::RankTrace::descriptor()->FindFieldByName("actions");
  TraceLocations locations{file, std::vector<std::vector<TraceLocations::Position>>(
                                     static_cast<std::size_t>(trace.ranks_size()))};
  for (int r = 0; r < trace.ranks_size(); ++r) {
    const pb::TextFormat::ParseInfoTree* rank_tree = tree.GetTreeForNested(ranks, r);
    if (rank_tree == nullptr) continue;
    auto& positions = locations.actions[static_cast<std::size_t>(r)];
    for (int i = 0; i < trace.ranks(r).actions_size(); ++i)
      positions.push_back(position_of(rank_tree->GetLocation(actions, i)));
  }
  return locations;
}

proto::Trace read_text(const fs::path& path, TraceLocations& locations) {
  const std::string text = read_file(path);
  proto::Trace trace;
  pb::TextFormat::Parser parser;
  FirstErrorCollector errors(path.string());
  parser.RecordErrorsTo(&errors);
  pb::TextFormat::ParseInfoTree tree;
  parser.WriteLocationsTo(&tree);
  if (!parser.ParseFromString(text, &trace))
    throw errors.first().value_or(TraceError(path.string(), 0, "not a netwarp text trace"));
  locations = action_locations(trace, tree, path.string());
  return trace;
}

proto::Trace read_binary(const fs::path& path) {
  const std::string bytes = read_file(path);
  proto::Trace trace;
  if (!trace.ParseFromString(bytes))
    throw TraceError(path.string(), 0, "not a netwarp binary trace (protobuf cannot parse it)");
  return trace;
}

// Proto3 keeps enum numbers the schema does not define; none may reach the replay.
proto::Trace refuse_undefined_enums(proto::Trace trace, const fs::path& path) {
  if (const auto undefined = first_undefined_enum(trace))
    throw TraceError(path.string(), 0, undefined->field + ": " + undefined->message);
  return trace;
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  out.close();
  if (!out) throw TraceError(path.string(), 0, "cannot write the trace file");
}

}  // namespace

proto::Trace read_trace(const fs::path& path) {
  TraceLocations unused;
  return read_trace(path, unused);
}

proto::Trace read_trace(const fs::path& path, TraceLocations& locations) {
  locations = {};
  std::error_code error;
  if (fs::is_directory(path, error)) return read_tit(path);
  if (path.extension() == ".otf2") return read_otf2(path);
  switch (format_of(path)) {
    case TraceFormat::binary:
      return refuse_undefined_enums(read_binary(path), path);
    case TraceFormat::text:
      return refuse_undefined_enums(read_text(path, locations), path);
    case TraceFormat::tit:
      break;
  }
  return read_tit(path);
}

void write_trace(const proto::Trace& trace, const fs::path& path) {
  const std::string extension = path.extension().string();
  if (extension == ".tit" || extension == ".txt") return write_tit(trace, path);
  std::string bytes;
  switch (format_of(path)) {
    case TraceFormat::binary:
      if (!trace.SerializeToString(&bytes))
        throw TraceError(path.string(), 0, "cannot encode the trace");
      break;
    case TraceFormat::text:
      if (!pb::TextFormat::PrintToString(trace, &bytes))
        throw TraceError(path.string(), 0, "cannot encode the trace");
      break;
    case TraceFormat::tit:
      throw TraceError(path.string(), 0,
                       "cannot tell the output format: name it .pb (binary), .pbtxt (text) or "
                       ".tit (SimGrid TIT)");
  }
  write_file(path, bytes);
}

}  // namespace netwarp::mpiemul
