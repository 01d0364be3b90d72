// The arguments of one TIT line (after its rank and action name), read left to right with the
// checks SimGrid's grammar implies. Every problem throws TraceError at the line, as
// "FILE:LINE: ACTION: message", with the action's usage where it helps.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tit_file_reader.hpp"

namespace netwarp::mpiemul {

class TitArgs {
 public:
  TitArgs(const std::string& file, const TitLine& line, std::uint32_t ranks,
          std::string_view action, std::string_view usage);

  std::size_t size() const { return args_.size(); }
  std::size_t left() const { return args_.size() - next_; }
  std::uint32_t ranks() const { return ranks_; }

  std::int32_t rank(std::string_view name);     // a rank of the trace
  std::int32_t source(std::string_view name);   // a rank, or -1 (any source)
  std::int32_t tag(std::string_view name);      // >= 0
  std::int32_t any_tag(std::string_view name);  // >= 0, or -1 (any tag)
  std::int32_t integer(std::string_view name);  // any int32
  std::string_view text(std::string_view name) { return take(name); }
  double amount(std::string_view name);  // a finite real >= 0 (flops, seconds)
  // A whole number of elements >= 0, written as SimGrid reads numbers ("1e6" is fine).
  std::uint64_t count(std::string_view name);
  // As count(), but a size <= 0 (SimGrid: "whatever the matched send carries") reads as 0.
  std::uint64_t recv_count(std::string_view name);
  std::vector<std::uint64_t> counts(std::string_view name, std::size_t n);
  // A SimGrid datatype id (MPI_DOUBLE is 0, MPI_BYTE is 6, ...): its size in bytes.
  std::uint64_t datatype(std::string_view name);
  std::uint64_t datatype_or(std::string_view name, std::uint64_t otherwise);

  std::uint64_t bytes(std::uint64_t count, std::uint64_t type_size) const;
  std::vector<std::uint64_t> bytes(std::span<const std::uint64_t> counts,
                                   std::uint64_t type_size) const;

  void skip(std::size_t n) { next_ = n < left() ? next_ + n : args_.size(); }
  void finish() const;  // throws when arguments are left over
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_usage(const std::string& message) const;

 private:
  std::string_view take(std::string_view name);
  std::int32_t checked_integer(std::string_view name, std::int64_t low);
  double real(std::string_view name);

  const std::string& file_;
  std::uint32_t line_;
  std::uint32_t ranks_;
  std::string_view action_;
  std::string_view usage_;
  std::span<const std::string_view> args_;
  std::size_t next_ = 0;
};

}  // namespace netwarp::mpiemul
