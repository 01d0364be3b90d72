// CsvBuffer: the text of a CSV file built in one buffer and written out in large pieces, with
// numbers converted without a format string (a run writes hundreds of thousands of rows; per-row
// fmt::format strings and stream insertions cost more than the run's event loop).
//
//   CsvBuffer csv(out);
//   csv.number(s.time_ps).comma().text(name).comma().fixed6(utilisation).end_row();
#pragma once

#include <fmt/compile.h>
#include <fmt/format.h>

#include <concepts>
#include <iosfwd>
#include <iterator>
#include <string_view>
#include <utility>

namespace netwarp::netmodels {

class CsvBuffer {
 public:
  explicit CsvBuffer(std::ostream& out) : out_(out) {}
  ~CsvBuffer() { flush(); }
  CsvBuffer(const CsvBuffer&) = delete;
  CsvBuffer& operator=(const CsvBuffer&) = delete;

  CsvBuffer& text(std::string_view s) {
    buffer_.append(s.data(), s.data() + s.size());
    return *this;
  }
  CsvBuffer& comma() {
    buffer_.push_back(',');
    return *this;
  }
  // As fmt's "{}" prints it (decimal, '-' when negative).
  template <std::integral T>
  CsvBuffer& number(T value) {
    const fmt::format_int digits(value);
    buffer_.append(digits.data(), digits.data() + digits.size());
    return *this;
  }
  // As fmt's "{:.6f}" (and printf's "%.6f") prints it: exactly rounded, ties to even.
  CsvBuffer& fixed6(double value);
  // A newline; writes the buffer out once it holds a megabyte.
  void end_row() {
    buffer_.push_back('\n');
    if (buffer_.size() > (1u << 20)) flush();
  }
  // `format` is FMT_COMPILE(...): parsed once, at compile time, not on every row.
  template <class Format, class... Args>
  void row(const Format& format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    if (buffer_.size() > (1u << 20)) flush();
  }
  void flush();

 private:
  std::ostream& out_;
  fmt::memory_buffer buffer_;
};

}  // namespace netwarp::netmodels
