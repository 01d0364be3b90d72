// CsvBuffer: the text of a CSV file built in one buffer and written out in large pieces, with
// numbers converted without a format string (a run writes hundreds of thousands of rows; per-row
// fmt::format strings and stream insertions cost more than the run's event loop).
//
//   CsvBuffer csv(out);
//   csv.number(s.time_ps).comma().text(name).comma().fixed6(utilisation).end_row();
#pragma once

#include <fmt/compile.h>
#include <fmt/format.h>

#include <charconv>
#include <concepts>
#include <cstring>
#include <iosfwd>
#include <iterator>
#include <memory>
#include <string_view>
#include <utility>

namespace netwarp::netmodels {

class CsvBuffer {
 public:
  explicit CsvBuffer(std::ostream& out);
  ~CsvBuffer() { flush(); }
  CsvBuffer(const CsvBuffer&) = delete;
  CsvBuffer& operator=(const CsvBuffer&) = delete;

  CsvBuffer& text(std::string_view s) {
    if (s.size() > kSize) return write_through(s);
    reserve(s.size());
    std::memcpy(end_, s.data(), s.size());
    end_ += s.size();
    return *this;
  }
  CsvBuffer& comma() {
    reserve(1);
    *end_++ = ',';
    return *this;
  }
  // As fmt's "{}" prints it (decimal, '-' when negative).
  template <std::integral T>
  CsvBuffer& number(T value) {
    reserve(kMaxDigits);
    end_ = std::to_chars(end_, end_ + kMaxDigits, value).ptr;
    return *this;
  }
  // As fmt's "{:.6f}" (and printf's "%.6f") prints it: exactly rounded, ties to even.
  CsvBuffer& fixed6(double value);
  void end_row() {
    reserve(1);
    *end_++ = '\n';
  }
  // `format` is FMT_COMPILE(...): parsed once, at compile time, not on every row.
  template <class Format, class... Args>
  void row(const Format& format, Args&&... args) {
    scratch_.clear();
    fmt::format_to(std::back_inserter(scratch_), format, std::forward<Args>(args)...);
    text(std::string_view(scratch_.data(), scratch_.size()));
  }
  void flush();

 private:
  static constexpr std::size_t kSize = std::size_t{1} << 20;  // written out when full
  static constexpr std::size_t kMaxDigits = 20;               // "-9223372036854775808"
  void reserve(std::size_t bytes) {
    if (static_cast<std::size_t>(limit_ - end_) < bytes) flush();
  }
  CsvBuffer& write_through(std::string_view s);

  std::ostream& out_;
  std::unique_ptr<char[]> data_;
  char* end_;
  char* limit_;
  fmt::memory_buffer scratch_;
};

}  // namespace netwarp::netmodels
