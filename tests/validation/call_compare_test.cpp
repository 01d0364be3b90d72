// calls_compare.csv and the error ranking: the "packet" calls here are a LogGPS replay with the
// right parameters, so a model with the same parameters has no error and a model with one
// wrong parameter errs exactly in the calls that parameter times.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "netwarp/validation/call_compare.hpp"
#include "netwarp/validation/loggps.hpp"
#include "netwarp/validation/replay_models.hpp"
#include "replay_fixtures.hpp"

namespace netwarp::validation {
namespace {

using mpiemul::CallRecord;
using mpiemul::Program;
using mpiemul::RankProgramBuilder;

LogGpsParams params() {
  LogGpsParams p = testing::round_loggps();
  p.S = 1 << 20;  // everything eager
  return p;
}

// Small sends and receives, then one large exchange with sendrecv.
Program program() {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  for (int i = 0; i < 3; ++i) {
    r0.send(1, 0, 64);
    r1.recv(0, 0, 64);
  }
  r0.sendrecv(1, 1, 65536, 1, 1, 65536);
  r1.sendrecv(0, 1, 65536, 0, 1, 65536);
  Program p;
  p.ranks.push_back(r0.take());
  p.ranks.push_back(r1.take());
  return p;
}

std::int64_t ps(double ns) {
  return std::llround(ns * 1000);
}

// The replay's calls as the packet simulation's records.
mpiemul::MpiResults as_packet_run(const Program& program, const Prediction& p) {
  mpiemul::MpiResults results;
  for (const CallPrediction& c : p.calls) {
    CallRecord r;
    r.rank = c.rank;
    r.call = c.call;
    r.kind = program.ranks[c.rank].calls[c.call].kind;
    r.start_ps = ps(c.start_ns);
    r.end_ps = ps(c.end_ns);
    r.overhead_ps = ps(c.split.overhead);
    r.recv_wait_ps = ps(c.split.recv_wait);
    results.calls.push_back(r);
  }
  results.sort();
  return results;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

TEST(CallCompare, RowsAreThePacketCallsWithEachModelsTimes) {
  const Program prog = program();
  const Prediction truth = predict_program(prog, *loggps_replay_model(params()));
  const mpiemul::MpiResults packet = as_packet_run(prog, truth);
  const Prediction none;  // a closed-form model: no calls
  std::ostringstream csv;
  const auto tables =
      compare_calls(packet, prog, "test", {{"loggps", &truth}, {"closed", &none}}, csv);
  const auto lines = lines_of(csv.str());
  ASSERT_EQ(lines.size(), packet.calls.size() + 1);
  const auto header = cells_of(lines[0]);
  ASSERT_EQ(header.size(), 4u + 7u + 2 * 8u);
  EXPECT_EQ(header[11], "loggps_start_ps");
  EXPECT_EQ(header[18], "loggps_error_ps");
  for (std::size_t i = 0; i < packet.calls.size(); ++i) {
    const auto cells = cells_of(lines[i + 1]);
    ASSERT_EQ(cells.size(), header.size()) << lines[i + 1];
    const CallRecord& c = packet.calls[i];
    EXPECT_EQ(cells[0], std::to_string(c.rank));
    EXPECT_EQ(cells[1], std::to_string(c.call));
    EXPECT_EQ(cells[2], mpiemul::call_kind_name(c.kind));
    EXPECT_EQ(cells[3], "\"test call " + std::to_string(c.call) + "\"");
    EXPECT_EQ(cells[4], std::to_string(c.start_ps));
    EXPECT_EQ(cells[11], std::to_string(c.start_ps));  // the same model: the same times
    EXPECT_EQ(cells[12], std::to_string(c.end_ps));
    EXPECT_EQ(cells[18], "0");
    EXPECT_EQ(cells[19], "");  // "closed" has no per-call prediction
  }
  // Rank 0's first send, hand-computed: T1 = o + k Oss = 2000 + 64 = 2064 ns.
  EXPECT_EQ(cells_of(lines[1])[12], "2064000");
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].model, "loggps");
  EXPECT_DOUBLE_EQ(tables[0].total_abs_error_ns, 0);
}

TEST(CallCompare, AWrongLargeMessageGapRanksTheLargeExchangeFirst) {
  const Program prog = program();
  const Prediction truth = predict_program(prog, *loggps_replay_model(params()));
  const mpiemul::MpiResults packet = as_packet_run(prog, truth);
  LogGpsParams wrong = params();
  wrong.Gl *= 50;  // large messages only
  const Prediction model = predict_program(prog, *loggps_replay_model(wrong));
  std::ostringstream csv;
  const auto tables = compare_calls(packet, prog, "test", {{"loggps", &model}}, csv);
  ASSERT_EQ(tables.size(), 1u);
  const CallErrorTable& t = tables[0];
  ASSERT_EQ(t.kinds.size(), 3u);  // send, recv, sendrecv
  EXPECT_EQ(t.kinds[0].key, "sendrecv");
  EXPECT_EQ(t.kinds[0].calls, 2u);
  EXPECT_GT(t.kinds[0].share, 0.99);
  EXPECT_EQ(t.kinds[1].abs_error_ns, 0);
  EXPECT_EQ(t.sources[0].key, "test call 3");
  double shares = 0;
  for (const auto& row : t.kinds) shares += row.share;
  EXPECT_NEAR(shares, 1.0, 1e-12);
  const std::string md = call_error_markdown(tables);
  EXPECT_LT(md.find("| sendrecv |"), md.find("| send |"));
}

TEST(CallCompare, TraceCallsNameTheirFileAndLine) {
  Program prog = program();
  prog.ranks[1].source_file = "ring.tit";
  prog.ranks[1].call_lines = {7, 8, 0, 9};
  EXPECT_EQ(call_source(prog, "trace", 1, 1), "ring.tit:8");
  EXPECT_EQ(call_source(prog, "trace", 1, 2), "ring.tit (rank 1 call 2)");
  EXPECT_EQ(call_source(prog, "pingpong", 0, 2), "pingpong call 2");
}

TEST(CallCompare, PredictedCallsCsvHasOneRowPerCall) {
  const Program prog = program();
  const Prediction p = predict_program(prog, *loggps_replay_model(params()));
  std::ostringstream csv;
  write_predicted_calls_csv(p, prog, "test", csv);
  const auto lines = lines_of(csv.str());
  ASSERT_EQ(lines.size(), 1 + prog.ranks[0].calls.size() + prog.ranks[1].calls.size());
  EXPECT_EQ(lines[0],
            "rank,call,kind,source,start_ps,end_ps,duration_ps,overhead_ps,send_wait_ps,"
            "recv_wait_ps,sync_ps,compute_ps");
  EXPECT_EQ(lines[1], "0,0,send,\"test call 0\",0,2064000,2064000,2064000,0,0,0,0");
}

}  // namespace
}  // namespace netwarp::validation
