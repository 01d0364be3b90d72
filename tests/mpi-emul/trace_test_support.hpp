// Test helpers for trace reading and conversion: the fixture directory, trace text written to
// temporary files, and a readable one-line rendering of a rank's calls and operations.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul::testing {

inline std::filesystem::path trace_data(const std::string& name) {
  return std::filesystem::path(__FILE__).parent_path() / "data" / name;
}

// A fresh directory under the test temp directory (emptied if it exists).
inline std::filesystem::path temp_dir(const std::string& name) {
  // The process id keeps tests that ctest runs at once (one process each) apart.
  const auto dir = std::filesystem::path(::testing::TempDir()) /
                   ("netwarp_trace_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// "send>1 t0 1000000 r0" (blocking), "isend>2 t5 100 r1", "irecv<-1 t-1 32 r1",
// "wait[1 2]", "test[0]", "compute 1000"; "c1:" marks collective traffic.
inline std::string describe_op(const RankProgram& p, const Op& op) {
  const std::string comm = op.comm == kCommWorld ? "" : fmt::format("c{}:", op.comm);
  switch (op.kind) {
    case OpKind::compute:
      return fmt::format("compute {}", op.bytes);
    case OpKind::send:
    case OpKind::recv: {
      const bool is_send = op.kind == OpKind::send;
      return fmt::format("{}{}{}{}{} t{} {} r{}", comm, op.blocking ? "" : "i",
                         is_send ? "send" : "recv", is_send ? ">" : "<", op.peer, op.tag, op.bytes,
                         op.request);
    }
    case OpKind::wait:
    case OpKind::test: {
      std::vector<std::uint32_t> ids(p.wait_list.begin() + op.request,
                                     p.wait_list.begin() + op.request + op.count);
      return fmt::format("{}{}[{}]", comm, op.kind == OpKind::wait ? "wait" : "test",
                         fmt::join(ids, " "));
    }
  }
  return "?";
}

inline std::vector<std::string> describe_ops(const RankProgram& p) {
  std::vector<std::string> out;
  for (const Op& op : p.ops) out.push_back(describe_op(p, op));
  return out;
}

// "send(1 t0 1000000) ops 1" per call.
inline std::vector<std::string> describe_calls(const RankProgram& p) {
  std::vector<std::string> out;
  for (const Call& c : p.calls)
    out.push_back(fmt::format("{}({} t{} {}) ops {}", call_kind_name(c.kind), c.peer, c.tag,
                              c.bytes, c.op_count));
  return out;
}

// The whole program as text: equal text, equal programs.
inline std::string describe_program(const Program& program) {
  std::string out;
  for (RankId r = 0; r < program.size(); ++r) {
    out += fmt::format("rank {}\n", r);
    for (const auto& c : describe_calls(program.ranks[r])) out += "  " + c + "\n";
    for (const auto& o : describe_ops(program.ranks[r])) out += "    " + o + "\n";
    out += fmt::format("  requests {}\n", program.ranks[r].request_count);
  }
  return out;
}

// The message of the TraceError `read` throws, or "no error".
template <class Read>
std::string trace_error(Read&& read) {
  try {
    read();
  } catch (const TraceError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace netwarp::mpiemul::testing
