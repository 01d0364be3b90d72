// PlogP-BR: RTO penalties (1), phase costs (2) and (4), pattern gaps (3) and the alltoall
// predictions (5)-(9) of docs/models/plogp-br.md.
#include "netwarp/validation/plogp_br.hpp"

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>

namespace netwarp::validation::plogp_br {

int e_q(std::uint64_t m, std::uint64_t n, double q_bytes, bool flow_control) {
  if (flow_control || n <= 1) return 0;
  const double overlapping = static_cast<double>(n - 1) * static_cast<double>(m);
  return q_bytes < overlapping ? 1 : 0;
}

int e_q(const PlogpBrParams& p, std::uint64_t m, std::uint64_t n) {
  return e_q(m, n, p.q_bytes, p.flow_control);
}

double g_pattern(double t_c, double t_ce, double g_ce, double L) {
  if (!(t_ce > 0)) throw std::invalid_argument(fmt::format("T_Ce must be > 0, got {}", t_ce));
  return t_c / t_ce * (g_ce + L) - L;
}

double t_r(const PlogpBrParams& p, std::uint64_t m, std::uint64_t n) {
  return static_cast<double>(n) * p.base.g(m) + p.base.L + e_q(p, m, n) * p.rto_ns;
}

double t_br(const PlogpBrParams& p, std::uint64_t m, const std::vector<double>& phase_gaps) {
  const double gaps = std::accumulate(phase_gaps.begin(), phase_gaps.end(), 0.0);
  return gaps + p.base.L + e_q(p, m, phase_gaps.size()) * p.rto_ns;
}

std::vector<double> phase_gaps(const PlogpBrParams& p, std::uint64_t m,
                               const std::vector<std::string>& patterns) {
  std::vector<double> gaps;
  for (const std::string& name : patterns) {
    const auto found = p.g_by_pattern.find(name);
    if (found == p.g_by_pattern.end()) {
      std::vector<std::string> known;
      for (const auto& entry : p.g_by_pattern) known.push_back(entry.first);
      throw std::invalid_argument(
          fmt::format("unknown pattern '{}' (known: {})", name, fmt::join(known, ", ")));
    }
    gaps.push_back(found->second(m));
  }
  return gaps;
}

namespace {

double phases(std::uint32_t ranks) {
  if (ranks == 0) throw std::invalid_argument("alltoall: ranks must be >= 1, got 0");
  return static_cast<double>(ranks - 1);
}

}  // namespace

double alltoall_a_plogp(const PlogpParams& p, std::uint64_t m, std::uint32_t ranks) {
  return phases(ranks) * p.g(m) + p.L;
}

double alltoall_a(const PlogpBrParams& p, std::uint64_t m, const std::vector<double>& phase_gaps) {
  return t_br(p, m, phase_gaps);  // n = P - 1 overlapping phases
}

double alltoall_b_plogp(const PlogpParams& p, std::uint64_t m, std::uint32_t ranks) {
  return phases(ranks) * (p.g(m) + p.L);
}

double alltoall_b(const PlogpBrParams& p, std::uint64_t m, const std::vector<double>& phase_gaps) {
  double total = 0;
  for (const double g : phase_gaps) total += g + p.base.L + e_q(p, m, 1) * p.rto_ns;
  return total;
}

}  // namespace netwarp::validation::plogp_br
