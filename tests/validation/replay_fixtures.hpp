// What the replay tests share: LogGPS parameters with round numbers (every expected time is
// exact in binary floating point) and a two-rank program built in place.
#pragma once

#include <functional>

#include "netwarp/mpiemul/program.hpp"
#include "netwarp/validation/loggps.hpp"

namespace netwarp::validation::testing {

inline LogGpsParams round_loggps() {
  LogGpsParams p;
  p.L = 1000;
  p.o = 2000;
  p.Oss = 1;
  p.Ors = 2;
  p.Osl = 0.5;
  p.Orl = 0.25;
  p.Gs = 4;
  p.Gl = 0.125;
  p.s = 1024;
  p.S = 4096;
  return p;
}

inline mpiemul::Program two_ranks(
    const std::function<void(mpiemul::RankProgramBuilder&, mpiemul::RankProgramBuilder&)>& build) {
  mpiemul::RankProgramBuilder r0(0, 2), r1(1, 2);
  build(r0, r1);
  mpiemul::Program p;
  p.ranks.push_back(r0.take());
  p.ranks.push_back(r1.take());
  return p;
}

}  // namespace netwarp::validation::testing
