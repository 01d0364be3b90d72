// Tests of the Chrome/Perfetto timeline (timeline.json): valid trace-event JSON, one named
// track per rank, one complete event per call, times written exactly in microseconds.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "netwarp/mpiemul/mpi_outputs.hpp"

namespace netwarp::mpiemul {
namespace {

template <class R>
void feed(engine::RecordSink& sink, const R& record) {
  sink.write(engine::CommittedRecord{0, engine::EventKey{}, engine::tag_of<R>,
                                     std::as_bytes(std::span(&record, 1))});
}

Program empty_program(RankId size) {
  Program p;
  p.ranks.resize(size);
  return p;
}

RankSummary summary(RankId rank, std::uint32_t host) {
  RankSummary s;
  s.rank = rank;
  s.host = host;
  s.end_ps = 10;
  return s;
}

// Rank 1 sends 4096 B eagerly to rank 0 from 1.234567 us for 0.5 us; rank 0 receives.
MpiResults two_calls() {
  MpiResults r;
  CallRecord c;
  c.rank = 1;
  c.call = 3;
  c.kind = CallKind::send;
  c.start_ps = 1234567;
  c.end_ps = 1734567;
  c.overhead_ps = 100000;
  c.send_wait_ps = 400000;
  c.bytes = 4096;
  c.peer = 0;
  c.tag = 9;
  c.protocol = Protocol::eager;
  feed(r, c);
  c.rank = 0;
  c.call = 0;
  c.kind = CallKind::recv;
  c.start_ps = 0;
  c.end_ps = 2000001;
  c.overhead_ps = 1;
  c.send_wait_ps = 0;
  c.recv_wait_ps = 2000000;
  c.peer = 1;
  feed(r, c);
  feed(r, summary(1, 7));
  feed(r, summary(0, 3));
  r.sort();
  return r;
}

std::string timeline_text(const MpiResults& r, RankId size) {
  std::ostringstream out;
  write_timeline_json(r, empty_program(size), out);
  return out.str();
}

nlohmann::json events_named(const nlohmann::json& timeline, const std::string& name) {
  nlohmann::json found = nlohmann::json::array();
  for (const auto& e : timeline["traceEvents"])
    if (e["name"] == name) found.push_back(e);
  return found;
}

TEST(PsToUsDecimal, WritesPicosecondsAsExactMicroseconds) {
  EXPECT_EQ(ps_to_us_decimal(1234567), "1.234567");
  EXPECT_EQ(ps_to_us_decimal(0), "0.000000");
  EXPECT_EQ(ps_to_us_decimal(5), "0.000005");
  EXPECT_EQ(ps_to_us_decimal(1000000), "1.000000");
  EXPECT_EQ(ps_to_us_decimal(-1500000), "-1.500000");
  EXPECT_EQ(ps_to_us_decimal(std::numeric_limits<std::int64_t>::max()), "9223372036854.775807");
  EXPECT_EQ(ps_to_us_decimal(std::numeric_limits<std::int64_t>::min()), "-9223372036854.775808");
}

TEST(Timeline, IsTraceEventJsonWithOneNamedTrackPerRank) {
  const auto j = nlohmann::json::parse(timeline_text(two_calls(), 3));
  EXPECT_EQ(j["displayTimeUnit"], "ns");
  const auto process = events_named(j, "process_name");
  ASSERT_EQ(process.size(), 1u);
  EXPECT_EQ(process[0]["ph"], "M");
  EXPECT_EQ(process[0]["pid"], 0);
  EXPECT_EQ(process[0]["args"]["name"], "netwarp MPI");
  const auto threads = events_named(j, "thread_name");
  ASSERT_EQ(threads.size(), 3u);
  const auto sort = events_named(j, "thread_sort_index");
  ASSERT_EQ(sort.size(), 3u);
  const char* names[] = {"rank 0 (host 3)", "rank 1 (host 7)", "rank 2"};  // 2: no summary
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(threads[r]["tid"], r);
    EXPECT_EQ(threads[r]["args"]["name"], names[r]);
    EXPECT_EQ(sort[r]["tid"], r);
    EXPECT_EQ(sort[r]["args"]["sort_index"], r);
  }
}

TEST(Timeline, HasOneCompleteEventPerCallWithItsBreakdown) {
  const auto j = nlohmann::json::parse(timeline_text(two_calls(), 2));
  const auto sends = events_named(j, "send");
  ASSERT_EQ(sends.size(), 1u);
  const auto& send = sends[0];
  EXPECT_EQ(send["ph"], "X");
  EXPECT_EQ(send["pid"], 0);
  EXPECT_EQ(send["tid"], 1);
  EXPECT_DOUBLE_EQ(send["ts"].get<double>(), 1.234567);
  EXPECT_DOUBLE_EQ(send["dur"].get<double>(), 0.5);
  const auto& args = send["args"];
  EXPECT_EQ(args["call"], 3);
  EXPECT_EQ(args["peer"], 0);
  EXPECT_EQ(args["tag"], 9);
  EXPECT_EQ(args["bytes"], 4096);
  EXPECT_EQ(args["protocol"], "eager");
  EXPECT_EQ(args["overhead_ps"], 100000);
  EXPECT_EQ(args["send_wait_ps"], 400000);
  EXPECT_EQ(args["recv_wait_ps"], 0);
  EXPECT_EQ(args["sync_ps"], 0);
  EXPECT_EQ(args["compute_ps"], 0);
  const auto recvs = events_named(j, "recv");
  ASSERT_EQ(recvs.size(), 1u);
  EXPECT_EQ(recvs[0]["tid"], 0);
  EXPECT_EQ(recvs[0]["args"]["recv_wait_ps"], 2000000);
}

TEST(Timeline, WritesTimesAsExactDecimalsInCallOrder) {
  const std::string text = timeline_text(two_calls(), 2);
  const auto recv = text.find("\"ts\":0.000000,\"dur\":2.000001,");
  const auto send = text.find("\"ts\":1.234567,\"dur\":0.500000,");
  ASSERT_NE(recv, std::string::npos) << text;
  ASSERT_NE(send, std::string::npos) << text;
  EXPECT_LT(recv, send);  // sorted: rank 0's call first
}

TEST(Timeline, StaysValidWhenStreamedInManyPieces) {
  MpiResults r;
  CallRecord c;
  c.kind = CallKind::compute;
  for (std::uint32_t i = 0; i < 5000; ++i) {
    c.call = i;
    c.start_ps = i * 1000;
    c.end_ps = c.start_ps + 1000;
    c.compute_ps = 1000;
    r.calls.push_back(c);
  }
  const std::string text = timeline_text(r, 1);
  EXPECT_GT(text.size(), 1u << 17);  // more than one buffer flush
  const auto j = nlohmann::json::parse(text);
  const auto computes = events_named(j, "compute");
  ASSERT_EQ(computes.size(), 5000u);
  EXPECT_DOUBLE_EQ(computes[4999]["ts"].get<double>(), 4999e-3);
  EXPECT_EQ(computes[4999]["args"]["call"], 4999);
}

TEST(Timeline, AnEmptyRunIsStillValid) {
  const auto j = nlohmann::json::parse(timeline_text(MpiResults{}, 0));
  ASSERT_TRUE(j["traceEvents"].is_array());
  EXPECT_EQ(j["traceEvents"].size(), 1u);  // the process name
}

}  // namespace
}  // namespace netwarp::mpiemul
