// Settings a run would not read are reported, one located warning line each: fields of the
// transport not in use, collective algorithms the program never calls, a collective kernel's
// root or bytes where its kind has none. Settings that are used give no warning.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {
namespace {

using Lines = std::vector<std::string>;

constexpr const char* kIncast =
    "topology { star { hosts: 4 } }\n"
    "workload { incast { bytes: 1000 } }\n";

constexpr const char* kMpiStar = "topology { star { hosts: 4 } }\n";

// Loads with the warning printer capturing what it is given, then restores the default one
// (an empty printer).
class UnusedSettings : public ::testing::Test {
 protected:
  void SetUp() override {
    set_warning_printer([this](const std::string& line) { printed_.push_back(line); });
  }
  void TearDown() override { set_warning_printer(nullptr); }
  LoadedScenario load(const std::string& text, const Lines& overrides = {}) {
    return load_scenario_text(text, "s.pbtxt", overrides);
  }
  Lines printed_;
};

TEST_F(UnusedSettings, TcpFieldsOfALosslessRunAreNamedWithTheirPlace) {
  const std::string text = std::string(kIncast) +
                           "transport {\n"
                           "  kind: LOSSLESS\n"
                           "  tcp { min_rto_us: 1000 sack: true }\n"
                           "}\n";
  const LoadedScenario s = load(text);
  const Lines expected = {
      "s.pbtxt:5:9: transport.tcp.min_rto_us: ignored: only used with transport.kind: TCP (this "
      "run is LOSSLESS)",
      "s.pbtxt:5:26: transport.tcp.sack: ignored: only used with transport.kind: TCP (this run "
      "is LOSSLESS)"};
  EXPECT_EQ(s.warnings, expected);
  EXPECT_EQ(printed_, expected);
}

TEST_F(UnusedSettings, SwitchingTheTransportByOverrideWarnsAboutTheFilesTcpFields) {
  const std::string text =
      std::string(kIncast) + "transport { kind: TCP tcp { mss_bytes: 1000 } }\n";
  EXPECT_TRUE(load(text).warnings.empty());
  const Lines expected = {
      "s.pbtxt:3:29: transport.tcp.mss_bytes: ignored: only used with transport.kind: TCP (this "
      "run is LOSSLESS)"};
  EXPECT_EQ(load(text, {"transport.kind=LOSSLESS"}).warnings, expected);
}

TEST_F(UnusedSettings, AnEmptyTcpBlockSetsNothing) {
  EXPECT_TRUE(load(std::string(kIncast) + "transport { tcp {} }\n").warnings.empty());
}

TEST_F(UnusedSettings, CollectiveAlgorithmsTheProgramNeverCallsAreNamed) {
  const std::string text = std::string(kMpiStar) +
                           "mpi {\n"
                           "  collectives { bcast: \"linear\" allreduce: \"ring\" }\n"
                           "  collective { kind: \"allreduce\" bytes: 64 }\n"
                           "}\n";
  const Lines expected = {
      "s.pbtxt:3:17: mpi.collectives.bcast: ignored: the collective program makes no bcast "
      "call"};
  EXPECT_EQ(load(text).warnings, expected);
}

TEST_F(UnusedSettings, PingPongUsesNoCollectiveAlgorithm) {
  const std::string text = std::string(kMpiStar) +
                           "mpi {\n"
                           "  collectives { barrier: \"dissemination\" }\n"
                           "  pingpong { sizes: 8 }\n"
                           "}\n";
  const Lines expected = {
      "s.pbtxt:3:17: mpi.collectives.barrier: ignored: the pingpong program makes no barrier "
      "call"};
  EXPECT_EQ(load(text).warnings, expected);
}

TEST_F(UnusedSettings, RootOfARootlessCollectiveAndBytesOfABarrierAreNamed) {
  const std::string rootless =
      std::string(kMpiStar) + "mpi { collective { kind: \"allreduce\" bytes: 8 root: 2 } }\n";
  EXPECT_EQ(load(rootless).warnings,
            Lines{"s.pbtxt:2:47: mpi.collective.root: ignored: allreduce has no root"});
  const std::string barrier =
      std::string(kMpiStar) + "mpi { collective { kind: \"barrier\" bytes: 8 } }\n";
  EXPECT_EQ(load(barrier).warnings,
            Lines{"s.pbtxt:2:36: mpi.collective.bytes: ignored: a barrier carries no data"});
  const std::string rooted =
      std::string(kMpiStar) + "mpi { collective { kind: \"bcast\" bytes: 8 root: 2 } }\n";
  EXPECT_TRUE(load(rooted).warnings.empty());
}

}  // namespace
}  // namespace netwarp::scenarios
