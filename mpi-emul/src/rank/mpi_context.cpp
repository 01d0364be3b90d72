// MpiContext: the rank <-> (host, slot) maps and the eager credit share.
#include "rank/mpi_context.hpp"

namespace netwarp::mpiemul {

MpiContext::MpiContext(std::shared_ptr<const Program> program, MpiConfig config,
                       std::size_t node_count)
    : program_(std::move(program)),
      config_(std::move(config)),
      ranks_on_host_(node_count),
      slot_of_rank_(config_.rank_hosts.size(), 0) {
  for (RankId r = 0; r < config_.rank_hosts.size(); ++r) {
    std::vector<RankId>& on_host = ranks_on_host_[config_.rank_hosts[r]];
    slot_of_rank_[r] = static_cast<std::uint32_t>(on_host.size());
    on_host.push_back(r);
  }
  const std::uint64_t peers = program_->size() > 1 ? program_->size() - 1 : 1;
  credit_share_ = config_.protocol.unexpected_buffer_bytes / peers;
}

}  // namespace netwarp::mpiemul
