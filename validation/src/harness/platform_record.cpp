// The platform record of a parameter file (platform_record.hpp).
#include "netwarp/validation/platform_record.hpp"

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::validation {

nlohmann::ordered_json platform_record(const scenarios::LoadedScenario& loaded) {
  const scenarios::proto::Scenario& s = loaded.scenario;
  const auto* kind = s.topology().GetDescriptor()->FindFieldByNumber(s.topology().kind_case());
  nlohmann::ordered_json j;
  j["scenario"] = loaded.path;
  j["topology"] = kind ? kind->name() : "";
  j["links"] = s.links().ShortDebugString();
  j["switch"] = s.switch_().ShortDebugString();
  j["nic"] = s.nic().ShortDebugString();
  j["transport"] = s.transport().ShortDebugString();
  j["mpi.host"] = s.mpi().host().ShortDebugString();
  j["mpi.protocol"] = s.mpi().protocol().ShortDebugString();
  return j;
}

std::vector<std::string> platform_differences(const nlohmann::ordered_json& recorded,
                                              const scenarios::LoadedScenario& loaded) {
  if (!recorded.is_object())
    throw netmodels::InputError("platform", "must be an object (written by netwarp fit)");
  const nlohmann::ordered_json current = platform_record(loaded);
  std::vector<std::string> parts;
  for (const auto& [part, value] : current.items()) {
    if (part == "scenario") continue;
    const auto found = recorded.find(part);
    if (found == recorded.end() || *found != value) parts.push_back(part);
  }
  return parts;
}

}  // namespace netwarp::validation
