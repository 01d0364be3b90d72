// scenario.proto's descriptors reach protobuf's generated pool when a scenario is first parsed,
// not at program start (cmake/NetwarpProto.cmake). A program of its own: in scenarios_tests an
// earlier test would have registered them.
#include <google/protobuf/descriptor.h>

#include <cstdio>

#include "netwarp/scenarios/scenario_loader.hpp"

int main() {
  const google::protobuf::DescriptorPool* pool = google::protobuf::DescriptorPool::generated_pool();
  if (pool->FindFileByName("proto/scenario.proto") != nullptr) {
    std::fprintf(stderr, "scenario.proto was registered at program start\n");
    return 1;
  }
  const netwarp::scenarios::LoadedScenario loaded =
      netwarp::scenarios::built_in_default_scenario({"seed=7"});
  if (loaded.scenario.seed() != 7) {
    std::fprintf(stderr, "the built-in scenario did not parse with its override\n");
    return 1;
  }
  if (pool->FindMessageTypeByName("netwarp.scenarios.proto.Scenario") == nullptr) {
    std::fprintf(stderr, "scenario.proto is not in the generated pool after a parse\n");
    return 1;
  }
  return 0;
}
