// MpiWorld: rank actors, transfer actors and in-order delivery.
#include "mpi_world.hpp"

#include <fmt/format.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <cmath>

namespace netwarp::simgrid_check {

namespace sg4 = simgrid::s4u;

namespace {
// The packet simulation starts every rank at 1 ps; so do we, so times compare directly.
constexpr double kStartSeconds = 1e-12;
}  // namespace

std::int64_t simgrid_now_ps() {
  return std::llround(sg4::Engine::get_clock() * 1e12);
}

MpiWorld::MpiWorld(const mpiemul::Program& program, const mpiemul::MpiConfig& config,
                   std::vector<sg4::Host*> rank_hosts)
    : hosts_(std::move(rank_hosts)),
      shm_latency_seconds_(std::max<std::int64_t>(config.shm.latency.ps(), 1) * 1e-12),
      ranks_(program.size()) {
  for (RankId r = 0; r < program.size(); ++r) {
    ranks_[r].model = std::make_unique<RankModel>(r, program, config, *this);
    ranks_[r].wake = sg4::Semaphore::create(0);
  }
}

void MpiWorld::start() {
  for (RankId r = 0; r < ranks_.size(); ++r)
    sg4::Actor::create(fmt::format("rank{}", r), hosts_[r], [this, r] { run_rank(r); });
}

// The CPU loop of one rank. Once its program is done the rank turns into a daemon that still
// answers protocol work (as MPI_Finalize progresses), and SimGrid ends it with the last rank.
void MpiWorld::run_rank(RankId r) {
  Rank& rank = ranks_[r];
  sg4::this_actor::sleep_for(kStartSeconds);
  for (;;) {
    const RankStep step = rank.model->next();
    if (step.kind == RankStep::Kind::busy) {
      sg4::this_actor::sleep_for(step.cost.to_seconds());
      rank.model->activity_done();
      continue;
    }
    if (step.kind == RankStep::Kind::finished && rank.end_ps < 0) {
      rank.end_ps = simgrid_now_ps();
      sg4::Actor::self()->daemonize();
    }
    rank.wake->acquire();
  }
}

void MpiWorld::send(const Transfer& t) {
  Transfer numbered = t;
  order_.number(numbered);
  ++transfers_;
  sg4::Host* from = hosts_[t.src];
  sg4::Host* to = hosts_[t.dst];
  if (from == to) {
    sg4::Actor::create("local", from, [this, numbered] {
      sg4::this_actor::sleep_for(shm_latency_seconds_);
      deliver(numbered);
    });
    return;
  }
  sg4::Actor::create("transfer", from, [this, numbered, from, to] {
    sg4::Comm::sendto(from, to, numbered.bytes);
    deliver(numbered);
  });
}

void MpiWorld::deliver(const Transfer& t) {
  const std::vector<Transfer> ready = order_.arrive(t);
  if (ready.empty()) return;
  Rank& rank = ranks_[t.dst];
  for (const Transfer& each : ready) rank.model->on_transfer(each);
  rank.wake->release();
}

std::vector<RankOutcome> MpiWorld::outcomes() const {
  std::vector<RankOutcome> out;
  for (RankId r = 0; r < ranks_.size(); ++r)
    out.push_back({r, ranks_[r].end_ps, ranks_[r].model->current_op()});
  return out;
}

}  // namespace netwarp::simgrid_check
