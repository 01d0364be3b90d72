// Reversible state primitives. All mutable LP state is made of these; every write goes through
// the event context (ctx.set, ctx.add, ctx.push_back ...) and leaves an undo record, so models
// never write reverse handlers. Reads are plain. The sequential kernel logs nothing.
//
// An undo record holds the address of the field it restores, so a field must not move once the
// LP is built: keep primitives as direct members (or in containers sized at construction and
// never resized), never in a std::vector that grows during the run.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/state_visitor.hpp"
#include "netwarp/engine/undo_log.hpp"

namespace netwarp::engine {

// Permission to mutate, carrying the undo log (null: nothing to log). Only contexts make one.
class Mutation {
 public:
  UndoLog* log() const { return log_; }

 private:
  friend class EventCtx;
  explicit Mutation(UndoLog* log) : log_(log) {}
  UndoLog* log_;
};

template <class T>
class Rev {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  Rev() = default;
  explicit Rev(const T& initial) : value_(initial) {}
  const T& get() const { return value_; }
  operator const T&() const { return value_; }
  void visit_bytes(StateVisitor& v) const { visit_value(v, value_); }

  void set(const T& value, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&restore, this, value_);
    value_ = value;
  }

 private:
  static void restore(void* target, const std::byte* saved) {
    std::memcpy(&static_cast<Rev*>(target)->value_, saved, sizeof(T));
  }
  T value_{};
};

class RevCounter {
 public:
  RevCounter() = default;
  explicit RevCounter(std::int64_t initial) : value_(initial) {}
  std::int64_t get() const { return value_; }
  operator std::int64_t() const { return value_; }
  void visit_bytes(StateVisitor& v) const { v.bytes(&value_, sizeof value_); }

  void add(std::int64_t delta, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&subtract, this, delta);
    value_ += delta;
  }

 private:
  static void subtract(void* target, const std::byte* saved) {
    std::int64_t delta;
    std::memcpy(&delta, saved, sizeof delta);
    static_cast<RevCounter*>(target)->value_ -= delta;
  }
  std::int64_t value_ = 0;
};

// A FIFO (double-ended) queue of trivially copyable elements.
template <class T>
class RevFifo {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& front() const { return items_.front(); }
  const T& back() const { return items_.back(); }
  const T& operator[](std::size_t i) const { return items_[i]; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  void visit_bytes(StateVisitor& v) const {
    const std::uint64_t n = items_.size();
    v.bytes(&n, sizeof n);
    for (const T& item : items_) visit_value(v, item);
  }

  void push_back(const T& item, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&undo_push_back, this, Empty{});
    items_.push_back(item);
  }
  T pop_front(Mutation m) {
    NW_CHECK(!items_.empty(), "pop_front on an empty RevFifo");
    T item = items_.front();
    if (UndoLog* log = m.log()) log->push(&undo_pop_front, this, item);
    items_.pop_front();
    return item;
  }
  T pop_back(Mutation m) {
    NW_CHECK(!items_.empty(), "pop_back on an empty RevFifo");
    T item = items_.back();
    if (UndoLog* log = m.log()) log->push(&undo_pop_back, this, item);
    items_.pop_back();
    return item;
  }

 private:
  struct Empty {};
  static void undo_push_back(void* target, const std::byte*) {
    static_cast<RevFifo*>(target)->items_.pop_back();
  }
  static void undo_pop_front(void* target, const std::byte* saved) {
    T item;
    std::memcpy(&item, saved, sizeof(T));
    static_cast<RevFifo*>(target)->items_.push_front(item);
  }
  static void undo_pop_back(void* target, const std::byte* saved) {
    T item;
    std::memcpy(&item, saved, sizeof(T));
    static_cast<RevFifo*>(target)->items_.push_back(item);
  }
  std::deque<T> items_;
};

// A growable array: element writes, push_back and pop_back are reversible.
template <class T>
class RevVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  RevVector() = default;
  RevVector(std::size_t n, const T& value) : items_(n, value) {}
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& operator[](std::size_t i) const { return items_[i]; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  void visit_bytes(StateVisitor& v) const {
    const std::uint64_t n = items_.size();
    v.bytes(&n, sizeof n);
    for (const T& item : items_) visit_value(v, item);
  }

  void set(std::size_t i, const T& value, Mutation m) {
    NW_CHECK(i < items_.size(), "RevVector index {} out of {}", i, items_.size());
    if (UndoLog* log = m.log()) log->push(&undo_set, this, Slot{i, items_[i]});
    items_[i] = value;
  }
  void push_back(const T& item, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&undo_push_back, this, Empty{});
    items_.push_back(item);
  }
  T pop_back(Mutation m) {
    NW_CHECK(!items_.empty(), "pop_back on an empty RevVector");
    T item = items_.back();
    if (UndoLog* log = m.log()) log->push(&undo_pop_back, this, item);
    items_.pop_back();
    return item;
  }

 private:
  struct Empty {};
  struct Slot {
    std::size_t index;
    T value;
  };
  static void undo_set(void* target, const std::byte* saved) {
    Slot s;
    std::memcpy(&s, saved, sizeof s);
    static_cast<RevVector*>(target)->items_[s.index] = s.value;
  }
  static void undo_push_back(void* target, const std::byte*) {
    static_cast<RevVector*>(target)->items_.pop_back();
  }
  static void undo_pop_back(void* target, const std::byte* saved) {
    T item;
    std::memcpy(&item, saved, sizeof(T));
    static_cast<RevVector*>(target)->items_.push_back(item);
  }
  std::vector<T> items_;
};

// An ordered map; iteration order is the key order, so it may reach the output.
template <class K, class V>
class RevMap {
  static_assert(std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V>);

 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  bool contains(const K& k) const { return items_.contains(k); }
  const V* find(const K& k) const {
    auto it = items_.find(k);
    return it == items_.end() ? nullptr : &it->second;
  }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  void visit_bytes(StateVisitor& v) const {
    const std::uint64_t n = items_.size();
    v.bytes(&n, sizeof n);
    for (const auto& [k, value] : items_) {
      visit_value(v, k);
      visit_value(v, value);
    }
  }

  void put(const K& k, const V& value, Mutation m) {
    auto [it, inserted] = items_.try_emplace(k, value);
    if (UndoLog* log = m.log()) log->push(&undo_put, this, Entry{k, it->second, !inserted});
    if (!inserted) it->second = value;
  }
  bool erase(const K& k, Mutation m) {
    auto it = items_.find(k);
    if (it == items_.end()) return false;
    if (UndoLog* log = m.log()) log->push(&undo_erase, this, Entry{k, it->second, true});
    items_.erase(it);
    return true;
  }

 private:
  struct Entry {
    K key;
    V value;
    bool existed;
  };
  static void undo_put(void* target, const std::byte* saved) {
    Entry e;
    std::memcpy(&e, saved, sizeof e);
    auto& items = static_cast<RevMap*>(target)->items_;
    if (e.existed) {
      items[e.key] = e.value;
    } else {
      items.erase(e.key);
    }
  }
  static void undo_erase(void* target, const std::byte* saved) {
    Entry e;
    std::memcpy(&e, saved, sizeof e);
    static_cast<RevMap*>(target)->items_.emplace(e.key, e.value);
  }
  std::map<K, V> items_;
};

}  // namespace netwarp::engine
