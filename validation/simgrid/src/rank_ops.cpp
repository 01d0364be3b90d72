// RankModel: what each operation does itself (its own overhead and action), and what it waits
// for; mirrors mpi-emul/src/rank/rank_ops.cpp.
#include "rank_model.hpp"

namespace netwarp::simgrid_check {

using mpiemul::Op;
using mpiemul::OpKind;

void RankModel::start_own_action(const Op& op) {
  const SimTime o = config_.costs.o;
  switch (op.kind) {
    case OpKind::compute:
      start_activity(Activity::compute, SimTime::from_ps(static_cast<SimTime::Rep>(op.bytes)));
      return;
    case OpKind::send: {
      const bool direct = config_.protocol.sender_side_matching && take_receive_request(op);
      Request& r = requests_[op.request];
      r.protocol = choose_protocol(op, direct);
      const bool long_message = op.bytes > config_.protocol.eager_bytes;
      SimTime cost = o;
      if (r.protocol != Protocol::rendezvous) cost = send_cost(op.bytes, long_message);
      if (r.protocol != Protocol::rendezvous && is_local(op)) cost = local_copy_cost(op.bytes);
      start_activity(Activity::own, cost);
      return;
    }
    case OpKind::recv:
      start_activity(Activity::own, op.blocking != 0 ? SimTime{} : o);
      return;
    case OpKind::wait:
      if (!op_complete(op)) {  // nothing of its own: it only waits
        op_started_ = true;
        return;
      }
      start_activity(Activity::own, o);
      return;
    case OpKind::test:
      start_activity(Activity::own, o);
      return;
  }
}

void RankModel::own_action_done(const Op& op) {
  switch (op.kind) {
    case OpKind::send: {
      const Request& r = requests_[op.request];
      if (r.protocol == Protocol::direct) {
        inject(static_cast<RankId>(op.peer), TransferKind::direct, op_,
               config_.protocol.envelope_bytes + op.bytes, r.target);
        requests_[op.request].complete = true;
      } else {
        send_envelope(op_,
                      r.protocol == Protocol::rendezvous ? TransferKind::rts : TransferKind::eager);
      }
      break;
    }
    case OpKind::recv:
      post_receive(op);
      break;
    default:
      finish_op();
      return;
  }
  if (op.blocking != 0) {
    op_started_ = true;
  } else {
    finish_op();
  }
}

bool RankModel::op_complete(const Op& op) const {
  switch (op.kind) {
    case OpKind::send:
    case OpKind::recv:
      return requests_[op.request].complete;
    case OpKind::wait:
    case OpKind::test:
      for (std::uint32_t i = 0; i < op.count; ++i)
        if (!requests_[program().wait_list[op.request + i]].complete) return false;
      return true;
    case OpKind::compute:
      return true;
  }
  return true;
}

RankModel::Protocol RankModel::choose_protocol(const Op& op, bool direct) const {
  if (direct) return Protocol::direct;
  const std::uint64_t eager_limit =
      is_local(op) ? config_.shm.eager_bytes : config_.protocol.eager_bytes;
  if (op.bytes > eager_limit) return Protocol::rendezvous;
  // A message larger than the whole eager credit toward one peer could never go eagerly.
  if (credit_share_ != 0 && op.bytes > credit_share_) return Protocol::rendezvous;
  return Protocol::eager;
}

// Sender-side matching: the first receive request from the destination that this send
// matches, unless envelopes to it are held back (a direct write must not overtake them).
bool RankModel::take_receive_request(const Op& op) {
  const auto peer = static_cast<RankId>(op.peer);
  if (auto held = held_.find(peer); held != held_.end() && !held->second.empty()) return false;
  auto found = receive_requests_.find(peer);
  if (found == receive_requests_.end()) return false;
  std::deque<ReceiveRequest>& requests = found->second;
  for (auto it = requests.begin(); it != requests.end(); ++it) {
    const Op& recv = peer_op(peer, it->recv_op);
    if (recv.comm != op.comm || (recv.tag != mpiemul::kAnyTag && recv.tag != op.tag)) continue;
    requests_[op.request].target = it->request;
    requests.erase(it);
    return true;
  }
  return false;
}

// A receive is posted: the oldest unexpected envelope that matches is its message; otherwise
// it waits in the posted queue (and, with sender-side matching, tells its source).
void RankModel::post_receive(const Op& op) {
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (!mpiemul::receive_matches(op, it->src, peer_op(it->src, it->send_op))) continue;
    const Envelope found = *it;
    unexpected_.erase(it);
    match_envelope(found.src, found.send_op, found.kind, op_, true);
    return;
  }
  posted_.push_back(op_);
  if (config_.protocol.sender_side_matching && op.peer != mpiemul::kAnySource)
    inject(static_cast<RankId>(op.peer), TransferKind::receive_request, op_,
           config_.protocol.envelope_bytes, op.request);
}

}  // namespace netwarp::simgrid_check
