// Every string of a scenario must be valid UTF-8: names end up in results.json, CSV headers and
// file names, and a stray byte would otherwise surface only when the results are written.
#pragma once

#include <google/protobuf/message.h>

#include <cstddef>
#include <string_view>

namespace netwarp::scenarios {

// Offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629 section
// 4), or std::string_view::npos when `text` is valid.
std::size_t first_invalid_utf8(std::string_view text);
// Throws netmodels::InputError naming the first string field (dotted path, "[i]" for elements)
// that is not valid UTF-8.
void check_utf8_strings(const google::protobuf::Message& message);

}  // namespace netwarp::scenarios
