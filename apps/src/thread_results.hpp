// ThreadResults: the records of partitions that are all threads of this process, handed to
// partition 0 in memory instead of through part files. Each partition leaves its sorted buffer
// and the stems of the runs it spilled to disk, then meets the others in a collective; partition
// 0 then reads every partition's records as one source, merged in rank order as the part files
// would have been (byte-identical outputs), and the part files are never written.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "netwarp/netmodels/network_results.hpp"
#include "netwarp/netmodels/results_source.hpp"

namespace netwarp::apps {

class ThreadResults {
 public:
  explicit ThreadResults(int partitions)
      : buffers_(static_cast<std::size_t>(partitions)),
        parts_(static_cast<std::size_t>(partitions)) {}

  // Partition `rank`'s records (each partition writes only its own entry, before the
  // collective that orders it before partition 0's reads).
  void leave(int rank, std::vector<std::string> stems, netmodels::NetworkResults sorted) {
    const auto r = static_cast<std::size_t>(rank);
    buffers_[r] = std::move(sorted);
    parts_[r] = {std::move(stems), &buffers_[r]};
  }
  // Every partition's records; they stay here, so the source lives no longer than this.
  std::unique_ptr<netmodels::ResultsSource> source() const {
    return std::make_unique<netmodels::ResultsSource>(parts_);
  }

 private:
  std::vector<netmodels::NetworkResults> buffers_;     // by rank
  std::vector<netmodels::ResultsSource::Part> parts_;  // by rank: spilled runs, then the buffer
};

}  // namespace netwarp::apps
