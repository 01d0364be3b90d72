// Partitions as threads: the exchange's collectives and ordering, and the optimistic kernel on
// 2 and 4 threads giving the sequential kernel's digest in every sync mode.
#include <gtest/gtest.h>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <span>
#include <thread>

#include "core/thread_hub.hpp"
#include "engine/phold_spread.hpp"
#include "engine/test_models.hpp"
#include "netwarp/engine/cpu_pinning.hpp"

namespace netwarp::engine {
namespace {

std::vector<std::byte> bytes_of(std::int64_t a, std::int64_t b) {
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), &a, 8);
  std::memcpy(bytes.data() + 8, &b, 8);
  return bytes;
}

std::array<std::int64_t, 2> values_of(std::span<const std::byte> bytes) {
  std::array<std::int64_t, 2> v{};
  std::memcpy(v.data(), bytes.data(), 16);
  return v;
}

TEST(ThreadExchange, CollectivesCombineEveryPartitionInOrder) {
  static constexpr int kPartitions = 3;
  run_as_threads(kPartitions, [](RankExchange& ex) {
    ASSERT_EQ(ex.size(), kPartitions);
    const std::int64_t r = ex.rank();
    std::array<std::int64_t, 2> v{r + 1, -r};
    ex.sum(v);
    EXPECT_EQ(v[0], 6);
    EXPECT_EQ(v[1], -3);
    EXPECT_EQ(ex.min(10 - r), 8);
    EXPECT_EQ(ex.max(10 - r), 10);
    const auto all = ex.gather(bytes_of(r, r * r));
    if (r == 0) {
      ASSERT_EQ(all.size(), 3u);
      for (std::int64_t i = 0; i < 3; ++i) EXPECT_EQ(values_of(all[i])[1], i * i);
    } else {
      EXPECT_TRUE(all.empty());
    }
    std::vector<std::byte> shared = r == 0 ? bytes_of(42, 7) : std::vector<std::byte>{};
    ex.broadcast(shared);
    EXPECT_EQ(values_of(shared)[0], 42);
  });
}

// Many GVT-style rounds back to back, each with different values: a partition racing ahead to
// the next round must not disturb what a slower one still reads.
TEST(ThreadExchange, NonBlockingRoundsNeverMixValuesOfTwoRounds) {
  static constexpr int kPartitions = 4;
  run_as_threads(kPartitions, [](RankExchange& ex) {
    const std::int64_t r = ex.rank();
    for (std::int64_t round = 0; round < 2000; ++round) {
      ex.start_sum_and_min(round + r, 1000 * round + r, -round - r);
      std::int64_t total = 0;
      std::int64_t least = 0;
      std::int64_t horizon = 0;
      while (!ex.try_finish_sum_and_min(total, least, horizon)) std::this_thread::yield();
      ASSERT_EQ(total, 4 * round + 6) << round;
      ASSERT_EQ(least, 1000 * round) << round;
      ASSERT_EQ(horizon, -round - 3) << round;
    }
  });
}

TEST(MessageQueue, GivesMessagesBackInOrderAndKeepsOnlyModestStorage) {
  MessageQueue queue;
  std::span<const std::byte> message;
  EXPECT_FALSE(queue.take(message));
  const std::vector<std::byte> first = bytes_of(1, 2);
  const std::vector<std::byte> second(40, std::byte{7});
  queue.add(first);
  queue.add(second);
  ASSERT_TRUE(queue.take(message));
  EXPECT_TRUE(std::equal(message.begin(), message.end(), first.begin(), first.end()));
  ASSERT_TRUE(queue.take(message));
  EXPECT_EQ(message.size(), second.size());
  EXPECT_EQ(message[39], std::byte{7});
  EXPECT_TRUE(queue.empty());
  queue.clear();
  EXPECT_GE(queue.capacity_bytes(), first.size() + second.size()) << "small storage is kept";
  // A burst past kKeptBytes is let go once taken, not held for the rest of the run.
  queue.add(std::vector<std::byte>(MessageQueue::kKeptBytes + 1));
  ASSERT_TRUE(queue.take(message));
  queue.clear();
  EXPECT_EQ(queue.capacity_bytes(), 0u);
}

// send_from copies the message into the mailbox and leaves the sender its buffer's storage;
// try_receive_view lends each message where it lies, each sender's in order, with its own
// length, whatever arrives between two takes.
TEST(ThreadExchange, KeepsEachSendersOrderAndLeavesTheSenderItsStorage) {
  static constexpr int kPartitions = 3;
  static constexpr std::int64_t kMessages = 5000;
  run_as_threads(kPartitions, [](RankExchange& ex) {
    const int r = ex.rank();
    if (r != 0) {
      std::vector<std::byte> bytes;
      for (std::int64_t i = 0; i < kMessages; ++i) {
        bytes = bytes_of(r, i);
        bytes.resize(16 + static_cast<std::size_t>(i % 7) * 8);  // messages of several sizes
        const std::byte* storage = bytes.data();
        ex.send_from(0, bytes);
        EXPECT_TRUE(bytes.empty());  // EXPECT: partition 0 waits for every message
        EXPECT_EQ(bytes.data(), storage) << "the storage stays with the sender";
      }
    } else {
      std::array<std::int64_t, kPartitions> next{};
      std::int64_t received = 0;
      std::span<const std::byte> message;
      while (received < (kPartitions - 1) * kMessages) {
        if (!ex.try_receive_view(message)) {
          std::this_thread::yield();
          continue;
        }
        const auto [sender, seq] = values_of(message);
        ASSERT_EQ(seq, next[static_cast<std::size_t>(sender)]++) << "from " << sender;
        ASSERT_EQ(message.size(), 16 + static_cast<std::size_t>(seq % 7) * 8);
        ++received;
      }
      EXPECT_FALSE(ex.try_receive_view(message));
    }
    ex.barrier();
  });
}

// The kernel reads the published promises, then takes what has arrived: it must then hold every
// message sent before each promise it read, whichever sender's mailbox holds it. Partitions 1
// and 2 each publish, after their message i, the promise i + 1 (the count they have sent).
TEST(ThreadExchange, APromiseReadFirstFollowsEveryMessageSentBeforeIt) {
  static constexpr std::int64_t kMessages = 20000;
  run_as_threads(3, [](RankExchange& ex) {
    EXPECT_FALSE(ex.shares_promises_with(ex.rank()));
    EXPECT_TRUE(ex.shares_promises_with((ex.rank() + 1) % 3));
    if (ex.rank() != 0) {
      for (std::int64_t i = 0; i < kMessages; ++i) {
        ex.send(0, bytes_of(ex.rank(), i));
        ex.publish_promise(i + 1);
      }
    } else {
      std::array<std::int64_t, 3> received{};
      std::vector<std::byte> bytes;
      while (received[1] + received[2] < 2 * kMessages) {
        const std::array<std::int64_t, 3> promised{0, ex.published_promise(1),
                                                   ex.published_promise(2)};
        while (ex.try_receive(bytes)) {
          const auto [sender, seq] = values_of(bytes);
          ASSERT_EQ(seq, received[static_cast<std::size_t>(sender)]++) << "from " << sender;
        }
        ASSERT_GE(received[1], promised[1]);
        ASSERT_GE(received[2], promised[2]);
      }
    }
    ex.barrier();  // 1 and 2 have published their last promises (the last message may come first)
    for (int other = 1; other < 3; ++other) {
      if (other != ex.rank()) {
        EXPECT_EQ(ex.published_promise(other), kMessages);
      }
    }
  });
  // One rank alone shares promises with nobody.
  EXPECT_FALSE(make_local_exchange()->shares_promises_with(0));
}

// A partition that says it waits is wanted by the others, not by itself; saying it twice counts
// once, and saying it stopped clears it.
TEST(ThreadExchange, APartitionThatWaitsIsSeenByTheOthersOnly) {
  run_as_threads(3, [](RankExchange& ex) {
    if (ex.rank() == 0) {
      ex.want_promise(true);
      ex.want_promise(true);
    }
    ex.barrier();
    EXPECT_EQ(ex.promise_wanted(), ex.rank() != 0) << ex.rank();
    ex.barrier();
    if (ex.rank() == 0) ex.want_promise(false);
    ex.barrier();
    EXPECT_FALSE(ex.promise_wanted()) << ex.rank();
  });
}

// A request to join the next round is seen by every partition until that round ends.
TEST(ThreadExchange, ARequestedRoundIsSeenUntilItEnds) {
  run_as_threads(3, [](RankExchange& ex) {
    auto finish_round = [&ex] {
      ex.start_sum_and_min(0, 0, 0);
      std::int64_t total = 0, least = 0, horizon = 0;
      while (!ex.try_finish_sum_and_min(total, least, horizon)) std::this_thread::yield();
    };
    EXPECT_FALSE(ex.round_requested());
    ex.barrier();
    if (ex.rank() == 1) ex.request_round();
    ex.barrier();
    EXPECT_TRUE(ex.round_requested()) << ex.rank();
    ex.barrier();
    finish_round();
    ex.barrier();
    EXPECT_FALSE(ex.round_requested()) << ex.rank();  // that round is over
    ex.barrier();
    if (ex.rank() == 2) ex.request_round();
    ex.barrier();
    EXPECT_TRUE(ex.round_requested()) << ex.rank();
  });
}

#if defined(__linux__)
int allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

// Each partition runs on its own CPU when the process may use enough of them (unpinned, two
// spinning partitions were often kept on one core), the caller's own CPUs are given back
// afterwards, and NETWARP_PIN_THREADS=0 leaves placement to the operating system.
TEST(ThreadExchange, PinsEachPartitionToItsOwnCpuWhenThereAreEnough) {
  const int before = allowed_cpus();
  if (before < 2) GTEST_SKIP() << "needs 2 CPUs";
  std::array<int, 2> cpus{-1, -1};
  std::array<int, 2> counts{0, 0};
  run_as_threads(2, [&](RankExchange& ex) {
    counts[static_cast<std::size_t>(ex.rank())] = allowed_cpus();
    cpus[static_cast<std::size_t>(ex.rank())] = sched_getcpu();
  });
  EXPECT_EQ(counts[0], 1);
  EXPECT_EQ(counts[1], 1);
  EXPECT_NE(cpus[0], cpus[1]);
  EXPECT_EQ(allowed_cpus(), before);

  ::setenv("NETWARP_PIN_THREADS", "0", 1);
  run_as_threads(
      2, [&](RankExchange& ex) { counts[static_cast<std::size_t>(ex.rank())] = allowed_cpus(); });
  ::unsetenv("NETWARP_PIN_THREADS");
  EXPECT_EQ(counts[0], before);
  EXPECT_EQ(counts[1], before);
  // More partitions than CPUs: nobody is pinned.
  std::vector<int> many(static_cast<std::size_t>(before) + 1, 0);
  run_as_threads(before + 1, [&](RankExchange& ex) {
    many[static_cast<std::size_t>(ex.rank())] = allowed_cpus();
  });
  for (int n : many) EXPECT_EQ(n, before);
}

// An MPI job's processes on one machine take disjoint CPUs by their local rank; a process the
// launcher bound to fewer CPUs than the machine's partitions is left as it is.
TEST(CpuPinning, ProcessesOfOneMachineTakeDisjointCpusByLocalRank) {
  const int allowed = allowed_cpus();
  // More partitions on the machine than CPUs, or one alone: nobody is pinned.
  EXPECT_FALSE(cpus_for_partitions(1, MachineSlot{0, allowed + 1})[0].has_value());
  EXPECT_FALSE(cpus_for_partitions(2, MachineSlot{1, allowed})[1].has_value());
  EXPECT_FALSE(cpus_for_partitions(1, MachineSlot{0, 1})[0].has_value());
  if (allowed < 2) GTEST_SKIP() << "needs 2 CPUs";
  const auto first = cpus_for_partitions(1, MachineSlot{0, 2});
  const auto second = cpus_for_partitions(1, MachineSlot{1, 2});
  ASSERT_TRUE(first[0].has_value());
  ASSERT_TRUE(second[0].has_value());
  EXPECT_NE(*first[0], *second[0]);
  // A process whose launcher does not say which of the machine's it is: left as it is.
  const auto unknown = cpus_for_partitions(2, std::nullopt);
  EXPECT_FALSE(unknown[0].has_value() || unknown[1].has_value());
  if (allowed >= 4) {  // 2 processes x 2 threads
    const auto a = cpus_for_partitions(2, MachineSlot{0, 2});
    const auto b = cpus_for_partitions(2, MachineSlot{1, 2});
    std::set<int> all{*a[0], *a[1], *b[0], *b[1]};
    EXPECT_EQ(all.size(), 4u);
  }
  ::setenv("NETWARP_PIN_THREADS", "0", 1);
  EXPECT_FALSE(cpus_for_partitions(1, MachineSlot{1, 2})[0].has_value());
  ::unsetenv("NETWARP_PIN_THREADS");
}

// Partitions take one hardware thread of every core before a second one of any: with siblings
// numbered side by side (0 and 1 share a core), 2 partitions get CPUs 0 and 2, not 0 and 1.
TEST(CpuPinning, PartitionsTakeEveryCoreBeforeASecondThreadOfOne) {
  const std::vector<int> cpus{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(cores_first(cpus, [](int cpu) { return cpu % 2; }),
            (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
  // Siblings numbered half a machine apart (0 and 4 share a core): the order already is.
  EXPECT_EQ(cores_first(cpus, [](int cpu) { return cpu / 4; }), cpus);
  // No topology known: CPU order.
  EXPECT_EQ(cores_first(cpus, [](int) { return 0; }), cpus);
  // Four threads a core, a process allowed some of them.
  EXPECT_EQ(cores_first({1, 2, 5, 6, 9}, [](int cpu) { return cpu % 4; }),
            (std::vector<int>{1, 5, 9, 2, 6}));
}

// More partitions than CPUs: the exchanges say so, and waiting partitions yield at once (a
// spinning one held the CPU the awaited one needed: torus-alltoall on 4 threads of 2 CPUs took
// 22 s instead of 2.7 s).
TEST(CpuPinning, PartitionsBeyondTheCpusShareThem) {
  const int allowed = allowed_cpus();
  EXPECT_TRUE(partitions_share_cpus(static_cast<std::size_t>(allowed) + 1, MachineSlot{}));
  EXPECT_FALSE(partitions_share_cpus(static_cast<std::size_t>(allowed), MachineSlot{}));
  EXPECT_FALSE(partitions_share_cpus(1, std::nullopt));
  EXPECT_TRUE(make_thread_exchanges(allowed + 1)[0]->shares_cpus());
  EXPECT_FALSE(make_thread_exchanges(1)[0]->shares_cpus());
  EXPECT_FALSE(make_local_exchange()->shares_cpus());
  // Processes of one machine, this one free to use every CPU: theirs count too.
  if (allowed == static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN))) {
    EXPECT_TRUE(partitions_share_cpus(1, MachineSlot{0, allowed + 1}));
    EXPECT_FALSE(partitions_share_cpus(1, MachineSlot{0, allowed}));
  }
}

// A pinned partition's usable CPUs are its one; a helper it starts (the outputs' writers) can
// widen itself to the CPUs the process had before any pinning.
TEST(CpuPinning, AHelperOfAPinnedPartitionRunsOnTheProcessCpus) {
  const int allowed = allowed_cpus();
  if (allowed < 2) GTEST_SKIP() << "needs 2 CPUs";
  std::vector<std::size_t> own(2), process(2), helper(2);
  run_as_threads(2, [&](RankExchange& ex) {
    const auto r = static_cast<std::size_t>(ex.rank());
    own[r] = usable_cpus();
    process[r] = process_cpus();
    std::thread([&] {
      run_on_process_cpus();
      helper[r] = usable_cpus();
    }).join();
  });
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(own[r], 1u);
    EXPECT_EQ(process[r], static_cast<std::size_t>(allowed));
    EXPECT_EQ(helper[r], static_cast<std::size_t>(allowed));
  }
  EXPECT_EQ(usable_cpus(), static_cast<std::size_t>(allowed));  // unpinned again after the run
}

TEST(CpuPinning, ReadsTheCpuListsOfSysfs) {
  EXPECT_EQ(position_in_cpu_list("0-1\n", 1), 1);
  EXPECT_EQ(position_in_cpu_list("0,8", 8), 1);
  EXPECT_EQ(position_in_cpu_list("0,8", 0), 0);
  EXPECT_EQ(position_in_cpu_list("2-3,10-11", 10), 2);
  EXPECT_EQ(position_in_cpu_list("5", 5), 0);
  EXPECT_EQ(position_in_cpu_list("0-3", 7), -1);
  EXPECT_EQ(position_in_cpu_list("x-1", 1), -1);
  EXPECT_EQ(position_in_cpu_list("3-1", 2), -1);
  EXPECT_EQ(position_in_cpu_list("", 0), -1);
}

TEST(CpuPinning, TheLauncherSaysWhichProcessOfTheMachineThisIs) {
  ::unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  ::unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  EXPECT_FALSE(machine_slot_from_launcher().has_value());
  ::setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  const auto slot = machine_slot_from_launcher();
  ASSERT_TRUE(slot.has_value());
  EXPECT_EQ(slot->index, 1);
  EXPECT_EQ(slot->count, 2);
  ::setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1);  // not one of 2
  EXPECT_FALSE(machine_slot_from_launcher().has_value());
  ::setenv("OMPI_COMM_WORLD_LOCAL_RANK", "x", 1);
  EXPECT_FALSE(machine_slot_from_launcher().has_value());
  ::unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  ::unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
}
#endif

TEST(ThreadExchange, RethrowsAPartitionsExceptionAfterJoiningAll) {
  std::atomic<int> finished{0};
  EXPECT_THROW(run_as_threads(2,
                              [&](RankExchange& ex) {
                                ++finished;
                                if (ex.rank() == 1) throw std::runtime_error("partition 1");
                              }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 2);
}

struct ThreadRun {
  int threads;
  SyncMode sync;
};

class PholdOnThreads : public ::testing::TestWithParam<ThreadRun> {};

// Every partition's statistics from one run of `model` on `threads` threads.
std::vector<RunStats> run_on_threads(const Model& model, const KernelConfig& config, int threads) {
  std::mutex mutex;
  std::vector<RunStats> stats;
  run_as_threads(threads, [&](RankExchange& ex) {
    const RunResult run = run_optimistic(model, config, ex);
    const std::lock_guard<std::mutex> lock(mutex);
    stats.push_back(run.stats);
  });
  return stats;
}

// Every partition's share sits in its own slot: each handled, committed and sent events of its
// own (the run's totals, which the caller checks against the sequential kernel, are their sums).
void expect_every_partition_worked(const RunStats& s, int threads) {
  ASSERT_EQ(s.partitions.size(), static_cast<std::size_t>(threads));
  for (std::size_t r = 0; r < s.partitions.size(); ++r) {
    const PartitionStats& p = s.partitions[r];
    EXPECT_GT(p.events_committed, 0u) << r;
    EXPECT_GE(p.events_processed, p.events_committed) << r;
    EXPECT_GT(p.remote_events_sent, 0u) << r;
    EXPECT_GT(p.handling_seconds, 0.0) << r;
  }
}

// The digests and committed counts of the sequential kernel, on threads, with tunings that
// roll back often (one event per batch, a tiny memory cap, hybrid running ahead whenever it
// waits) and with the defaults.
TEST_P(PholdOnThreads, MatchesTheSequentialKernel) {
  const auto [threads, sync] = GetParam();
  const phold::PholdConfig c = testing::phold_spread(threads, 64, 150);
  const phold::PholdModel model(c);
  KernelConfig config;
  config.end_time = SimTime::from_us(c.end);
  const RunResult reference = run_sequential(model, config);
  config.kind = KernelKind::optimistic;
  config.sync = sync;
  for (const testing::ThreadTuning& t : testing::kThreadTunings) {
    testing::apply_tuning(t, config);
    const std::vector<RunStats> stats = run_on_threads(model, config, threads);
    ASSERT_EQ(stats.size(), static_cast<std::size_t>(threads));
    for (const RunStats& s : stats) {
      EXPECT_EQ(s.digest, reference.stats.digest) << t.name;
      EXPECT_EQ(s.events_committed, reference.stats.events_committed);
      EXPECT_EQ(s.ranks, threads);
      EXPECT_GT(s.remote_events_sent, 0u);
      expect_every_partition_worked(s, threads);
      if (sync == SyncMode::conservative) {
        EXPECT_EQ(s.events_rolled_back, 0u);
      }
      if (sync == SyncMode::hybrid && t.speculate_at_once) {  // ran ahead, committed between rounds
        EXPECT_LT(s.events_safe, s.events_committed) << "nothing ran past the horizon";
      }
    }
  }
}

// One set of exchanges for two runs, as an MPI job's exchange serves every run of a process: the
// second run must not take the first one's last promises (far past its own start) for its own.
TEST(PholdOnThreads, ASecondRunOnTheSameExchangesStartsFromNoPromises) {
  const phold::PholdConfig c = testing::phold_spread(2, 64, 150);
  const phold::PholdModel model(c);
  KernelConfig config;
  config.end_time = SimTime::from_us(c.end);
  const RunResult reference = run_sequential(model, config);
  config.kind = KernelKind::optimistic;
  config.sync = SyncMode::conservative;  // no rollback: a wrong horizon shows in the digest
  const auto exchanges = make_thread_exchanges(2);
  for (int run = 0; run < 2; ++run) {
    run_as_threads(exchanges, [&](RankExchange& ex) {
      const RunResult result = run_optimistic(model, config, ex);
      EXPECT_EQ(result.stats.digest, reference.stats.digest) << "run " << run;
      EXPECT_EQ(result.stats.events_committed, reference.stats.events_committed) << "run " << run;
    });
  }
}

INSTANTIATE_TEST_SUITE_P(
    Threads, PholdOnThreads,
    ::testing::Values(ThreadRun{2, SyncMode::optimistic}, ThreadRun{2, SyncMode::conservative},
                      ThreadRun{2, SyncMode::hybrid}, ThreadRun{4, SyncMode::optimistic},
                      ThreadRun{4, SyncMode::conservative}, ThreadRun{4, SyncMode::hybrid}),
    [](const auto& test) {
      return std::to_string(test.param.threads) + "_" + std::string(sync_name(test.param.sync));
    });

}  // namespace
}  // namespace netwarp::engine
