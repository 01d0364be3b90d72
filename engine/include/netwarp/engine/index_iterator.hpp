// IndexIterator<Sequence>: a forward iterator over a sequence that has operator[] (RingDeque,
// FrontInlineDeque): the sequence and a position.
#pragma once

#include <cstddef>
#include <iterator>

namespace netwarp::engine {

template <class Sequence>
class IndexIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = typename Sequence::value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = const value_type&;
  IndexIterator() = default;
  IndexIterator(const Sequence* sequence, std::size_t i) : sequence_(sequence), i_(i) {}
  reference operator*() const { return (*sequence_)[i_]; }
  pointer operator->() const { return &(*sequence_)[i_]; }
  IndexIterator& operator++() {
    ++i_;
    return *this;
  }
  IndexIterator operator++(int) {
    IndexIterator old = *this;
    ++i_;
    return old;
  }
  friend bool operator==(const IndexIterator& a, const IndexIterator& b) { return a.i_ == b.i_; }

 private:
  const Sequence* sequence_ = nullptr;
  std::size_t i_ = 0;
};

}  // namespace netwarp::engine
