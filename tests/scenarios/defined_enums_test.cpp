// Undefined enum numbers: found anywhere in the message tree by one reflection walk, and refused
// by the scenario loader at the place they were written.
#include "netwarp/mpiemul/defined_enums.hpp"

#include <gtest/gtest.h>

#include "netwarp/scenarios/proto/scenario.pb.h"
#include "netwarp/scenarios/scenario_error.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {
namespace {

TEST(DefinedEnums, FindsAnUndefinedNumberDeepInTheTree) {
  proto::Scenario s;
  EXPECT_FALSE(mpiemul::first_undefined_enum(s).has_value());
  s.mutable_transport()->mutable_tcp()->set_congestion_control(
      static_cast<proto::Tcp::CongestionControl>(77));
  const auto found = mpiemul::first_undefined_enum(s);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->field, "transport.tcp.congestion_control");
  EXPECT_EQ(found->number, 77);
  EXPECT_TRUE(found->message.starts_with("77 is not a defined CongestionControl value (known: "))
      << found->message;
  s.mutable_transport()->mutable_tcp()->set_congestion_control(proto::Tcp::CUBIC);
  EXPECT_FALSE(mpiemul::first_undefined_enum(s).has_value());
}

TEST(DefinedEnums, TheLoaderRefusesOneAtItsLineAndColumn) {
  const std::string text =
      "name: \"a\"\ntopology { star { hosts: 4 } }\nworkload {\n  all_to_all {\n"
      "    bytes: 1000\n    order: 9\n  }\n}\n";
  try {
    load_scenario_text(text, "a.pbtxt", {});
    FAIL() << "loaded";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 45), "a.pbtxt:6:5: workload.all_to_all.order: 9 is ");
  }
}

}  // namespace
}  // namespace netwarp::scenarios
