// The "mpi" section of results.json: run time, per-rank and summed breakdown of call time,
// messages per protocol, calls per kind, and the stuck ranks of a run that did not finish.
#include "netwarp/mpiemul/mpi_outputs.hpp"

namespace netwarp::mpiemul {

namespace {

using Json = nlohmann::ordered_json;

void put_breakdown(Json& j, const CallBreakdown& b) {
  j["calls"] = b.calls;
  j["mpi_time_ps"] = b.mpi_time_ps;
  j["overhead_ps"] = b.overhead_ps;
  j["send_wait_ps"] = b.send_wait_ps;
  j["recv_wait_ps"] = b.recv_wait_ps;
  j["sync_ps"] = b.sync_ps;
  j["compute_ps"] = b.compute_ps;
}

void put_counters(Json& j, const RankCounters& c) {
  j["throttled_sends"] = c.throttled_sends;
  j["throttle_wait_ps"] = c.throttle_wait_ps;
  j["unexpected_messages"] = c.unexpected_messages;
  j["unexpected_peak_bytes"] = c.unexpected_peak_bytes;
  j["direct_hits"] = c.direct_hits;
  j["direct_misses"] = c.direct_misses;
}

Json rank_json(const RankTotals& r) {
  Json j;
  j["rank"] = r.rank;
  j["host"] = r.has_summary ? Json(r.host) : Json(nullptr);
  const bool finished = r.has_summary && r.end_ps >= 0;
  j["end_ps"] = finished ? Json(r.end_ps) : Json(nullptr);  // null: did not finish
  j["finished"] = finished;
  put_breakdown(j, r.calls);
  put_counters(j, r.counters);
  return j;
}

Json totals_json(const MpiTotals& t) {
  Json j;
  put_breakdown(j, t.calls);
  // unexpected_peak_bytes here is the largest peak of any rank.
  put_counters(j, t.counters);
  j["saturated"] = t.sums_saturated;  // a sum passed 2^63 - 1 ps and was held there
  return j;
}

Json messages_json(const MpiTotals& t) {
  Json j = Json::object();
  for (int p = 0; p < kProtocolCount; ++p) {
    const MessageTotals& m = t.messages[p];
    j[protocol_name(static_cast<Protocol>(p))] = {
        {"count", m.count}, {"bytes", m.bytes}, {"unexpected", m.unexpected}};
  }
  return j;
}

// Only kinds that were called: most programs use a few of the 22.
Json call_kinds_json(const MpiTotals& t) {
  Json j = Json::object();
  for (int k = 0; k < kCallKindCount; ++k) {
    const CallKindTotals& c = t.call_kinds[k];
    if (c.count == 0) continue;
    j[std::string(call_kind_name(static_cast<CallKind>(k)))] = {
        {"count", c.count}, {"time_ps", c.time_ps}, {"bytes", c.bytes}};
  }
  return j;
}

Json stuck_json(const MpiTotals& t) {
  Json rows = Json::array();
  for (const StuckRank& s : t.stuck) {
    if (!s.has_summary) {
      rows.push_back({{"rank", s.rank}, {"reported", false}});
      continue;
    }
    rows.push_back({{"rank", s.rank},
                    {"reported", true},
                    {"call", s.call},
                    {"op", s.op},
                    {"kind", std::string(call_kind_name(s.kind))},
                    {"peer", s.peer},
                    {"tag", s.tag},
                    {"bytes", s.bytes}});
  }
  return rows;
}

}  // namespace

Json mpi_results_json(const MpiResults& results, const MpiTotals& totals, const Program& program) {
  Json j;
  j["run_time_ps"] = totals.finished ? Json(totals.run_time_ps) : Json(nullptr);
  j["finished"] = totals.finished;
  j["deadlock"] = totals.finished ? Json(nullptr) : Json(deadlock_message(totals));
  j["world_size"] = program.size();
  j["messages_matched"] = results.messages.size();
  Json ranks = Json::array();
  for (const RankTotals& r : totals.ranks) ranks.push_back(rank_json(r));
  j["ranks"] = std::move(ranks);
  j["totals"] = totals_json(totals);
  j["messages"] = messages_json(totals);
  j["call_kinds"] = call_kinds_json(totals);
  j["stuck_ranks"] = stuck_json(totals);
  return j;
}

}  // namespace netwarp::mpiemul
