// ConnectionOrder: sequence numbers per connection and the hold-back of early arrivals.
#include "connection_order.hpp"

namespace netwarp::simgrid_check {

void ConnectionOrder::number(Transfer& t) {
  t.seq = next_send_[key(t)]++;
}

std::vector<Transfer> ConnectionOrder::arrive(const Transfer& t) {
  Receiving& r = receiving_[key(t)];
  std::vector<Transfer> ready;
  if (t.seq != r.next) {
    r.early.emplace(t.seq, t);
    return ready;
  }
  ready.push_back(t);
  ++r.next;
  for (auto it = r.early.begin(); it != r.early.end() && it->first == r.next;
       it = r.early.erase(it)) {
    ready.push_back(it->second);
    ++r.next;
  }
  return ready;
}

}  // namespace netwarp::simgrid_check
