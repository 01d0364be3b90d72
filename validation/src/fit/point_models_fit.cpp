// Hockney and LogGP fits (point_models_fit.hpp documents the choices).
#include "netwarp/validation/point_models_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "least_squares.hpp"
#include "sample_checks.hpp"

namespace netwarp::validation {

namespace {

struct Line {
  double intercept = 0;
  double slope = 0;
};

// Weighted (1/weight) least-squares line y = intercept + slope x.
Line fit_line(const std::vector<double>& x, const std::vector<double>& y,
              const std::vector<double>& weight) {
  std::vector<std::vector<double>> rows;
  std::vector<double> rhs;
  for (std::size_t i = 0; i < x.size(); ++i) {
    rows.push_back({1.0 / weight[i], x[i] / weight[i]});
    rhs.push_back(y[i] / weight[i]);
  }
  const fit::LeastSquaresSolution solution = fit::solve_least_squares(rows, rhs);
  if (solution.x.empty()) throw std::invalid_argument("least squares line: sizes all equal");
  return {solution.x[0], solution.x[1]};
}

// The same line with neither coefficient below 0 (parameter files hold no negative times):
// a negative one is fixed at 0, the other refitted alone, and `notes` says so.
Line fit_non_negative_line(const std::vector<double>& x, const std::vector<double>& y,
                           const std::vector<double>& weight, std::string_view intercept_name,
                           std::string_view slope_name, std::vector<std::string>& notes) {
  Line line = fit_line(x, y, weight);
  double xx = 0, xy = 0, ww = 0, wy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w2 = 1.0 / (weight[i] * weight[i]);
    xx += x[i] * x[i] * w2;
    xy += x[i] * y[i] * w2;
    ww += w2;
    wy += y[i] * w2;
  }
  if (line.intercept < 0) {
    notes.push_back(
        fmt::format("{} came out negative ({:.6g}): fixed at 0", intercept_name, line.intercept));
    line = {0, xx > 0 ? xy / xx : 0};
  }
  if (line.slope < 0) {
    notes.push_back(
        fmt::format("{} came out negative ({:.6g}): fixed at 0", slope_name, line.slope));
    line = {std::max(0.0, wy / ww), 0};
  }
  return line;
}

}  // namespace

ModelFit<HockneyParams> fit_hockney(const LogGpsSamples& samples) {
  fit::check_samples(samples, "hockney fit");
  fit::require_sizes("hockney fit", "RTT at w = 0",
                     fit::distinct_sizes(samples.rtt_w0, [](std::uint64_t) { return true; }), 2);
  std::vector<double> x, y, weight;
  for (const SizePoint& p : samples.rtt_w0) {
    x.push_back(static_cast<double>(p.k));
    y.push_back(p.ns / 2.0);
    weight.push_back(p.ns / 2.0);
  }
  ModelFit<HockneyParams> result;
  const Line line = fit_non_negative_line(x, y, weight, "alpha", "beta", result.report.notes);
  result.params = {line.intercept, line.slope};
  for (const SizePoint& p : samples.rtt_w0)
    add_residual(result.report, "w0", p.k, p.ns, rtt(result.params, p.k));
  return result;
}

namespace {

double fit_send_overhead(const LogGpsSamples& samples, std::vector<std::string>& notes) {
  const auto short_k = [&](std::uint64_t k) { return k <= samples.s; };
  fit::require_sizes("loggp fit", fmt::format("MPI_Send with k <= s ({})", samples.s),
                     fit::distinct_sizes(samples.send, short_k), 2);
  std::vector<double> x, y, weight;
  for (const SizePoint& p : samples.send) {
    if (!short_k(p.k)) continue;
    x.push_back(static_cast<double>(p.k));
    y.push_back(p.ns);
    weight.push_back(p.ns);
  }
  return fit_non_negative_line(x, y, weight, "o", "the send calls' slope", notes).intercept;
}

}  // namespace

ModelFit<LogGpParams> fit_loggp(const LogGpsSamples& samples, std::optional<BurstSample> burst) {
  fit::check_samples(samples, "loggp fit");
  fit::require_sizes("loggp fit", "RTT at w = 0",
                     fit::distinct_sizes(samples.rtt_w0, [](std::uint64_t) { return true; }), 2);
  ModelFit<LogGpParams> result;
  LogGpParams& p = result.params;
  p.o = fit_send_overhead(samples, result.report.notes);
  std::vector<double> x, y, weight;
  for (const SizePoint& pt : samples.rtt_w0) {
    x.push_back(pt.k == 0 ? 0.0 : static_cast<double>(pt.k - 1));
    y.push_back(pt.ns / 2.0 - 2.0 * p.o);
    weight.push_back(pt.ns / 2.0);
  }
  const Line line = fit_non_negative_line(x, y, weight, "L", "G", result.report.notes);
  p.L = line.intercept;
  p.G = line.slope;
  if (burst) {
    if (burst->n == 0 || !(burst->total_ns > 0))
      throw std::invalid_argument("loggp fit: burst needs n >= 1 sends and a time > 0");
    p.g = burst->total_ns / static_cast<double>(burst->n);
    result.report.notes.push_back(
        fmt::format("g = {} ns / {} sends of the burst", burst->total_ns, burst->n));
  } else {
    p.g = p.o;
    result.report.notes.push_back("no burst measured: g = o");
  }
  p.P = 2;
  for (const SizePoint& pt : samples.rtt_w0)
    add_residual(result.report, "w0", pt.k, pt.ns, rtt(p, pt.k));
  for (const SizePoint& pt : samples.send)
    add_residual(result.report, "send", pt.k, pt.ns, send_time(p, pt.k));
  return result;
}

}  // namespace netwarp::validation
