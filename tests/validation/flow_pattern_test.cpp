// Pattern files (`sender,dest,order,bytes,delay_ns`) and workloads as MFS patterns: what is
// read, and errors that name FILE:LINE.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "netmodels/network_fixtures.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/validation/flow_pattern.hpp"

namespace netwarp::validation {
namespace {

using netmodels::testing::message;

class PatternFile : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    const auto dir = std::filesystem::temp_directory_path();
    path_ = (dir / ("flow_pattern_" + std::to_string(::getpid()) + ".csv")).string();
    std::ofstream(path_) << text;
    return path_;
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // The message of the InputError that reading `text` raises ("" if none).
  std::string error_of(const std::string& text, std::uint32_t hosts = 4) {
    const std::string path = write(text);
    try {
      read_pattern_csv(path, hosts);
    } catch (const netmodels::InputError& e) {
      return e.what();
    }
    return "";
  }

  std::string path_;
};

TEST_F(PatternFile, ReadsMessagesWithOptionalDelay) {
  const std::string path = write(
      "sender,dest,order,bytes,delay_ns\n"
      "0,1,0,20000,0\n"
      "# a comment\n"
      "\n"
      " 2 , 3 , 5 , 100 , 1500\n"
      "3,0,1,7,\n");
  const FlowPattern p = read_pattern_csv(path, 4);
  ASSERT_EQ(p.messages.size(), 3u);
  EXPECT_EQ(p.messages[1].sender, 2u);
  EXPECT_EQ(p.messages[1].dest, 3u);
  EXPECT_EQ(p.messages[1].order, 5u);
  EXPECT_EQ(p.messages[1].bytes, 100u);
  EXPECT_EQ(p.messages[1].delay.ps(), 1'500'000);
  EXPECT_EQ(p.messages[2].delay.ps(), 0);
  EXPECT_TRUE(p.messages[0].after_previous);
}

TEST_F(PatternFile, AcceptsTheHeaderWithoutDelay) {
  const std::string path = write("sender, dest, order, bytes\n1,0,0,5\n");
  EXPECT_EQ(read_pattern_csv(path, 2).messages.at(0).bytes, 5u);
}

TEST_F(PatternFile, ErrorsNameFileAndLine) {
  const std::string h = "sender,dest,order,bytes,delay_ns\n";
  EXPECT_EQ(error_of("src,dst,bytes\n0,1,5\n").rfind(path_ + ":1: expected the header", 0), 0u);
  EXPECT_EQ(error_of(h + "0,1,0,5,0\n0,1,0\n").rfind(path_ + ":3: expected 5 fields", 0), 0u);
  EXPECT_EQ(error_of(h + "0,x,0,5,0\n").rfind(path_ + ":2: dest is not a", 0), 0u);
  EXPECT_EQ(error_of(h + "0,-1,0,5,0\n"), path_ + ":2: dest must not be negative, got -1");
  EXPECT_EQ(
      error_of(h + "0,4,0,5,0\n").rfind(path_ + ":2: dest 4 is not a host (hosts are 0..3)", 0),
      0u);
  EXPECT_EQ(error_of(h + "2,2,0,5,0\n").rfind(path_ + ":2: dest must differ", 0), 0u);
  EXPECT_EQ(error_of(h + "1,2,3,5,0\n\n1,0,3,5,0\n")
                .rfind(path_ + ":4: sender 1 already has order 3 (line 2)", 0),
            0u);
  EXPECT_EQ(error_of(h).rfind(path_ + ": the pattern file lists no message", 0), 0u);
  EXPECT_THROW(read_pattern_csv(path_ + ".missing", 4), netmodels::InputError);
}

TEST_F(PatternFile, ErrorsAreFileErrorsThatBeginWithFileAndLine) {
  try {
    write("sender,dest,order,bytes,delay_ns\n0,9,0,5,0\n");
    read_pattern_csv(path_, 4);
    FAIL();
  } catch (const netmodels::FileInputError& e) {
    EXPECT_EQ(e.file(), path_);
    EXPECT_EQ(e.line(), 2u);
    EXPECT_STREQ(e.what(), (path_ + ":2: dest 9 is not a host (hosts are 0..3)").c_str());
  }
  const std::string dir = std::filesystem::temp_directory_path().string();
  try {
    read_pattern_csv(dir, 4);
    FAIL();
  } catch (const netmodels::FileInputError& e) {
    EXPECT_EQ(std::string(e.what()), dir + ": is a directory");
  }
}

// A flow that waits for others' delivery (`after`) has no MFS counterpart: refused, never run
// as if it started on its own.
TEST(FlowPattern, WorkloadWithFlowsWaitingForFlowsIsRefused) {
  netmodels::Workload w;
  w.messages.resize(2);
  for (netmodels::MessageId i = 0; i < 2; ++i) {
    w.messages[i].id = i;
    w.messages[i].dst = 1;
    w.messages[i].bytes = 10;
  }
  w.messages[1].waits = 1;
  w.messages[1].gap = engine::us(5);
  try {
    pattern_from_workload(w);
    FAIL() << "a waiting flow was accepted";
  } catch (const netmodels::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "message 1 waits for 1 other flow(s) to be delivered (after, gap_ns): the flow "
              "model cannot represent it");
  }
  w.messages[1].waits = 0;
  EXPECT_EQ(pattern_from_workload(w).messages.size(), 2u);
}

TEST(FlowPattern, WorkloadOrderCountsEachSendersMessages) {
  netmodels::Workload w;
  w.messages = {message(0, 3, 1, 10, engine::us(2), false),
                message(1, 0, 2, 20, engine::us(0), true),
                message(2, 3, 0, 30, engine::us(0), true)};
  const FlowPattern p = pattern_from_workload(w);
  ASSERT_EQ(p.messages.size(), 3u);
  EXPECT_EQ(p.messages[0].order, 0u);
  EXPECT_EQ(p.messages[1].order, 0u);
  EXPECT_EQ(p.messages[2].order, 1u);
  EXPECT_EQ(p.messages[0].not_before.ps(), 2'000'000);
  EXPECT_FALSE(p.messages[0].after_previous);
  EXPECT_TRUE(p.messages[2].after_previous);
  EXPECT_NO_THROW(check_pattern(p, 4));
  EXPECT_THROW(check_pattern(p, 3), netmodels::InputError);  // host 3 out of range
}

}  // namespace
}  // namespace netwarp::validation
