// Fitting in the packet simulator: parameters fitted on the library's two-host lossless
// ping-pong platform reproduce the simulated round trips, also at sizes the fit never saw.
#include <gtest/gtest.h>

#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/loggps.hpp"
#include "netwarp/validation/model_fitting.hpp"
#include "netwarp/validation/packet_bench.hpp"
#include "netwarp/validation/params_json.hpp"
#include "netwarp/validation/replay_models.hpp"

namespace netwarp::validation {
namespace {

struct Platform {
  scenarios::LoadedScenario loaded;
  scenarios::MpiRunSpec spec;
};

Platform library_platform(const std::string& name, const std::vector<std::string>& sets = {}) {
  Platform p{scenarios::load_scenario(scenarios::scenario_library_dir() + "/" + name, sets), {}};
  p.spec = scenarios::build_mpi_run(p.loaded);
  return p;
}

TEST(PacketFit, LogGpsReproducesTheSimulatedRoundTripWithin2PercentAtEverySize) {
  const Platform platform = library_platform("pingpong.pbtxt");
  const nlohmann::ordered_json json = fit_model(ModelKind::loggps, platform.loaded, platform.spec);
  const ParamsDocument doc = params_from_json(json);
  const auto& p = std::get<LogGpsParams>(doc.params);
  EXPECT_EQ(p.s, 1396u);
  EXPECT_EQ(p.S, 16384u);
  // The platform's own host costs come back: o' = 1500 ns, Oss = 0.3 ns/byte.
  EXPECT_NEAR(p.o, 1500, 15);
  EXPECT_NEAR(p.Oss, 0.3, 0.003);
  for (const auto& row : json.at("fit").at("residuals"))
    EXPECT_LT(std::abs(row.at("error_pct").get<double>()), 2.0) << row.dump();
  // Sizes the fit did not use, in all three regimes, at w = 0 and at a large w.
  const std::vector<std::uint64_t> sizes{1, 100, 700, 3000, 10000, 16000, 16500, 20000, 100000};
  for (double w : {0.0, 800000.0}) {
    const PingPongCurve curve = measure_pingpong(platform.spec, sizes, w);
    for (const auto& [k, rtt] : curve.rtt)
      EXPECT_NEAR(loggps::rtt(p, k, w), rtt, 0.02 * rtt) << "k = " << k << ", w = " << w;
  }
}

TEST(PacketFit, PingPongCurveIsMeasuredFromCallRecords) {
  const Platform platform = library_platform("pingpong.pbtxt");
  const PingPongCurve w0 = measure_pingpong(platform.spec, {0, 16384, 16385}, 0);
  // The library run reports RTT(16384) = 57.936 us and RTT(16385) = 61.637 us (README); the
  // rendezvous jump is there.
  EXPECT_NEAR(w0.rtt[1].second, 57936, 1);
  EXPECT_GT(w0.rtt[2].second - w0.rtt[1].second, 3000);
  // An eager send call costs o' + k Oss on this platform: 1500 + 16384 * 0.3.
  EXPECT_NEAR(w0.send_call[1].second, 1500 + 16384 * 0.3, 1);
}

TEST(PacketFit, KielmannMeasurementsGivePositiveLatencyAndGrowingGap) {
  const Platform platform = library_platform("pingpong.pbtxt");
  const nlohmann::ordered_json json = fit_model(ModelKind::plogp, platform.loaded, platform.spec);
  const ParamsDocument doc = params_from_json(json);
  const auto& p = std::get<PlogpParams>(doc.params);
  EXPECT_GT(p.L, 0);
  EXPECT_LT(p.g(0), p.g(65536));
  // One message answered by an empty one: L + g(m) + L + g(0), the definition the fit inverts.
  const KielmannData data = measure_kielmann(platform.spec, {4096});
  EXPECT_NEAR(data.rtt_m0[0].second, 2 * p.L + p.g(4096) + p.g(0), 0.01 * data.rtt_m0[0].second);
}

TEST(PacketFit, PlogpBrNeedsAnAlltoallAndReadsQAndRtoFromTheScenario) {
  const Platform pingpong = library_platform("pingpong.pbtxt");
  EXPECT_THROW(fit_model(ModelKind::plogp_br, pingpong.loaded, pingpong.spec),
               std::invalid_argument);
  const Platform a2a = library_platform(
      "alltoall-ab.pbtxt", {"mpi.ranks=4", "mpi.alltoall.bytes=4096", "transport.kind=TCP",
                            "switch.buffer_bytes=65536", "transport.tcp.min_rto_us=1000"});
  const auto doc = params_from_json(fit_model(ModelKind::plogp_br, a2a.loaded, a2a.spec));
  const auto& br = std::get<PlogpBrParams>(doc.params);
  EXPECT_FALSE(br.flow_control);
  EXPECT_DOUBLE_EQ(br.q_bytes, 65536);
  EXPECT_DOUBLE_EQ(br.rto_ns, 1e6);
  EXPECT_EQ(br.g_by_pattern.size(), 3u);  // xor1, xor2, xor3
}

TEST(PacketFit, MpieteTableReproducesAnIsolatedMessageExactly) {
  const Platform platform = library_platform("pingpong.pbtxt");
  const nlohmann::ordered_json json = fit_model(ModelKind::mpiete, platform.loaded, platform.spec);
  const ParamsDocument doc = params_from_json(json);  // the file reads back
  const auto& p = std::get<MpieteParams>(doc.params);
  for (std::uint64_t k : {std::uint64_t{0}, std::uint64_t{16385}}) {  // measured sizes
    mpiemul::RankProgramBuilder r0(0, 2), r1(1, 2);
    r0.send(1, 0, k);
    r1.recv(0, 0, k);
    auto program = std::make_shared<mpiemul::Program>();
    program->ranks = {r0.take(), r1.take()};
    const PacketRun run = run_on_platform(platform.spec, program);
    const auto model = mpiete_replay_model(p);
    // Programs start at 1 ps in the packet simulation, at 0 in the replay.
    EXPECT_NEAR(predict_program(*program, *model).run_time_ns,
                static_cast<double>(run.totals.run_time_ps - 1) / 1000.0, 1e-6)
        << "k = " << k;
  }
  // A rendezvous message takes longer to receive than the largest eager one.
  EXPECT_GT(t_comm(p, 16385), t_comm(p, 16384));
}

}  // namespace
}  // namespace netwarp::validation
