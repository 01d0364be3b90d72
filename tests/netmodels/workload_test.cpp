// Workload generators (netmodels/src/workload/): message counts and orders, after_previous
// flags, seeded determinism, placement, the flows CSV reader and every validation error's
// field path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

const auto flow = testing::flow_spec;

// Runs `f`, which must throw InputError with this field and a message containing `text`.
void expect_input_error(const std::function<void()>& f, const std::string& field,
                        const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no InputError, expected one for " << field;
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(e.message().find(text), std::string::npos) << e.what();
  }
}

std::vector<NodeId> destinations_of(const Workload& w, NodeId src) {
  std::vector<NodeId> dst;
  for (const Message& m : w.messages) {
    if (m.src == src) dst.push_back(m.dst);
  }
  return dst;
}

Workload all_to_all(AllToAllOrder order, std::uint32_t hosts, std::uint64_t seed = 1) {
  AllToAllSpec spec;
  spec.order = order;
  spec.seed = seed;
  return make_all_to_all(spec, hosts, "workload.all_to_all");
}

// Every host sends exactly once to every other host; ids are indices.
void expect_complete_exchange(const Workload& w, std::uint32_t n) {
  ASSERT_EQ(w.messages.size(), std::size_t{n} * (n - 1));
  std::set<std::pair<NodeId, NodeId>> pairs;
  for (std::size_t i = 0; i < w.messages.size(); ++i) {
    const Message& m = w.messages[i];
    EXPECT_EQ(m.id, i);
    EXPECT_NE(m.src, m.dst);
    EXPECT_LT(m.dst, n);
    pairs.emplace(m.src, m.dst);
  }
  EXPECT_EQ(pairs.size(), w.messages.size());
}

TEST(WorkloadAllToAll, EveryOrderSendsOnceToEveryOtherHost) {
  expect_complete_exchange(all_to_all(AllToAllOrder::simple_spread, 7), 7);
  expect_complete_exchange(all_to_all(AllToAllOrder::spread_2d, 16), 16);
  expect_complete_exchange(all_to_all(AllToAllOrder::spread_2d, 9), 9);
  expect_complete_exchange(all_to_all(AllToAllOrder::pairwise, 8), 8);
  expect_complete_exchange(all_to_all(AllToAllOrder::random, 10), 10);
}

TEST(WorkloadAllToAll, SimpleSpreadSendsToSrcPlusP) {
  const Workload w = all_to_all(AllToAllOrder::simple_spread, 5);
  EXPECT_EQ(w.kind, "all_to_all");
  EXPECT_EQ(destinations_of(w, 3), (std::vector<NodeId>{4, 0, 1, 2}));
  EXPECT_EQ(destinations_of(w, 0), (std::vector<NodeId>{1, 2, 3, 4}));
}

TEST(WorkloadAllToAll, Spread2dMatchesHandComputedEntries) {
  const std::vector<NodeId> from5 = destinations_of(all_to_all(AllToAllOrder::spread_2d, 16), 5);
  ASSERT_EQ(from5.size(), 15u);
  EXPECT_EQ(from5[0], 6u);   // p = 1: x 1+1, y 1+0
  EXPECT_EQ(from5[3], 9u);   // p = 4: x 1+0, y 1+1
  EXPECT_EQ(from5[6], 8u);   // p = 7: x (1+3)%4 = 0, y 1+1 = 2
  EXPECT_EQ(from5[14], 0u);  // p = 15: x 0, y 0
  const std::vector<NodeId> from15 = destinations_of(all_to_all(AllToAllOrder::spread_2d, 16), 15);
  EXPECT_EQ(from15[0], 12u);  // p = 1: x (3+1)%4 = 0, y 3
  EXPECT_EQ(from15[4], 0u);   // p = 5: x 0, y (3+1)%4 = 0
}

TEST(WorkloadAllToAll, PairwiseSendsToSrcXorP) {
  const Workload w = all_to_all(AllToAllOrder::pairwise, 8);
  EXPECT_EQ(destinations_of(w, 5), (std::vector<NodeId>{4, 7, 6, 1, 0, 3, 2}));
}

TEST(WorkloadAllToAll, EachHostWaitsForItsPreviousMessage) {
  const Workload w = all_to_all(AllToAllOrder::simple_spread, 4);
  for (const Message& m : w.messages) {
    const bool is_first = m.id % 3 == 0;  // host-major: 3 messages per host
    EXPECT_EQ(m.src, m.id / 3);
    EXPECT_EQ(m.after_previous, !is_first) << "message " << m.id;
    EXPECT_EQ(m.bytes, 20000u);
  }
}

TEST(WorkloadAllToAll, RanksLimitTheExchangeToTheFirstHosts) {
  AllToAllSpec spec;
  spec.ranks = 4;
  const Workload w = make_all_to_all(spec, 10, "a2a");
  expect_complete_exchange(w, 4);
}

TEST(WorkloadAllToAll, RandomOrderDependsOnlyOnTheSeed) {
  const Workload a = all_to_all(AllToAllOrder::random, 12, 7);
  const Workload b = all_to_all(AllToAllOrder::random, 12, 7);
  const Workload c = all_to_all(AllToAllOrder::random, 12, 8);
  EXPECT_EQ(destinations_of(a, 3), destinations_of(b, 3));
  bool differs = false;
  for (NodeId h = 0; h < 12; ++h) differs |= destinations_of(a, h) != destinations_of(c, h);
  EXPECT_TRUE(differs);
}

TEST(WorkloadAllToAll, RejectsBadParametersNamingTheField) {
  const std::string at = "workload.all_to_all";
  AllToAllSpec spec;
  spec.ranks = 65;
  expect_input_error([&] { make_all_to_all(spec, 64, at); }, at + ".ranks",
                     "must be in [2, 64] for 64 hosts, got 65");
  spec = {};
  spec.order = AllToAllOrder::pairwise;
  expect_input_error([&] { make_all_to_all(spec, 12, at); }, at + ".order", "got 12");
  spec.order = AllToAllOrder::spread_2d;
  expect_input_error([&] { make_all_to_all(spec, 12, at); }, at + ".order", "got 12");
  spec = {};
  spec.bytes = 0;
  expect_input_error([&] { make_all_to_all(spec, 4, at); }, at + ".bytes", "got 0");
  expect_input_error([&] { make_all_to_all({}, 1, at); }, at, "at least 2 hosts, got 1");
}

TEST(WorkloadIncast, SendersSkipTheReceiver) {
  IncastSpec spec;
  spec.senders = 4;
  spec.receiver = 2;
  spec.start = engine::us(3);
  const Workload w = make_incast(spec, 8, "workload.incast");
  EXPECT_EQ(w.kind, "incast");
  ASSERT_EQ(w.messages.size(), 4u);
  const std::vector<NodeId> expected_src{0, 1, 3, 4};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(w.messages[i].id, i);
    EXPECT_EQ(w.messages[i].src, expected_src[i]);
    EXPECT_EQ(w.messages[i].dst, 2u);
    EXPECT_EQ(w.messages[i].start, engine::us(3));
    EXPECT_FALSE(w.messages[i].after_previous);
  }
}

TEST(WorkloadIncast, RejectsBadParametersNamingTheField) {
  const std::string at = "workload.incast";
  IncastSpec spec;
  spec.senders = 64;
  expect_input_error([&] { make_incast(spec, 64, at); }, at + ".senders",
                     "must be in [1, 63] for 64 hosts, got 64");
  try {
    make_incast(spec, 64, at);
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "workload.incast.senders: must be in [1, 63] for 64 hosts, got 64");
  }
  spec = {};
  spec.senders = 0;
  expect_input_error([&] { make_incast(spec, 64, at); }, at + ".senders", "got 0");
  spec = {};
  spec.receiver = 64;
  expect_input_error([&] { make_incast(spec, 64, at); }, at + ".receiver",
                     "must be in [0, 63] for 64 hosts, got 64");
  spec = {};
  spec.bytes = 0;
  expect_input_error([&] { make_incast(spec, 64, at); }, at + ".bytes", "must be > 0");
}

TEST(WorkloadPermutation, IsADerangementAndABijection) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    PermutationSpec spec;
    spec.seed = seed;
    const Workload w = make_permutation(spec, 9, "workload.permutation");
    ASSERT_EQ(w.messages.size(), 9u);
    std::set<NodeId> images;
    for (const Message& m : w.messages) {
      EXPECT_EQ(m.src, m.id);
      EXPECT_NE(m.src, m.dst);
      EXPECT_FALSE(m.after_previous);
      images.insert(m.dst);
    }
    EXPECT_EQ(images.size(), 9u);
    EXPECT_LT(*images.rbegin(), 9u);
  }
  EXPECT_EQ(make_permutation({}, 2, "p").messages[0].dst, 1u);
}

std::vector<NodeId> permutation_images(std::uint64_t seed, std::uint32_t hosts) {
  PermutationSpec spec;
  spec.seed = seed;
  std::vector<NodeId> dst;
  for (const Message& m : make_permutation(spec, hosts, "p").messages) dst.push_back(m.dst);
  return dst;
}

TEST(WorkloadPermutation, DependsOnlyOnTheSeed) {
  EXPECT_EQ(permutation_images(3, 32), permutation_images(3, 32));
  EXPECT_NE(permutation_images(3, 32), permutation_images(4, 32));
}

TEST(WorkloadPermutation, RejectsBadParametersNamingTheField) {
  expect_input_error([] { make_permutation({}, 1, "workload.permutation"); },
                     "workload.permutation", "at least 2 hosts, got 1");
  PermutationSpec spec;
  spec.bytes = 0;
  expect_input_error([&] { make_permutation(spec, 4, "workload.permutation"); },
                     "workload.permutation.bytes", "got 0");
}

TEST(WorkloadUniformRandom, SendsToOtherHostsOneAfterAnother) {
  UniformRandomSpec spec;
  spec.messages_per_host = 5;
  const Workload w = make_uniform_random(spec, 6, "workload.uniform_random");
  EXPECT_EQ(w.kind, "uniform_random");
  ASSERT_EQ(w.messages.size(), 30u);
  for (const Message& m : w.messages) {
    EXPECT_EQ(m.src, m.id / 5);
    EXPECT_NE(m.src, m.dst);
    EXPECT_LT(m.dst, 6u);
    EXPECT_EQ(m.after_previous, m.id % 5 != 0);
  }
}

TEST(WorkloadUniformRandom, DependsOnlyOnTheSeed) {
  UniformRandomSpec spec;
  spec.seed = 11;
  const auto a = destinations_of(make_uniform_random(spec, 16, "u"), 4);
  EXPECT_EQ(a, destinations_of(make_uniform_random(spec, 16, "u"), 4));
  spec.seed = 12;
  EXPECT_NE(a, destinations_of(make_uniform_random(spec, 16, "u"), 4));
}

TEST(WorkloadUniformRandom, RejectsBadParametersNamingTheField) {
  const std::string at = "workload.uniform_random";
  UniformRandomSpec spec;
  spec.messages_per_host = 0;
  expect_input_error([&] { make_uniform_random(spec, 4, at); }, at + ".messages_per_host", "got 0");
  spec = {};
  spec.bytes = 0;
  expect_input_error([&] { make_uniform_random(spec, 4, at); }, at + ".bytes", "got 0");
  expect_input_error([&] { make_uniform_random({}, 1, at); }, at, "at least 2 hosts");
}

TEST(WorkloadFlows, KeepsTheFlowsInOrderAndIndependent) {
  const std::vector<FlowSpec> flows{flow(0, 3, 1000, engine::us(1)), flow(2, 1, 5, engine::ns(7))};
  const Workload w = make_flows(flows, 4, "workload.flows");
  EXPECT_EQ(w.kind, "flows");
  ASSERT_EQ(w.messages.size(), 2u);
  EXPECT_EQ(w.messages[1].id, 1u);
  EXPECT_EQ(w.messages[1].src, 2u);
  EXPECT_EQ(w.messages[1].dst, 1u);
  EXPECT_EQ(w.messages[1].bytes, 5u);
  EXPECT_EQ(w.messages[1].start, engine::ns(7));
  EXPECT_FALSE(w.messages[0].after_previous);
  EXPECT_FALSE(w.messages[1].after_previous);
}

TEST(WorkloadFlows, RejectsBadFlowsNamingTheEntry) {
  const std::string at = "workload.flows";
  const FlowSpec ok = flow(0, 1, 100, {});
  expect_input_error(
      [&] {
        make_flows({ok, flow(0, 4, 100, {})}, 4, at);
      },
      at + "[1].dst", "must be in [0, 3] for 4 hosts, got 4");
  expect_input_error([&] { make_flows({flow(9, 1, 100, {})}, 4, at); }, at + "[0].src", "got 9");
  expect_input_error(
      [&] {
        make_flows({ok, ok, flow(2, 2, 100, {})}, 4, at);
      },
      at + "[2].dst", "must differ from src");
  expect_input_error([&] { make_flows({flow(0, 1, 0, {})}, 4, at); }, at + "[0].bytes", "got 0");
  expect_input_error([&] { make_flows({flow(0, 1, 5, engine::ns(-1))}, 4, at); }, at + "[0].start",
                     "must be >= 0");
  expect_input_error([&] { make_flows({}, 4, at); }, at, "at least one flow");
}

// Found by fuzzing: a 4 GiB message reached the transports, whose packet sequence numbers were
// 32-bit. Stream offsets are 64-bit now: every generator takes a message of 4 GiB and more, up
// to 2^63 - 1 bytes (signed sums of offsets stay representable), and refuses one past it.
TEST(WorkloadMessageBytes, EveryGeneratorTakesFourGiBAndRefusesPastTwoTo63) {
  constexpr std::uint64_t kFourGiB = std::uint64_t{1} << 32;
  constexpr std::uint64_t kTooBig = kMaxMessageBytes + 1;
  EXPECT_EQ(kMaxMessageBytes, std::uint64_t{0x7fffffffffffffff});
  EXPECT_EQ(make_flows({flow(0, 1, kFourGiB, {})}, 4, "f").messages[0].bytes, kFourGiB);
  EXPECT_EQ(make_incast({.senders = 2, .bytes = kFourGiB, .start = {}}, 4, "i").messages[1].bytes,
            kFourGiB);
  const std::string limit = "must be at most 9223372036854775807 bytes (2^63 - 1), got";
  expect_input_error([&] { make_flows({flow(0, 1, kTooBig, {})}, 4, "f"); }, "f[0].bytes", limit);
  expect_input_error([&] { make_incast({.senders = 2, .bytes = kTooBig, .start = {}}, 4, "i"); },
                     "i.bytes", limit);
  expect_input_error([&] { make_all_to_all({.bytes = kTooBig}, 4, "a"); }, "a.bytes", limit);
  expect_input_error([&] { make_permutation({.bytes = kTooBig}, 4, "p"); }, "p.bytes", limit);
  expect_input_error([&] { make_uniform_random({.bytes = kTooBig}, 4, "u"); }, "u.bytes", limit);
  EXPECT_EQ(make_flows({flow(0, 1, kMaxMessageBytes, {})}, 4, "f").messages[0].bytes,
            kMaxMessageBytes);
}

class WorkloadFlowsCsv : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    std::ofstream(path_) << text;
    return path_;
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_ = (std::filesystem::temp_directory_path() /
                       ("netwarp_flows_" + std::to_string(::getpid()) + ".csv"))
                          .string();
};

TEST_F(WorkloadFlowsCsv, ReadsRowsSkippingBlankLines) {
  const auto flows =
      read_flows_csv(write("src,dst,bytes,start_ns\r\n0,3,1000,0\r\n\n 2, 1 ,5,250\n"));
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0].dst, 3u);
  EXPECT_EQ(flows[0].bytes, 1000u);
  EXPECT_EQ(flows[1].src, 2u);
  EXPECT_EQ(flows[1].dst, 1u);
  EXPECT_EQ(flows[1].start, engine::ns(250));
}

TEST_F(WorkloadFlowsCsv, ErrorsNameTheFileAndLine) {
  const std::string h = "src,dst,bytes,start_ns\n";
  expect_input_error([&] { read_flows_csv(write("src,dst,bytes\n0,1,2\n")); }, "",
                     path_ + ":1: expected the header");
  expect_input_error([&] { read_flows_csv(write("")); }, "", path_ + ":1:");
  expect_input_error([&] { read_flows_csv(write(h + "0,1,2,3\n0,1,x,3\n")); }, "",
                     path_ + ":3: bytes is not a number: 'x'");
  expect_input_error([&] { read_flows_csv(write(h + "0,1,2,-3\n")); }, "",
                     path_ + ":2: start_ns must not be negative, got -3");
  expect_input_error([&] { read_flows_csv(write(h + "0,1,2\n")); }, "",
                     path_ + ":2: expected 4 fields");
  expect_input_error([&] { read_flows_csv(write(h + "0,1,2,3x\n")); }, "",
                     path_ + ":2: start_ns is not a number");
  expect_input_error([&] { read_flows_csv(write(h + "0,99999999999,2,3\n")); }, "",
                     path_ + ":2: dst: must be at most");
  EXPECT_EQ(read_flows_csv(write(h + "0,1,5368709120,3\n"))[0].bytes, std::uint64_t{5} << 30);
  expect_input_error([&] { read_flows_csv(write(h + "0,1,9223372036854775808,3\n")); }, "",
                     path_ +
                         ":2: bytes: must be at most 9223372036854775807, got "
                         "9223372036854775808");
  expect_input_error([&] { read_flows_csv("/nonexistent/flows.csv"); }, "",
                     "/nonexistent/flows.csv: cannot open");
}

// Pinned draws: the generator is self-contained (SplitMix64, own bounded draw and shuffle), so
// these hold with every compiler and standard library. A change here changes every scenario.
TEST(WorkloadRandom, DrawsAreTheSameOnEveryMachine) {
  EXPECT_EQ(permutation_images(1, 8), (std::vector<NodeId>{2, 6, 3, 5, 7, 4, 0, 1}));
  EXPECT_EQ(destinations_of(all_to_all(AllToAllOrder::random, 6), 0),
            (std::vector<NodeId>{5, 2, 1, 4, 3}));
  EXPECT_EQ(destinations_of(make_uniform_random({}, 8, "u"), 0), (std::vector<NodeId>{4, 1, 7, 1}));
  PlacementSpec spec;
  spec.kind = PlacementKind::random;
  EXPECT_EQ(place_ranks(spec, 6, 8, "placement"), (std::vector<NodeId>{2, 1, 4, 3, 7, 6}));
}

TEST(WorkloadPlacement, RegularPutsRankIOnHostI) {
  EXPECT_EQ(place_ranks({}, 4, 8, "placement"), (std::vector<NodeId>{0, 1, 2, 3}));
}

TEST(WorkloadPlacement, RandomIsASeededInjection) {
  PlacementSpec spec;
  spec.kind = PlacementKind::random;
  spec.seed = 5;
  const auto hosts = place_ranks(spec, 10, 64, "placement");
  ASSERT_EQ(hosts.size(), 10u);
  EXPECT_EQ(std::set<NodeId>(hosts.begin(), hosts.end()).size(), 10u);
  EXPECT_LT(*std::max_element(hosts.begin(), hosts.end()), 64u);
  EXPECT_EQ(hosts, place_ranks(spec, 10, 64, "placement"));
  spec.seed = 6;
  EXPECT_NE(hosts, place_ranks(spec, 10, 64, "placement"));
}

TEST(WorkloadPlacement, ExplicitListIsAppliedToMessages) {
  PlacementSpec spec;
  spec.kind = PlacementKind::explicit_list;
  spec.hosts = {7, 2, 5};
  const auto hosts = place_ranks(spec, 3, 8, "placement");
  AllToAllSpec a2a;
  a2a.ranks = 3;
  Workload w = make_all_to_all(a2a, 8, "a2a");
  apply_placement(w, hosts);
  EXPECT_EQ(w.messages[0].src, 7u);  // rank 0 -> rank 1
  EXPECT_EQ(w.messages[0].dst, 2u);
  EXPECT_EQ(w.messages[5].src, 5u);  // rank 2 -> rank 1
  EXPECT_EQ(w.messages[5].dst, 2u);
}

TEST(WorkloadPlacement, RejectsBadPlacementsNamingTheField) {
  expect_input_error([] { place_ranks({}, 70, 64, "placement"); }, "placement",
                     "70 ranks do not fit on 64 hosts");
  PlacementSpec spec;
  spec.kind = PlacementKind::explicit_list;
  spec.hosts = {1, 2};
  expect_input_error([&] { place_ranks(spec, 3, 8, "placement"); }, "placement.hosts",
                     "one host per rank (3 ranks), got 2");
  spec.hosts = {1, 8, 2};
  expect_input_error([&] { place_ranks(spec, 3, 8, "placement"); }, "placement.hosts[1]",
                     "must be in [0, 7] for 8 hosts, got 8");
  spec.hosts = {1, 3, 1};
  expect_input_error([&] { place_ranks(spec, 3, 8, "placement"); }, "placement.hosts[2]",
                     "host 1 is already used by rank 0");
}

}  // namespace
}  // namespace netwarp::netmodels
