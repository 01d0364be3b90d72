// EmpiricalCdf: reading, checking, inverting and averaging a piecewise-linear size CDF.
#include "netwarp/netmodels/empirical_cdf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::netmodels {

namespace {

// The first problem with the points, or "" when they are valid; `index` is set to the point.
std::string check_points(const std::vector<EmpiricalCdf::Point>& points, std::size_t& index) {
  if (points.size() < 2) {
    index = points.size();
    return fmt::format("needs at least 2 points, got {}", points.size());
  }
  for (index = 0; index < points.size(); ++index) {
    const EmpiricalCdf::Point& p = points[index];
    if (!std::isfinite(p.bytes) || p.bytes < 0 || p.bytes > 9.2e18)
      return fmt::format("size must be in [0, 9.2e18] bytes, got {}", p.bytes);
    if (!std::isfinite(p.cumulative) || p.cumulative < 0 || p.cumulative > 1)
      return fmt::format("cumulative probability must be in [0, 1], got {}", p.cumulative);
    if (index == 0) continue;
    const EmpiricalCdf::Point& q = points[index - 1];
    if (p.bytes < q.bytes)
      return fmt::format("sizes must not decrease ({} after {})", p.bytes, q.bytes);
    if (p.cumulative < q.cumulative)
      return fmt::format("probabilities must not decrease ({} after {})", p.cumulative,
                         q.cumulative);
  }
  index = points.size() - 1;
  if (points.back().cumulative != 1)
    return fmt::format("the last cumulative probability must be 1, got {}",
                       points.back().cumulative);
  return "";
}

bool parse_point(std::string line, EmpiricalCdf::Point& point) {
  std::replace(line.begin(), line.end(), ',', ' ');
  std::istringstream in(line);
  std::string rest;
  return static_cast<bool>(in >> point.bytes >> point.cumulative) && !(in >> rest);
}

}  // namespace

EmpiricalCdf EmpiricalCdf::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw FileInputError(path, 0, "cannot open the flow-size distribution");
  std::vector<Point> points;
  std::vector<std::uint32_t> lines;
  std::string line;
  for (std::uint32_t number = 1; std::getline(in, line); ++number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Point p;
    if (!parse_point(line, p))
      throw FileInputError(path, number,
                           "expected `size_bytes cumulative_probability`, two numbers");
    points.push_back(p);
    lines.push_back(number);
  }
  std::size_t index = 0;
  const std::string problem = check_points(points, index);
  if (!problem.empty())
    throw FileInputError(path, index < lines.size() ? lines[index] : 0, problem);
  EmpiricalCdf cdf;
  cdf.points_ = std::move(points);
  return cdf;
}

EmpiricalCdf EmpiricalCdf::from_points(std::vector<Point> points, const std::string& at) {
  std::size_t index = 0;
  const std::string problem = check_points(points, index);
  if (!problem.empty()) throw InputError(fmt::format("{}[{}]", at, index), problem);
  EmpiricalCdf cdf;
  cdf.points_ = std::move(points);
  return cdf;
}

std::uint64_t EmpiricalCdf::size_at(double u) const {
  double bytes = points_.front().bytes;
  for (std::size_t i = 1; i < points_.size(); ++i) {
    const Point& lo = points_[i - 1];
    const Point& hi = points_[i];
    if (u >= hi.cumulative) continue;
    if (u >= lo.cumulative && hi.cumulative > lo.cumulative)
      bytes =
          lo.bytes + (u - lo.cumulative) / (hi.cumulative - lo.cumulative) * (hi.bytes - lo.bytes);
    break;
  }
  if (u >= points_.back().cumulative) bytes = points_.back().bytes;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(bytes)));
}

double EmpiricalCdf::cumulative_at(double bytes) const {
  if (bytes < points_.front().bytes) return 0;
  for (std::size_t i = 1; i < points_.size(); ++i) {
    const Point& lo = points_[i - 1];
    const Point& hi = points_[i];
    if (bytes >= hi.bytes) continue;
    return lo.cumulative +
           (bytes - lo.bytes) / (hi.bytes - lo.bytes) * (hi.cumulative - lo.cumulative);
  }
  return 1;
}

double EmpiricalCdf::mean_bytes() const {
  double mean = points_.front().bytes * points_.front().cumulative;
  for (std::size_t i = 1; i < points_.size(); ++i)
    mean += (points_[i - 1].bytes + points_[i].bytes) / 2 *
            (points_[i].cumulative - points_[i - 1].cumulative);
  return mean;
}

}  // namespace netwarp::netmodels
