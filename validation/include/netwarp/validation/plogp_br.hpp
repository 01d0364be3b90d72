// PlogP-BR (Nomura, Ishikawa), docs/models/plogp-br.md: PlogP with bottleneck links (the gap
// depends on the communication pattern) and retransmission timeouts (one T_RTO when a switch
// queue of q bytes overflows at a phase boundary). Equation numbers are the paper's.
//
// Units: times in ns, sizes and q in bytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "netwarp/validation/plogp.hpp"

namespace netwarp::validation {

struct PlogpBrParams {
  PlogpParams base;                           // g(m, C_e) = base.g(m)
  std::map<std::string, Table> g_by_pattern;  // g(m, C) per named pattern C, ns
  double q_bytes = 0;                         // egress queue of the bottleneck switch
  bool flow_control = false;                  // switch flow control: no loss, E_q = 0
  double rto_ns = 0;                          // T_RTO
};

namespace plogp_br {

// (1): expected RTO penalties for n overlapping phases of m-byte messages: 0 with flow
// control, else 1 iff q < (n - 1) m.
int e_q(std::uint64_t m, std::uint64_t n, double q_bytes, bool flow_control);
int e_q(const PlogpBrParams& p, std::uint64_t m, std::uint64_t n);

// (3): g(m, C) = (T_C / T_Ce) (g(m, C_e) + L) - L, from the largest per-node ping-pong times
// T_C (all pairs of C at once) and T_Ce (the measurement pair alone).
double g_pattern(double t_c, double t_ce, double g_ce, double L);

// (2): T_R = n g(m) + L + E_q(m, n) T_RTO, n phases on the measurement pattern.
double t_r(const PlogpBrParams& p, std::uint64_t m, std::uint64_t n);

// (4): T_BR = sum_k g(m, C_k) + L + E_q(m, n) T_RTO over n = phase_gaps.size() phases.
double t_br(const PlogpBrParams& p, std::uint64_t m, const std::vector<double>& phase_gaps);

// g(m, C_k) of each named pattern from p.g_by_pattern. Throws std::invalid_argument naming an
// unknown pattern and the known ones.
std::vector<double> phase_gaps(const PlogpBrParams& p, std::uint64_t m,
                               const std::vector<std::string>& patterns);

// Alltoall algorithms A (back-to-back sends) and B (one phase at a time), MPI-PROTOCOLS.md.
// The BR forms take the P - 1 per-phase gaps g(m, C_1..C_{P-1}).
double alltoall_a_plogp(const PlogpParams& p, std::uint64_t m, std::uint32_t ranks);  // (5)
double alltoall_a(const PlogpBrParams& p, std::uint64_t m,
                  const std::vector<double>& phase_gaps);  // (6), only g summed
double alltoall_b_plogp(const PlogpParams& p, std::uint64_t m, std::uint32_t ranks);  // (7)
double alltoall_b(const PlogpBrParams& p, std::uint64_t m,
                  const std::vector<double>& phase_gaps);  // (8) = (9): E_q(m, 1) = 0

}  // namespace plogp_br
}  // namespace netwarp::validation
