// CsvBuffer's fixed-point numbers and its writes.
#include "netwarp/netmodels/csv_text.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>

namespace netwarp::netmodels {

namespace {

// `value` x 10^6 rounded to the nearest integer, ties to even, computed exactly from the
// double's binary form; false outside [1e-7, 2^32), which fmt then prints.
bool micro_units(double value, std::uint64_t& micro) {
  if (!(value >= 1e-7 && value < 4294967296.0)) return false;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const int biased_exponent = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t mantissa = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  const int shift = 1075 - biased_exponent;  // value = mantissa / 2^shift, 21 <= shift <= 77
  __extension__ using u128 = unsigned __int128;
  const u128 scaled = static_cast<u128>(mantissa) * 1000000u;
  u128 quotient = scaled >> shift;
  const u128 remainder = scaled - (quotient << shift);
  const u128 half = u128{1} << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1) != 0)) ++quotient;
  micro = static_cast<std::uint64_t>(quotient);
  return true;
}

}  // namespace

CsvBuffer& CsvBuffer::fixed6(double value) {
  if (value == 0 && !std::signbit(value)) return text("0.000000");
  std::uint64_t micro = 0;
  if (!micro_units(value, micro)) {
    row(FMT_COMPILE("{:.6f}"), value);
    return *this;
  }
  number(micro / 1000000);
  reserve(7);
  const std::uint64_t fraction = micro % 1000000;
  end_[0] = '.';
  std::memcpy(end_ + 1, kDigitPairs + 2 * (fraction / 10000), 2);
  std::memcpy(end_ + 3, kDigitPairs + 2 * (fraction / 100 % 100), 2);
  std::memcpy(end_ + 5, kDigitPairs + 2 * (fraction % 100), 2);
  end_ += 7;
  return *this;
}

CsvBuffer::CsvBuffer(std::ostream& out)
    : out_(out), data_(new char[kSize]), end_(data_.get()), limit_(data_.get() + kSize) {}

void CsvBuffer::flush() {
  out_.write(data_.get(), static_cast<std::streamsize>(end_ - data_.get()));
  end_ = data_.get();
}

CsvBuffer& CsvBuffer::write_through(std::string_view s) {
  flush();
  out_.write(s.data(), static_cast<std::streamsize>(s.size()));
  return *this;
}

}  // namespace netwarp::netmodels
