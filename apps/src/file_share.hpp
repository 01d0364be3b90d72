// Output files shared out over two threads: results.json's and a helper's.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace netwarp::apps {

// The rows a helper would write in a split made up front of the files between it and this
// thread, which writes results.json (`json_rows`, in CSV rows' worth) and the rest: the largest
// first, each to the side with fewer rows so far. Whether a helper is worth starting.
std::uint64_t helper_rows(const std::vector<std::uint64_t>& file_rows, std::uint64_t json_rows);

// The files in the order the threads that write them take them, the largest first, each to
// whichever thread is free first: a thread whose rows cost more than the rows counted (a time
// series row has more fields than a queue trace's) is not left behind by a split made up front.
class FileQueue {
 public:
  explicit FileQueue(const std::vector<std::uint64_t>& file_rows);
  // The next file's index, once only, on any thread; nothing once every file was taken or after
  // stop().
  std::optional<std::size_t> take();
  void stop() { next_.store(order_.size(), std::memory_order_relaxed); }

 private:
  std::vector<std::size_t> order_;
  std::atomic<std::size_t> next_{0};
};

}  // namespace netwarp::apps
