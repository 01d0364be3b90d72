// ConnectionOrder: numbers transfers per (src, dst) connection and hands them up in that order,
// as the packet simulation's StreamTransport does. SimGrid shares bandwidth between concurrent
// communications, so a small transfer can finish before a larger one sent earlier on the same
// connection; it is held until every earlier transfer of the connection has arrived (MPI's
// non-overtaking rule needs nothing more).
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "transfer.hpp"

namespace netwarp::simgrid_check {

class ConnectionOrder {
 public:
  // Sets t.seq to the next number of its connection.
  void number(Transfer& t);
  // `t` has arrived: the transfers now deliverable, in connection order (possibly none).
  std::vector<Transfer> arrive(const Transfer& t);

 private:
  struct Receiving {
    std::uint64_t next = 0;
    std::map<std::uint64_t, Transfer> early;  // arrived before an earlier one
  };
  static std::uint64_t key(const Transfer& t) {
    return (std::uint64_t{t.src} << 32) | std::uint64_t{t.dst};
  }
  std::unordered_map<std::uint64_t, std::uint64_t> next_send_;
  std::unordered_map<std::uint64_t, Receiving> receiving_;
};

}  // namespace netwarp::simgrid_check
