// CsvBuffer: the text of a CSV file built in one buffer and written out in large pieces, with
// numbers converted without a format string (a run writes hundreds of thousands of rows; per-row
// fmt::format strings and stream insertions cost more than the run's event loop).
//
//   CsvBuffer csv(out);
//   csv.number(s.time_ps).comma().text(name).comma().fixed6(utilisation).end_row();
#pragma once

#include <fmt/compile.h>
#include <fmt/format.h>

#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <iosfwd>
#include <iterator>
#include <memory>
#include <string_view>
#include <type_traits>
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
    copy_short(end_, s.data(), s.size());
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
  requires(!std::same_as<T, bool>) CsvBuffer& number(T value) {
    reserve(kMaxDigits);
    if constexpr (std::is_signed_v<T>) {
      if (value < 0) {
        *end_++ = '-';
        end_ = decimal(end_, std::uint64_t{0} - static_cast<std::uint64_t>(value));
        return *this;
      }
    }
    end_ = decimal(end_, static_cast<std::uint64_t>(value));
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
  // "00" to "99", two characters each.
  static constexpr char kDigitPairs[] =
      "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243"
      "4445464748495051525354555657585960616263646566676869707172737475767778798081828384858687"
      "888990919293949596979899";

  // The decimal digits of `value` at `at`, two at a time from the last; returns their end.
  static char* decimal(char* at, std::uint64_t value) {
    if (value < 10) {
      *at = static_cast<char>('0' + value);
      return at + 1;
    }
    char* const end = at + decimal_digits(value);
    char* p = end;
    for (; value >= 100; value /= 100) {
      p -= 2;
      std::memcpy(p, kDigitPairs + 2 * (value % 100), 2);
    }
    if (value >= 10)
      std::memcpy(p - 2, kDigitPairs + 2 * value, 2);
    else
      p[-1] = static_cast<char>('0' + value);
    return end;
  }
  static int decimal_digits(std::uint64_t value) {  // value >= 10
    static constexpr auto kPowersOf10 = [] {
      std::array<std::uint64_t, 20> powers{};
      std::uint64_t power = 1;
      for (std::uint64_t& p : powers) {
        p = power;
        power *= 10;  // past 10^19 it wraps (unsigned), unused
      }
      return powers;
    }();
    const int guess = (std::bit_width(value) * 1233) >> 12;  // 1233 / 4096: about log10(2)
    return guess + (value >= kPowersOf10[static_cast<std::size_t>(guess)] ? 1 : 0);
  }
  // memcpy inlined for a name's or a field's few bytes (two overlapping moves, never reading
  // past `from + size`): the library call cost more than the copy.
  static void copy_short(char* to, const char* from, std::size_t size) {
    if (size >= 8 && size <= 16) {
      std::uint64_t head = 0, tail = 0;
      std::memcpy(&head, from, 8);
      std::memcpy(&tail, from + size - 8, 8);
      std::memcpy(to, &head, 8);
      std::memcpy(to + size - 8, &tail, 8);
    } else if (size >= 4 && size < 8) {
      std::uint32_t head = 0, tail = 0;
      std::memcpy(&head, from, 4);
      std::memcpy(&tail, from + size - 4, 4);
      std::memcpy(to, &head, 4);
      std::memcpy(to + size - 4, &tail, 4);
    } else if (size < 4) {
      for (std::size_t i = 0; i < size; ++i) to[i] = from[i];
    } else {
      std::memcpy(to, from, size);
    }
  }
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
