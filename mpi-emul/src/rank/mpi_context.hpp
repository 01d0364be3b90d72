// MpiContext: what every MPI host LP reads and never changes: the program, the configuration
// and the rank <-> host maps.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "netwarp/mpiemul/mpi_config.hpp"
#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {

inline constexpr RankId kNoRank = UINT32_MAX;

class MpiContext {
 public:
  MpiContext(std::shared_ptr<const Program> program, MpiConfig config, std::size_t node_count);

  const Program& program() const { return *program_; }
  const RankProgram& rank_program(RankId r) const { return program_->ranks[r]; }
  const MpiConfig& config() const { return config_; }
  const HostCosts& costs() const { return config_.costs; }
  const ProtocolConfig& protocol() const { return config_.protocol; }
  netmodels::NodeId host_of(RankId r) const { return config_.rank_hosts[r]; }
  RankId rank_of_host(netmodels::NodeId node) const { return rank_of_host_[node]; }
  // Eager credit each sender holds toward one receiver (0: unlimited buffer).
  std::uint64_t credit_share() const { return credit_share_; }

 private:
  std::shared_ptr<const Program> program_;
  MpiConfig config_;
  std::vector<RankId> rank_of_host_;
  std::uint64_t credit_share_ = 0;
};

}  // namespace netwarp::mpiemul
