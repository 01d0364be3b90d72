// EmpiricalCdf: a flow-size distribution given by points (size in bytes, cumulative
// probability), piecewise linear in between, as the datacenter workloads of the transport
// literature are published (DCTCP's web search, VL2's data mining ...). Files hold one point a
// line, `size_bytes cumulative_probability` (whitespace or a comma between), '#' starts a
// comment; sizes and probabilities never decrease, the last probability is 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netwarp::netmodels {

class EmpiricalCdf {
 public:
  struct Point {
    double bytes = 0;
    double cumulative = 0;
  };
  // Throws FileInputError at the file and line of the first mistake.
  static EmpiricalCdf read(const std::string& path);
  // From points already checked (tests); throws InputError naming `at` if they are not valid.
  static EmpiricalCdf from_points(std::vector<Point> points, const std::string& at);

  // The size at cumulative probability u in [0, 1): the inverse of the piecewise-linear CDF
  // (a probability mass at the first point gives its size), at least 1 byte.
  std::uint64_t size_at(double u) const;
  // The cumulative probability at `bytes` (the CDF itself), for tests of what is drawn.
  double cumulative_at(double bytes) const;
  double mean_bytes() const;
  double max_bytes() const { return points_.back().bytes; }
  const std::vector<Point>& points() const { return points_; }

 private:
  std::vector<Point> points_;
};

}  // namespace netwarp::netmodels
