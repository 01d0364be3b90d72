// MpiResults: the committed records of an MPI run, collected from the engine's sink (network
// records go on to a NetworkResults inside it, so one sink serves the whole run), merged across
// MPI processes and put in a canonical order; MpiTotals: what they add up to, per rank and
// summed, with the ranks that never finished and the call each is blocked in.
//
//   MpiResults results;                 // the run's RecordSink
//   ... run; gather results.to_bytes() to rank 0, append_bytes() each part, then sort() ...
//   const MpiTotals t = results.totals(program);
//   if (!t.finished) std::cerr << deadlock_message(t) << '\n';
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "netwarp/engine/event.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/records.hpp"
#include "netwarp/netmodels/network_results.hpp"

namespace netwarp::mpiemul {

// into += value, held at the largest int64 instead of wrapping; true when it was held. Sums of
// times over ranks can pass what 64 bits count (16 ranks of 6e5 s each) though every rank's
// times are within the budget.
bool add_saturating(std::int64_t& into, std::int64_t value);

// The split of call time LogGPS reports, summed over some calls.
struct CallBreakdown {
  std::uint64_t calls = 0;
  std::int64_t mpi_time_ps = 0;  // duration of every call but compute calls
  std::int64_t overhead_ps = 0;
  std::int64_t send_wait_ps = 0;
  std::int64_t recv_wait_ps = 0;
  std::int64_t sync_ps = 0;
  std::int64_t compute_ps = 0;
  bool saturated = false;  // a sum was held at the largest int64 (add_saturating)

  void add(const CallRecord& call);
  void add(const CallBreakdown& other);
  // overhead + send wait + receive wait + sync + compute: all time spent in calls.
  std::int64_t total_ps() const;
};

// A rank's unexpected-buffer and sender-side matching counters (see RankSummary).
struct RankCounters {
  std::uint64_t throttled_sends = 0;
  std::int64_t throttle_wait_ps = 0;
  std::uint64_t unexpected_messages = 0;
  std::uint64_t unexpected_peak_bytes = 0;  // summed over ranks: the largest peak instead
  std::uint64_t direct_hits = 0;
  std::uint64_t direct_misses = 0;
  bool saturated = false;  // throttle_wait_ps was held at the largest int64

  void add(const RankCounters& other);
};

struct RankTotals {
  RankId rank = 0;
  std::uint32_t host = 0;
  std::int64_t end_ps = -1;  // -1: did not finish
  bool has_summary = false;  // its RankSummary arrived
  CallBreakdown calls;
  RankCounters counters;
};

struct MessageTotals {
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  std::uint64_t unexpected = 0;  // arrived before their receive was posted
};

struct CallKindTotals {
  std::uint64_t count = 0;
  std::int64_t time_ps = 0;  // summed durations, held at the largest int64
  std::uint64_t bytes = 0;
  bool saturated = false;
};

// A rank that did not finish, and the call of its program it is blocked in.
struct StuckRank {
  RankId rank = 0;
  bool has_summary = false;  // false: no RankSummary arrived, nothing else is known
  std::uint32_t call = 0;    // index in the rank's program (RankSummary::calls_done)
  std::uint32_t op = 0;      // the op blocked in (RankSummary::stuck_op)
  CallKind kind = CallKind::compute;
  CommId comm = kWorldComm;  // the communicator of the call
  std::int32_t peer = -1;
  std::int32_t tag = -1;
  std::uint64_t bytes = 0;
  // The message operations the blocked op waits for: itself if it is a send or receive, the
  // operations of its requests if it is a wait or test (complete ones included: the summary
  // does not say which are still pending).
  std::vector<Op> waiting_on;
};

// A send of a finished run that no receive matched (its message still waits, unexpected, at
// `peer`): the program is wrong, though every rank got to its end.
struct UnreceivedSend {
  RankId rank = 0;
  std::uint32_t op = 0;  // index in the rank's program
  std::int32_t peer = 0;
  std::int32_t tag = 0;
  std::uint64_t bytes = 0;
};

struct MpiTotals {
  bool finished = true;           // every rank finished its program
  std::int64_t run_time_ps = 0;   // latest rank end; -1 when not finished (null in outputs)
  std::vector<RankTotals> ranks;  // one per rank of the program, in rank order
  CallBreakdown calls;            // summed over ranks
  RankCounters counters;          // summed over ranks
  std::array<MessageTotals, kProtocolCount> messages{};     // indexed by Protocol
  std::array<CallKindTotals, kCallKindCount> call_kinds{};  // indexed by CallKind
  std::vector<StuckRank> stuck;                             // in rank order
  std::vector<UnreceivedSend> unreceived;                   // finished runs only; by rank, then op
  bool sums_saturated = false;  // a sum of times over ranks or calls was held at the largest int64
};

class MpiResults final : public engine::RecordSink {
 public:
  // Keeps MPI records; every other record goes to `network`.
  void write(const engine::CommittedRecord& record) override;

  // Everything collected (network part included), as bytes for RankExchange::gather, and the
  // merge of such parts.
  std::vector<std::byte> to_bytes() const;
  void append_bytes(std::span<const std::byte> bytes);
  // Canonical order: calls by (rank, call), messages by (dst, matched_ps, src, send_op), ranks
  // by rank, and the network's own order.
  void sort();
  MpiTotals totals(const Program& program) const;

  std::vector<CallRecord> calls;
  std::vector<MessageRecord> messages;
  std::vector<RankSummary> ranks;
  netmodels::NetworkResults network;
};

// One line naming every stuck rank and what it is blocked in, at most `max_ranks` of them:
// "deadlock: rank 0 blocked in send to 1 (tag 0, 1048576 B, call 3); rank 1 blocked in ...".
// Empty when every rank finished.
std::string deadlock_message(const MpiTotals& totals, std::size_t max_ranks = 16);
// "N sends were never received: rank 0's send to 1 (tag 7, 100 B, op 0); ..." or "".
std::string unreceived_message(const MpiTotals& totals, std::size_t max_sends = 8);

}  // namespace netwarp::mpiemul
