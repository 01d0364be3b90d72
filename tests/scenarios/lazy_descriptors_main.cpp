// scenario.proto's descriptors reach protobuf's generated pool when something first reads a
// scenario by reflection (--set), not at program start (cmake/NetwarpProto.cmake) nor at a plain
// load; nor does descriptor.proto where protobuf is linked statically
// (cmake/protobuf/lazy_descriptor_proto.cpp). A program of its own: in scenarios_tests an earlier
// test would have registered them.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/descriptor_database.h>

#include <cstdio>

#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace {

bool registered(const char* file) {
  google::protobuf::FileDescriptorProto proto;
  return google::protobuf::DescriptorPool::internal_generated_database()->FindFileByName(file,
                                                                                         &proto);
}

}  // namespace

int main() {
#ifdef NETWARP_LAZY_DESCRIPTOR_PROTO
  if (registered("google/protobuf/descriptor.proto")) {
    std::fprintf(stderr, "descriptor.proto was registered at program start\n");
    return 1;
  }
#endif
  const google::protobuf::DescriptorPool* pool = google::protobuf::DescriptorPool::generated_pool();
  if (pool->FindFileByName("proto/scenario.proto") != nullptr) {
    std::fprintf(stderr, "scenario.proto was registered at program start\n");
    return 1;
  }
  // A plain load, and the effective scenario that results.json carries, build no descriptors
  // (text_parse.hpp): they would cost every run about 0.7 ms.
  const netwarp::scenarios::LoadedScenario plain =
      netwarp::scenarios::built_in_default_scenario({});
  if (netwarp::scenarios::effective_scenario_text(plain).empty() ||
      pool->InternalIsFileLoaded("proto/scenario.proto") || registered("proto/scenario.proto")) {
    std::fprintf(stderr, "loading and printing a scenario built its descriptors\n");
    return 1;
  }
  const netwarp::scenarios::LoadedScenario loaded =
      netwarp::scenarios::built_in_default_scenario({"seed=7"});
  if (loaded.scenario.seed() != 7) {
    std::fprintf(stderr, "the built-in scenario did not parse with its override\n");
    return 1;
  }
  if (pool->FindMessageTypeByName("netwarp.scenarios.proto.Scenario") == nullptr ||
      pool->FindMessageTypeByName("google.protobuf.FileDescriptorProto") !=
          google::protobuf::FileDescriptorProto::descriptor()) {
    std::fprintf(stderr, "scenario.proto or descriptor.proto is not in the generated pool\n");
    return 1;
  }
  return 0;
}
