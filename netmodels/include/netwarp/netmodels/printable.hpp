// One printable line for a message that quotes user input: every error (InputError and its
// kinds, the apps' usage errors) and warning goes through printable(), so a NUL, a carriage
// return or a form feed in a trace, a CSV field or a file name can neither cut the line short
// nor break it, and a 100 KB input line is not echoed whole.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace netwarp::netmodels {

// Messages longer than this are cut (at a UTF-8 character boundary) and say how long they were.
inline constexpr std::size_t kMaxLineBytes = 1000;

// Control bytes (other than tab) as \r, \n or \xNN, DEL as \x7f; text past `max_bytes` replaced
// by "... (N bytes in all)". Idempotent: its output contains no byte it would change.
std::string printable(std::string_view text, std::size_t max_bytes = kMaxLineBytes);

}  // namespace netwarp::netmodels
