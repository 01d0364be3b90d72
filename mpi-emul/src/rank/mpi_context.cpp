// MpiContext: the rank <-> host maps and the eager credit share.
#include "rank/mpi_context.hpp"

namespace netwarp::mpiemul {

MpiContext::MpiContext(std::shared_ptr<const Program> program, MpiConfig config,
                       std::size_t node_count)
    : program_(std::move(program)), config_(std::move(config)), rank_of_host_(node_count, kNoRank) {
  for (RankId r = 0; r < config_.rank_hosts.size(); ++r) rank_of_host_[config_.rank_hosts[r]] = r;
  const std::uint64_t peers = program_->size() > 1 ? program_->size() - 1 : 1;
  credit_share_ = config_.protocol.unexpected_buffer_bytes / peers;
}

}  // namespace netwarp::mpiemul
