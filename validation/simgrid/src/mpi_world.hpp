// MpiWorld: the MPI ranks on SimGrid. One actor per rank on its host drives a RankModel: it
// sleeps through the model's CPU activities (s4u::this_actor::sleep_for) and blocks on a
// semaphore while the rank waits for a message. Each transfer is one SimGrid communication
// from the sender's host to the receiver's (s4u::Comm::sendto, run by a short-lived actor on
// the sender's host), so the network model alone decides when it arrives; arrivals are handed
// to the receiving rank in connection order. Ranks of one host share its links (the NIC) and
// talk through the shared-memory transport: a transfer between them never enters the network
// and arrives after mpi.host.shm_latency_ns (at least 1 ps), as in the packet simulation.
#pragma once

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include "connection_order.hpp"
#include "netwarp/mpiemul/mpi_config.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "rank_model.hpp"
#include "transfer.hpp"

namespace netwarp::simgrid_check {

struct RankOutcome {
  RankId rank = 0;
  std::int64_t end_ps = -1;  // when its program's last call ended; -1: never (deadlock)
  std::uint32_t stuck_op = 0;
};

class MpiWorld final : public TransferSink {
 public:
  // rank_hosts[r]: the SimGrid host of rank r. The program and config must outlive the world.
  MpiWorld(const mpiemul::Program& program, const mpiemul::MpiConfig& config,
           std::vector<simgrid::s4u::Host*> rank_hosts);
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  // Creates the rank actors; then run the SimGrid engine.
  void start();
  void send(const Transfer& t) override;

  std::vector<RankOutcome> outcomes() const;
  std::uint64_t transfer_count() const { return transfers_; }

 private:
  struct Rank {
    std::unique_ptr<RankModel> model;
    simgrid::s4u::SemaphorePtr wake;
    std::int64_t end_ps = -1;
  };
  void run_rank(RankId r);
  void deliver(const Transfer& t);

  std::vector<simgrid::s4u::Host*> hosts_;
  double shm_latency_seconds_ = 0;  // intra-node transfers: visible to the peer after this
  std::vector<Rank> ranks_;
  ConnectionOrder order_;
  std::uint64_t transfers_ = 0;
};

// SimGrid's clock in whole picoseconds (rounded to nearest).
std::int64_t simgrid_now_ps();

}  // namespace netwarp::simgrid_check
