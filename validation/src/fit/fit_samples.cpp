// Residual rows of the parameter fits (fit_samples.hpp).
#include "netwarp/validation/fit_samples.hpp"

#include <algorithm>
#include <cmath>

namespace netwarp::validation {

void add_residual(FitReport& report, std::string series, std::uint64_t k, double measured_ns,
                  double model_ns) {
  const double error_pct = 100.0 * (model_ns - measured_ns) / measured_ns;
  report.residuals.push_back({std::move(series), k, measured_ns, model_ns, error_pct});
  report.max_abs_error_pct = std::max(report.max_abs_error_pct, std::fabs(error_pct));
}

}  // namespace netwarp::validation
