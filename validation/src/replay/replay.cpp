// The replay of replay.hpp: ranks, messages and requests driven by one time-ordered event queue.
#include "netwarp/validation/replay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <stdexcept>

namespace netwarp::validation {
namespace {

using mpiemul::Op;
using mpiemul::OpKind;
using mpiemul::RankId;

enum class Part : std::uint8_t { overhead, send_wait, recv_wait, sync };

// Where a request's time went, as consecutive segments from its start: (segment end, part).
struct Profile {
  double start = 0;
  std::vector<std::pair<double, Part>> segments;
  void add(double end, Part part) {
    const double from = segments.empty() ? start : segments.back().first;
    if (end > from) segments.emplace_back(end, part);
  }
  double end() const { return segments.empty() ? start : segments.back().first; }
};

void add_part(TimeSplit& split, Part part, double amount) {
  switch (part) {
    case Part::overhead:
      split.overhead += amount;
      break;
    case Part::send_wait:
      split.send_wait += amount;
      break;
    case Part::recv_wait:
      split.recv_wait += amount;
      break;
    case Part::sync:
      split.sync += amount;
      break;
  }
}

// Adds the part of `profile` inside [from, to] to `split`.
void add_clipped(TimeSplit& split, const Profile& profile, double from, double to) {
  double seg_start = profile.start;
  for (const auto& [seg_end, part] : profile.segments) {
    const double overlap = std::min(seg_end, to) - std::max(seg_start, from);
    if (overlap > 0) add_part(split, part, overlap);
    seg_start = seg_end;
  }
}

struct Request {
  bool done = false;
  Profile profile;
};

struct Message {
  RankId src = 0;
  RankId dst = 0;
  std::int32_t tag = 0;
  std::uint16_t comm = 0;
  std::uint64_t bytes = 0;
  std::uint32_t send_request = 0;
  std::uint32_t recv_request = 0;
  std::uint32_t send_op = 0;
  std::uint32_t recv_op = 0;
  double matched_at = 0;  // MessagePrediction::matched_ns
  bool rendezvous = false;
  bool local = false;  // both ranks on one host: the intra-node path
  bool matched = false;
  bool arrived = false;
  double ts = 0;
  double tr = 0;
  double req_arrival = 0;  // rendezvous: REQ at the receiver
  bool req_sent = false;   // rendezvous: req_arrival is known (the REQ left the host)
  double inject = 0;       // data leaves the sender
  double arrival = 0;      // data at the receiver
  MessageCosts costs;
  std::uint32_t sharers_at_send = 1;  // when the sender pays for the data (T1, T1')
};

struct PostedRecv {
  std::int32_t src = 0;
  std::int32_t tag = 0;
  std::uint16_t comm = 0;
  std::uint32_t request = 0;
  double tr = 0;
  std::uint32_t op = 0;
};

enum class RankState : std::uint8_t { running, blocked, finished };

struct Rank {
  std::uint32_t pc = 0;
  double now = 0;
  RankState state = RankState::running;
  std::vector<Request> requests;
  TimeSplit split;
  // While blocked: the operation's start and the requests it waits for.
  double block_start = 0;
  std::vector<std::uint32_t> waiting;
  bool waiting_is_wait_op = false;
  std::vector<std::uint64_t> unmatched_sends;  // messages to this rank, in send order
  std::vector<PostedRecv> posted;              // receives not yet matched, in post order
  // The call in progress: its index, start and the rank's split when it started.
  std::uint32_t call = 0;
  bool in_call = false;
  double call_start = 0;
  TimeSplit split_at_call_start;
};

enum class EventKind : std::uint8_t { step, inject, launch, arrive, request_done, request, answer };

struct Event {
  double time = 0;
  std::uint64_t seq = 0;
  EventKind kind = EventKind::step;
  std::uint64_t a = 0;  // rank or message
  std::uint32_t b = 0;  // request
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

bool fits(const PostedRecv& r, const Message& m) {
  return mpiemul::receive_matches(r.src, r.tag, r.comm, m.src, m.tag, m.comm);
}

class Replay {
 public:
  Replay(const mpiemul::Program& program, const ReplayModel& model, ReplayNetwork* network,
         const ReplayLayout& layout)
      : program_(program),
        model_(model),
        network_(network),
        intra_(layout.intra),
        hosts_(rank_hosts(layout, program.size())),
        ranks_(program.size()),
        rank_free_(program.size(), 0.0),
        nic_free_(host_count(hosts_), 0.0),
        nic_queue_(host_count(hosts_), 0.0),
        inflight_to_(host_count(hosts_), 0),
        inflight_from_(host_count(hosts_), 0) {
    for (RankId r = 0; r < program.size(); ++r) {
      ranks_[r].requests.resize(program.ranks[r].request_count);
      schedule(0, EventKind::step, r);
    }
  }

  Prediction run() {
    while (true) {
      const double net_next = network_ ? network_->next_completion_ns() : INFINITY;
      const double queue_next = queue_.empty() ? INFINITY : queue_.top().time;
      if (!launching_.empty() && std::min(net_next, queue_next) > launch_time_) {
        launch_all();
        continue;
      }
      if (queue_.empty() && !std::isfinite(net_next)) break;
      if (std::isfinite(net_next) && (queue_.empty() || net_next < queue_.top().time)) {
        for (std::uint64_t id : network_->advance(net_next)) {
          const Message& m = messages_[id];
          schedule(net_next + network_->arrival_delay_ns(m.src, m.dst), EventKind::arrive, id);
        }
        continue;
      }
      const Event e = queue_.top();
      queue_.pop();
      handle(e);
    }
    return finish();
  }

 private:
  static std::vector<std::uint32_t> rank_hosts(const ReplayLayout& layout, std::size_t ranks) {
    if (layout.rank_hosts.empty()) {
      std::vector<std::uint32_t> own(ranks);
      for (std::uint32_t r = 0; r < ranks; ++r) own[r] = r;
      return own;
    }
    if (layout.rank_hosts.size() < ranks)
      throw std::invalid_argument(fmt::format("replay layout: {} rank hosts for {} ranks",
                                              layout.rank_hosts.size(), ranks));
    return layout.rank_hosts;
  }
  static std::size_t host_count(const std::vector<std::uint32_t>& hosts) {
    return hosts.empty() ? 0 : *std::max_element(hosts.begin(), hosts.end()) + std::size_t{1};
  }
  bool is_local(RankId a, RankId b) const { return intra_ && hosts_[a] == hosts_[b]; }

  // The shared NIC: the network messages in flight through the receiver's or the sender's
  // host, whichever is busier, plus this one. Those of the same pair do not count: MPI keeps
  // one pair's messages in order on one stream (the packet simulation's connection), so they
  // go before this one rather than beside it.
  std::uint32_t nic_sharers(RankId src, RankId dst) const {
    const auto pair = inflight_pair_.find({src, dst});
    const std::uint32_t same = pair == inflight_pair_.end() ? 0 : pair->second;
    return std::max(inflight_to_[hosts_[dst]], inflight_from_[hosts_[src]]) - same + 1;
  }

  void schedule(double time, EventKind kind, std::uint64_t a, std::uint32_t b = 0) {
    queue_.push(Event{time, seq_++, kind, a, b});
  }

  void handle(const Event& e) {
    switch (e.kind) {
      case EventKind::step:
        step(static_cast<RankId>(e.a), e.time);
        break;
      case EventKind::inject:
        inject(e.a, e.time);
        break;
      case EventKind::launch:
        launch(e.a, e.time);
        break;
      case EventKind::arrive:
        arrive(e.a, e.time);
        break;
      case EventKind::request_done:
        request_done(static_cast<RankId>(e.a), e.b, e.time);
        break;
      case EventKind::request:
        request(e.a, e.time);
        break;
      case EventKind::answer:
        answer(e.a, e.time);
        break;
    }
  }

  static TimeSplit minus(const TimeSplit& a, const TimeSplit& b) {
    return {a.compute - b.compute, a.overhead - b.overhead, a.send_wait - b.send_wait,
            a.recv_wait - b.recv_wait, a.sync - b.sync};
  }

  // Closes the calls that end at operation pc (the previous operations all finished at t) and
  // opens the ones that start there; calls without operations open and close at t.
  void track_calls(RankId r, double t) {
    Rank& rank = ranks_[r];
    const auto& calls = program_.ranks[r].calls;
    while (rank.call < calls.size()) {
      const mpiemul::Call& c = calls[rank.call];
      if (!rank.in_call) {
        if (rank.pc != c.first_op) return;
        rank.in_call = true;
        rank.call_start = t;
        rank.split_at_call_start = rank.split;
      }
      if (rank.pc != c.first_op + c.op_count) return;
      calls_.push_back(
          {r, rank.call, rank.call_start, t, minus(rank.split, rank.split_at_call_start)});
      rank.in_call = false;
      ++rank.call;
    }
  }

  // Executes rank r's operations from time t until it blocks or reschedules itself.
  void step(RankId r, double t) {
    Rank& rank = ranks_[r];
    rank.now = t;
    track_calls(r, t);
    const auto& ops = program_.ranks[r].ops;
    if (rank.pc >= ops.size()) {
      rank.state = RankState::finished;
      return;
    }
    const Op& op = ops[rank.pc++];
    switch (op.kind) {
      case OpKind::compute: {
        const double d = static_cast<double>(op.bytes) * 1e-3;  // ps -> ns
        rank.split.compute += d;
        schedule(t + d, EventKind::step, r);
        return;
      }
      case OpKind::send:
        return post_send(r, op, t);
      case OpKind::recv:
        return post_recv(r, op, t);
      case OpKind::wait:
        return start_wait(r, op, t);
      case OpKind::test: {
        rank.split.overhead += model_.control_overhead();
        schedule(t + model_.control_overhead(), EventKind::step, r);
        return;
      }
    }
  }

  // A blocking operation waits for its request; a non-blocking one costs o'.
  void after_post(RankId r, const Op& op, double t) {
    Rank& rank = ranks_[r];
    if (op.blocking) {
      block(r, t, {op.request}, false);
      return;
    }
    const double o = model_.control_overhead();
    rank.split.overhead += o;
    schedule(t + o, EventKind::step, r);
  }

  void post_send(RankId r, const Op& op, double t) {
    const auto dst = static_cast<RankId>(op.peer);
    Message m;
    m.src = r;
    m.dst = dst;
    m.tag = op.tag;
    m.comm = op.comm;
    m.bytes = op.bytes;
    m.send_request = op.request;
    m.send_op = ranks_[r].pc - 1;
    m.ts = t;
    const std::uint64_t id = messages_.size();
    Profile& profile = ranks_[r].requests[op.request].profile;
    profile.start = t;
    if (is_local(r, dst))
      start_local_send(m, id, profile);
    else
      start_network_send(m, id, profile);
    if (m.rendezvous) ++rendezvous_count_;
    messages_.push_back(m);
    Rank& receiver = ranks_[dst];
    auto it = std::find_if(receiver.posted.begin(), receiver.posted.end(),
                           [&](const PostedRecv& p) { return fits(p, messages_[id]); });
    if (it != receiver.posted.end()) {
      const PostedRecv p = *it;
      receiver.posted.erase(it);
      match(id, p.request, p.tr, p.op);
    } else {
      receiver.unmatched_sends.push_back(id);
    }
    after_post(r, op, t);
  }

  void start_network_send(Message& m, std::uint64_t id, Profile& profile) {
    const double t = m.ts;
    m.rendezvous = m.bytes > model_.eager_limit();
    m.sharers_at_send = nic_sharers(m.src, m.dst);
    m.costs = model_.costs(m.bytes, m.sharers_at_send);
    if (m.rendezvous) {
      const double o = model_.control_overhead();
      profile.add(t + o, Part::overhead);
      schedule(t + o, EventKind::request, id);
      return;
    }
    const double local_done = t + m.costs.send_overhead;
    profile.add(local_done, Part::overhead);
    schedule(local_done, EventKind::request_done, m.src, m.send_request);
    schedule(local_done, EventKind::inject, id);
  }

  // Intra-node (IntraNodeParams): eager copies through the shared buffer, or a request the
  // receiver answers with one copy; neither touches the NIC.
  void start_local_send(Message& m, std::uint64_t id, Profile& profile) {
    const IntraNodeParams& p = *intra_;
    const double t = m.ts;
    m.local = true;
    m.rendezvous = m.bytes > p.eager_bytes;
    if (m.rendezvous) {
      m.req_arrival = t + p.o + p.latency;
      m.req_sent = true;
      profile.add(t + p.o, Part::overhead);
      profile.add(m.req_arrival, Part::sync);
      return;
    }
    const double copy = p.o + static_cast<double>(m.bytes) * p.copy;
    m.costs.send_overhead = copy;
    m.costs.recv_overhead = copy;
    m.costs.wire = p.latency;
    const double local_done = t + copy;
    profile.add(local_done, Part::overhead);
    schedule(local_done, EventKind::request_done, m.src, m.send_request);
    schedule(local_done + p.latency, EventKind::arrive, id);
  }

  // The receiver copies the data straight from the sender's buffer, then sends the FIN.
  void start_single_copy(std::uint64_t id) {
    const IntraNodeParams& p = *intra_;
    const Message& m = messages_[id];
    const double matched = std::max(m.req_arrival, m.tr);
    const double copied =
        matched + p.o + p.single_copy_setup + static_cast<double>(m.bytes) * p.single_copy;
    const double fin = copied + p.latency;
    Profile& send = ranks_[m.src].requests[m.send_request].profile;
    send.add(matched, Part::send_wait);
    send.add(fin, Part::sync);
    send.add(fin + p.o, Part::overhead);
    Profile& recv = ranks_[m.dst].requests[m.recv_request].profile;
    recv.add(matched, Part::recv_wait);
    recv.add(copied, Part::overhead);
    schedule(copied, EventKind::request_done, m.dst, m.recv_request);
    schedule(fin + p.o, EventKind::request_done, m.src, m.send_request);
  }

  void post_recv(RankId r, const Op& op, double t) {
    Rank& rank = ranks_[r];
    rank.requests[op.request].profile.start = t;
    const PostedRecv p{op.peer, op.tag, op.comm, op.request, t, rank.pc - 1};
    auto it = std::find_if(rank.unmatched_sends.begin(), rank.unmatched_sends.end(),
                           [&](std::uint64_t id) { return fits(p, messages_[id]); });
    if (it != rank.unmatched_sends.end()) {
      const std::uint64_t id = *it;
      rank.unmatched_sends.erase(it);
      match(id, op.request, t, p.op);
    } else {
      rank.posted.push_back(p);
    }
    after_post(r, op, t);
  }

  void match(std::uint64_t id, std::uint32_t recv_request, double tr, std::uint32_t recv_op) {
    Message& m = messages_[id];
    m.matched = true;
    m.recv_request = recv_request;
    m.recv_op = recv_op;
    m.tr = tr;
    // An eager message not yet in is matched when it arrives (arrive()), a rendezvous one
    // whose REQ has not left yet when it does (request()).
    if (!m.rendezvous && m.arrived) m.matched_at = std::max(m.arrival, tr);
    if (m.rendezvous && m.req_sent) start_handshake(id);
    if (!m.rendezvous && m.arrived) complete_recv(id);
  }

  void start_handshake(std::uint64_t id) {
    Message& m = messages_[id];
    m.matched_at = std::max(m.req_arrival, m.tr);
    return m.local ? start_single_copy(id) : start_rendezvous_data(id);
  }

  // The REQ, ready at t, leaves the sender's host behind the data queued on its NIC.
  void request(std::uint64_t id, double t) {
    Message& m = messages_[id];
    m.req_arrival = control_sent(m.src, t) + model_.latency();
    m.req_sent = true;
    ranks_[m.src].requests[m.send_request].profile.add(m.req_arrival, Part::sync);
    if (m.matched) start_handshake(id);
  }

  // A control message from rank r's host, ready at t, leaves once the NIC has sent the data
  // queued on it before (nic_queue_).
  double control_sent(RankId r, double t) const { return std::max(t, nic_queue_[hosts_[r]]); }

  // The receive is posted: the receiver handles the REQ (o') and sends its answer (o'), which
  // leaves its host in answer().
  void start_rendezvous_data(std::uint64_t id) {
    const Message& m = messages_[id];
    const double o = model_.control_overhead();
    const double matched = std::max(m.req_arrival, m.tr);
    ranks_[m.src].requests[m.send_request].profile.add(matched, Part::send_wait);
    Profile& recv = ranks_[m.dst].requests[m.recv_request].profile;
    recv.add(matched, Part::recv_wait);
    recv.add(matched + o, Part::overhead);
    schedule(matched + 2 * o, EventKind::answer, id);
  }

  // The answer leaves the receiver's host (T5's o' + L + o' once it is out); the sender then
  // pays the data overhead (T1') and the data enters the network.
  void answer(std::uint64_t id, double t) {
    Message& m = messages_[id];
    const double answered = control_sent(m.dst, t) + model_.latency() + model_.control_overhead();
    // The data is sent now, not when the send was posted: it shares with what is in flight now.
    m.sharers_at_send = nic_sharers(m.src, m.dst);
    m.costs = model_.costs(m.bytes, m.sharers_at_send);
    const double inject_at = answered + m.costs.send_overhead;
    Profile& send = ranks_[m.src].requests[m.send_request].profile;
    send.add(answered, Part::sync);
    send.add(inject_at, Part::overhead);
    ranks_[m.dst].requests[m.recv_request].profile.add(inject_at, Part::sync);
    schedule(inject_at, EventKind::request_done, m.src, m.send_request);
    schedule(inject_at, EventKind::inject, id);
  }

  void inject(std::uint64_t id, double t) {
    Message& m = messages_[id];
    const std::uint32_t host = hosts_[m.src];
    m.inject = std::max({t, rank_free_[m.src], nic_free_[host]});
    rank_free_[m.src] = m.inject + m.costs.gap;
    nic_free_[host] = m.inject + m.costs.nic;
    if (m.inject > t) return schedule(m.inject, EventKind::launch, id);
    launch(id, t);
  }

  // The data enters the network. Its wire time waits until every message entering at the same
  // instant is counted (launch_all), so that messages sent together share the NIC alike
  // whatever the order their events ran in.
  void launch(std::uint64_t id, double t) {
    const Message& m = messages_[id];
    // A network shares its links as it goes: the NIC has sent the bytes put on it once it has
    // had their time at its rate, in order. Without one, launch_all knows when they leave.
    if (network_) {
      double& queue = nic_queue_[hosts_[m.src]];
      queue = std::max(queue, t) + network_->serialization_ns(m.src, m.bytes);
    }
    ++inflight_to_[hosts_[m.dst]];
    ++inflight_from_[hosts_[m.src]];
    ++inflight_pair_[{m.src, m.dst}];
    launch_time_ = t;
    launching_.push_back(id);
  }

  // A message shares the NIC with the messages in flight when it is sent (an eager one when
  // its send is posted, a rendezvous one when the answer comes back: its data is not on the
  // network before) and with those in flight when its data enters the network, counting the
  // ones entering at the same instant: ranks of one host that send together share whatever the
  // collective algorithm. The larger count is taken. The sender's overhead, already paid,
  // keeps the count at the send.
  void launch_all() {
    for (const std::uint64_t id : launching_) {
      Message& m = messages_[id];
      const MessageCosts now =
          model_.costs(m.bytes, std::max(m.sharers_at_send, nic_sharers(m.src, m.dst)));
      m.costs.wire = now.wire;
      m.costs.recv_overhead = now.recv_overhead;
      // Its last byte leaves the NIC a latency before it arrives.
      double& queue = nic_queue_[hosts_[m.src]];
      if (!network_) queue = std::max(queue, m.inject + m.costs.wire - model_.latency());
      if (network_)
        network_->start(id, m.src, m.dst, m.bytes, m.inject);
      else
        schedule(m.inject + m.costs.wire, EventKind::arrive, id);
    }
    launching_.clear();
  }

  void arrive(std::uint64_t id, double t) {
    Message& m = messages_[id];
    m.arrived = true;
    m.arrival = t;
    if (m.matched && !m.rendezvous) m.matched_at = t;
    if (!m.local) {
      --inflight_to_[hosts_[m.dst]];
      --inflight_from_[hosts_[m.src]];
      --inflight_pair_[{m.src, m.dst}];
    }
    if (m.matched) complete_recv(id);
  }

  void complete_recv(std::uint64_t id) {
    const Message& m = messages_[id];
    Profile& recv = ranks_[m.dst].requests[m.recv_request].profile;
    // As the packet simulation counts it: a rendezvous receive waits in its handshake (sync)
    // until the data is in; an eager one waits for the data (receive wait).
    recv.add(m.arrival, m.rendezvous ? Part::sync : Part::recv_wait);
    const double done = std::max(m.arrival, m.tr) + m.costs.recv_overhead;
    recv.add(done, m.costs.recv_time_is_wait ? Part::recv_wait : Part::overhead);
    schedule(done, EventKind::request_done, m.dst, m.recv_request);
  }

  void start_wait(RankId r, const Op& op, double t) {
    const auto& list = program_.ranks[r].wait_list;
    std::vector<std::uint32_t> requests(list.begin() + op.request,
                                        list.begin() + op.request + op.count);
    block(r, t, std::move(requests), true);
  }

  void block(RankId r, double t, std::vector<std::uint32_t> requests, bool is_wait_op) {
    Rank& rank = ranks_[r];
    rank.state = RankState::blocked;
    rank.block_start = t;
    rank.waiting = std::move(requests);
    rank.waiting_is_wait_op = is_wait_op;
    try_unblock(r, t);
  }

  void request_done(RankId r, std::uint32_t request, double t) {
    ranks_[r].requests[request].done = true;
    if (ranks_[r].state == RankState::blocked) try_unblock(r, t);
  }

  void try_unblock(RankId r, double t) {
    Rank& rank = ranks_[r];
    for (std::uint32_t q : rank.waiting)
      if (!rank.requests[q].done) return;
    const double start = rank.block_start;
    const double floor = rank.waiting_is_wait_op ? start + model_.control_overhead() : start;
    const double end = std::max(t, floor);
    // The request that finished last decides where the blocked time went.
    const Request* last = nullptr;
    for (std::uint32_t q : rank.waiting)
      if (!last || rank.requests[q].profile.end() > last->profile.end()) last = &rank.requests[q];
    TimeSplit part;
    if (last && last->profile.end() > floor) add_clipped(part, last->profile, start, end);
    part.overhead += (end - start) - part.total();  // the o' floor of a wait
    rank.split.overhead += part.overhead;
    rank.split.send_wait += part.send_wait;
    rank.split.recv_wait += part.recv_wait;
    rank.split.sync += part.sync;
    rank.state = RankState::running;
    rank.waiting.clear();
    schedule(end, EventKind::step, r);
  }

  Prediction finish() {
    Prediction p;
    p.model = model_.name();
    p.messages = messages_.size();
    p.rendezvous_messages = rendezvous_count_;
    std::string stuck;
    for (RankId r = 0; r < ranks_.size(); ++r) {
      const Rank& rank = ranks_[r];
      if (rank.state != RankState::finished)
        stuck += fmt::format("{}rank {} at operation {}", stuck.empty() ? "" : ", ", r,
                             rank.pc == 0 ? 0 : rank.pc - 1);
      p.ranks.push_back({rank.now, rank.split});
      p.run_time_ns = std::max(p.run_time_ns, rank.now);
    }
    if (!stuck.empty())
      throw std::runtime_error(fmt::format(
          "{}: the program cannot finish (unmatched communication): {}", p.model, stuck));
    std::stable_sort(
        calls_.begin(), calls_.end(),
        [](const CallPrediction& a, const CallPrediction& b) { return a.rank < b.rank; });
    p.calls = std::move(calls_);
    p.matched.reserve(messages_.size());
    for (const Message& m : messages_)
      p.matched.push_back({m.src, m.dst, m.send_op, m.recv_op, m.matched_at});
    return p;
  }

  const mpiemul::Program& program_;
  const ReplayModel& model_;
  ReplayNetwork* network_;
  std::optional<IntraNodeParams> intra_;
  std::vector<std::uint32_t> hosts_;  // of each rank
  std::vector<Rank> ranks_;
  std::vector<Message> messages_;
  std::vector<CallPrediction> calls_;
  std::vector<double> rank_free_;  // per rank: its next injection, after its gap
  std::vector<double> nic_free_;   // per host: the NIC's next free injection
  std::vector<double> nic_queue_;  // per host: when its NIC has sent the data put on it so far
  // Per host: network messages injected and not yet arrived, to and from it.
  std::vector<std::uint32_t> inflight_to_;
  std::vector<std::uint32_t> inflight_from_;
  std::map<std::pair<RankId, RankId>, std::uint32_t> inflight_pair_;  // (src, dst) -> in flight
  // Messages whose data enters the network at launch_time_, their wire time not yet set.
  std::vector<std::uint64_t> launching_;
  double launch_time_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
  std::uint64_t seq_ = 0;
  std::uint64_t rendezvous_count_ = 0;
};

}  // namespace

Prediction predict_program(const mpiemul::Program& program, const ReplayModel& model,
                           ReplayNetwork* network, const ReplayLayout& layout) {
  return Replay(program, model, network, layout).run();
}

}  // namespace netwarp::validation
