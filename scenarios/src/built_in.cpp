// The built-in default scenario, run by `netwarp run` without a file: the library's incast
// (scenarios/incast.pbtxt) with 16 senders instead of 64, so the demo finishes quickly.
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {

namespace {

constexpr const char* kBuiltInIncast = R"pb(
  name: "incast-16"
  description: "16 senders send 1 MiB each at once to one receiver through one switch (TCP)"
  topology { star { hosts: 17 } }
  links { rate_bps: 1000000000 latency_ns: 5000 mtu_bytes: 1500 header_bytes: 40 }
  switch { buffer_bytes: 65536 }
  transport {
    kind: TCP
    tcp { mss_bytes: 1460 initial_window_segments: 10 min_rto_us: 200000 delayed_ack: false }
  }
  workload { incast { senders: 16 receiver: 0 bytes: 1048576 } }
  outputs { queue_ports { toward_host: "host0" } }
)pb";

}  // namespace

LoadedScenario built_in_default_scenario(const std::vector<std::string>& overrides) {
  return load_scenario_text(kBuiltInIncast, "<built-in incast>", overrides);
}

}  // namespace netwarp::scenarios
