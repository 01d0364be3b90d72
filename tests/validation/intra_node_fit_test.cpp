// Intra-node parameters: `netwarp fit` measures them on a platform with several ranks per host,
// parameter files carry them ("intra_node"), and predict uses them instead of the scenario's
// shared-memory settings.
#include <gtest/gtest.h>

#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/model_fitting.hpp"
#include "netwarp/validation/model_prediction.hpp"
#include "netwarp/validation/params_json.hpp"

namespace netwarp::validation {
namespace {

struct Platform {
  scenarios::LoadedScenario loaded;
  scenarios::MpiRunSpec spec;
};

Platform library_platform(const std::string& name, const std::vector<std::string>& sets) {
  Platform p{scenarios::load_scenario(scenarios::scenario_library_dir() + "/" + name, sets), {}};
  p.spec = scenarios::build_mpi_run(p.loaded);
  return p;
}

Platform pingpong_platform(const std::vector<std::string>& sets) {
  return library_platform("pingpong.pbtxt", sets);
}

// The fit recovers the scenario's mpi.host settings (o 1500 ns; shm defaults: 200 ns, 10 GB/s
// copies, 4096 B eager, 1000 ns set-up, 12.5 GB/s single copy).
TEST(IntraNodeFit, RecoversTheSharedMemorySettings) {
  const Platform p = pingpong_platform({"mpi.ranks_per_host=2"});
  const nlohmann::ordered_json json = fit_model(ModelKind::hockney, p.loaded, p.spec);
  const auto fitted = intra_node_from_json(json);
  ASSERT_TRUE(fitted.has_value());
  EXPECT_NEAR(fitted->o, 1500, 1e-6);
  EXPECT_NEAR(fitted->latency, 200, 1e-6);
  EXPECT_NEAR(fitted->copy, 0.1, 1e-9);
  EXPECT_EQ(fitted->eager_bytes, 4096u);
  EXPECT_NEAR(fitted->single_copy_setup, 1000, 1e-6);
  EXPECT_NEAR(fitted->single_copy, 0.08, 1e-9);
  // One rank per host: nothing to measure, no intra_node.
  const Platform apart = pingpong_platform({});
  EXPECT_FALSE(intra_node_from_json(fit_model(ModelKind::hockney, apart.loaded, apart.spec)));
}

TEST(IntraNodeFit, ParameterFilesCarryThemAndPredictUsesThem) {
  IntraNodeParams in;
  in.latency = 5000;
  in.o = 1500;
  in.copy = 0.1;
  in.eager_bytes = 4096;
  in.single_copy_setup = 1000;
  in.single_copy = 0.08;
  nlohmann::ordered_json file = params_to_json({HockneyParams{1000, 0.1}, "", std::nullopt});
  file["intra_node"] = intra_node_to_json(in);
  EXPECT_NO_THROW(params_from_json(file));
  const auto back = intra_node_from_json(file);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->latency, 5000);
  EXPECT_EQ(back->eager_bytes, 4096u);
  nlohmann::ordered_json bad = file;
  bad["intra_node"]["speed"] = 1;
  EXPECT_THROW(params_from_json(bad), netmodels::InputError);
  // Ranks 0 and 1 of the ping-pong share a host: 5000 ns of latency instead of the scenario's
  // 200 each way of each round trip.
  const Platform p = pingpong_platform({"mpi.ranks_per_host=2"});
  nlohmann::ordered_json plain = file;
  plain.erase("intra_node");
  const double with_file = predict_with(file, "f", p.loaded, p.spec).prediction.run_time_ns;
  const double with_scenario = predict_with(plain, "f", p.loaded, p.spec).prediction.run_time_ns;
  EXPECT_GT(with_file, with_scenario + 2 * 4800);
}

// The LogGPS fit adds what two ranks of one host sharing its NIC with two of another add to a
// round trip, and takes Gl from it: the host link's serialisation (8 ns/byte at 1 Gbit/s, plus
// headers), whatever the platform's ranks per host. With the ping-pong alone Gl lost what the
// unexpected-buffer copy put in Ors (8.68 ns/byte here, Orl 0.105 against the scenario's 0.25).
TEST(IntraNodeFit, LogGpsTakesGlFromTheSharedNic) {
  for (const char* ranks_per_host : {"mpi.ranks_per_host=1", "mpi.ranks_per_host=2"}) {
    const Platform p = library_platform("alltoall-ab.pbtxt", {ranks_per_host});
    const nlohmann::ordered_json json = fit_model(ModelKind::loggps, p.loaded, p.spec);
    const double gl = json["params"]["Gl"].get<double>();
    EXPECT_GT(gl, 8.0) << ranks_per_host;
    EXPECT_LT(gl, 8.0 * 1.05) << ranks_per_host;
    bool noted = false;
    for (const auto& note : json["fit"]["notes"])
      noted = noted || note.get<std::string>().find("sharing a NIC") != std::string::npos;
    EXPECT_TRUE(noted) << ranks_per_host;
    std::size_t nic_points = 0;
    for (const auto& r : json["fit"]["residuals"])
      if (r["series"] == "nic") ++nic_points;
    EXPECT_EQ(nic_points, 4u) << ranks_per_host;
  }
}

}  // namespace
}  // namespace netwarp::validation
