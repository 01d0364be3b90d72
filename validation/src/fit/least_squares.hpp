// Dense linear least squares for the parameter fits: Householder QR with column pivoting in
// long double, columns scaled to unit length first, so that per-byte and per-message unknowns
// of very different sizes are treated alike and a rank deficiency is detected.
#pragma once

#include <cstddef>
#include <vector>

namespace netwarp::validation::fit {

struct LeastSquaresSolution {
  std::vector<double> x;  // empty when rank-deficient
  std::size_t rank = 0;
  std::vector<std::size_t> dependent;  // columns left out of the numerical rank
};

// Minimises || A x - b || for A given by rows (all of the same length, rows >= 1). A column
// counts as dependent when its pivot falls below 1e-10 of the largest one.
LeastSquaresSolution solve_least_squares(const std::vector<std::vector<double>>& rows,
                                         const std::vector<double>& rhs);

}  // namespace netwarp::validation::fit
