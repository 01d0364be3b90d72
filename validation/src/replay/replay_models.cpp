// Message costs of each model for the replay (see replay_models.hpp).
#include "netwarp/validation/replay_models.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace netwarp::validation {
namespace {

// LogGPS costs. As the `flow` model's hosts it takes the network's latency for control
// messages and no contention rule: the flow network shares the bandwidth (and sets the wire).
class LogGpsReplay final : public ReplayModel {
 public:
  LogGpsReplay(const LogGpsParams& p, std::string name, double latency_ns, bool contention)
      : p_(p), name_(std::move(name)), latency_(latency_ns), contention_(contention) {}
  std::string name() const override { return name_; }
  std::uint64_t eager_limit() const override { return p_.S; }
  double control_overhead() const override { return p_.o; }
  double latency() const override { return latency_; }
  MessageCosts costs(std::uint64_t k, std::uint32_t senders) const override {
    const LogGpsParams p =
        contention_ ? loggps::contended(p_, k, std::max<std::uint32_t>(senders, 1)) : p_;
    MessageCosts c;
    if (k > p.S) {
      c.send_overhead = loggps::t1_long(p, k);
      c.wire = loggps::t2_long(p, k);
      c.recv_overhead = loggps::t3_long(p, k);
    } else {
      c.send_overhead = loggps::t1(p, k);
      c.wire = k <= p.s ? loggps::t2(p, k) : loggps::t2_long(p, k);
      c.recv_overhead = loggps::t3(p, k);
    }
    return c;
  }

 private:
  LogGpsParams p_;
  std::string name_;
  double latency_;
  bool contention_;
};

class LogGpReplay final : public ReplayModel {
 public:
  explicit LogGpReplay(const LogGpParams& p) : p_(p) {}
  std::string name() const override { return "loggp"; }
  double control_overhead() const override { return p_.o; }
  double latency() const override { return p_.L; }
  MessageCosts costs(std::uint64_t k, std::uint32_t) const override {
    MessageCosts c;
    c.send_overhead = p_.o;
    c.wire = message_time(p_, k) - 2 * p_.o;
    c.recv_overhead = p_.o;
    c.gap = loggp_send_gap(p_, k);
    c.nic = std::min(c.gap, k == 0 ? 0.0 : static_cast<double>(k - 1) * p_.G);
    return c;
  }

 private:
  LogGpParams p_;
};

class HockneyReplay final : public ReplayModel {
 public:
  explicit HockneyReplay(const HockneyParams& p) : p_(p) {}
  std::string name() const override { return "hockney"; }
  double control_overhead() const override { return 0; }
  double latency() const override { return 0; }
  MessageCosts costs(std::uint64_t k, std::uint32_t) const override {
    MessageCosts c;
    c.send_overhead = message_time(p_, k);
    return c;
  }

 private:
  HockneyParams p_;
};

class PlogpReplay final : public ReplayModel {
 public:
  explicit PlogpReplay(const PlogpParams& p) : p_(p) {}
  std::string name() const override { return "plogp"; }
  double control_overhead() const override { return p_.o_s(0); }
  double latency() const override { return p_.L; }
  MessageCosts costs(std::uint64_t k, std::uint32_t) const override {
    MessageCosts c;
    c.send_overhead = p_.o_s(k);
    c.recv_overhead = p_.o_r(k);
    c.wire = std::max(0.0, p_.L + p_.g(k) - c.send_overhead - c.recv_overhead);
    c.gap = p_.g(k);
    c.nic = std::clamp(p_.g(k) - p_.g(0), 0.0, c.gap);
    return c;
  }

 private:
  PlogpParams p_;
};

// No wire time: the whole T_comm is the receiver's, counted from the later of the two calls.
class MpieteReplay final : public ReplayModel {
 public:
  explicit MpieteReplay(const MpieteParams& p) : p_(p) {}
  std::string name() const override { return "mpiete"; }
  double control_overhead() const override { return 0; }
  double latency() const override { return 0; }
  MessageCosts costs(std::uint64_t k, std::uint32_t) const override {
    MessageCosts c;
    c.recv_overhead = t_comm(p_, k);
    c.recv_time_is_wait = true;
    return c;
  }

 private:
  MpieteParams p_;
};

class FlowReplayNetwork final : public ReplayNetwork {
 public:
  FlowReplayNetwork(const netmodels::Topology& topology, std::vector<netmodels::NodeId> hosts,
                    FlowMode mode, std::uint64_t envelope)
      : network_(FlowNetwork::from_topology(topology)),
        solver_(network_, mode),
        hosts_(std::move(hosts)),
        envelope_(envelope) {}

  void start(std::uint64_t id, mpiemul::RankId src, mpiemul::RankId dst, std::uint64_t bytes,
             double now_ns) override {
    solver_.advance_to(now_ns * 1e-9);
    solver_.add_flow(id, hosts_[src], hosts_[dst], static_cast<double>(bytes + envelope_));
  }
  double next_completion_ns() override {
    const auto next = solver_.next_completion();
    return next ? next->time_s * 1e9 : INFINITY;
  }
  std::vector<std::uint64_t> advance(double now_ns) override {
    solver_.advance_to(now_ns * 1e-9);
    std::vector<FlowId> done;
    solver_.take_finished(done);
    return {done.begin(), done.end()};
  }
  double arrival_delay_ns(mpiemul::RankId src, mpiemul::RankId dst) const override {
    return network_.route_latency_s(hosts_[src], hosts_[dst]) * 1e9;
  }
  double serialization_ns(mpiemul::RankId src, std::uint64_t bytes) const override {
    const FlowLink& nic = network_.link(network_.link_of(hosts_[src], 0));
    return static_cast<double>(bytes + envelope_) / nic.bytes_per_second * 1e9;
  }

 private:
  FlowNetwork network_;
  FlowSolver solver_;
  std::vector<netmodels::NodeId> hosts_;
  std::uint64_t envelope_;
};

}  // namespace

std::unique_ptr<ReplayModel> loggps_replay_model(const LogGpsParams& p) {
  return std::make_unique<LogGpsReplay>(p, "loggps", p.L, true);
}
std::unique_ptr<ReplayModel> loggp_replay_model(const LogGpParams& p) {
  return std::make_unique<LogGpReplay>(p);
}
std::unique_ptr<ReplayModel> hockney_replay_model(const HockneyParams& p) {
  return std::make_unique<HockneyReplay>(p);
}
std::unique_ptr<ReplayModel> plogp_replay_model(const PlogpParams& p) {
  return std::make_unique<PlogpReplay>(p);
}
std::unique_ptr<ReplayModel> mpiete_replay_model(const MpieteParams& p) {
  return std::make_unique<MpieteReplay>(p);
}
std::unique_ptr<ReplayModel> flow_host_model(const LogGpsParams& host, double latency_ns) {
  return std::make_unique<LogGpsReplay>(host, "flow", latency_ns, false);
}
std::unique_ptr<ReplayNetwork> flow_replay_network(const netmodels::Topology& topology,
                                                   std::vector<netmodels::NodeId> rank_hosts,
                                                   FlowMode mode, std::uint64_t envelope_bytes) {
  return std::make_unique<FlowReplayNetwork>(topology, std::move(rank_hosts), mode, envelope_bytes);
}

}  // namespace netwarp::validation
