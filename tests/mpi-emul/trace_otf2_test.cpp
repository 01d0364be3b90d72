// OTF2 input: archives written here with the OTF2 writer API (otf2/otf2_test_archive.hpp) are
// read into the same program as the TIT trace of the same calls, and replay to the same run;
// unsupported records and communicators are refused in one line naming the archive, the
// location and the event.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "mpi_fixtures.hpp"
#include "otf2/otf2_test_archive.hpp"
#include "trace_test_support.hpp"

namespace netwarp::mpiemul::testing {
namespace {

constexpr std::uint32_t kAll = OTF2_UNDEFINED_UINT32;

// One program written twice: as an OTF2 archive (1e9 ticks per second) and as a TIT file
// whose compute at 1e9 flops per second lasts as long as the archive's gaps.
class TwinTraces {
 public:
  TwinTraces(const std::filesystem::path& dir, std::uint32_t ranks)
      : archive_(dir / "archive", ranks), tit_(dir / "same.tit") {}

  std::uint32_t ranks() const { return archive_.ranks(); }
  void compute(std::uint32_t r, std::uint64_t ticks) {
    archive_.compute(r, ticks);
    line(r, fmt::format("compute {}", ticks));
  }
  void send(std::uint32_t r, std::uint32_t dst, std::uint32_t tag, std::uint64_t bytes) {
    archive_.send(r, dst, tag, bytes);
    line(r, fmt::format("send {} {} {}", dst, tag, bytes));
  }
  void recv(std::uint32_t r, std::uint32_t src, std::uint32_t tag, std::uint64_t bytes) {
    archive_.recv(r, src, tag, bytes);
    line(r, fmt::format("recv {} {} {}", src, tag, bytes));
  }
  std::uint64_t isend(std::uint32_t r, std::uint32_t dst, std::uint32_t tag, std::uint64_t bytes) {
    line(r, fmt::format("isend {} {} {}", dst, tag, bytes));
    const std::uint64_t request = archive_.isend(r, dst, tag, bytes);
    keys_[{r, request}] = fmt::format("wait {} {} {}", r, dst, tag);
    return request;
  }
  std::uint64_t irecv(std::uint32_t r, std::uint32_t src, std::uint32_t tag, std::uint64_t bytes) {
    line(r, fmt::format("irecv {} {} {}", src, tag, bytes));
    const std::uint64_t request = archive_.irecv(r);
    keys_[{r, request}] = fmt::format("wait {} {} {}", src, r, tag);
    irecvs_[{r, request}] = {src, tag, bytes};
    return request;
  }
  void wait(std::uint32_t r, std::uint64_t request) {
    line(r, keys_.at({r, request}));
    const auto at = irecvs_.find({r, request});
    if (at == irecvs_.end()) return archive_.wait_isend(r, request);
    archive_.wait_irecv(r, request, at->second[0], static_cast<std::uint32_t>(at->second[1]),
                        at->second[2]);
  }
  void barrier() {
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      archive_.collective(r, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, kAll, 0, 0);
      line(r, "barrier");
    }
  }
  void bcast(std::uint64_t bytes, std::uint32_t root) {
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      archive_.collective(r, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, root,
                          r == root ? ranks() * bytes : 0, bytes);
      line(r, fmt::format("bcast {} {}", bytes, root));
    }
  }
  void allreduce(std::uint64_t bytes) {
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      archive_.collective(r, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, kAll, ranks() * bytes,
                          ranks() * bytes);
      line(r, fmt::format("allreduce {} 0", bytes));
    }
  }
  void alltoall(std::uint64_t block) {
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      archive_.collective(r, "MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, kAll, ranks() * block,
                          ranks() * block);
      line(r, fmt::format("alltoall {} {}", block, block));
    }
  }
  void reduce(std::uint64_t bytes, std::uint32_t root) {
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      archive_.collective(r, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, root, bytes,
                          r == root ? ranks() * bytes : 0);
      line(r, fmt::format("reduce {} 0 {}", bytes, root));
    }
  }
  // Rank r contributes blocks[r].
  void allgatherv(const std::vector<std::uint64_t>& blocks) {
    std::uint64_t total = 0;
    for (const std::uint64_t b : blocks) total += b;
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      archive_.collective(r, "MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, kAll,
                          ranks() * blocks[r], total);
      line(r, fmt::format("allgatherv {} {}", blocks[r], fmt::join(blocks, " ")));
    }
  }
  void gatherv(const std::vector<std::uint64_t>& blocks, std::uint32_t root) {
    std::uint64_t total = 0;
    for (const std::uint64_t b : blocks) total += b;
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      archive_.collective(r, "MPI_Gatherv", OTF2_COLLECTIVE_OP_GATHERV, root, blocks[r],
                          r == root ? total : 0);
      line(r, fmt::format("gatherv {} {} {}", blocks[r], fmt::join(blocks, " "), root));
    }
  }

  Otf2TestArchive& archive() { return archive_; }
  // Closes both; {anchor, TIT file}.
  std::pair<std::filesystem::path, std::filesystem::path> close() {
    std::ofstream(tit_) << text_;
    return {archive_.close(), tit_};
  }

 private:
  void line(std::uint32_t r, const std::string& action) {
    text_ += fmt::format("{} {}\n", r, action);
  }

  Otf2TestArchive archive_;
  std::filesystem::path tit_;
  std::string text_;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> keys_;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::array<std::uint64_t, 3>> irecvs_;
};

// A halo exchange with requests, blocking messages and the collectives on 4 ranks.
void write_mixed_program(TwinTraces& t) {
  const std::uint32_t n = t.ranks();
  for (std::uint32_t r = 0; r < n; ++r) t.compute(r, 1000 + 250 * r);
  for (int step = 0; step < 2; ++step) {
    for (std::uint32_t r = 0; r < n; ++r) {
      const std::uint64_t in = t.irecv(r, (r + n - 1) % n, 5, 20000);
      const std::uint64_t out = t.isend(r, (r + 1) % n, 5, 20000);
      t.compute(r, 3000);
      t.wait(r, out);
      t.wait(r, in);
    }
    t.allreduce(64);
  }
  t.send(0, 3, 9, 100000);
  t.recv(3, 0, 9, 100000);
  t.bcast(5000, 2);
  t.barrier();
  t.alltoall(1500);
  t.reduce(800, 1);
  t.allgatherv({100, 2000, 300, 4000});
  t.gatherv({10, 20, 30, 40}, 3);
  for (std::uint32_t r = 0; r < n; ++r) t.compute(r, 700);
}

TEST(Otf2Trace, ArchiveAndTitOfTheSameProgramGiveTheSameProgram) {
  TwinTraces twins(temp_dir("otf2_same_program"), 4);
  write_mixed_program(twins);
  const auto [anchor, tit] = twins.close();
  const proto::Trace otf2 = read_trace(anchor);
  ASSERT_EQ(otf2.ranks_size(), 4);
  EXPECT_EQ(describe_program(program_from_trace(otf2, {})),
            describe_program(program_from_trace(read_tit(tit), {})));
}

TEST(Otf2Trace, ArchiveAndTitOfTheSameProgramGiveTheSameRun) {
  TwinTraces twins(temp_dir("otf2_same_run"), 4);
  write_mixed_program(twins);
  const auto [anchor, tit] = twins.close();
  const Program from_otf2 = program_from_trace(read_trace(anchor), {});
  const Program from_tit = program_from_trace(read_tit(tit), {});
  const auto spec = star_platform(4, 10'000'000'000, SimTime::from_ps(500000));
  const MpiRun a = run_mpi(spec, from_otf2, config_for(from_otf2));
  const MpiRun b = run_mpi(spec, from_tit, config_for(from_tit));
  ASSERT_TRUE(a.totals.finished);
  EXPECT_GT(a.totals.run_time_ps, 0);
  EXPECT_EQ(a.totals.run_time_ps, b.totals.run_time_ps);
  EXPECT_EQ(a.stats.digest, b.stats.digest);
  for (std::size_t k = 0; k < a.totals.call_kinds.size(); ++k)
    EXPECT_EQ(a.totals.call_kinds[k].count, b.totals.call_kinds[k].count) << "call kind " << k;
  EXPECT_EQ(a.results.to_bytes(), b.results.to_bytes());
  expect_breakdowns_add_up(a.results);
}

TEST(Otf2Trace, TimeBetweenCallsIsComputeAtTheClockResolution) {
  const auto dir = temp_dir("otf2_clock");
  Otf2TestArchive archive(dir, 2, 1'000'000);  // microsecond ticks
  archive.compute(0, 40);
  archive.send(0, 1, 0, 8);
  archive.compute(0, 3);
  archive.recv(1, 0, 0, 8);
  const proto::Trace trace = read_otf2(archive.close());
  EXPECT_EQ(describe_ops(program_from_trace(trace, {}).ranks[0]),
            (std::vector<std::string>{"compute 40000000", "send>1 t0 8 r0", "compute 3000000"}));
  TraceProgramOptions halved;
  halved.compute_scale = 0.5;
  EXPECT_EQ(describe_ops(program_from_trace(trace, halved).ranks[0]),
            (std::vector<std::string>{"compute 20000000", "send>1 t0 8 r0", "compute 1500000"}));
}

// User regions nest inside the compute time; an MPI record outside any MPI region is a call of
// its own at its timestamp.
TEST(Otf2Trace, OnlyMpiRegionsInterruptTheComputeTime) {
  const auto dir = temp_dir("otf2_regions");
  Otf2TestArchive archive(dir, 2);
  archive.compute(0, 100);
  archive.call(0, "MPI_Send", [](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    ASSERT_EQ(OTF2_EvtWriter_MpiSend(w, nullptr, t, 1, Otf2TestArchive::kWorld, 1, 64),
              OTF2_SUCCESS);
  });
  archive.recv(1, 0, 1, 64);
  const proto::Trace trace = read_otf2(archive.close());
  // rank 0: enter main at 0, MPI_Send region from 100 to 103.
  ASSERT_EQ(trace.ranks(0).actions_size(), 2);
  EXPECT_DOUBLE_EQ(trace.ranks(0).actions(0).sleep().seconds(), 100e-9);
  EXPECT_EQ(trace.ranks(0).actions(1).send().dst(), 1);
  EXPECT_EQ(trace.ranks(1).actions(0).recv().bytes(), 64u);
}

// Score-P writes MPI_Sendrecv as an MpiSend and an MpiRecv inside one call: as a blocking send
// then a receive, two ranks exchanging 1 MiB would both wait in their rendezvous send forever.
TEST(Otf2Trace, SendAndReceiveInOneCallAreOneSendrecv) {
  const auto dir = temp_dir("otf2_sendrecv");
  Otf2TestArchive archive(dir, 2);
  constexpr std::uint64_t kMiB = 1 << 20;
  for (std::uint32_t r = 0; r < 2; ++r)
    archive.call(r, "MPI_Sendrecv", [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
      ASSERT_EQ(OTF2_EvtWriter_MpiSend(w, nullptr, t, 1 - r, Otf2TestArchive::kWorld, 4, kMiB),
                OTF2_SUCCESS);
      ASSERT_EQ(OTF2_EvtWriter_MpiRecv(w, nullptr, t + 1, 1 - r, Otf2TestArchive::kWorld, 4, kMiB),
                OTF2_SUCCESS);
    });
  const proto::Trace trace = read_otf2(archive.close());
  ASSERT_EQ(trace.ranks(1).actions_size(), 1);
  const proto::SendRecv& sendrecv = trace.ranks(1).actions(0).sendrecv();
  EXPECT_EQ(sendrecv.dst(), 0);
  EXPECT_EQ(sendrecv.src(), 0);
  EXPECT_EQ(sendrecv.send_bytes(), kMiB);
  const Program program = program_from_trace(trace, {});
  const MpiRun run = run_mpi(star_platform(2, 10'000'000'000, SimTime::from_ps(500000)), program,
                             config_for(program), true);
  EXPECT_TRUE(run.totals.finished);
}

// A duplicate of MPI_COMM_WORLD (every rank in rank order) replays as MPI_COMM_WORLD, as TIT's
// comm_dup does.
TEST(Otf2Trace, DuplicatesOfCommWorldAreCommWorld) {
  const auto dir = temp_dir("otf2_dup");
  Otf2TestArchive archive(dir, 2);
  const OTF2_CommRef dup = archive.add_comm("dup of world", {0, 1});
  for (std::uint32_t r = 0; r < 2; ++r)
    archive.collective(r, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 1, r == 1 ? 128 : 0, 64, dup);
  const proto::Trace trace = read_otf2(archive.close());
  ASSERT_EQ(trace.ranks(0).actions_size(), 1);
  EXPECT_EQ(trace.ranks(0).actions(0).bcast().bytes(), 64u);
  EXPECT_EQ(trace.ranks(0).actions(0).bcast().root(), 1);
}

TEST(Otf2Trace, CollectivesOnCommSelfCommunicateNothing) {
  const auto dir = temp_dir("otf2_self");
  Otf2TestArchive archive(dir, 2);
  archive.collective(0, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, kAll, 8, 8,
                     Otf2TestArchive::kSelf);
  archive.collective(0, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, kAll, 0, 0);
  archive.collective(1, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, kAll, 0, 0);
  const proto::Trace trace = read_otf2(archive.close());
  ASSERT_EQ(trace.ranks(0).actions_size(), 1);
  EXPECT_TRUE(trace.ranks(0).actions(0).has_barrier());
}

// One line, as every trace error.
std::string read_error(const std::filesystem::path& anchor) {
  const std::string message = trace_error([&] { read_trace(anchor); });
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

// The per-rank lists OTF2 does not hold come from every rank's own record; alltoallv's
// per-peer blocks, which no record holds, are spread evenly.
TEST(Otf2Trace, VectorCollectivesCollectEveryRanksBlock) {
  const auto dir = temp_dir("otf2_vector");
  Otf2TestArchive archive(dir, 3);
  const std::vector<std::uint64_t> blocks = {5, 6, 7};
  for (std::uint32_t r = 0; r < 3; ++r) {
    archive.collective(r, "MPI_Scatterv", OTF2_COLLECTIVE_OP_SCATTERV, 0, r == 0 ? 18 : 0,
                       blocks[r]);
    archive.collective(r, "MPI_Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER, kAll, 18,
                       3 * blocks[r]);
    archive.collective(r, "MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, kAll, 10, 9);
  }
  const proto::Trace trace = read_otf2(archive.close());
  for (int r = 0; r < 3; ++r) {
    const auto& actions = trace.ranks(r).actions();
    ASSERT_EQ(actions.size(), 3);
    EXPECT_THAT(actions[0].scatterv().send_bytes(), ::testing::ElementsAre(5, 6, 7));
    EXPECT_EQ(actions[0].scatterv().recv_bytes(), blocks[static_cast<std::size_t>(r)]);
    EXPECT_THAT(actions[1].reduce_scatter().recv_bytes(), ::testing::ElementsAre(5, 6, 7));
    EXPECT_THAT(actions[2].alltoallv().send_bytes(), ::testing::ElementsAre(4, 3, 3));
    EXPECT_THAT(actions[2].alltoallv().recv_bytes(), ::testing::ElementsAre(3, 3, 3));
  }
  EXPECT_NO_THROW(program_from_trace(trace, {}));
}

TEST(Otf2Trace, RanksWithDifferentCollectiveCallsAreRefused) {
  const auto dir = temp_dir("otf2_mismatch");
  Otf2TestArchive archive(dir, 2);
  archive.collective(0, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, kAll, 0, 0);
  archive.collective(1, "MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, kAll, 8, 8);
  const auto anchor = archive.close();
  EXPECT_EQ(read_error(anchor), anchor.string() +
                                    ": collective call 1 of rank 1 is MPI_Allgatherv but rank "
                                    "0's is MPI_Barrier");
}

// ---- refusals: one line naming the archive, the location and the event (OTF2 counts a
// location's events from 1; every archive here starts with Enter main) ----

TEST(Otf2Trace, SubCommunicatorsUsedBeforeTheyAreMadeAreRefused) {
  const auto dir = temp_dir("otf2_subcomm");
  Otf2TestArchive archive(dir, 4);
  const OTF2_CommRef half = archive.add_comm("row", {0, 1});
  archive.compute(1, 10);
  archive.collective(1, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0, 0, 64, half);
  const auto anchor = archive.close();
  EXPECT_EQ(read_error(anchor),
            anchor.string() +
                ": location 'rank 1' (rank 1), event 4 (MpiCollectiveEnd at tick 12): "
                "communicator 'row' (2 of the 4 ranks) is used before this rank made it (no "
                "creation on its parent that gives it this rank)");
}

TEST(Otf2Trace, OneSidedRecordsAreRefused) {
  const auto dir = temp_dir("otf2_rma");
  Otf2TestArchive archive(dir, 2);
  archive.call(1, "MPI_Put", [](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    ASSERT_EQ(OTF2_EvtWriter_RmaPut(w, nullptr, t, 0, 0, 64, 1), OTF2_SUCCESS);
  });
  const auto anchor = archive.close();
  EXPECT_EQ(read_error(anchor), anchor.string() +
                                    ": location 'rank 1' (rank 1), event 3 (RmaPut at tick 1): "
                                    "netwarp cannot replay this record");
}

TEST(Otf2Trace, CollectivesTheModelLacksAreRefused) {
  const auto dir = temp_dir("otf2_scan");
  Otf2TestArchive archive(dir, 2);
  archive.collective(0, "MPI_Scan", OTF2_COLLECTIVE_OP_SCAN, kAll, 16, 8);
  const auto anchor = archive.close();
  EXPECT_EQ(read_error(anchor), anchor.string() +
                                    ": location 'rank 0' (rank 0), event 4 (MpiCollectiveEnd at "
                                    "tick 2): MPI_Scan: the program model has no such collective");
}

TEST(Otf2Trace, ReceiveRequestsThatNeverCompleteAreRefused) {
  const auto dir = temp_dir("otf2_open_irecv");
  Otf2TestArchive archive(dir, 2);
  archive.irecv(0);
  const auto anchor = archive.close();
  EXPECT_EQ(read_error(anchor),
            anchor.string() +
                ": location 'rank 0' (rank 0), at the end: request 1 (MpiIrecvRequest) never "
                "completes: no MpiIrecv tells its source and size");
}

TEST(Otf2Trace, CompletionsOfUnknownRequestsAreRefused) {
  const auto dir = temp_dir("otf2_unknown_request");
  Otf2TestArchive archive(dir, 2);
  archive.wait_isend(1, 42);
  const auto anchor = archive.close();
  EXPECT_EQ(read_error(anchor), anchor.string() +
                                    ": location 'rank 1' (rank 1), event 3 (MpiIsendComplete at "
                                    "tick 1): request 42 is no pending MpiIsend's");
}

TEST(Otf2Trace, MissingAndBrokenArchivesAreOneLineErrors) {
  const auto dir = temp_dir("otf2_broken");
  const auto missing = dir / "nothing" / "traces.otf2";
  EXPECT_EQ(read_error(missing),
            missing.string() + ": no such OTF2 archive (name its anchor file, DIR/traces.otf2)");
  const std::string garbage = write_file(dir / "traces.otf2", "not an anchor file\n");
  const std::string message = read_error(garbage);
  EXPECT_EQ(message.rfind(garbage + ": not an OTF2 archive: ", 0), 0u) << message;
}

TEST(Otf2Trace, ConvertsToEveryTraceFormat) {
  TwinTraces twins(temp_dir("otf2_convert"), 4);
  write_mixed_program(twins);
  const auto [anchor, tit] = twins.close();
  const proto::Trace trace = read_trace(anchor);
  const auto dir = anchor.parent_path();
  for (const char* name : {"out.pb", "out.pbtxt", "out.tit"}) {
    write_trace(trace, dir / name);
    EXPECT_EQ(describe_program(program_from_trace(read_trace(dir / name), {})),
              describe_program(program_from_trace(trace, {})))
        << name;
  }
}

}  // namespace
}  // namespace netwarp::mpiemul::testing
