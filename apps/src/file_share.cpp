// Output files shared out over two threads.
#include "file_share.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace netwarp::apps {

namespace {

// The files' indices, the most rows first, equal ones in their order.
std::vector<std::size_t> largest_first(const std::vector<std::uint64_t>& file_rows) {
  std::vector<std::size_t> order(file_rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return file_rows[a] > file_rows[b]; });
  return order;
}

}  // namespace

std::uint64_t helper_rows(const std::vector<std::uint64_t>& file_rows, std::uint64_t json_rows) {
  std::uint64_t helper = 0;
  std::uint64_t here = json_rows;
  for (const std::size_t i : largest_first(file_rows))
    (helper <= here ? helper : here) += file_rows[i];
  return helper;
}

FileQueue::FileQueue(const std::vector<std::uint64_t>& file_rows)
    : order_(largest_first(file_rows)) {}

std::optional<std::size_t> FileQueue::take() {
  const std::size_t at = next_.fetch_add(1, std::memory_order_relaxed);
  if (at >= order_.size()) return std::nullopt;
  return order_[at];
}

}  // namespace netwarp::apps
