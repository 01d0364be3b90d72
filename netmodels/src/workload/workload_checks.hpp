// Shared validation and assembly steps of the workload generators (workload.hpp): range checks
// that throw InputError naming the field, and appending a message with id = its index.
#pragma once

#include <cstdint>
#include <string>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/workload.hpp"

namespace netwarp::netmodels::workload_detail {

// "must be in [lo, hi] for N hosts, got v" unless lo <= value <= hi.
inline void check_in_range(const std::string& field, std::uint64_t value, std::uint64_t lo,
                           std::uint64_t hi, std::uint32_t host_count) {
  if (value >= lo && value <= hi) return;
  throw InputError(field, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                              "] for " + std::to_string(host_count) + " hosts, got " +
                              std::to_string(value));
}

inline void check_host(const std::string& field, std::uint64_t host, std::uint32_t host_count) {
  if (host_count == 0) throw InputError(field, "there are no hosts");
  check_in_range(field, host, 0, host_count - 1, host_count);
}

inline void check_positive(const std::string& field, std::uint64_t value) {
  if (value == 0) throw InputError(field, "must be > 0, got 0");
}

// A message's size: 1 .. kMaxMessageBytes.
inline void check_message_bytes(const std::string& field, std::uint64_t bytes) {
  check_positive(field, bytes);
  if (bytes > kMaxMessageBytes)
    throw InputError(field, "must be at most " + std::to_string(kMaxMessageBytes) +
                                " bytes (2^63 - 1), got " + std::to_string(bytes));
}

// Workloads that pair distinct hosts need two of them; `at` names the whole workload.
inline void check_two_hosts(const std::string& at, std::uint32_t host_count) {
  if (host_count < 2) {
    throw InputError(at, "needs at least 2 hosts, got " + std::to_string(host_count));
  }
}

inline void add_message(Workload& w, NodeId src, NodeId dst, std::uint64_t bytes, SimTime start,
                        bool after_previous) {
  Message m;
  m.id = static_cast<MessageId>(w.messages.size());
  m.src = src;
  m.dst = dst;
  m.bytes = bytes;
  m.start = start;
  m.after_previous = after_previous;
  w.messages.push_back(m);
}

}  // namespace netwarp::netmodels::workload_detail
