// Command-line values with units, as `--set` reads them: sizes ("2GiB", "64KiB", "1500") and
// times ("200ms", "3.5us"). Each transformer rewrites the text into a plain number in the
// option's own unit before CLI11 converts it, so every size or time flag takes the same forms.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace netwarp::apps {

// A whole number of bytes, with an optional suffix k, M, G, T (10^3..) or Ki, Mi, Gi, Ti
// (2^10..), optionally followed by B.
CLI::Validator bytes_with_unit();

// A time as a real number with an optional unit ps, ns, us, ms or s; without one it is in
// `unit` (one of those), which is also the unit of the number the option receives.
CLI::Validator time_with_unit(const std::string& unit);

// The same conversion outside CLI11: "200ms" in "us" -> 200000; std::invalid_argument with the
// reason when `text` is not a time.
double parse_time_with_unit(const std::string& text, const std::string& unit);

// Bounds on a number, with a message that says what was expected ("must be greater than 0, got
// '0'") where CLI11's own checks print their range up to the largest double.
CLI::Validator positive_number();
CLI::Validator non_negative_number();

}  // namespace netwarp::apps
