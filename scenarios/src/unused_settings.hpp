// Settings a scenario wrote that its run would not read: fields of the transport not in use
// (transport.tcp.* with LOSSLESS), MPI collective algorithms the program never calls, a
// collective kernel's root or bytes where its kind has none. The loader turns each into a
// warning line (scenario_loader.hpp).
#pragma once

#include <string>
#include <vector>

#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

struct UnusedSetting {
  std::string field;  // dotted path, as in errors
  std::string message;
};

// `scenario` as written (overrides applied, defaults not filled yet): only what was set counts.
std::vector<UnusedSetting> unused_settings(const proto::Scenario& scenario);

}  // namespace netwarp::scenarios
