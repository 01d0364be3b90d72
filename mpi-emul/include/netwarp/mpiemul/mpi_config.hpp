// How simulated MPI ranks behave: host CPU costs per call (LogGPS-style), the protocol
// thresholds and variants, and where each rank runs.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/engine/sim_time.hpp"
#include "netwarp/netmodels/topology.hpp"

namespace netwarp::mpiemul {

using engine::SimTime;

// CPU time a rank spends inside MPI (it cannot compute meanwhile). Every protocol message
// costs o to send and o to receive; data-carrying ones add a per-byte cost on each side,
// separate for eager (k <= S: Oss, Ors) and rendezvous (k > S: Osl, Orl) messages. Per-byte
// costs are in femtoseconds per byte so fractions of a picosecond per byte add up exactly.
struct HostCosts {
  SimTime o;
  std::uint64_t send_eager_fs_per_byte = 0;  // Oss
  std::uint64_t recv_eager_fs_per_byte = 0;  // Ors
  std::uint64_t send_rndv_fs_per_byte = 0;   // Osl
  std::uint64_t recv_rndv_fs_per_byte = 0;   // Orl
  // Copy of an eager message out of the unexpected-message buffer (memory bandwidth).
  std::uint64_t copy_fs_per_byte = 0;
};

// Per-byte cost in whole picoseconds (rounded down); SimTime::max() when that does not fit.
inline SimTime per_byte(std::uint64_t bytes, std::uint64_t fs_per_byte) {
  __extension__ using U128 = unsigned __int128;
  const U128 ps = U128{bytes} * fs_per_byte / 1000;
  if (ps >= static_cast<U128>(SimTime::max().ps())) return SimTime::max();
  return SimTime::from_ps(static_cast<SimTime::Rep>(ps));
}

// CPU time of one data-carrying protocol message: o plus the per-byte cost of its side and
// protocol (eager Oss/Ors, rendezvous Osl/Orl).
inline SimTime send_cost(const HostCosts& c, std::uint64_t bytes, bool rendezvous) {
  return c.o.saturating_add(
      per_byte(bytes, rendezvous ? c.send_rndv_fs_per_byte : c.send_eager_fs_per_byte));
}
inline SimTime recv_cost(const HostCosts& c, std::uint64_t bytes, bool rendezvous) {
  return c.o.saturating_add(
      per_byte(bytes, rendezvous ? c.recv_rndv_fs_per_byte : c.recv_eager_fs_per_byte));
}

enum class RendezvousMode : std::uint8_t {
  rts_cts,  // REQ, clear-to-send back when matched, then the sender pushes the data
  get,      // REQ; when matched the receiver reads the data (remote read), then tells the sender
};

struct ProtocolConfig {
  std::uint64_t short_bytes = 1024;   // s: short (data in the envelope packet) up to here
  std::uint64_t eager_bytes = 16384;  // S: eager up to here, rendezvous above
  RendezvousMode rendezvous = RendezvousMode::rts_cts;
  // Seed 001's one-sided send: a receive posted with a known source sends a receive request
  // to that sender; a matching send then writes the data straight away, whatever its size.
  bool sender_side_matching = false;
  // Unexpected-message buffer per rank; 0: unlimited. Bounded: each sender gets an equal share
  // as credit and waits for credit instead of overflowing it.
  std::uint64_t unexpected_buffer_bytes = 0;
  std::uint32_t envelope_bytes = 64;  // header of every MPI message on the wire
  // Rendezvous data goes to the network in fragments of this many bytes (Open MPI's pipeline
  // protocol), so control messages to the same host pass between them; 0: in one piece.
  std::uint64_t fragment_bytes = 0;
};

// The intra-node transport between ranks of one host (a shared-memory model like Open MPI's
// sm/vader BTL): messages never touch the NIC. Up to eager_bytes a message is copied into a
// shared buffer by the sender and out of it by the receiver (each copy at copy_fs_per_byte on
// that rank's CPU); above, the receiver copies it once straight from the sender's buffer
// (CMA/KNEM-like: single_copy_setup, then single_copy_fs_per_byte) and tells the sender.
// Every message (envelope, request, FIN) takes `latency` to become visible to the peer.
struct SharedMemoryConfig {
  SimTime latency = SimTime::from_ps(200'000);
  std::uint64_t copy_fs_per_byte = 100'000;  // 10 GB/s: 0.1 ns per byte
  std::uint64_t eager_bytes = 4096;
  SimTime single_copy_setup = SimTime::from_ps(1'000'000);
  std::uint64_t single_copy_fs_per_byte = 80'000;  // 12.5 GB/s
};

// Most ranks one host can run (a rank's slot on its host rides in 8 bits of every transfer).
inline constexpr std::uint32_t kMaxRanksPerHost = 256;

struct MpiConfig {
  HostCosts costs;
  ProtocolConfig protocol;
  SharedMemoryConfig shm;
  // Host of each rank; a host runs up to kMaxRanksPerHost ranks, each on its own CPU.
  std::vector<netmodels::NodeId> rank_hosts;
};

// Intra-node eager: o, and the copy into (sender) or out of (receiver) the shared buffer.
inline SimTime local_copy_cost(const HostCosts& c, const SharedMemoryConfig& shm,
                               std::uint64_t bytes) {
  return c.o.saturating_add(per_byte(bytes, shm.copy_fs_per_byte));
}
// Intra-node rendezvous, at the receiver: o for the request, then one copy straight from the
// sender's buffer.
inline SimTime local_single_copy_cost(const HostCosts& c, const SharedMemoryConfig& shm,
                                      std::uint64_t bytes) {
  return c.o.saturating_add(shm.single_copy_setup)
      .saturating_add(per_byte(bytes, shm.single_copy_fs_per_byte));
}

}  // namespace netwarp::mpiemul
