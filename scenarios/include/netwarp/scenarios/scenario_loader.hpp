// Loading a scenario: parse protobuf text format, apply `--set path=value` overrides, fill the
// defaults, validate. Every failure is a ScenarioError whose what() is one line starting with
// the file name (see scenario_error.hpp).
//
//   LoadedScenario s = load_scenario("scenarios/incast.pbtxt", {"workload.incast.senders=8"});
//   netmodels::NetworkSpec spec = build_network_spec(s);   // network_builder.hpp
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "netwarp/scenarios/proto/scenario.pb.h"
#include "netwarp/scenarios/scenario_error.hpp"

namespace netwarp::scenarios {

struct LoadedScenario {
  proto::Scenario scenario;  // defaults filled, overrides applied, validated
  std::string path;          // as given; starts every error message
  // Where each field was written in the file, by dotted path ("switch.buffer_bytes",
  // "workload.flows.flow[1].dst", "topology.torus.dims[0]"; a repeated field's bare path is its
  // first element). Fields set by --set or by default are absent.
  std::map<std::string, SourceLoc> locations;
  // Settings written (in the file or by --set) that the run will not read, one located line
  // each ("FILE:LINE:COL: transport.tcp.min_rto_us: ignored: ..."); the loader also reports
  // them through the warning printer.
  std::vector<std::string> warnings;

  SourceLoc location_of(const std::string& field) const;
  // A ScenarioError for `field`, located if the field was written in the file.
  ScenarioError error(const std::string& field, const std::string& message) const;
};

// Reads and loads the file at `path`; `overrides` are "path.to.field=value" strings.
LoadedScenario load_scenario(const std::string& path, const std::vector<std::string>& overrides);

// The same from text in memory; `name` stands for the file name in errors.
LoadedScenario load_scenario_text(const std::string& text, const std::string& name,
                                  const std::vector<std::string>& overrides);

// The built-in default: an incast of 16 senders on one switch (the library's incast.pbtxt,
// smaller), named "<built-in incast>".
LoadedScenario built_in_default_scenario(const std::vector<std::string>& overrides = {});

// Where load warnings go. By default each distinct line is printed once per process on stderr
// as "netwarp: warning: LINE"; the apps give a printer that drops them on MPI ranks other than
// 0. An empty function restores the default.
void set_warning_printer(std::function<void(const std::string&)> printer);

// The folder holding the library's .pbtxt scenarios (the source tree's scenarios/).
std::string scenario_library_dir();

}  // namespace netwarp::scenarios
