// Input checks of the benchmark samples (sample_checks.hpp).
#include "sample_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <stdexcept>

namespace netwarp::validation::fit {

namespace {

void check_series(const std::vector<SizePoint>& points, std::string_view model,
                  std::string_view series) {
  for (const SizePoint& point : points)
    if (!std::isfinite(point.ns) || point.ns <= 0)
      throw std::invalid_argument(fmt::format("{}: {} point at k = {}: time must be > 0, got {}",
                                              model, series, point.k, point.ns));
}

}  // namespace

void check_samples(const LogGpsSamples& samples, std::string_view model) {
  if (samples.s > samples.S)
    throw std::invalid_argument(
        fmt::format("{}: s must be <= S, got s = {}, S = {}", model, samples.s, samples.S));
  if (!std::isfinite(samples.W_ns) || samples.W_ns <= 0)
    throw std::invalid_argument(fmt::format("{}: W must be > 0 ns, got {}", model, samples.W_ns));
  check_series(samples.rtt_w0, model, "w0");
  check_series(samples.rtt_wW, model, "wW");
  check_series(samples.send, model, "send");
  for (const NicSharingPoint& point : samples.nic_shared) {
    check_series({{point.k, point.alone_ns}, {point.k, point.shared_ns}}, model, "nic");
    if (point.k <= samples.S)
      throw std::invalid_argument(
          fmt::format("{}: nic point at k = {}: NIC sharing is measured for k > S ({}) only", model,
                      point.k, samples.S));
  }
  for (const SizePoint& point : samples.send)
    if (point.k > samples.S)
      throw std::invalid_argument(
          fmt::format("{}: send point at k = {}: MPI_Send times are used for k <= S ({}) only",
                      model, point.k, samples.S));
}

std::size_t distinct_sizes(const std::vector<SizePoint>& points,
                           const std::function<bool(std::uint64_t)>& keep) {
  std::set<std::uint64_t> sizes;
  for (const SizePoint& point : points)
    if (keep(point.k)) sizes.insert(point.k);
  return sizes.size();
}

void require_sizes(std::string_view model, std::string_view what, std::size_t got,
                   std::size_t need) {
  if (got < need)
    throw std::invalid_argument(fmt::format(
        "{}: too few points: {} needs at least {} sizes, got {}", model, what, need, got));
}

}  // namespace netwarp::validation::fit
