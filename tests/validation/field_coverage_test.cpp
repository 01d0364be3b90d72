#include "netwarp/validation/field_coverage.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::validation {
namespace {

const char* const kTcpStar = R"(
name: "star"
topology { star { hosts: 3 } }
transport { kind: TCP }
workload { incast { bytes: 10000 } }
)";

const char* const kMpiStar = R"(
name: "mpi"
topology { star { hosts: 4 } }
mpi { collective { kind: "allreduce" bytes: 65536 } }
)";

scenarios::proto::Scenario effective(const char* text, std::vector<std::string> sets = {}) {
  return scenarios::load_scenario_text(text, "s.pbtxt", sets).scenario;
}

std::string refused_field(const CrossCheckFields& fields, const scenarios::proto::Scenario& s) {
  const auto refused = first_refused(fields, s);
  return refused ? refused->field : std::string();
}

TEST(FieldCoverage, EveryCrossCheckClassifiesEveryFieldOfScenarioProto) {
  for (const CrossCheckFields* fields : all_cross_check_fields())
    for (const std::string& field : unclassified_fields(*fields))
      ADD_FAILURE() << fields->tool << " does not classify scenario field '" << field
                    << "': add {\"" << field << "\", Coverage::refused, ...} (or mirrored, "
                    << "noted, abstracted, no_effect, if that is what it does) to "
                    << fields->table;
}

TEST(FieldCoverage, EveryRuleNamesAFieldAndCanBeApplied) {
  for (const CrossCheckFields* fields : all_cross_check_fields())
    for (const std::string& problem : misplaced_rules(*fields))
      ADD_FAILURE() << fields->table << ": " << problem;
}

TEST(FieldCoverage, AFieldWithoutARuleIsFoundAndRefused) {
  CrossCheckFields fields = ns3_fields();
  std::erase_if(fields.rules, [](const FieldRule& r) { return r.field == "transport.tcp.sack"; });
  EXPECT_EQ(unclassified_fields(fields), std::vector<std::string>{"transport.tcp.sack"});
  const auto refused = first_refused(fields, effective(kTcpStar));
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->field, "transport.tcp.sack");
  EXPECT_NE(refused->message.find("no rule"), std::string::npos) << refused->message;
}

TEST(FieldCoverage, AMessageRuleCoversFieldsAddedInsideIt) {
  // netwarp-ns3 refuses the whole mpi section: every field of it is classified by that rule.
  const CrossCheckFields& fields = ns3_fields();
  const auto missing = unclassified_fields(fields);
  EXPECT_TRUE(std::none_of(missing.begin(), missing.end(),
                           [](const std::string& f) { return f.starts_with("mpi."); }));
  EXPECT_EQ(refused_field(fields, effective(kMpiStar)), "mpi");
}

TEST(FieldCoverage, Ns3RefusesWhatItCannotMirrorByName) {
  const CrossCheckFields& ns3 = ns3_fields();
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar)), "");
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"transport.tcp.sack=true"})),
            "transport.tcp.sack");
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"transport.tcp.handshake=false"})),
            "transport.tcp.handshake");
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"transport.tcp.max_ooo_ranges=4"})),
            "transport.tcp.max_ooo_ranges");
  // Step marking runs as a RedQueueDisc on ns-3's switch ports: on arrival, in bytes only.
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"switch.ecn_threshold_bytes=30000"})), "");
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"switch.ecn_threshold_bytes=30000",
                                                    "switch.buffer_packets=40"})),
            "switch.ecn_threshold_bytes");
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"switch.ecn_threshold_bytes=30000",
                                                    "switch.mark_at=DEQUEUE"})),
            "switch.mark_at");
  // Unset, transport.kind is LOSSLESS: judged at its default too.
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"transport.kind=LOSSLESS"})), "transport.kind");
  const auto refused = first_refused(ns3, effective(kTcpStar, {"transport.tcp.sack=true"}));
  EXPECT_EQ(refused->message.find("netwarp-ns3 cannot mirror true: "), 0U) << refused->message;
  // SACK with RFC 6675 or PRR recovery runs on ns-3's SACK scoreboard; PRR's share in whole
  // segments has no counterpart in ns-3's TcpPrrRecovery.
  const std::vector<std::string> prr = {"transport.tcp.sack=true", "transport.tcp.recovery=PRR"};
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, prr)), "");
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, {"transport.tcp.sack=true",
                                                    "transport.tcp.recovery=SACK_6675"})),
            "");
  std::vector<std::string> whole = prr;
  whole.push_back("transport.tcp.prr_whole_segments=true");
  EXPECT_EQ(refused_field(ns3, effective(kTcpStar, whole)), "transport.tcp.prr_whole_segments");
}

TEST(FieldCoverage, Ns3RefusesEcmpButMirrorsUpDownRouting) {
  const char* fat_tree = R"(
topology { fat_tree { k: 4 } }
transport { kind: TCP }
workload { permutation { bytes: 10000 } }
)";
  EXPECT_EQ(refused_field(ns3_fields(), effective(fat_tree)), "");
  EXPECT_EQ(refused_field(ns3_fields(), effective(fat_tree, {"topology.fat_tree.routing=ECMP"})),
            "topology.fat_tree.routing");
}

TEST(FieldCoverage, Ns3NotesNativeReadingsAndNoneUnderEmulateNs3) {
  std::vector<std::string> noted;
  for (const FieldFinding& f : noted_settings(ns3_fields(), effective(kTcpStar)))
    noted.push_back(f.field);
  EXPECT_NE(std::find(noted.begin(), noted.end(), "engine.tie_order"), noted.end());
  EXPECT_NE(std::find(noted.begin(), noted.end(), "transport.tcp.recovery"), noted.end());
  EXPECT_NE(std::find(noted.begin(), noted.end(), "links.frame_overhead_bytes"), noted.end());
  EXPECT_TRUE(noted_settings(ns3_fields(), effective(kTcpStar, {"emulate=NS3"})).empty());
  // With SACK netwarp reads RFC 6675 and RFC 6937 as written and ACKs ignore their SACK
  // option: noted; emulate: NS3 selects ns-3's readings (and SYNs of 8 option bytes).
  const std::vector<std::string> prr = {"transport.tcp.sack=true", "transport.tcp.recovery=PRR"};
  noted.clear();
  for (const FieldFinding& f : noted_settings(ns3_fields(), effective(kTcpStar, prr)))
    noted.push_back(f.field);
  for (const char* field : {"transport.tcp.sack_reading", "transport.tcp.sack_option_bytes",
                            "transport.tcp.syn_option_bytes"})
    EXPECT_NE(std::find(noted.begin(), noted.end(), field), noted.end()) << field;
  std::vector<std::string> emulated = prr;
  emulated.push_back("emulate=NS3");
  EXPECT_TRUE(noted_settings(ns3_fields(), effective(kTcpStar, emulated)).empty());
  // DCTCP: RFC 8257 and netwarp's queue counting are noted; emulate: NS3 selects ns-3's.
  std::vector<std::string> dctcp = {"transport.tcp.congestion_control=DCTCP",
                                    "switch.ecn_threshold_bytes=30000"};
  noted.clear();
  for (const FieldFinding& f : noted_settings(ns3_fields(), effective(kTcpStar, dctcp)))
    noted.push_back(f.field);
  for (const char* field : {"transport.tcp.dctcp_reading", "switch.mark_reading"})
    EXPECT_NE(std::find(noted.begin(), noted.end(), field), noted.end()) << field;
  dctcp.push_back("emulate=NS3");
  EXPECT_TRUE(noted_settings(ns3_fields(), effective(kTcpStar, dctcp)).empty());
}

TEST(FieldCoverage, SimgridRefusesNetworkWorkloadsAndUnmirroredMpiSettings) {
  const CrossCheckFields& simgrid = simgrid_fields();
  EXPECT_EQ(refused_field(simgrid, effective(kMpiStar)), "");
  EXPECT_EQ(refused_field(simgrid, effective(kTcpStar)), "workload");
  EXPECT_EQ(refused_field(simgrid, effective(kMpiStar, {"mpi.protocol.fragment_bytes=65536"})),
            "mpi.protocol.fragment_bytes");
  EXPECT_EQ(refused_field(simgrid, effective(kMpiStar, {"end_time_ns=1000000"})), "end_time_ns");
}

}  // namespace
}  // namespace netwarp::validation
