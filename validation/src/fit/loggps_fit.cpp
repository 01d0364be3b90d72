// LogGPS parameters by weighted linear least squares over the benchmark curves
// (loggps_fit.hpp lists the rows and the choices).
#include "netwarp/validation/loggps_fit.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <set>
#include <stdexcept>

#include "least_squares.hpp"
#include "sample_checks.hpp"

namespace netwarp::validation {

namespace {

constexpr std::string_view kModel = "loggps fit";
constexpr std::size_t kUnknowns = 8;
enum Unknown : std::size_t { o, L, Oss, Ors, Osl, Orl, Gs, Gl };
constexpr std::array<std::string_view, kUnknowns> kNames{"o'",  "L",   "Oss", "Ors",
                                                         "Osl", "Orl", "Gs",  "Gl"};

using Row = std::array<double, kUnknowns>;

struct LinearPoint {
  Row coefficients{};
  double offset = 0;  // the known part of the model value (W; one pair's round trip)
  double measured = 0;
};

Row rtt_w0_row(std::uint64_t k_bytes, std::uint64_t s_bytes, std::uint64_t S_bytes) {
  const double k = static_cast<double>(k_bytes);
  const double s = static_cast<double>(s_bytes);
  if (k_bytes <= s_bytes) return {4, 2, 2 * k, 2 * k, 0, 0, 2 * k, 0};
  if (k_bytes <= S_bytes) return {4, 2, 2 * k, 2 * k, 0, 0, 2 * s, 2 * (k - s)};
  return {12, 6, 0, 0, 2 * k, 2 * k, 2 * s, 2 * (k - s)};
}

Row rtt_wW_row(std::uint64_t k_bytes, std::uint64_t s_bytes, std::uint64_t S_bytes) {
  const double k = static_cast<double>(k_bytes);
  const double s = static_cast<double>(s_bytes);
  if (k_bytes <= S_bytes) return {2, 0, k, k, 0, 0, 0, 0};
  return {10, 4, 0, 0, 2 * k, k, s, k - s};
}

// What sharing a NIC adds to a round trip, (shared - alone) over k, as a line: §3 with two
// messages on the NIC each way makes its slope 2 Gl. The intercept is left free: at a fixed size
// sharing also moves costs §3 leaves out (two handshakes that overlap instead of following each
// other). None without points.
struct NicLine {
  double intercept = 0;
  double gl = 0;
};

std::optional<NicLine> nic_line(const LogGpsSamples& in) {
  if (in.nic_shared.empty()) return std::nullopt;
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const NicSharingPoint& p : in.nic_shared) {
    const auto x = static_cast<double>(p.k);
    const double y = p.shared_ns - p.alone_ns;
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);  // >= 2 sizes (check_counts)
  return NicLine{(sy - slope * sx) / n, slope / 2};
}

std::vector<LinearPoint> linear_points(const LogGpsSamples& in) {
  std::vector<LinearPoint> points;
  for (const SizePoint& p : in.rtt_w0) points.push_back({rtt_w0_row(p.k, in.s, in.S), 0, p.ns});
  for (const SizePoint& p : in.rtt_wW)
    points.push_back({rtt_wW_row(p.k, in.s, in.S), in.W_ns, p.ns});
  for (const SizePoint& p : in.send)
    points.push_back({{1, 0, static_cast<double>(p.k), 0, 0, 0, 0, 0}, 0, p.ns});
  return points;
}

// Too few points is an error; no eager w = 0 point fixes Gl (returned true).
bool check_counts(const LogGpsSamples& in) {
  using fit::distinct_sizes;
  using fit::require_sizes;
  const auto short_k = [&](std::uint64_t k) { return k <= in.s; };
  const auto eager_k = [&](std::uint64_t k) { return k > in.s && k <= in.S; };
  const auto upto_S = [&](std::uint64_t k) { return k <= in.S; };
  const auto long_k = [&](std::uint64_t k) { return k > in.S; };
  const auto all = [](std::uint64_t) { return true; };
  require_sizes(kModel, fmt::format("RTT at w = 0 with k <= s ({})", in.s),
                distinct_sizes(in.rtt_w0, short_k), 2);
  require_sizes(kModel, fmt::format("RTT at w = 0 with k > S ({})", in.S),
                distinct_sizes(in.rtt_w0, long_k), 2);
  require_sizes(kModel, fmt::format("RTT at w = W with k <= S ({})", in.S),
                distinct_sizes(in.rtt_wW, upto_S), 2);
  require_sizes(kModel, fmt::format("RTT at w = W with k > S ({})", in.S),
                distinct_sizes(in.rtt_wW, long_k), 2);
  require_sizes(kModel, "MPI_Send", distinct_sizes(in.send, all), 1);
  if (!in.nic_shared.empty()) {
    std::set<std::uint64_t> nic_sizes;
    for (const NicSharingPoint& p : in.nic_shared) nic_sizes.insert(p.k);
    require_sizes(kModel, "NIC sharing", nic_sizes.size(), 2);
  }
  const std::size_t eager = distinct_sizes(in.rtt_w0, eager_k);
  if (eager == 1)
    require_sizes(kModel, fmt::format("RTT at w = 0 with {} < k <= {}", in.s, in.S), eager, 2);
  return eager == 0;
}

// Least squares over the unknowns not fixed at 0. Throws when they are not all determined.
Row solve(const std::vector<LinearPoint>& points, const std::array<bool, kUnknowns>& fixed) {
  std::vector<std::size_t> free;
  for (std::size_t u = 0; u < kUnknowns; ++u)
    if (!fixed[u]) free.push_back(u);
  std::vector<std::vector<double>> rows;
  std::vector<double> rhs;
  for (const LinearPoint& p : points) {
    std::vector<double> row;
    for (const std::size_t u : free) row.push_back(p.coefficients[u] / p.measured);
    rows.push_back(std::move(row));
    rhs.push_back((p.measured - p.offset) / p.measured);
  }
  const fit::LeastSquaresSolution solution = fit::solve_least_squares(rows, rhs);
  if (solution.x.empty()) {
    std::vector<std::string_view> names;
    for (const std::size_t column : solution.dependent) names.push_back(kNames[free[column]]);
    throw std::invalid_argument(
        fmt::format("{}: the points do not determine {} (add sizes in more segments)", kModel,
                    fmt::join(names, ", ")));
  }
  Row x{};
  for (std::size_t i = 0; i < free.size(); ++i) x[free[i]] = solution.x[i];
  return x;
}

LogGpsParams to_params(const Row& x, const LogGpsSamples& in) {
  LogGpsParams p;
  p.L = x[L];
  p.o = x[o];
  p.Oss = x[Oss];
  p.Ors = x[Ors];
  p.Osl = x[Osl];
  p.Orl = x[Orl];
  p.Gs = x[Gs];
  p.Gl = x[Gl];
  p.s = in.s;
  p.S = in.S;
  return p;
}

void report_residuals(const LogGpsSamples& in, const LogGpsParams& p, FitReport& report) {
  for (const SizePoint& pt : in.rtt_w0)
    add_residual(report, "w0", pt.k, pt.ns, loggps::rtt(p, pt.k, 0));
  for (const SizePoint& pt : in.rtt_wW)
    add_residual(report, "wW", pt.k, pt.ns, loggps::rtt(p, pt.k, in.W_ns));
  for (const SizePoint& pt : in.send)
    add_residual(report, "send", pt.k, pt.ns, loggps::send(p, pt.k, 0));
  if (const auto line = nic_line(in))
    for (const NicSharingPoint& pt : in.nic_shared)
      add_residual(report, "nic", pt.k, pt.shared_ns,
                   pt.alone_ns + line->intercept + 2 * static_cast<double>(pt.k) * p.Gl);
}

// The nic rows read §3 as scaling Gl; say so when the fit makes another parameter the largest.
void check_nic_rows(const LogGpsSamples& in, const LogGpsParams& p, FitReport& report) {
  if (in.nic_shared.empty() || (p.Gl >= p.Osl && p.Gl >= p.Orl)) return;
  report.notes.push_back(fmt::format(
      "the NIC-sharing points were fitted as (k - s) Gl per direction, but Gl = {:.6g} is not the "
      "largest of Osl = {:.6g}, Orl = {:.6g}, which the contention rule scales instead",
      p.Gl, p.Osl, p.Orl));
}

void check_w_large(const LogGpsSamples& in, const LogGpsParams& p, FitReport& report) {
  for (const SizePoint& pt : in.rtt_wW) {
    const double excess = loggps::rtt_network_excess(p, pt.k, in.W_ns);
    if (excess > 0)
      report.notes.push_back(fmt::format(
          "W = {} ns is too small for k = {}: the w = W round trip still waits {:.6g} ns for "
          "the network (max{{}} term of Table 6 > 0); the fit assumed 0, use a larger W",
          in.W_ns, pt.k, excess));
  }
}

// Gl from the NIC-sharing line, fixed in `points` (moved into their known part); none without
// points or when sharing adds nothing that grows with k (then the ping-pong fits Gl).
std::optional<double> nic_gl(const LogGpsSamples& in, std::vector<LinearPoint>& points,
                             FitReport& report) {
  const std::optional<NicLine> line = nic_line(in);
  if (!line) return std::nullopt;
  if (line->gl <= 0) {
    report.notes.push_back(fmt::format(
        "sharing a NIC adds no time that grows with k (slope {:.6g} ns/byte): Gl is fitted from "
        "the ping-pong alone",
        2 * line->gl));
    return std::nullopt;
  }
  for (LinearPoint& p : points) p.offset += p.coefficients[Gl] * line->gl;
  report.notes.push_back(fmt::format(
      "Gl = {:.6g} ns/byte from what sharing a NIC adds to a round trip (half its slope over k, "
      "§3 with two messages each way); the other parameters are fitted with it",
      line->gl));
  return line->gl;
}

}  // namespace

LogGpsFit fit_loggps(const LogGpsSamples& samples) {
  fit::check_samples(samples, kModel);
  LogGpsFit result;
  std::array<bool, kUnknowns> fixed{};
  if (check_counts(samples) && samples.nic_shared.empty()) {
    fixed[Gl] = true;
    result.report.notes.push_back(fmt::format(
        "no w = 0 points with s < k <= S ({} < k <= {}): Gl and Orl are separable only through "
        "s*Gl in the k > S intercepts, so Gl is fixed at 0 and Orl holds Orl + Gl",
        samples.s, samples.S));
  }
  std::vector<LinearPoint> points = linear_points(samples);
  const std::optional<double> gl = nic_gl(samples, points, result.report);
  if (gl) fixed[Gl] = true;
  Row x = solve(points, fixed);
  for (std::size_t round = 0; round < kUnknowns; ++round) {
    std::size_t worst = kUnknowns;
    for (std::size_t u = 0; u < kUnknowns; ++u)
      if (!fixed[u] && x[u] < 0 && (worst == kUnknowns || x[u] < x[worst])) worst = u;
    if (worst == kUnknowns) break;
    result.report.notes.push_back(
        fmt::format("{} came out negative ({:.6g}): fixed at 0 and the others refitted",
                    kNames[worst], x[worst]));
    fixed[worst] = true;
    x = solve(points, fixed);
  }
  if (gl) x[Gl] = *gl;
  result.params = to_params(x, samples);
  report_residuals(samples, result.params, result.report);
  check_w_large(samples, result.params, result.report);
  check_nic_rows(samples, result.params, result.report);
  return result;
}

}  // namespace netwarp::validation
