// What every fuzz target shares: the input as text or as a file (for loaders that take a path),
// and the one outcome a bad input may have besides success: a netmodels::InputError (its
// subclasses ScenarioError, TraceError, ParamsFileError), the one-line exit-2 errors of netwarp.
// Any other exception escapes the target, and libFuzzer reports it as a crash (as it does an
// NW_CHECK abort, a sanitizer report, a timeout or a run past -rss_limit_mb).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::fuzz {

inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}
inline std::string_view as_string_view(const std::uint8_t* data, std::size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// Writes `bytes` to `name` in this process's own temporary folder (made once, removed at exit)
// and returns its path; the next call with the same name overwrites it.
std::string write_input_file(const std::string& name, std::string_view bytes);

// Runs `load`; an InputError is the expected rejection of a bad input.
template <class Load>
void expect_success_or_input_error(Load&& load) {
  try {
    load();
  } catch (const netmodels::InputError&) {
  }
}

}  // namespace netwarp::fuzz
