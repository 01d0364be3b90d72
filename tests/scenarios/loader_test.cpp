// The loader: locations of written fields, defaults filled (and only where documented), the
// built-in default, engine settings and the effective scenario text.
#include <gtest/gtest.h>

#include "netwarp/scenarios/network_builder.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

constexpr const char* kSmall =
    "topology { star { hosts: 4 } }\n"
    "workload {\n"
    "  flows {\n"
    "    flow { src: 0 dst: 1 bytes: 10 }\n"
    "    flow { src: 2 dst: 1 bytes: 20 }\n"
    "  }\n"
    "}\n"
    "links { levels { level: 0 rate_bps: 5 } }\n";

TEST(Loader, RemembersWhereEveryFieldWasWritten) {
  const LoadedScenario s = load_scenario_text(kSmall, "small.pbtxt", {});
  EXPECT_EQ(s.location_of("topology").line, 1);
  EXPECT_EQ(s.location_of("topology.star.hosts").line, 1);
  EXPECT_EQ(s.location_of("topology.star.hosts").column, 19);
  EXPECT_EQ(s.location_of("workload.flows.flow[1].bytes").line, 5);
  EXPECT_EQ(s.location_of("workload.flows.flow").line, 4);
  EXPECT_EQ(s.location_of("links.levels[0].rate_bps").column, 27);
  EXPECT_FALSE(s.location_of("links.mtu_bytes").is_known());
}

TEST(Loader, FillsDocumentedDefaults) {
  const LoadedScenario s =
      load_scenario_text(kSmall, "small.pbtxt", {"transport.kind=TCP", "seed=0"});
  EXPECT_EQ(s.scenario.seed(), 1u);
  EXPECT_EQ(s.scenario.links().rate_bps(), 1'000'000'000);
  EXPECT_EQ(s.scenario.links().latency_ns(), 1000);
  EXPECT_EQ(s.scenario.links().mtu_bytes(), 1500u);
  EXPECT_EQ(s.scenario.links().levels(0).latency_ns(), 1000);
  EXPECT_EQ(s.scenario.links().levels(0).rate_bps(), 5);
  EXPECT_EQ(s.scenario.transport().tcp().mss_bytes(), 1460u);
  EXPECT_EQ(s.scenario.transport().tcp().min_rto_us(), 200'000u);
  EXPECT_TRUE(s.scenario.placement().has_regular());
}

TEST(Loader, TcpDefaultsFollowTheRfcs) {
  const LoadedScenario s = load_scenario_text(kSmall, "small.pbtxt", {"transport.kind=TCP"});
  const netmodels::TcpConfig tcp = build_network_spec(s).transport.tcp;
  EXPECT_TRUE(tcp.handshake);
  EXPECT_TRUE(tcp.limited_transmit);
  EXPECT_EQ(tcp.rto_after_syn_timeout, engine::seconds(3));
  EXPECT_EQ(tcp.ssthresh_base, netmodels::SsthreshBase::flight_size);
  EXPECT_EQ(tcp.recovery_exit_cwnd, netmodels::RecoveryExitCwnd::bounded_by_flight);
  EXPECT_EQ(tcp.rto_backoff_reset, netmodels::RtoBackoffReset::on_rtt_sample);
  EXPECT_FALSE(build_network_spec(s).workload.persistent_connections);
}

TEST(Loader, TcpPolicySettingsReachTheTcpConfig) {
  const LoadedScenario s = load_scenario_text(
      kSmall, "small.pbtxt",
      {"transport.kind=TCP", "transport.tcp.handshake=false",
       "transport.tcp.limited_transmit=false", "transport.tcp.ssthresh_on_loss=BYTES_IN_FLIGHT",
       "transport.tcp.recovery_exit_cwnd=SSTHRESH", "transport.tcp.rto_backoff_reset=ON_NEW_ACK",
       "transport.tcp.syn_timeout_rto_us=1000", "workload.persistent_connections=true"});
  const netmodels::NetworkSpec spec = build_network_spec(s);
  const netmodels::TcpConfig& tcp = spec.transport.tcp;
  EXPECT_FALSE(tcp.handshake);
  EXPECT_FALSE(tcp.limited_transmit);
  EXPECT_EQ(tcp.rto_after_syn_timeout, engine::ms(1));
  EXPECT_EQ(tcp.ssthresh_base, netmodels::SsthreshBase::bytes_in_flight);
  EXPECT_EQ(tcp.recovery_exit_cwnd, netmodels::RecoveryExitCwnd::ssthresh);
  EXPECT_EQ(tcp.rto_backoff_reset, netmodels::RtoBackoffReset::on_new_ack);
  EXPECT_TRUE(spec.workload.persistent_connections);
}

// TCP offsets are 64-bit: a connection may carry a pair's messages past 4 GiB in all (and a
// single message may pass 4 GiB too: big_message_test.cpp).
TEST(Loader, PersistentTcpConnectionMayCarryMoreThanFourGiB) {
  const LoadedScenario s = load_scenario_text(
      "topology { star { hosts: 2 } }\n"
      "transport { kind: TCP }\n"
      "workload {\n  persistent_connections: true\n  flows {\n"
      "    flow { src: 0 dst: 1 bytes: 3000000000 }\n"
      "    flow { src: 0 dst: 1 bytes: 3000000000 }\n  }\n}\n",
      "big.pbtxt", {});
  const netmodels::NetworkSpec spec = build_network_spec(s);
  ASSERT_EQ(spec.workload.messages.size(), 2u);
  EXPECT_TRUE(spec.workload.persistent_connections);
}

TEST(Loader, NativeDefaultsAreFifoTiesAndSwitchBufferSemantics) {
  const LoadedScenario s = load_scenario_text(kSmall, "small.pbtxt", {});
  EXPECT_EQ(s.scenario.engine().tie_order(), proto::Engine::FIFO);
  EXPECT_EQ(s.scenario.links().frame_overhead_bytes(), 38u);
  EXPECT_TRUE(s.scenario.switch_().count_frame_in_service());
  EXPECT_EQ(s.scenario.switch_().same_instant(), proto::Switch::DEPARTURE_FIRST);
  EXPECT_EQ(engine_settings(s).tie_order, engine::TieOrder::fifo);
  const LoadedScenario creator =
      load_scenario_text(kSmall, "small.pbtxt", {"engine.tie_order=CREATOR"});
  EXPECT_EQ(engine_settings(creator).tie_order, engine::TieOrder::creator);
}

TEST(Loader, EmulateNs3PresetsNs3SemanticsButKeepsWrittenFields) {
  const LoadedScenario s = load_scenario_text(kSmall, "small.pbtxt", {"emulate=NS3"});
  EXPECT_EQ(s.scenario.links().frame_overhead_bytes(), 2u);
  EXPECT_FALSE(s.scenario.switch_().count_frame_in_service());
  EXPECT_EQ(s.scenario.switch_().same_instant(), proto::Switch::ARRIVAL_FIRST);
  EXPECT_EQ(s.scenario.engine().tie_order(), proto::Engine::FIFO_CREATOR);
  EXPECT_EQ(engine_settings(s).tie_order, engine::TieOrder::fifo_creator);
  const LoadedScenario tcp =
      load_scenario_text(kSmall, "small.pbtxt", {"emulate=NS3", "transport.kind=TCP"});
  const proto::Tcp& t = tcp.scenario.transport().tcp();
  EXPECT_EQ(t.recovery(), proto::Tcp::NS3_CLASSIC);
  EXPECT_EQ(t.ssthresh_on_loss(), proto::Tcp::BYTES_IN_FLIGHT);
  EXPECT_EQ(t.recovery_exit_cwnd(), proto::Tcp::SSTHRESH);
  EXPECT_EQ(t.rto_backoff_reset(), proto::Tcp::ON_NEW_ACK);
  EXPECT_EQ(t.syn_timeout_rto_us(), t.min_rto_us());
  EXPECT_EQ(t.syn_option_bytes(), 4u);  // window scale, padded
  EXPECT_EQ(t.delayed_ack_reading(), proto::Tcp::DELAYED_ACK_NS3);
  const LoadedScenario native_tcp =
      load_scenario_text(kSmall, "small.pbtxt", {"transport.kind=TCP"});
  const proto::Tcp& native = native_tcp.scenario.transport().tcp();
  EXPECT_EQ(native.ssthresh_on_loss(), proto::Tcp::FLIGHT_SIZE);
  EXPECT_EQ(native.rto_backoff_reset(), proto::Tcp::ON_RTT_SAMPLE);
  EXPECT_EQ(native.recovery(), proto::Tcp::NEWRENO);
  EXPECT_EQ(native.delayed_ack_reading(), proto::Tcp::DELAYED_ACK_RFC);
  // With CUBIC, ns-3's TcpCubic inside ns-3's sender.
  const LoadedScenario cubic = load_scenario_text(
      kSmall, "small.pbtxt",
      {"emulate=NS3", "transport.kind=TCP", "transport.tcp.congestion_control=CUBIC"});
  EXPECT_EQ(cubic.scenario.transport().tcp().recovery(), proto::Tcp::NS3_CLASSIC);
  EXPECT_EQ(cubic.scenario.transport().tcp().cubic_reading(), proto::Tcp::CUBIC_NS3);
  const LoadedScenario rfc_cubic = load_scenario_text(
      kSmall, "small.pbtxt",
      {"emulate=NS3", "transport.kind=TCP", "transport.tcp.congestion_control=CUBIC",
       "transport.tcp.cubic_reading=CUBIC_RFC9438"});
  EXPECT_EQ(rfc_cubic.scenario.transport().tcp().recovery(), proto::Tcp::NEWRENO);
  // With DCTCP, ns-3's TcpDctcp inside ns-3's sender, and ns-3's RED where switches mark.
  const std::vector<std::string> dctcp_sets = {"emulate=NS3", "transport.kind=TCP",
                                               "transport.tcp.congestion_control=DCTCP",
                                               "switch.ecn_threshold_bytes=20000"};
  const LoadedScenario dctcp = load_scenario_text(kSmall, "small.pbtxt", dctcp_sets);
  EXPECT_EQ(dctcp.scenario.transport().tcp().recovery(), proto::Tcp::NS3_CLASSIC);
  EXPECT_EQ(dctcp.scenario.transport().tcp().dctcp_reading(), proto::Tcp::DCTCP_NS3);
  EXPECT_EQ(dctcp.scenario.transport().tcp().dctcp_initial_alpha(), 1.0);
  EXPECT_EQ(dctcp.scenario.switch_().mark_reading(), proto::Switch::MARK_NS3_RED);
  std::vector<std::string> native_sets(dctcp_sets.begin() + 1, dctcp_sets.end());
  const LoadedScenario native_dctcp = load_scenario_text(kSmall, "small.pbtxt", native_sets);
  EXPECT_EQ(native_dctcp.scenario.transport().tcp().dctcp_reading(), proto::Tcp::DCTCP_RFC8257);
  EXPECT_EQ(native_dctcp.scenario.switch_().mark_reading(), proto::Switch::MARK_NATIVE);
  // ns-3's recovery without SACK applies only where ns-3 would run it: not with SACK, ECN or
  // RFC 9438's CUBIC (above), and not where the file chose a recovery.
  for (const char* other :
       {"transport.tcp.sack=true", "transport.tcp.ecn=true", "transport.tcp.recovery=NEWRENO"}) {
    const LoadedScenario o =
        load_scenario_text(kSmall, "small.pbtxt", {"emulate=NS3", "transport.kind=TCP", other});
    EXPECT_EQ(o.scenario.transport().tcp().recovery(), proto::Tcp::NEWRENO) << other;
  }
  // With SACK the SYN also carries SACK permitted: 3 + 2 B, padded to 8.
  const LoadedScenario sack = load_scenario_text(
      kSmall, "small.pbtxt", {"emulate=NS3", "transport.kind=TCP", "transport.tcp.sack=true"});
  EXPECT_EQ(sack.scenario.transport().tcp().syn_option_bytes(), 8u);
  const LoadedScenario kept = load_scenario_text(
      kSmall, "small.pbtxt",
      {"emulate=NS3", "links.frame_overhead_bytes=38", "switch.same_instant=DEPARTURE_FIRST"});
  EXPECT_EQ(kept.scenario.links().frame_overhead_bytes(), 38u);
  EXPECT_EQ(kept.scenario.switch_().same_instant(), proto::Switch::DEPARTURE_FIRST);
  EXPECT_FALSE(kept.scenario.switch_().count_frame_in_service());
}

TEST(Loader, KeepsExplicitZerosWhereZeroIsLegitimate) {
  const LoadedScenario s =
      load_scenario_text(kSmall, "z.pbtxt", {"links.header_bytes=0", "links.latency_ns=0"});
  EXPECT_EQ(s.scenario.links().header_bytes(), 0u);
  EXPECT_EQ(s.scenario.links().latency_ns(), 0);
}

TEST(Loader, ClampsTheDefaultInitialRtoIntoTheRtoBounds) {
  const LoadedScenario s = load_scenario_text(
      kSmall, "rto.pbtxt", {"transport.kind=TCP", "transport.tcp.max_rto_us=500000"});
  EXPECT_EQ(s.scenario.transport().tcp().initial_rto_us(), 500'000u);
}

TEST(Loader, FillsCongestionControlDefaultsForTheChosenAlgorithmOnly) {
  const LoadedScenario cubic = load_scenario_text(
      kSmall, "cubic.pbtxt", {"transport.kind=TCP", "transport.tcp.congestion_control=CUBIC"});
  EXPECT_EQ(cubic.scenario.transport().tcp().cubic_c(), 0.4);
  EXPECT_EQ(cubic.scenario.transport().tcp().cubic_beta(), 0.7);
  EXPECT_FALSE(cubic.scenario.transport().tcp().has_dctcp_g());
  const LoadedScenario reno = load_scenario_text(kSmall, "reno.pbtxt", {"transport.kind=TCP"});
  EXPECT_FALSE(reno.scenario.transport().tcp().has_cubic_c());
}

TEST(Loader, MapsCongestionControlToTheSenderConfig) {
  const netmodels::NetworkSpec cubic = build_network_spec(
      load_scenario_text(kSmall, "cubic.pbtxt",
                         {"transport.kind=TCP", "transport.tcp.congestion_control=CUBIC",
                          "transport.tcp.cubic_c=0.3", "transport.tcp.cubic_beta=0.8"}));
  EXPECT_EQ(cubic.transport.tcp.congestion_control, netmodels::CongestionControl::cubic);
  EXPECT_EQ(cubic.transport.tcp.cubic_c, 0.3);
  EXPECT_EQ(cubic.transport.tcp.cubic_beta, 0.8);
  EXPECT_FALSE(cubic.transport.tcp.sends_ect());
  const netmodels::NetworkSpec dctcp = build_network_spec(
      load_scenario_text(kSmall, "dctcp.pbtxt",
                         {"transport.kind=TCP", "transport.tcp.congestion_control=DCTCP",
                          "switch.ecn_threshold_bytes=20000"}));
  EXPECT_EQ(dctcp.transport.tcp.congestion_control, netmodels::CongestionControl::dctcp);
  EXPECT_EQ(dctcp.transport.tcp.dctcp_g, 1.0 / 16);
  EXPECT_TRUE(dctcp.transport.tcp.sends_ect());  // ECT without transport.tcp.ecn
}

TEST(Loader, BuiltInDefaultIsASmallIncast) {
  const LoadedScenario s = built_in_default_scenario();
  EXPECT_EQ(s.path, "<built-in incast>");
  EXPECT_EQ(s.scenario.workload().incast().senders(), 16u);
  EXPECT_EQ(s.scenario.transport().kind(), proto::Transport::TCP);
}

TEST(Loader, EngineSettingsFollowTheScenario) {
  const LoadedScenario s =
      load_scenario_text(kSmall, "e.pbtxt",
                         {"engine.kernel=optimistic", "engine.window_us=5", "end_time_ns=7",
                          "engine.max_uncommitted=9", "engine.max_uncommitted_bytes=65536",
                          "engine.record_buffer_bytes=4096"});
  const EngineSettings e = engine_settings(s);
  EXPECT_EQ(e.max_uncommitted, 9u);
  EXPECT_EQ(e.max_uncommitted_bytes, 65536u);
  EXPECT_EQ(e.record_buffer_bytes, 4096u);
  EXPECT_EQ(e.kernel, "optimistic");
  EXPECT_EQ(e.gvt_interval, 64u);
  EXPECT_EQ(e.batch, 16u);
  EXPECT_DOUBLE_EQ(e.window_us, 5);
  EXPECT_EQ(e.end_time, engine::ns(7));
  EXPECT_EQ(engine_settings(built_in_default_scenario()).end_time, engine::SimTime::max());
  EXPECT_DOUBLE_EQ(engine_settings(built_in_default_scenario()).window_us, -1);
  EXPECT_FALSE(engine_settings(built_in_default_scenario()).window_is_set);
  EXPECT_TRUE(e.window_is_set);
  // The window is fixed unless the scenario asks for the adaptive one.
  EXPECT_FALSE(e.adaptive_window);
  EXPECT_TRUE(
      engine_settings(load_scenario_text(kSmall, "e.pbtxt", {"engine.adaptive_window=true"}))
          .adaptive_window);
}

TEST(Loader, EffectiveTextReloadsToTheSameScenario) {
  const LoadedScenario s = built_in_default_scenario({"workload.incast.senders=3"});
  const std::string text = effective_scenario_text(s);
  EXPECT_NE(text.find("senders: 3"), std::string::npos);
  EXPECT_NE(text.find("frame_overhead_bytes: 38"), std::string::npos);
  const LoadedScenario again = load_scenario_text(text, "again.pbtxt", {});
  EXPECT_EQ(effective_scenario_text(again), text);
}

}  // namespace
}  // namespace netwarp::scenarios
