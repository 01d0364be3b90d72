// The models the trace-driven replay (replay.hpp) can time messages with.
//   LogGPS   T1/T2/T3 (eager) and T1'/T2'/T3' (rendezvous above S), with the receiver-side
//            bandwidth sharing rule: the message's senders count is the number of messages
//            in flight through its receiver's or its sender's host when its data is sent or
//            enters the network, whichever is more (other pairs' only), plus one
//            (loggps::contended; replay.hpp). Requests and answers leave a host behind the
//            data on its NIC (until its wire time less L has passed).
//   LogGP    one protocol: o to send, (k - 1)G + L on the wire, o to receive; consecutive
//            injections of one sender max(g, o + (k - 1)G) apart, of one host's ranks
//            (k - 1)G apart (the NIC's part).
//   Hockney  the whole alpha + k beta is the sender's; nothing else.
//   PlogP    o_s(m) to send, o_r(m) to receive, a message takes L + g(m) from send call to
//            receive end when the receiver waits (RTT(m, 0) = L + g(m) + L + g(0)); one
//            sender's injections are g(m) apart, one host's ranks' g(m) - g(0) apart (the
//            per-byte part, the NIC's).
//   MPIETE   seed 004's replay (mpiete.hpp): sends, starts and waits on sends cost nothing; a
//            receive ends at max(receive posted, send posted) + T_comm(size).
//   flow     the host costs of LogGPS (o', Oss, Ors, Osl, Orl, s, S from the platform) with
//            the data of every message shared max-min (or Mode F) on the scenario's topology;
//            control messages take the route latency, once the bytes put on their host's NIC
//            before them have had their time at its rate.
#pragma once

#include <memory>

#include "netwarp/netmodels/topology.hpp"
#include "netwarp/validation/flow_solver.hpp"
#include "netwarp/validation/loggps.hpp"
#include "netwarp/validation/mpiete.hpp"
#include "netwarp/validation/plogp.hpp"
#include "netwarp/validation/point_models.hpp"
#include "netwarp/validation/replay.hpp"

namespace netwarp::validation {

std::unique_ptr<ReplayModel> loggps_replay_model(const LogGpsParams& p);
std::unique_ptr<ReplayModel> loggp_replay_model(const LogGpParams& p);
std::unique_ptr<ReplayModel> hockney_replay_model(const HockneyParams& p);
std::unique_ptr<ReplayModel> plogp_replay_model(const PlogpParams& p);
std::unique_ptr<ReplayModel> mpiete_replay_model(const MpieteParams& p);

// LogGPS host costs with `latency_ns` for control messages and no wire time of their own: the
// data's time comes from the network.
std::unique_ptr<ReplayModel> flow_host_model(const LogGpsParams& host, double latency_ns);

// The flow model as a ReplayNetwork: rank r sits on host rank_hosts[r]; every message's data
// (plus `envelope_bytes`) is a flow on the topology's route, arriving after the route latency.
std::unique_ptr<ReplayNetwork> flow_replay_network(const netmodels::Topology& topology,
                                                   std::vector<netmodels::NodeId> rank_hosts,
                                                   FlowMode mode, std::uint64_t envelope_bytes);

}  // namespace netwarp::validation
