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
  // The ranks a host runs, in rank order (none on a host without ranks); a rank's slot is
  // its index there.
  const std::vector<RankId>& ranks_on(netmodels::NodeId node) const { return ranks_on_host_[node]; }
  std::uint32_t slot_of(RankId r) const { return slot_of_rank_[r]; }
  RankId rank_in_slot(netmodels::NodeId node, std::uint32_t slot) const {
    return ranks_on_host_[node][slot];
  }
  bool same_host(RankId a, RankId b) const { return host_of(a) == host_of(b); }
  // Eager credit each sender holds toward one receiver (0: unlimited buffer).
  std::uint64_t credit_share() const { return credit_share_; }

 private:
  std::shared_ptr<const Program> program_;
  MpiConfig config_;
  std::vector<std::vector<RankId>> ranks_on_host_;
  std::vector<std::uint32_t> slot_of_rank_;
  std::uint64_t credit_share_ = 0;
};

}  // namespace netwarp::mpiemul
