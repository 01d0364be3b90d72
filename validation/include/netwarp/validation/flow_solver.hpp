// FlowSolver: the incremental core of the flow-level model (docs/models/flow-mfs.md, steps
// 2-8). It holds the active flows on a FlowNetwork, their rates and remaining bytes, and a
// clock; callers add flows at the current time, ask for the earliest completion, advance the
// clock and take the finished flows. Rates are recomputed only when the flow set changed.
//
//   FlowSolver solver(network, FlowMode::fair_share);
//   solver.add_flow(7, src, dst, 20000);                  // starts now
//   while (auto next = solver.next_completion()) {
//     solver.advance_to(next->time_s);                    // bytes sent at the current rates
//     solver.take_finished(done);                         // ids, removed from the solver
//     ...add the flows that start now...
//   }
//
// Modes (the paper's names):
// - F (fair_share): steps 2-4. Link k shared by c_k flows gives each eb_k = pb_k / c_k; a flow's
//   rate is the least eb_k on its route. Bandwidth a flow cannot use stays unused.
// - N (max_min): step 5. The paper hands unused bandwidth to the link's other flows in a loop
//   with a 1 % threshold and does not say what it converges to; we read it as max-min fairness
//   (docs/models/flow-mfs.md says this is our reading) and compute that exactly by
//   progressive filling: saturate the most constrained link, freeze its flows at its fair
//   share, take their bandwidth off their other links, repeat. One round per distinct rate
//   level is counted as one iteration of the paper's loop (stats().max_min_rounds).
//
// Time is double seconds since the solver's start; rates are bytes per second. Completions
// closer together than kTimeTolerance_s are one instant (half a picosecond, below the integer-ps
// resolution of results), so a caller that rounds times to picoseconds still sees its flows end.
// No latency: a flow's bytes move at its rate from the instant it is added (MFS has no latency).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "netwarp/netmodels/units.hpp"
#include "netwarp/validation/flow_network.hpp"

namespace netwarp::validation {

enum class FlowMode : std::uint8_t { fair_share, max_min };  // the paper's Mode F, Mode N

// "F" or "N" (either case); throws std::invalid_argument naming the known modes.
FlowMode parse_flow_mode(std::string_view name);
std::string_view flow_mode_name(FlowMode mode);  // "F" or "N"

using FlowId = std::uint64_t;  // chosen by the caller, unique among active flows

struct FlowCompletion {
  FlowId id = 0;
  double time_s = 0;
};

struct FlowSolverStats {
  std::uint64_t rate_solves = 0;         // rate recomputations (one per change of the flow set)
  std::uint64_t rate_updates = 0;        // flows whose rate was recomputed, summed
  std::uint64_t max_min_rounds = 0;      // Mode N: progressive-filling rounds, summed over solves
  std::uint32_t max_min_rounds_max = 0;  // Mode N: most rounds in one solve
};

inline constexpr double kTimeTolerance_s = 0.5e-12;

// Rounds seconds to the nearest integer picosecond.
std::int64_t seconds_to_ps(double seconds);

class FlowSolver {
 public:
  // `network` must outlive the solver.
  FlowSolver(const FlowNetwork& network, FlowMode mode);
  ~FlowSolver();
  FlowSolver(FlowSolver&&) noexcept;
  FlowSolver& operator=(FlowSolver&&) noexcept;

  FlowMode mode() const;
  double now_s() const;
  std::size_t active_flows() const;

  // Starts a flow of `bytes` now along `route` (link ids, none repeated) or along the
  // network's route from host src to host dst. Throws std::invalid_argument for an id already
  // active, an empty or bad route, or negative bytes. A flow of 0 bytes finishes now.
  void add_flow(FlowId id, std::span<const FlowLinkId> route, double bytes);
  void add_flow(FlowId id, netmodels::NodeId src, netmodels::NodeId dst, double bytes);
  // Removes an active flow (finished or cancelled); throws std::invalid_argument if unknown.
  void remove_flow(FlowId id);

  // The earliest completion at the current rates (ties: the flow added first); nullopt when
  // no flow is active. Never earlier than now_s().
  std::optional<FlowCompletion> next_completion();
  // Moves the clock to t (>= now) at constant rates. Going past a completion is allowed (the
  // paper's resolution Resolu does it): such a flow stays at 0 bytes, holding its share, until
  // it is taken or removed.
  void advance_to(double t_s);
  void advance_to(netmodels::SimTime t) { advance_to(t.to_seconds()); }
  // Appends the ids of the flows finished by now (in completion order, ties in add order),
  // removes them, and returns how many there were.
  std::size_t take_finished(std::vector<FlowId>& out);

  // Current rate (bytes/s) and bytes left of an active flow; throw if unknown.
  double rate(FlowId id);
  double remaining_bytes(FlowId id);
  const FlowSolverStats& stats() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace netwarp::validation
