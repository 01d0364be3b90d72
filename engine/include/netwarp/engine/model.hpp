// Model: what a kernel runs. It names its LPs by dense ids, builds each one on the rank that
// owns it, and says which rank owns which LP (default: contiguous blocks).
#pragma once

#include <memory>

#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/sim_time.hpp"

namespace netwarp::engine {

// Contiguous blocks: ranks own [r*n/R, (r+1)*n/R).
int block_rank(LpId lp, LpId lp_count, int ranks);

class Model {
 public:
  virtual ~Model() = default;
  virtual LpId lp_count() const = 0;
  virtual std::unique_ptr<LpBase> create_lp(LpId id) const = 0;
  virtual int rank_of(LpId id, int ranks) const { return block_rank(id, lp_count(), ranks); }
  // The least delay of any event an LP sends to an LP on another rank (a link's latency; PHOLD's
  // lookahead). Zero: unknown, and then no event runs below a safe horizon. The optimistic
  // kernel stops the run if a model sends across ranks sooner than it says.
  virtual SimTime lookahead() const { return SimTime::zero(); }
};

}  // namespace netwarp::engine
