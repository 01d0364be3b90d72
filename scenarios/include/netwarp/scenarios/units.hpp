// Quantities with units as `--set` and the command line read them: "128KiB" -> 131072.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace netwarp::scenarios {

// An unsigned integer with an optional unit suffix k, M, G, T (10^3..) or Ki, Mi, Gi, Ti
// (2^10..), optionally followed by B; nullopt if it is not one (or does not fit 64 bits).
std::optional<std::uint64_t> unsigned_with_unit(const std::string& text);

}  // namespace netwarp::scenarios
