// Checks shared by the fits that read LogGpsSamples: valid points, counts per segment.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "netwarp/validation/fit_samples.hpp"

namespace netwarp::validation::fit {

// Throws std::invalid_argument when s > S, W <= 0, a time is not finite and > 0, or a send
// point has k > S. `model` prefixes the message ("loggps fit").
void check_samples(const LogGpsSamples& samples, std::string_view model);

// Number of distinct sizes k among the points that satisfy `keep`.
std::size_t distinct_sizes(const std::vector<SizePoint>& points,
                           const std::function<bool(std::uint64_t)>& keep);

// Throws "<model>: too few points: <what> needs at least <need> sizes, got <got>".
void require_sizes(std::string_view model, std::string_view what, std::size_t got,
                   std::size_t need);

}  // namespace netwarp::validation::fit
