// The MPI host's own events and the kinds of transfer its ranks exchange.
#pragma once

#include <algorithm>
#include <cstdint>

#include "netwarp/netmodels/stream_transport.hpp"

namespace netwarp::mpiemul {

// The CPU activity that a rank of the host started ends now. `seq` holds the rank's slot on
// the host in its top 8 bits and the activity's number (mod 2^24; one wake per rank is ever
// pending) below, so that with one rank per host the event is what it always was and run
// digests stay the same.
struct RankWake {
  std::uint32_t seq = 0;

  static constexpr int kSlotShift = 24;
  static constexpr std::uint32_t kCountMask = (std::uint32_t{1} << kSlotShift) - 1;
  static RankWake of(std::uint32_t slot, std::uint32_t count) {
    return RankWake{(slot << kSlotShift) | (count & kCountMask)};
  }
  std::uint32_t slot() const { return seq >> kSlotShift; }
  std::uint32_t count() const { return seq & kCountMask; }
};

// A transfer between two ranks of one host, through the shared-memory transport: it never
// touches the NIC.
struct LocalDelivery {
  netmodels::TransferTag tag;
  std::uint32_t from_rank = 0;
  std::uint32_t to_slot = 0;
};

// Sending the next fragment of pipelined rendezvous data to the network is due.
struct FragmentDue {
  std::uint64_t seq = 0;
};

// TransferTag::kind of MPI transfers. `word` is an op index: the sender's send op, except
// for receive_request (the receiver's receive op) and credit (the bytes returned).
enum class TransferKind : std::uint8_t {
  eager = 1,        // envelope + data (short and eager)
  rts,              // rendezvous request to send
  cts,              // clear to send (aux: how late the receiver matched, ps)
  data,             // rendezvous data (all of it, or its last fragment)
  get,              // receiver's remote read of rendezvous data (aux: lateness, ps)
  fin,              // the remote read completed (intra-node, aux: lateness, ps)
  receive_request,  // sender-side matching: a receive was posted (aux: receiver's request)
  direct,           // sender-side matching: envelope + data written to a posted receive
  credit,           // unexpected-buffer credit returned
  fragment,         // pipelined rendezvous data, a fragment before the last
};

// A network transfer names its sending and receiving rank by their slots on their hosts. The
// Packet has no room left, so the slots ride in the top 16 bits of the tag's aux, whose
// values (request indices, lateness in ps) stay below 2^47. Lateness is capped there (140 s of
// simulated time): it only moves part of a rendezvous sender's wait from synchronisation to
// send wait, so a later receiver leaves the breakdown's sum exact and its split capped.
inline constexpr int kSlotShift = 48;
inline constexpr std::int64_t kAuxLimit = (std::int64_t{1} << 47) - 1;

inline std::int64_t pack_slots(std::int64_t aux, std::uint32_t from_slot, std::uint32_t to_slot) {
  const std::int64_t value = std::clamp<std::int64_t>(aux, 0, kAuxLimit);
  return value | static_cast<std::int64_t>((std::uint64_t{from_slot} << kSlotShift) |
                                           (std::uint64_t{to_slot} << (kSlotShift + 8)));
}
inline std::uint32_t from_slot_of(std::int64_t aux) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(aux) >> kSlotShift) & 0xff);
}
inline std::uint32_t to_slot_of(std::int64_t aux) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(aux) >> (kSlotShift + 8)) & 0xff);
}
inline std::int64_t value_of(std::int64_t aux) {
  return aux & ((std::int64_t{1} << kSlotShift) - 1);
}

}  // namespace netwarp::mpiemul
