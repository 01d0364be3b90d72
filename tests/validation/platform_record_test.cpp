// The platform record of a parameter file: fit writes it, the file reads back with it, and
// the comparison names exactly the parts that differ (a topology's size is not one of them).
#include "netwarp/validation/platform_record.hpp"

#include <gtest/gtest.h>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/validation/model_fitting.hpp"
#include "netwarp/validation/params_json.hpp"

namespace netwarp::validation {
namespace {

using Parts = std::vector<std::string>;

scenarios::LoadedScenario pingpong(const std::vector<std::string>& sets = {}) {
  return scenarios::load_scenario(scenarios::scenario_library_dir() + "/pingpong.pbtxt", sets);
}

TEST(PlatformRecord, FitRecordsTheScenarioItWasFittedOnAndTheFileReadsBack) {
  const scenarios::LoadedScenario loaded = pingpong();
  const nlohmann::ordered_json json =
      fit_model(ModelKind::hockney, loaded, scenarios::build_mpi_run(loaded));
  ASSERT_TRUE(json.contains("platform"));
  EXPECT_EQ(json["platform"]["scenario"], loaded.path);
  EXPECT_EQ(json["platform"]["topology"], "star");
  EXPECT_NE(json["platform"]["links"].get<std::string>().find("rate_bps: 10000000000"),
            std::string::npos);
  EXPECT_NO_THROW(params_from_json(json));
  EXPECT_TRUE(platform_differences(json["platform"], loaded).empty());
}

TEST(PlatformRecord, NamesEachPartThatDiffers) {
  const nlohmann::ordered_json recorded = platform_record(pingpong());
  EXPECT_EQ(platform_differences(recorded, pingpong({"links.latency_ns=2000"})), Parts{"links"});
  EXPECT_EQ(platform_differences(recorded,
                                 pingpong({"mpi.host.o_ns=900", "mpi.protocol.eager_bytes=65536"})),
            (Parts{"mpi.host", "mpi.protocol"}));
  EXPECT_EQ(platform_differences(recorded, pingpong({"transport.kind=TCP"})), Parts{"transport"});
  EXPECT_EQ(platform_differences(
                recorded, pingpong({"topology.tree.leaves=2", "topology.tree.hosts_per_leaf=2"})),
            Parts{"topology"});
}

TEST(PlatformRecord, TopologySizeIsNotAPlatformDifference) {
  const nlohmann::ordered_json recorded = platform_record(pingpong());
  EXPECT_TRUE(platform_differences(recorded, pingpong({"topology.star.hosts=16"})).empty());
}

TEST(PlatformRecord, MissingPartsDifferAndANonObjectIsAnError) {
  nlohmann::ordered_json recorded = platform_record(pingpong());
  recorded.erase("nic");
  EXPECT_EQ(platform_differences(recorded, pingpong()), Parts{"nic"});
  EXPECT_THROW(platform_differences(nlohmann::ordered_json("star"), pingpong()),
               netmodels::InputError);
  nlohmann::ordered_json file = params_to_json({HockneyParams{1000, 0.1}, "", std::nullopt});
  file["platform"] = 3;
  EXPECT_THROW(params_from_json(file), netmodels::InputError);
}

}  // namespace
}  // namespace netwarp::validation
