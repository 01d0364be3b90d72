// Householder QR with column pivoting (least_squares.hpp).
#include "least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace netwarp::validation::fit {

namespace {

using Real = long double;
using Matrix = std::vector<std::vector<Real>>;  // column-major: a[column][row]

constexpr Real kRankTolerance = 1e-10L;

Real column_norm(const std::vector<Real>& column, std::size_t from) {
  Real sum = 0;
  for (std::size_t r = from; r < column.size(); ++r) sum += column[r] * column[r];
  return std::sqrt(sum);
}

// Reflects column j and the right-hand side so that column j is zero below row j.
// Returns the new diagonal entry.
Real reflect(Matrix& a, std::vector<Real>& b, std::size_t j) {
  std::vector<Real>& col = a[j];
  const Real norm = column_norm(col, j);
  if (norm == 0) return 0;
  const Real alpha = col[j] > 0 ? -norm : norm;
  std::vector<Real> v(col.begin() + static_cast<std::ptrdiff_t>(j), col.end());
  v[0] -= alpha;
  const Real vv = std::inner_product(v.begin(), v.end(), v.begin(), Real{0});
  auto apply = [&](std::vector<Real>& target) {
    Real dot = 0;
    for (std::size_t i = 0; i < v.size(); ++i) dot += v[i] * target[j + i];
    const Real factor = 2 * dot / vv;
    for (std::size_t i = 0; i < v.size(); ++i) target[j + i] -= factor * v[i];
  };
  for (std::size_t c = j; c < a.size(); ++c) apply(a[c]);
  apply(b);
  return a[j][j];
}

// Columns of `rows`, each divided by its length (kept in `scale`; 1 for a zero column).
Matrix scaled_columns(const std::vector<std::vector<double>>& rows, std::vector<Real>& scale) {
  const std::size_t n = rows.front().size();
  Matrix a(n, std::vector<Real>(rows.size()));
  scale.assign(n, 1);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < n; ++c) a[c][r] = rows[r].at(c);
  for (std::size_t c = 0; c < n; ++c) {
    const Real norm = column_norm(a[c], 0);
    if (norm > 0) scale[c] = norm;
    for (Real& value : a[c]) value /= scale[c];
  }
  return a;
}

// Householder steps with column pivoting (the column with the most left below row j first);
// stops at the numerical rank, which it returns. `order` follows the column swaps.
std::size_t triangularise(Matrix& a, std::vector<Real>& b, std::vector<std::size_t>& order) {
  const std::size_t n = a.size();
  const std::size_t steps = std::min(n, b.size());
  Real largest = 0;
  for (std::size_t j = 0; j < steps; ++j) {
    std::size_t best = j;
    for (std::size_t c = j + 1; c < n; ++c)
      if (column_norm(a[c], j) > column_norm(a[best], j)) best = c;
    std::swap(a[j], a[best]);
    std::swap(order[j], order[best]);
    const Real diagonal = std::fabs(reflect(a, b, j));
    if (j == 0) largest = diagonal;
    if (diagonal == 0 || diagonal <= kRankTolerance * largest) return j;
  }
  return steps;
}

std::vector<Real> back_substitute(const Matrix& a, const std::vector<Real>& b) {
  const std::size_t n = a.size();
  std::vector<Real> x(n);
  for (std::size_t j = n; j-- > 0;) {
    Real sum = b[j];
    for (std::size_t c = j + 1; c < n; ++c) sum -= a[c][j] * x[c];
    x[j] = sum / a[j][j];
  }
  return x;
}

}  // namespace

LeastSquaresSolution solve_least_squares(const std::vector<std::vector<double>>& rows,
                                         const std::vector<double>& rhs) {
  if (rows.empty() || rows.size() != rhs.size())
    throw std::invalid_argument("least squares: need as many right-hand sides as rows, >= 1");
  std::vector<Real> scale;
  Matrix a = scaled_columns(rows, scale);
  std::vector<Real> b(rhs.begin(), rhs.end());
  std::vector<std::size_t> order(a.size());
  std::iota(order.begin(), order.end(), 0);

  LeastSquaresSolution solution;
  solution.rank = triangularise(a, b, order);
  for (std::size_t j = solution.rank; j < a.size(); ++j) solution.dependent.push_back(order[j]);
  if (solution.rank < a.size()) return solution;
  const std::vector<Real> x = back_substitute(a, b);
  solution.x.assign(a.size(), 0.0);
  for (std::size_t j = 0; j < a.size(); ++j)
    solution.x[order[j]] = static_cast<double>(x[j] / scale[order[j]]);
  return solution;
}

}  // namespace netwarp::validation::fit
