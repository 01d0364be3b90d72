// Engine settings and the effective scenario text: what a run reports about its own input; the
// TCP congestion-control settings as the sender's config.
#include <google/protobuf/text_format.h>

#include <cctype>

#include "builder_parts.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "text_print.hpp"

namespace netwarp::scenarios {

namespace {

engine::TieOrder tie_order(proto::Engine::TieOrder order) {
  switch (order) {
    case proto::Engine::CREATOR:
      return engine::TieOrder::creator;
    case proto::Engine::FIFO_CREATOR:
      return engine::TieOrder::fifo_creator;
    default:
      return engine::TieOrder::fifo;
  }
}

}  // namespace

// Defaults are filled (defaults.cpp) for the chosen algorithm only; TcpConfig's own defaults
// (RFC 9438's C and beta, RFC 8257's g) stand for the others, which do not read them.
void set_congestion_control(const proto::Tcp& tcp, netmodels::TcpConfig& config) {
  using netmodels::CongestionControl;
  switch (tcp.congestion_control()) {
    case proto::Tcp::CUBIC:
      config.congestion_control = CongestionControl::cubic;
      config.cubic_c = tcp.cubic_c();
      config.cubic_beta = tcp.cubic_beta();
      config.cubic_reading = tcp.cubic_reading() == proto::Tcp::CUBIC_NS3
                                 ? netmodels::CubicReading::ns3
                                 : netmodels::CubicReading::rfc9438;
      break;
    case proto::Tcp::DCTCP:
      config.congestion_control = CongestionControl::dctcp;
      config.dctcp_g = tcp.dctcp_g();
      config.dctcp_initial_alpha = tcp.dctcp_initial_alpha();
      config.dctcp_reading = tcp.dctcp_reading() == proto::Tcp::DCTCP_NS3
                                 ? netmodels::DctcpReading::ns3
                                 : netmodels::DctcpReading::rfc8257;
      break;
    default:
      config.congestion_control = CongestionControl::new_reno;
      break;
  }
}

EngineSettings engine_settings(const LoadedScenario& loaded) {
  const proto::Scenario& s = loaded.scenario;
  EngineSettings settings;
  settings.kernel = s.engine().kernel() == proto::Engine::OPTIMISTIC ? "optimistic" : "sequential";
  settings.kernel_is_set = s.engine().has_kernel();
  settings.gvt_interval = s.engine().gvt_interval();
  settings.batch = s.engine().batch();
  settings.window_is_set = s.engine().has_window_us();
  settings.window_us = s.engine().window_us() > 0 ? s.engine().window_us() : -1;
  settings.adaptive_window = s.engine().has_adaptive_window() && s.engine().adaptive_window();
  settings.max_uncommitted = s.engine().max_uncommitted();
  settings.max_uncommitted_bytes = s.engine().max_uncommitted_bytes();
  settings.record_buffer_bytes = s.engine().record_buffer_bytes();
  if (s.end_time_ns() != 0)
    settings.end_time = engine::ns(static_cast<std::int64_t>(s.end_time_ns()));
  settings.seed = s.seed();
  settings.tie_order = tie_order(s.engine().tie_order());
  if (s.engine().has_sync()) {
    std::string name = proto::Engine::Sync::Mode_Name(s.engine().sync());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    settings.sync = name;
  }
  return settings;
}

std::string effective_scenario_text(const LoadedScenario& loaded) {
  if (auto text = fast_text_print(loaded.scenario)) return std::move(*text);
  std::string text;
  google::protobuf::TextFormat::PrintToString(loaded.scenario, &text);
  return text;
}

}  // namespace netwarp::scenarios
