// main() for MPI GoogleTest binaries: MPI around the tests, output from rank 0 only, and a
// failure on any rank fails the run on every rank. A binary built with NETWARP_MPI_TEST_THREADS
// gets MPI_THREAD_MULTIPLE (partitions as threads in every process); the others keep the single
// level: Open MPI's calls cost more with threads (the PHOLD MPI tests about 1.2x).
#include <gtest/gtest.h>

#include "netwarp/engine/rank_exchange.hpp"

#ifdef NETWARP_MPI_TEST_THREADS
constexpr bool kThreads = true;
#else
constexpr bool kThreads = false;
#endif

int main(int argc, char** argv) {
  netwarp::engine::MpiSession mpi(argc, argv, kThreads);
  testing::InitGoogleTest(&argc, argv);
  const auto exchange = netwarp::engine::make_mpi_exchange();
  if (exchange->rank() != 0) {
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int local = RUN_ALL_TESTS();
  const std::int64_t failures = exchange->sum(local != 0 ? 1 : 0);
  return failures == 0 ? 0 : 1;
}
