// Otf2RankEvents: see otf2_rank_events.hpp.
#include "otf2_rank_events.hpp"

#include <fmt/format.h>

#include <limits>

#include "otf2_collectives.hpp"

namespace netwarp::mpiemul {

namespace {

std::int32_t checked_tag(std::uint32_t tag) {
  if (tag > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()))
    throw Otf2Unsupported(fmt::format("tag {} is beyond MPI's int range", tag));
  return static_cast<std::int32_t>(tag);
}

void set_key(proto::RequestKey& key, std::int32_t src, std::int32_t dst, std::int32_t tag) {
  key.set_src(src);
  key.set_dst(dst);
  key.set_tag(tag);
}

}  // namespace

Otf2RankEvents::Otf2RankEvents(const Otf2Definitions& definitions, std::uint32_t rank,
                               std::uint32_t ranks, proto::RankTrace& out)
    : definitions_(definitions), rank_(rank), ranks_(ranks), out_(out) {}

void Otf2RankEvents::advance(OTF2_TimeStamp time) {
  if (!started_) {
    started_ = true;
    outside_since_ = time;
  } else if (time < last_time_) {
    throw Otf2Unsupported(
        fmt::format("time goes backwards (tick {} after tick {})", time, last_time_));
  }
  last_time_ = time;
}

void Otf2RankEvents::add_gap(OTF2_TimeStamp until) {
  if (until <= outside_since_) return;
  const double ticks = static_cast<double>(until - outside_since_);
  add_action().mutable_sleep()->set_seconds(ticks /
                                            static_cast<double>(definitions_.timer_resolution));
}

proto::Action& Otf2RankEvents::add_action() {
  send_in_call_ = -1;
  return *out_.add_actions();
}

void Otf2RankEvents::enter(OTF2_TimeStamp time, OTF2_RegionRef region) {
  advance(time);
  const auto at = definitions_.region_is_mpi.find(region);
  if (at == definitions_.region_is_mpi.end())
    throw Otf2Unsupported(fmt::format("region {} has no definition", region));
  if (!at->second) return;
  if (mpi_depth_++ == 0) add_gap(time);
}

void Otf2RankEvents::leave(OTF2_TimeStamp time, OTF2_RegionRef region) {
  advance(time);
  const auto at = definitions_.region_is_mpi.find(region);
  if (at == definitions_.region_is_mpi.end() || !at->second) return;
  if (mpi_depth_ == 0) throw Otf2Unsupported("leaves an MPI region it never entered");
  if (--mpi_depth_ > 0) return;
  outside_since_ = time;
  send_in_call_ = -1;
}

void Otf2RankEvents::other(OTF2_TimeStamp time) {
  advance(time);
}

// An MPI record outside every MPI region is a call of its own, of no duration.
void Otf2RankEvents::mpi_record(OTF2_TimeStamp time) {
  advance(time);
  if (mpi_depth_ > 0) return;
  add_gap(time);
  outside_since_ = time;
}

Otf2RankEvents::Peer Otf2RankEvents::peer(std::uint32_t comm_rank, OTF2_CommRef comm) const {
  const Otf2CommInfo info = comm_info(definitions_, comm, ranks_);
  if (info.kind == CommKind::self) {
    if (comm_rank != 0)
      throw Otf2Unsupported(
          fmt::format("rank {} of MPI_COMM_SELF (it has rank 0 only)", comm_rank));
    const auto own = static_cast<std::int32_t>(rank_);
    return {own, own, 0};
  }
  const auto world = static_cast<std::int32_t>(info.world_rank(comm_rank));
  if (info.kind == CommKind::world) return {world, world, 0};
  return {static_cast<std::int32_t>(comm_rank), world, handle_of(comm, info)};
}

std::uint32_t Otf2RankEvents::handle_of(OTF2_CommRef comm, const Otf2CommInfo& info) const {
  if (info.kind != CommKind::sub) return 0;
  const auto at = handles_.find(comm);
  if (at != handles_.end()) return at->second;
  throw Otf2Unsupported(fmt::format(
      "communicator '{}' ({} of the {} ranks) is used before this rank made it (no creation on "
      "its parent that gives it this rank)",
      info.name, info.size(), ranks_));
}

void Otf2RankEvents::comm_create(OTF2_TimeStamp time, OTF2_CommRef comm) {
  mpi_record(time);
  announced_ = comm;
}

// The communicator this rank joins by its n-th creation call on `parent` (UNDEFINED: none);
// `creates` is false when the call makes no sub-communicator.
OTF2_CommRef Otf2RankEvents::joined_by_call(OTF2_CommRef parent, std::uint32_t n,
                                            bool& creates) const {
  if (announces_creations(definitions_, parent)) {
    creates = announced_ == OTF2_UNDEFINED_COMM ||
              comm_info(definitions_, announced_, ranks_).kind == CommKind::sub;
    return announced_;
  }
  creates = false;
  OTF2_CommRef joined = OTF2_UNDEFINED_COMM;
  for (const OTF2_CommRef made : created_by_call(definitions_, parent, n, ranks_)) {
    const Otf2CommInfo info = comm_info(definitions_, made, ranks_);
    if (info.kind == CommKind::sub) creates = true;
    if (info.rank_of(rank_) >= 0) joined = made;
  }
  return joined;
}

void Otf2RankEvents::create_communicators(OTF2_CommRef parent) {
  const std::uint32_t n = creations_on_[parent]++;
  bool creates = false;
  const OTF2_CommRef joined = joined_by_call(parent, n, creates);
  announced_ = OTF2_UNDEFINED_COMM;
  const Otf2CommInfo parent_info = comm_info(definitions_, parent, ranks_);
  if (!creates || parent_info.kind == CommKind::self) return;
  proto::CommSplit& split = *add_action().mutable_comm_split();
  split.set_parent(handle_of(parent, parent_info));
  split.set_color(-1);
  ++made_;
  if (joined == OTF2_UNDEFINED_COMM) return;
  const Otf2CommInfo info = comm_info(definitions_, joined, ranks_);
  if (joined > static_cast<OTF2_CommRef>(std::numeric_limits<std::int32_t>::max()))
    throw Otf2Unsupported(fmt::format("communicator id {} is beyond MPI's int range", joined));
  split.set_color(static_cast<std::int32_t>(joined));
  split.set_key(info.rank_of(rank_));
  handles_[joined] = made_;
}

void Otf2RankEvents::send(OTF2_TimeStamp time, std::uint32_t receiver, OTF2_CommRef comm,
                          std::uint32_t tag, std::uint64_t bytes) {
  mpi_record(time);
  proto::Send& send = *add_action().mutable_send();
  const Peer to = peer(receiver, comm);
  send.set_dst(to.rank);
  send.set_comm(to.handle);
  send.set_tag(checked_tag(tag));
  send.set_bytes(bytes);
  if (mpi_depth_ > 0) send_in_call_ = out_.actions_size() - 1;
}

void Otf2RankEvents::isend(OTF2_TimeStamp time, std::uint32_t receiver, OTF2_CommRef comm,
                           std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
  mpi_record(time);
  if (isends_.count(request) > 0 || irecvs_.count(request) > 0)
    throw Otf2Unsupported(fmt::format("request {} is started while still pending", request));
  proto::Send& isend = *add_action().mutable_isend();
  const Peer to = peer(receiver, comm);
  isend.set_dst(to.rank);
  isend.set_comm(to.handle);
  isend.set_tag(checked_tag(tag));
  isend.set_bytes(bytes);
  set_key(isends_[request], static_cast<std::int32_t>(rank_), to.world, isend.tag());
}

void Otf2RankEvents::isend_complete(OTF2_TimeStamp time, std::uint64_t request) {
  mpi_record(time);
  const auto at = isends_.find(request);
  if (at == isends_.end())
    throw Otf2Unsupported(fmt::format("request {} is no pending MpiIsend's", request));
  *add_action().mutable_wait()->mutable_request() = at->second;
  isends_.erase(at);
}

void Otf2RankEvents::irecv_request(OTF2_TimeStamp time, std::uint64_t request) {
  mpi_record(time);
  if (isends_.count(request) > 0 || irecvs_.count(request) > 0)
    throw Otf2Unsupported(fmt::format("request {} is started while still pending", request));
  irecvs_[request] = out_.actions_size();
  add_action().mutable_irecv();
}

void Otf2RankEvents::recv(OTF2_TimeStamp time, std::uint32_t sender, OTF2_CommRef comm,
                          std::uint32_t tag, std::uint64_t bytes) {
  mpi_record(time);
  const Peer from = peer(sender, comm);
  if (send_in_call_ >= 0) return pair_with_send(from, checked_tag(tag), bytes);
  proto::Recv& recv = *add_action().mutable_recv();
  recv.set_src(from.rank);
  recv.set_comm(from.handle);
  recv.set_tag(checked_tag(tag));
  recv.set_bytes(bytes);
}

// MPI_Sendrecv(_replace): Score-P writes its MpiSend and MpiRecv inside the one call. Replayed
// as a blocking send, then a blocking receive, two ranks exchanging rendezvous-size messages
// would both wait in their send forever; a sendrecv posts both at once, as MPI does.
void Otf2RankEvents::pair_with_send(const Peer& src, std::int32_t tag, std::uint64_t bytes) {
  proto::Action& action = *out_.mutable_actions(send_in_call_);
  const proto::Send send = action.send();
  if (send.comm() != src.handle)
    throw Otf2Unsupported(
        "the send and the receive of one MPI_Sendrecv are on different "
        "communicators");
  proto::SendRecv& sendrecv = *action.mutable_sendrecv();
  sendrecv.set_dst(send.dst());
  sendrecv.set_send_tag(send.tag());
  sendrecv.set_send_bytes(send.bytes());
  sendrecv.set_src(src.rank);
  sendrecv.set_recv_tag(tag);
  sendrecv.set_recv_bytes(bytes);
  sendrecv.set_comm(send.comm());
  send_in_call_ = -1;
}

void Otf2RankEvents::irecv(OTF2_TimeStamp time, std::uint32_t sender, OTF2_CommRef comm,
                           std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
  mpi_record(time);
  const auto at = irecvs_.find(request);
  if (at == irecvs_.end())
    throw Otf2Unsupported(fmt::format(
        "request {} has no MpiIrecvRequest (receives started before the trace began are not "
        "supported)",
        request));
  proto::Recv& irecv = *out_.mutable_actions(at->second)->mutable_irecv();
  const Peer from = peer(sender, comm);
  irecv.set_src(from.rank);
  irecv.set_comm(from.handle);
  irecv.set_tag(checked_tag(tag));
  irecv.set_bytes(bytes);
  irecvs_.erase(at);
  set_key(*add_action().mutable_wait()->mutable_request(), from.world,
          static_cast<std::int32_t>(rank_), irecv.tag());
}

void Otf2RankEvents::collective_end(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                    std::uint32_t root, std::uint64_t sent,
                                    std::uint64_t received) {
  mpi_record(time);
  if (op == OTF2_COLLECTIVE_OP_CREATE_HANDLE) return create_communicators(comm);
  // Freeing a communicator (MPI_Comm_free) sends nothing the replay models.
  if (op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE) return;
  const Otf2CommInfo info = comm_info(definitions_, comm, ranks_);
  if (info.kind == CommKind::self) return;  // one rank: nothing is communicated
  const std::uint32_t handle = handle_of(comm, info);
  if (root != OTF2_UNDEFINED_UINT32) info.world_rank(root);  // in range
  const std::int32_t comm_root =
      root == OTF2_UNDEFINED_UINT32 ? 0 : static_cast<std::int32_t>(root);
  const int index = out_.actions_size();
  proto::Action& action = add_action();
  Otf2CollectiveCall call = add_collective(action, op, comm_root, sent, received, info.size());
  set_collective_comm(action, handle);
  call.action = index;
  call.comm = comm;
  collectives_.push_back(call);
}

void Otf2RankEvents::finish() {
  if (!irecvs_.empty())
    throw Otf2Unsupported(fmt::format(
        "request {} (MpiIrecvRequest) never completes: no MpiIrecv tells its source and size",
        irecvs_.begin()->first));
  if (mpi_depth_ == 0) add_gap(last_time_);
}

}  // namespace netwarp::mpiemul
