// Kielmann's PlogP procedure and PlogP-BR pattern gaps (plogp_fit.hpp).
#include "netwarp/validation/plogp_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "netwarp/validation/plogp_br.hpp"

namespace netwarp::validation {

namespace {

void require_positive(double value, std::string_view what) {
  if (!std::isfinite(value) || value <= 0)
    throw std::invalid_argument(fmt::format("plogp fit: {} must be > 0, got {}", what, value));
}

void check_samples(const PlogpSamples& in) {
  if (in.burst_count == 0) throw std::invalid_argument("plogp fit: burst_count must be >= 1");
  require_positive(in.burst_ns, "burst time");
  require_positive(in.rtt0_ns, "RTT(0)");
  if (in.sizes.empty()) throw std::invalid_argument("plogp fit: no message sizes measured");
  std::set<std::uint64_t> seen;
  for (const PlogpSizeSample& s : in.sizes) {
    if (!seen.insert(s.m).second)
      throw std::invalid_argument(fmt::format("plogp fit: size m = {} measured twice", s.m));
    require_positive(s.rtt_m0_ns, fmt::format("RTT({}, 0)", s.m));
    require_positive(s.send_ns, fmt::format("o_s({})", s.m));
    require_positive(s.recv_ns, fmt::format("o_r({})", s.m));
  }
}

}  // namespace

ModelFit<PlogpParams> fit_plogp(const PlogpSamples& samples) {
  check_samples(samples);
  ModelFit<PlogpParams> result;
  const double g0 = samples.burst_ns / static_cast<double>(samples.burst_count);
  const double L = samples.rtt0_ns / 2.0 - g0;
  if (L < 0)
    throw std::invalid_argument(fmt::format(
        "plogp fit: L = RTT(0)/2 - g(0) = {} - {} < 0: the burst is slower than the round trip",
        samples.rtt0_ns / 2.0, g0));
  std::vector<TablePoint> o_s, o_r, g;
  bool has_zero = false;
  for (const PlogpSizeSample& s : samples.sizes) {
    const double gap = s.rtt_m0_ns - 2.0 * L - g0;
    if (gap < 0)
      throw std::invalid_argument(fmt::format(
          "plogp fit: g({}) = RTT({}, 0) - 2L - g(0) = {} < 0: RTT({}, 0) is below RTT(0)", s.m,
          s.m, gap, s.m));
    g.push_back({s.m, gap});
    o_s.push_back({s.m, s.send_ns});
    o_r.push_back({s.m, s.recv_ns});
    has_zero = has_zero || s.m == 0;
  }
  if (!has_zero) g.push_back({0, g0});
  result.params = {L, Table(std::move(o_s)), Table(std::move(o_r)), Table(std::move(g))};
  result.report.notes.push_back(
      fmt::format("g(0) = {} ns / {} sends = {} ns", samples.burst_ns, samples.burst_count, g0));
  result.report.notes.push_back(fmt::format("L = RTT(0)/2 - g(0) = {} ns", L));
  return result;
}

Table fit_pattern_gap(const PlogpParams& base, const std::vector<ConcurrentPingPong>& points,
                      const std::string& pattern, std::vector<std::string>& notes) {
  if (points.empty()) throw std::invalid_argument("pattern gap: no measurements");
  std::vector<TablePoint> gaps;
  for (const ConcurrentPingPong& p : points) {
    require_positive(p.t_c_ns, fmt::format("T_C({})", p.m));
    require_positive(p.t_ce_ns, fmt::format("T_Ce({})", p.m));
    const double g = plogp_br::g_pattern(p.t_c_ns, p.t_ce_ns, base.g(p.m), base.L);
    if (g < 0)
      notes.push_back(fmt::format(
          "g(m = {}, {}) came out {:.2f} ns by eq (3) (T_C = {:.2f} ns, T_Ce = {:.2f} ns, L = "
          "{:.2f} ns): fitted as 0 under the constraint g >= 0; the pattern's pairs finish faster "
          "than PlogP-BR's L allows (pairs sharing a host, for instance)",
          p.m, pattern, g, p.t_c_ns, p.t_ce_ns, base.L));
    gaps.push_back({p.m, std::max(0.0, g)});
  }
  return Table(std::move(gaps));
}

}  // namespace netwarp::validation
