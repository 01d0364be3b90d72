// TitFileReader: trimmed, tokenised lines of a TIT file, comments and blank lines skipped.
#include "tit_file_reader.hpp"

#include <charconv>

#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

void split(std::string_view text, std::vector<std::string_view>& tokens) {
  tokens.clear();
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && is_blank(text[at])) ++at;
    const std::size_t start = at;
    while (at < text.size() && !is_blank(text[at])) ++at;
    if (at > start) tokens.push_back(text.substr(start, at - start));
  }
}

}  // namespace

TitFileReader::TitFileReader(const std::filesystem::path& path, std::string name)
    : in_(path, std::ios::binary), name_(std::move(name)) {
  if (!in_) throw TraceError(name_, 0, "cannot open the trace file");
}

const TitLine* TitFileReader::next() {
  while (std::getline(in_, text_)) {
    ++line_.number;
    split(text_, line_.tokens);
    if (!line_.tokens.empty() && !line_.tokens.front().starts_with('#')) return &line_;
  }
  if (in_.bad()) throw TraceError(name_, line_.number, "cannot read the trace file");
  return nullptr;
}

std::optional<std::int64_t> parse_integer(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-') token.remove_prefix(1);
  std::int64_t value = 0;
  const char* end = token.data() + token.size();
  const auto [stop, error] = std::from_chars(token.data(), end, value);
  if (token.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

}  // namespace netwarp::mpiemul
