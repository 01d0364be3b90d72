// RowChannel: a ring of row batches between two threads.
#include "row_channel.hpp"

namespace netwarp::apps {

RowChannel::RowChannel(std::size_t batches, std::size_t rows_per_batch)
    : batches_(batches), rows_per_batch_(rows_per_batch) {
  for (Batch& batch : batches_) batch.rows.reserve(rows_per_batch_);
}

void RowChannel::put(const TableRow& row) {
  // batches_[write_] is the writer's alone: it is free once full_ < the ring's size.
  batches_[write_].rows.push_back(row);
  if (batches_[write_].rows.size() == rows_per_batch_) hand_over(false);
}

void RowChannel::hand_over(bool ends_table) {
  batches_[write_].ends_table = ends_table;
  std::unique_lock lock(mutex_);
  if (cancelled_) throw Cancelled{};
  ++full_;
  changed_.notify_all();
  write_ = (write_ + 1) % batches_.size();
  changed_.wait(lock, [&] { return cancelled_ || full_ < batches_.size(); });
  if (cancelled_) throw Cancelled{};
}

const RowChannel::Batch& RowChannel::wait_for_batch() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return cancelled_ || full_ > 0; });
  if (cancelled_) throw Cancelled{};
  return batches_[read_];
}

void RowChannel::release_batch() {
  Batch& batch = batches_[read_];
  batch.rows.clear();
  batch.ends_table = false;
  {
    const std::lock_guard lock(mutex_);
    read_ = (read_ + 1) % batches_.size();
    --full_;
  }
  changed_.notify_all();
}

void RowChannel::cancel() {
  {
    const std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  changed_.notify_all();
}

}  // namespace netwarp::apps
