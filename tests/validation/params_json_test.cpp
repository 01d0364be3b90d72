// Parameter files: every model round-trips; bad files give one line naming file and field.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "netwarp/validation/params_json.hpp"

namespace netwarp::validation {
namespace {

using Json = nlohmann::ordered_json;

class ParamsJson : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("params_json_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string error_of(const std::string& path) {
    try {
      read_params_file(path);
    } catch (const ParamsFileError& e) {
      return e.what();
    }
    return "(no error)";
  }
  std::filesystem::path dir_;
};

Json myrinet_json() {
  return params_to_json({loggps_preset("myrinet"), "Table 5", std::nullopt});
}

TEST_F(ParamsJson, LogGpsRoundTripsWithItsFitReport) {
  FitReport report;
  add_residual(report, "w0", 1024, 100.0, 101.0);
  report.notes.push_back("Gl is fixed at 0");
  const std::string path = (dir_ / "loggps.json").string();
  write_params_file(path, {loggps_preset("myrinet"), "Table 5, Myrinet", report});
  const ParamsDocument back = read_params_file(path);
  const auto& p = std::get<LogGpsParams>(back.params);
  EXPECT_EQ(p.L, 850);
  EXPECT_EQ(p.Gs, 15.17);
  EXPECT_EQ(p.Gl, 0.04);
  EXPECT_EQ(p.s, 8191u);
  EXPECT_EQ(p.S, 16383u);
  EXPECT_EQ(back.source, "Table 5, Myrinet");
  ASSERT_TRUE(back.fit.has_value());
  ASSERT_EQ(back.fit->residuals.size(), 1u);
  EXPECT_EQ(back.fit->residuals[0].k, 1024u);
  EXPECT_DOUBLE_EQ(back.fit->residuals[0].error_pct, 1.0);
  EXPECT_DOUBLE_EQ(back.fit->max_abs_error_pct, 1.0);
  EXPECT_EQ(back.fit->notes, report.notes);
  const Json j = myrinet_json();
  EXPECT_EQ(j["model"], "loggps");
  EXPECT_EQ(j["units"]["time"], "ns");
  EXPECT_EQ(j["units"]["per_byte"], "ns/byte");
  EXPECT_EQ(j["params"]["o"], 6730.0);
}

TEST_F(ParamsJson, EveryModelRoundTrips) {
  const ModelParams sets[] = {
      HockneyParams{5000, 0.1},
      LogPParams{1000, 2000, 1500, 4},
      LogGpParams{1000, 2000, 3000, 0.5, 16},
      MpieteParams{Table({{0, 9000}, {65536, 600000}})},
  };
  for (const ModelParams& set : sets) {
    const ParamsDocument back = params_from_json(params_to_json({set, "", std::nullopt}));
    EXPECT_EQ(params_model_name(back.params), params_model_name(set));
    EXPECT_EQ(params_to_json({back.params, "", std::nullopt}),
              params_to_json({set, "", std::nullopt}));
  }
  PlogpBrParams br;
  br.base = {.L = 3000,
             .o_s = Table({{0, 1000}}),
             .o_r = Table({{0, 900}, {64, 950}}),
             .g = Table({{0, 2000}, {1024, 10000}})};
  br.g_by_pattern = {{"xor1", Table({{1024, 12000}})}};
  br.q_bytes = 65536;
  br.flow_control = false;
  br.rto_ns = 2e8;
  const Json j = params_to_json({br, "fit", std::nullopt});
  EXPECT_EQ(j["model"], "plogp-br");
  EXPECT_EQ(j["params"]["g"][1]["m"], 1024);
  const auto back = std::get<PlogpBrParams>(params_from_json(j).params);
  EXPECT_EQ(back.base.o_r(64), 950);
  EXPECT_EQ(back.g_by_pattern.at("xor1")(1024), 12000);
  EXPECT_EQ(back.q_bytes, 65536);
  EXPECT_EQ(back.rto_ns, 2e8);
  const auto plain =
      std::get<PlogpParams>(params_from_json(params_to_json({br.base, "", {}})).params);
  EXPECT_EQ(plain.g(512), 6000);
}

TEST_F(ParamsJson, ErrorsNameTheFileAndTheField) {
  Json j = myrinet_json();
  j["params"].erase("Gl");
  std::string path = write("params.json", j.dump());
  EXPECT_EQ(error_of(path), path + ": params.Gl: missing");

  j = myrinet_json();
  j["params"]["L"] = "850";
  path = write("string.json", j.dump());
  EXPECT_EQ(error_of(path), path + ": params.L: must be a number, got string");

  j = myrinet_json();
  j["params"]["Oss"] = -1;
  path = write("negative.json", j.dump());
  EXPECT_EQ(error_of(path), path + ": params.Oss: must be >= 0, got -1");

  j = myrinet_json();
  j["params"]["L"] = 1e17;
  path = write("huge.json", j.dump());
  EXPECT_EQ(error_of(path), path + ": params.L: must be <= 1e+12, got 1e+17");

  j = myrinet_json();
  j["params"]["Gs"] = 1e308;
  path = write("huger.json", j.dump());
  EXPECT_EQ(error_of(path), path + ": params.Gs: must be <= 1e+12, got 1e+308");

  j = myrinet_json();
  j["params"]["s"] = 20000;
  path = write("limits.json", j.dump());
  EXPECT_EQ(error_of(path), path + ": params.s: must be <= S (16383), got 20000");

  j = myrinet_json();
  j["model"] = "logpgs";
  path = write("model.json", j.dump());
  EXPECT_EQ(error_of(path), path +
                                ": model: unknown model 'logpgs' (known: hockney, logp, loggp, "
                                "loggps, plogp, plogp-br, mpiete)");

  j = myrinet_json();
  j["params"]["Gx"] = 1;
  path = write("unknown.json", j.dump());
  EXPECT_EQ(error_of(path),
            path + ": params.Gx: unknown key (known: Gl, Gs, L, Orl, Ors, Osl, Oss, S, o, s)");
}

TEST_F(ParamsJson, FileLevelErrorsAreOneLine) {
  const std::string missing = (dir_ / "nope.json").string();
  EXPECT_EQ(error_of(missing), missing + ": cannot open: No such file or directory");
  const std::string broken = write("broken.json", "{\"model\": ");
  const std::string message = error_of(broken);
  EXPECT_EQ(message, broken + ":1:11: not valid JSON");
  const std::string comma = write("comma.json", "{\n  \"model\": ,\n}");
  EXPECT_EQ(error_of(comma), comma + ":2:12: not valid JSON");
  EXPECT_EQ(error_of(dir_.string()), dir_.string() + ": is a directory");
  Json j = params_to_json(
      {PlogpParams{.L = 1, .o_s = Table({{0, 1}}), .o_r = Table({{0, 1}}), .g = Table({{0, 1}})},
       "", std::nullopt});
  j["params"]["g"] = Json::array({{{"m", 0}, {"value", 1}}, {{"m", 0}, {"value", 2}}});
  const std::string twice = write("twice.json", j.dump());
  EXPECT_EQ(error_of(twice), twice + ": params.g[1].m: m = 0 twice");
  j["params"]["g"] = Json::array();
  const std::string empty = write("empty.json", j.dump());
  EXPECT_EQ(error_of(empty),
            empty + ": params.g: must be a non-empty array of {\"m\": bytes, \"value\": ns}");
}

}  // namespace
}  // namespace netwarp::validation
