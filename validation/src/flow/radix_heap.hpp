// RadixHeap: a monotone min-priority queue on non-negative double keys (a radix heap over the
// keys' IEEE bit patterns, which order like the values). Valid when no key pushed is below the
// last key popped, as in progressive filling, whose levels only rise; a key a rounding error
// below it is raised to it. Push is O(1); a pop that empties bucket 0 redistributes the least
// non-empty bucket, each item moving down at most 64 times in all. Buckets keep their capacity.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace netwarp::validation::flow_detail {

template <class Item>
class RadixHeap {
 public:
  bool empty() const { return size_ == 0; }

  void clear() {
    for (auto& bucket : buckets_) bucket.clear();
    last_ = 0;
    size_ = 0;
  }

  void push(double key, const Item& item) {
    const std::uint64_t bits = std::max(std::bit_cast<std::uint64_t>(key), last_);
    buckets_[bucket_of(bits)].emplace_back(bits, item);
    ++size_;
  }

  // The least key and its item (ties in no particular order). Not on an empty heap.
  std::pair<double, Item> pop() {
    if (buckets_[0].empty()) refill_bucket_zero();
    const auto [bits, item] = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    return {std::bit_cast<double>(bits), item};
  }

 private:
  std::size_t bucket_of(std::uint64_t bits) const {
    return bits == last_ ? 0 : 64 - static_cast<std::size_t>(std::countl_zero(bits ^ last_));
  }

  void refill_bucket_zero() {
    std::size_t i = 1;
    while (buckets_[i].empty()) ++i;
    auto& bucket = buckets_[i];
    std::uint64_t least = bucket.front().first;
    for (const auto& entry : bucket) least = std::min(least, entry.first);
    last_ = least;
    for (const auto& entry : bucket) buckets_[bucket_of(entry.first)].push_back(entry);
    bucket.clear();
  }

  std::array<std::vector<std::pair<std::uint64_t, Item>>, 65> buckets_;
  std::uint64_t last_ = 0;  // the last key popped (bits)
  std::size_t size_ = 0;
};

}  // namespace netwarp::validation::flow_detail
