// OTF2 sub-communicators: an archive that splits MPI_COMM_WORLD (as Score-P writes it, with
// or without CommCreate records) replays as the protobuf trace of the same program, with
// collectives and point-to-point on the sub-communicators delivering the right bytes per pair.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "mpi_fixtures.hpp"
#include "otf2/otf2_test_archive.hpp"
#include "trace_test_support.hpp"

namespace netwarp::mpiemul::testing {
namespace {

constexpr std::uint32_t kAll = OTF2_UNDEFINED_UINT32;

// Split by parity ("even" {0, 2}, "odd" {1, 3}); on each: a bcast of 256 B from communicator
// rank 1, then communicator rank 0 sends 32 B to communicator rank 1.
std::filesystem::path write_split_archive(const std::filesystem::path& dir, bool announced) {
  Otf2TestArchive a(dir, 4);
  const OTF2_CommRef even = a.add_comm("even", {0, 2}, Otf2TestArchive::kWorld, announced);
  const OTF2_CommRef odd = a.add_comm("odd", {1, 3}, Otf2TestArchive::kWorld, announced);
  for (std::uint32_t r = 0; r < 4; ++r) {
    const OTF2_CommRef mine = r % 2 == 0 ? even : odd;
    a.create_comm(r, "MPI_Comm_split", Otf2TestArchive::kWorld, mine);
    a.collective(r, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 1, r >= 2 ? 512 : 0, 256, mine);
    if (r < 2)
      a.send(r, 1, 3, 32, mine);
    else
      a.recv(r, 0, 3, 32, mine);
  }
  return a.close();
}

// The same program as a protobuf trace; colors are the OTF2 communicator ids (2 and 3).
proto::Trace split_protobuf() {
  proto::Trace t;
  for (int r = 0; r < 4; ++r) {
    proto::RankTrace& rank = *t.add_ranks();
    proto::CommSplit& split = *rank.add_actions()->mutable_comm_split();
    split.set_color(2 + r % 2);
    split.set_key(r / 2);
    proto::Bcast& bcast = *rank.add_actions()->mutable_bcast();
    bcast.set_bytes(256);
    bcast.set_root(1);
    bcast.set_comm(1);
    if (r < 2) {
      proto::Send& s = *rank.add_actions()->mutable_send();
      s.set_dst(1);
      s.set_tag(3);
      s.set_bytes(32);
      s.set_comm(1);
    } else {
      proto::Recv& rv = *rank.add_actions()->mutable_recv();
      rv.set_src(0);
      rv.set_tag(3);
      rv.set_bytes(32);
      rv.set_comm(1);
    }
  }
  return t;
}

MpiRun run(const Program& p) {
  return run_mpi(star_platform(4, 10'000'000'000, SimTime::from_ps(500000)), p, config_for(p));
}

std::map<std::pair<RankId, RankId>, std::uint64_t> bytes_per_pair(const MpiRun& r) {
  std::map<std::pair<RankId, RankId>, std::uint64_t> bytes;
  for (const MessageRecord& m : r.results.messages) bytes[{m.src, m.dst}] += m.bytes;
  return bytes;
}

void expect_split_program(const std::filesystem::path& anchor) {
  const Program from_otf2 = program_from_trace(read_otf2(anchor), {});
  const Program from_protobuf = program_from_trace(split_protobuf(), {});
  ASSERT_EQ(from_otf2.communicators.size(), 3u);
  EXPECT_EQ(from_otf2.communicators[1].members, (std::vector<RankId>{0, 2}));
  EXPECT_EQ(from_otf2.communicators[2].members, (std::vector<RankId>{1, 3}));
  EXPECT_EQ(describe_program(from_otf2), describe_program(from_protobuf));
  const MpiRun a = run(from_otf2);
  const MpiRun b = run(from_protobuf);
  ASSERT_TRUE(a.totals.finished);
  EXPECT_EQ(a.totals.run_time_ps, b.totals.run_time_ps);
  for (std::size_t k = 0; k < a.totals.call_kinds.size(); ++k)
    EXPECT_EQ(a.totals.call_kinds[k].count, b.totals.call_kinds[k].count) << "call kind " << k;
  // Bcast roots are communicator rank 1 (world 2 and 3); the sends go to communicator rank 1.
  const std::map<std::pair<RankId, RankId>, std::uint64_t> expected = {
      {{2, 0}, 256}, {{3, 1}, 256}, {{0, 2}, 32}, {{1, 3}, 32}};
  EXPECT_EQ(bytes_per_pair(a), expected);
  expect_breakdowns_add_up(a.results);
}

TEST(Otf2Communicators, SplitWithCommCreateRecordsReplaysAsTheProtobufTrace) {
  expect_split_program(write_split_archive(temp_dir("otf2_split_announced"), true));
}

TEST(Otf2Communicators, SplitWithoutCommCreateRecordsTakesTheDefinitionsOrder) {
  expect_split_program(write_split_archive(temp_dir("otf2_split_defs"), false));
}

// A second creation whose group overlaps the first's is a second call; ranks outside it get
// MPI_COMM_NULL; a barrier on it involves its two ranks only.
TEST(Otf2Communicators, LaterCreationsAndExcludedRanks) {
  const auto dir = temp_dir("otf2_create");
  Otf2TestArchive a(dir, 4);
  const OTF2_CommRef even = a.add_comm("even", {0, 2});
  const OTF2_CommRef odd = a.add_comm("odd", {1, 3});
  const OTF2_CommRef pair = a.add_comm("pair", {2, 1});
  for (std::uint32_t r = 0; r < 4; ++r) {
    a.create_comm(r, "MPI_Comm_split", Otf2TestArchive::kWorld, r % 2 == 0 ? even : odd);
    const bool in_pair = r == 1 || r == 2;
    a.create_comm(r, "MPI_Comm_create", Otf2TestArchive::kWorld,
                  in_pair ? pair : OTF2_UNDEFINED_COMM);
    if (in_pair) a.collective(r, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, kAll, 0, 0, pair);
  }
  const Program p = program_from_trace(read_otf2(a.close()), {});
  ASSERT_EQ(p.communicators.size(), 4u);
  EXPECT_EQ(p.communicators[3].members, (std::vector<RankId>{2, 1}));
  const MpiRun r = run(p);
  ASSERT_TRUE(r.totals.finished);
  ASSERT_FALSE(r.results.messages.empty());
  for (const MessageRecord& m : r.results.messages) {
    EXPECT_TRUE((m.src == 1 && m.dst == 2) || (m.src == 2 && m.dst == 1)) << m.src << "->" << m.dst;
    EXPECT_EQ(m.comm, collective_context(3));
  }
}

// The TIT form of a split (SimGrid's `comm_split COLOR KEY`) and of world calls: TIT names no
// communicator on its actions, so the sub-communicator's message is written with world ranks.
// Archive and TIT replay with the same call counts, run time and bytes per pair.
TEST(Otf2Communicators, SplitArchiveAndTitGiveTheSameRun) {
  const auto dir = temp_dir("otf2_split_tit");
  Otf2TestArchive a(dir / "archive", 4);
  const OTF2_CommRef even = a.add_comm("even", {0, 2}, Otf2TestArchive::kWorld, true);
  const OTF2_CommRef odd = a.add_comm("odd", {1, 3}, Otf2TestArchive::kWorld, true);
  std::string tit;
  for (std::uint32_t r = 0; r < 4; ++r) {
    a.create_comm(r, "MPI_Comm_split", Otf2TestArchive::kWorld, r % 2 == 0 ? even : odd);
    tit += fmt::format("{} comm_split {} {}\n", r, r % 2, r / 2);
    a.collective(r, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, kAll, 0, 0);
    tit += fmt::format("{} barrier\n", r);
    if (r < 2) {
      a.send(r, 1, 6, 20000, r % 2 == 0 ? even : odd);  // communicator rank 1: world r + 2
      tit += fmt::format("{} send {} 6 20000\n", r, r + 2);
    } else {
      a.recv(r, 0, 6, 20000, r % 2 == 0 ? even : odd);
      tit += fmt::format("{} recv {} 6 20000\n", r, r - 2);
    }
  }
  const auto anchor = a.close();
  std::ofstream(dir / "same.tit") << tit;
  const Program from_otf2 = program_from_trace(read_otf2(anchor), {});
  const Program from_tit = program_from_trace(read_tit(dir / "same.tit"), {});
  ASSERT_EQ(from_otf2.communicators.size(), from_tit.communicators.size());
  for (std::size_t c = 0; c < from_otf2.communicators.size(); ++c)
    EXPECT_EQ(from_otf2.communicators[c].members, from_tit.communicators[c].members);
  const MpiRun x = run(from_otf2);
  const MpiRun y = run(from_tit);
  ASSERT_TRUE(x.totals.finished);
  EXPECT_EQ(x.totals.run_time_ps, y.totals.run_time_ps);
  for (std::size_t k = 0; k < x.totals.call_kinds.size(); ++k)
    EXPECT_EQ(x.totals.call_kinds[k].count, y.totals.call_kinds[k].count) << "call kind " << k;
  EXPECT_EQ(bytes_per_pair(x), bytes_per_pair(y));
}

}  // namespace
}  // namespace netwarp::mpiemul::testing
