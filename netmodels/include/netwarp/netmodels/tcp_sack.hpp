// SACK (RFC 2018) blocks as they travel on ACKs, and the sender's scoreboard of RFC 6675
// section 4: Update(), IsLost(), SetPipe() and NextSeg() over SACKed byte ranges kept in a
// TcpRangeStore, plus the fixed-size part (TcpScoreboardState) that lives in TcpSenderState.
// Sequence numbers here are one past the RFC's octets where the RFC names a highest octet:
// high_rxt is one past HighRxt, a range's end one past its last byte, snd_una is HighACK + 1.
//
// A scoreboard is only a set of byte ranges that have left the network. Besides SACK blocks
// (tcp_scoreboard_update) an emulation may mark ranges itself with tcp_insert_range, e.g. one
// segment per duplicate ACK as ns-3's TcpTxBuffer::AddRenoSack does without SACK.
#pragma once

#include <cstdint>
#include <type_traits>

#include "netwarp/netmodels/tcp_ranges.hpp"

namespace netwarp::netmodels {

// Blocks per ACK: RFC 2018 section 3 fits four in the option space without timestamps, as
// ns-3.37's receiver sends them (sack_reading NS3); the RFC reading's receiver reports three
// (kRfcSackBlocks, the count RFC 2018 gives beside a timestamp option).
inline constexpr std::uint32_t kMaxSackBlocks = 4;
inline constexpr std::uint32_t kRfcSackBlocks = 3;

struct TcpSackBlocks {
  std::uint32_t count = 0;
  TcpRange block[kMaxSackBlocks] = {};
};

// The scoreboard's fixed-size part and the recovery variables of RFC 6675 section 2 and
// RFC 6937 section 3. Trivially copyable and padding-free, kept inside TcpSenderState.
struct TcpScoreboardState {
  std::uint64_t sacked_bytes = 0;        // SACKed bytes above snd_una
  TcpSeq high_sacked = 0;                // one past the highest SACKed byte (0: none)
  TcpSeq high_rxt = 0;                   // one past HighRxt
  TcpSeq rescue_rxt = 0;                 // one past RescueRxt; 0: undefined
  std::uint64_t prr_delivered = 0;       // RFC 6937: bytes delivered during this recovery
  std::uint64_t prr_out = 0;             // RFC 6937: bytes sent during this recovery
  std::uint64_t recover_fs = 0;          // RFC 6937 RecoverFS: snd.nxt - snd.una at its start
  std::uint64_t sack_recoveries = 0;     // counter: recoveries entered by RFC 6675 section 5
  std::uint64_t rescue_retransmits = 0;  // counter: NextSeg() rule 4 segments
};
static_assert(std::is_trivially_copyable_v<TcpScoreboardState> &&
              std::has_unique_object_representations_v<TcpScoreboardState>);

// What the scoreboard functions read about the connection.
struct TcpScoreboardView {
  const TcpRangeStore& sacked;
  TcpSeq snd_una = 0;  // HighACK + 1
  TcpSeq snd_max = 0;  // HighData + 1
  std::uint32_t mss = 0;
  std::uint32_t dupack_threshold = 3;  // DupThresh
  // NextSeg() as ns-3.37's TcpTxBuffer: rule 3 from the first unSACKed byte above HighRxt
  // whatever was SACKed (no 1.b), and no rule 4 (TcpConfig::sack_reading ns3).
  bool ns3_next_seg = false;
};

// Update() (RFC 6675 section 4): records the blocks above snd_una, clipped to what was sent
// (a block outside [snd_una, snd_max) is ignored, RFC 2018 section 4's invalid blocks).
// Returns the bytes newly SACKed.
std::uint64_t tcp_scoreboard_update(TcpScoreboardState& sb, TcpRangeStore& sacked,
                                    const TcpSackBlocks& blocks, TcpSeq snd_una, TcpSeq snd_max);
// A cumulative ACK to `ack`: forgets what lies below. Returns the SACKed bytes it covered.
std::uint64_t tcp_scoreboard_advance(TcpScoreboardState& sb, TcpRangeStore& sacked, TcpSeq ack);
// Forgets every SACKed range (RFC 2018 section 8, after a retransmission timeout).
void tcp_scoreboard_clear(TcpScoreboardState& sb, TcpRangeStore& sacked);

// IsLost(seq): DupThresh discontiguous SACKed ranges, or more than (DupThresh - 1) * SMSS
// SACKed bytes, lie above seq. Unsacked bytes below tcp_lost_below() are exactly the lost ones.
TcpSeq tcp_lost_below(const TcpScoreboardView& v);
bool tcp_is_lost(const TcpScoreboardView& v, TcpSeq seq);
// SetPipe(): octets in [snd_una, snd_max) not SACKed count once if not lost and once more if
// retransmitted in this recovery (below high_rxt).
std::uint64_t tcp_set_pipe(const TcpScoreboardView& v, TcpSeq high_rxt);

struct TcpNextSegment {
  std::uint32_t rule = 0;  // 0: nothing to send; else the NextSeg() rule that chose it
  TcpRange range;
};
// NextSeg() rules 1-4. `may_send_new` says whether rule 2 may send new data (unsent bytes
// exist and the receive window allows); rule 2 then returns [snd_max, snd_max + mss).
TcpNextSegment tcp_next_segment(const TcpScoreboardView& v, const TcpScoreboardState& sb,
                                bool may_send_new);

}  // namespace netwarp::netmodels
