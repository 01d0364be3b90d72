// Output files shared out over two threads: results.json's and a helper's.
#pragma once

#include <cstdint>
#include <vector>

namespace netwarp::apps {

// Which files a helper writes while this thread writes results.json (`json_rows`, in CSV rows'
// worth) and the rest: the largest first, each to the side with fewer rows so far.
struct FileShare {
  std::vector<bool> on_helper;  // by file
  std::uint64_t helper_rows = 0;
};
FileShare share_out(const std::vector<std::uint64_t>& file_rows, std::uint64_t json_rows);

}  // namespace netwarp::apps
