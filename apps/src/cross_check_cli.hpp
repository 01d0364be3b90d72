// What the cross-check programs (netwarp-simgrid, netwarp-ns3) share as command-line tools: the
// usage error, writing their one JSON report safely, and the mapping of every failure to one
// line on stderr and an exit status of exit_codes.hpp. netwarp itself has its own main.
#pragma once

#include <fmt/format.h>
#include <google/protobuf/stubs/logging.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <string>

#include "exit_codes.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "output_file.hpp"

namespace netwarp::apps::cross_check {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Fails before the run when `path` cannot be written (its folder made); leaves no file behind.
inline void check_writable(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  output_file::check_writable<UsageError>(path);
}

// Through PATH.partial and a rename: `path` is never half written (output_file.hpp).
inline void write_text(const std::string& path, const std::string& text) {
  output_file::write_whole<UsageError>(path, [&](std::ostream& out) { out << text; });
}

inline int fail(const char* tool, const std::string& message, int status) {
  std::fprintf(stderr, "%s: error: %s\n", tool, message.c_str());
  return status;
}

// Parses the command line into `app` and calls run(); every failure becomes one line
// "TOOL: error: ..." and its exit status. Input errors (scenario, trace, usage) are 2.
template <class Run>
int guarded_main(const char* tool, CLI::App& app, int argc, char** argv, Run run) {
  google::protobuf::SetLogHandler(nullptr);  // our one line per error, not protobuf's too
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(tool, e.what(), exit_code::kBadInput);
  }
  try {
    return run();
  } catch (const scenarios::ScenarioError& e) {
    return fail(tool, e.what(), exit_code::kBadInput);
  } catch (const netmodels::InputError& e) {  // trace errors too
    return fail(tool, e.what(), exit_code::kBadInput);
  } catch (const UsageError& e) {
    return fail(tool, e.what(), exit_code::kBadInput);
  } catch (const std::invalid_argument& e) {
    return fail(tool, e.what(), exit_code::kBadInput);
  } catch (const std::bad_alloc&) {
    return fail(tool, "out of memory: reduce the scenario (hosts, messages, bytes)",
                exit_code::kOutOfMemory);
  } catch (const std::exception& e) {
    return fail(tool, fmt::format("internal error: {}", e.what()), exit_code::kInternal);
  }
}

}  // namespace netwarp::apps::cross_check
