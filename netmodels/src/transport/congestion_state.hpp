// An algorithm's state struct kept in the byte block TcpSenderState::congestion, copied in and
// out with memcpy (no type punning). Each algorithm's struct must fit the block and have no
// padding, so the block's bytes say everything (they are hashed).
#pragma once

#include <cstring>
#include <type_traits>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_cc {

template <class T>
concept CongestionStateStruct = std::is_trivially_copyable_v<T> &&
                                    sizeof(T) <= sizeof(TcpCongestionState) &&
                                sizeof(T) % sizeof(std::uint64_t) == 0;

template <CongestionStateStruct T>
T load_state(const TcpCongestionState& block) {
  T state;
  std::memcpy(&state, block.words, sizeof state);
  return state;
}

template <CongestionStateStruct T>
void store_state(TcpCongestionState& block, const T& state) {
  std::memcpy(block.words, &state, sizeof state);
}

}  // namespace netwarp::netmodels::tcp_cc
