// The isend/irecv requests of one rank that no wait has completed yet, in the order they were
// started, found the way SimGrid's replay finds them: by (src, dst, tag), oldest first
// ("wait SRC DST TAG"), or the latest one (a bare "wait" of older traces).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netwarp/mpiemul/proto/trace.pb.h"

namespace netwarp::mpiemul {

class PendingRequests {
 public:
  // An isend's key is (this rank, dst, tag), an irecv's (src, this rank, tag).
  void add(std::int32_t src, std::int32_t dst, std::int32_t tag, std::uint32_t request);
  // A non-blocking collective's handle (RankProgramBuilder): no key, found by
  // oldest_collective(), latest() or take_all().
  void add_collective(std::uint32_t handle);

  // The oldest request with exactly this key, else the oldest irecv posted with any source or
  // any tag that the key fits.
  std::optional<std::uint32_t> find(const proto::RequestKey& key) const;
  std::optional<std::uint32_t> latest() const;
  std::optional<std::uint32_t> oldest_collective() const;
  void remove(std::uint32_t request);
  std::vector<std::uint32_t> take_all();  // in start order

  bool empty() const { return pending_.empty(); }
  std::string describe() const;  // "(src 0, dst 1, tag 3), ...", for errors

 private:
  struct Pending {
    std::int32_t src = 0;
    std::int32_t dst = 0;
    std::int32_t tag = 0;
    std::uint32_t request = 0;
  };
  static constexpr std::int32_t kCollective = -2;  // src, dst and tag of a collective
  std::vector<Pending> pending_;
};

}  // namespace netwarp::mpiemul
