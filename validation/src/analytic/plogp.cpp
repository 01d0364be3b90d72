// PlogP tables (linear interpolation and extrapolation) and PlogP message times (plogp.hpp).
#include "netwarp/validation/plogp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace netwarp::validation {

Table::Table(std::vector<TablePoint> points) : points_(std::move(points)) {
  std::sort(points_.begin(), points_.end(),
            [](const TablePoint& a, const TablePoint& b) { return a.m < b.m; });
  for (std::size_t i = 1; i < points_.size(); ++i)
    if (points_[i].m == points_[i - 1].m)
      throw std::invalid_argument(fmt::format("table has two points at m = {}", points_[i].m));
}

double Table::at(std::uint64_t m) const {
  if (points_.empty()) throw std::invalid_argument("empty table");
  if (points_.size() == 1) return points_.front().value;
  // The segment holding m, or the first / last one when m lies outside.
  auto upper = std::upper_bound(points_.begin(), points_.end(), m,
                                [](std::uint64_t x, const TablePoint& p) { return x < p.m; });
  upper = std::clamp(upper, points_.begin() + 1, points_.end() - 1);
  const TablePoint& a = *(upper - 1);
  const TablePoint& b = *upper;
  const double slope = (b.value - a.value) / static_cast<double>(b.m - a.m);
  return a.value + slope * (static_cast<double>(m) - static_cast<double>(a.m));
}

double message_time(const PlogpParams& p, std::uint64_t m) {
  return p.L + p.g(m);
}
double send_time(const PlogpParams& p, std::uint64_t m) {
  return p.o_s(m);
}
double recv_time(const PlogpParams& p, std::uint64_t m) {
  return p.o_r(m);
}
double rtt(const PlogpParams& p, std::uint64_t m) {
  return 2.0 * message_time(p, m);
}
double back_to_back(const PlogpParams& p, std::uint64_t n, std::uint64_t m) {
  return static_cast<double>(n) * p.g(m) + p.L;
}

}  // namespace netwarp::validation
