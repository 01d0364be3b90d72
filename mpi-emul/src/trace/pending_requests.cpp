// PendingRequests: a rank's outstanding nonblocking requests and their keys.
#include "pending_requests.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace netwarp::mpiemul {

void PendingRequests::add(std::int32_t src, std::int32_t dst, std::int32_t tag,
                          std::uint32_t request) {
  pending_.push_back(Pending{src, dst, tag, request});
}

std::optional<std::uint32_t> PendingRequests::find(const proto::RequestKey& key) const {
  const auto exact = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
    return p.src == key.src() && p.dst == key.dst() && p.tag == key.tag();
  });
  if (exact != pending_.end()) return exact->request;
  const auto wildcard = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
    return p.dst == key.dst() && (p.src == key.src() || p.src == -1) &&
           (p.tag == key.tag() || p.tag == -1);
  });
  if (wildcard != pending_.end()) return wildcard->request;
  return std::nullopt;
}

void PendingRequests::add_collective(std::uint32_t handle) {
  pending_.push_back(Pending{kCollective, kCollective, kCollective, handle});
}

std::optional<std::uint32_t> PendingRequests::oldest_collective() const {
  const auto it = std::find_if(pending_.begin(), pending_.end(),
                               [](const Pending& p) { return p.src == kCollective; });
  if (it == pending_.end()) return std::nullopt;
  return it->request;
}

std::optional<std::uint32_t> PendingRequests::latest() const {
  if (pending_.empty()) return std::nullopt;
  return pending_.back().request;
}

void PendingRequests::remove(std::uint32_t request) {
  std::erase_if(pending_, [&](const Pending& p) { return p.request == request; });
}

std::vector<std::uint32_t> PendingRequests::take_all() {
  std::vector<std::uint32_t> requests;
  requests.reserve(pending_.size());
  for (const Pending& p : pending_) requests.push_back(p.request);
  pending_.clear();
  return requests;
}

std::string PendingRequests::describe() const {
  std::string out;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (i == 4) return out + ", ...";
    const Pending& p = pending_[i];
    if (p.src == kCollective) {
      out += fmt::format("{}(a non-blocking collective)", i == 0 ? "" : ", ");
      continue;
    }
    out += fmt::format("{}(src {}, dst {}, tag {})", i == 0 ? "" : ", ", p.src, p.dst, p.tag);
  }
  return out;
}

}  // namespace netwarp::mpiemul
