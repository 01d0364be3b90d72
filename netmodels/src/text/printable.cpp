// printable(): escapes, then cuts.
#include "netwarp/netmodels/printable.hpp"

#include <fmt/format.h>

namespace netwarp::netmodels {

std::string printable(std::string_view text, std::size_t max_bytes) {
  std::string line;
  line.reserve(text.size() < max_bytes ? text.size() : max_bytes);
  std::size_t used = 0;  // bytes of `text` in `line`
  for (; used < text.size() && line.size() < max_bytes; ++used) {
    const char c = text[used];
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\r')
      line += "\\r";
    else if (c == '\n')
      line += "\\n";
    else if ((byte < 0x20 && c != '\t') || byte == 0x7f)
      line += fmt::format("\\x{:02x}", byte);
    else
      line += c;
  }
  if (used == text.size()) return line;
  // Back to the start of a UTF-8 character: no half character before the note.
  while (used > 0 && (static_cast<unsigned char>(text[used]) & 0xC0) == 0x80) {
    --used;
    line.pop_back();
  }
  return line + fmt::format("... ({} bytes in all)", text.size());
}

}  // namespace netwarp::netmodels
