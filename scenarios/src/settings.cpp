// Engine settings and the effective scenario text: what a run reports about its own input.
#include <google/protobuf/text_format.h>

#include "netwarp/scenarios/network_builder.hpp"

namespace netwarp::scenarios {

EngineSettings engine_settings(const LoadedScenario& loaded) {
  const proto::Scenario& s = loaded.scenario;
  EngineSettings settings;
  settings.kernel = s.engine().kernel() == proto::Engine::OPTIMISTIC ? "optimistic" : "sequential";
  settings.gvt_interval = s.engine().gvt_interval();
  settings.batch = s.engine().batch();
  settings.window_is_set = s.engine().has_window_us();
  settings.window_us = s.engine().window_us() > 0 ? s.engine().window_us() : -1;
  settings.max_uncommitted = s.engine().max_uncommitted();
  if (s.end_time_ns() != 0)
    settings.end_time = engine::ns(static_cast<std::int64_t>(s.end_time_ns()));
  settings.seed = s.seed();
  settings.tie_order = s.engine().tie_order() == proto::Engine::CREATOR ? engine::TieOrder::creator
                                                                        : engine::TieOrder::fifo;
  return settings;
}

std::string effective_scenario_text(const LoadedScenario& loaded) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(loaded.scenario, &text);
  return text;
}

}  // namespace netwarp::scenarios
