// otf2_example_writer OUT_DIR: writes the example OTF2 archives shipped in scenarios/traces/
// (OUT_DIR/otf2-halo/traces.otf2 and OUT_DIR/otf2-collectives/traces.otf2), replacing them.
//   otf2-halo: 8 ranks, 4 iterations of compute, a ring halo exchange with MPI_Irecv/Isend/Wait
//     and an MPI_Allreduce, as a Score-P trace of a stencil code would show it.
//   otf2-collectives: 4 ranks, a ping-pong between ranks 0 and 1 (MPI_Send/MPI_Recv), then
//     MPI_Bcast, MPI_Alltoall, MPI_Reduce and MPI_Barrier between compute phases.
// Clock: 1e9 ticks per second; every MPI call lasts Otf2TestArchive::kCallTicks.
#include <cstdio>
#include <filesystem>

#include "otf2_test_archive.hpp"

namespace {

using netwarp::mpiemul::testing::Otf2TestArchive;
constexpr std::uint32_t kAll = OTF2_UNDEFINED_UINT32;

void write_halo(const std::filesystem::path& dir) {
  constexpr std::uint32_t kRanks = 8;
  Otf2TestArchive a(dir, kRanks);
  for (int iteration = 0; iteration < 4; ++iteration) {
    for (std::uint32_t r = 0; r < kRanks; ++r) {
      a.compute(r, 200'000 + 10'000 * r);  // 0.2 ms and a little imbalance
      const std::uint32_t left = (r + kRanks - 1) % kRanks;
      const std::uint32_t right = (r + 1) % kRanks;
      const std::uint64_t from_left = a.irecv(r);
      const std::uint64_t from_right = a.irecv(r);
      const std::uint64_t to_right = a.isend(r, right, 1, 65536);
      const std::uint64_t to_left = a.isend(r, left, 2, 65536);
      a.wait_irecv(r, from_left, left, 1, 65536);
      a.wait_irecv(r, from_right, right, 2, 65536);
      a.wait_isend(r, to_right);
      a.wait_isend(r, to_left);
      a.compute(r, 5'000);
      a.collective(r, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, kAll, kRanks * 8, kRanks * 8);
    }
  }
  a.close();
}

void write_collectives(const std::filesystem::path& dir) {
  constexpr std::uint32_t kRanks = 4;
  Otf2TestArchive a(dir, kRanks);
  for (std::uint64_t bytes : {1024u, 65536u, 1048576u}) {
    a.send(0, 1, 0, bytes);
    a.recv(1, 0, 0, bytes);
    a.send(1, 0, 0, bytes);
    a.recv(0, 1, 0, bytes);
  }
  for (std::uint32_t r = 0; r < kRanks; ++r) {
    a.compute(r, 100'000);
    a.collective(r, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0, r == 0 ? kRanks * 262144 : 0, 262144);
    a.compute(r, 50'000);
    a.collective(r, "MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, kAll, kRanks * 16384,
                 kRanks * 16384);
    a.collective(r, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 0, 4096, r == 0 ? kRanks * 4096 : 0);
    a.collective(r, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, kAll, 0, 0);
  }
  a.close();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: otf2_example_writer OUT_DIR\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  for (const char* name : {"otf2-halo", "otf2-collectives"})
    std::filesystem::remove_all(out / name);
  write_halo(out / "otf2-halo");
  write_collectives(out / "otf2-collectives");
  std::printf("wrote %s and %s\n", (out / "otf2-halo" / "traces.otf2").c_str(),
              (out / "otf2-collectives" / "traces.otf2").c_str());
  return 0;
}
