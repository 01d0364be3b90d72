// Output files shared out over two threads.
#include "file_share.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace netwarp::apps {

FileShare share_out(const std::vector<std::uint64_t>& file_rows, std::uint64_t json_rows) {
  std::vector<std::size_t> largest_first(file_rows.size());
  std::iota(largest_first.begin(), largest_first.end(), std::size_t{0});
  std::stable_sort(largest_first.begin(), largest_first.end(),
                   [&](std::size_t a, std::size_t b) { return file_rows[a] > file_rows[b]; });
  FileShare share;
  share.on_helper.assign(file_rows.size(), false);
  std::uint64_t here = json_rows;
  for (const std::size_t i : largest_first) {
    share.on_helper[i] = share.helper_rows <= here;
    (share.on_helper[i] ? share.helper_rows : here) += file_rows[i];
  }
  return share;
}

FileQueue::FileQueue(const std::vector<std::uint64_t>& file_rows) : order_(file_rows.size()) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::stable_sort(order_.begin(), order_.end(),
                   [&](std::size_t a, std::size_t b) { return file_rows[a] > file_rows[b]; });
}

std::optional<std::size_t> FileQueue::take() {
  const std::size_t at = next_.fetch_add(1, std::memory_order_relaxed);
  if (at >= order_.size()) return std::nullopt;
  return order_[at];
}

}  // namespace netwarp::apps
