// MPI messages of 4 GiB and more: a TIT trace with a 5 GiB send runs over TCP and over the
// lossless transport (StreamTransport carries a transfer's 64-bit size in its packets), with
// and without pipelined rendezvous fragments, and reports 5 GiB delivered. Checked sequential,
// optimistic and in reverse check mode (mpi_fixtures.hpp). A 1 Tbit/s star with 1 MB packets
// keeps it to about 5,400 packets.
#include <gtest/gtest.h>

#include "mpi-emul/mpi_fixtures.hpp"
#include "mpi-emul/trace_test_support.hpp"

namespace netwarp::mpiemul {
namespace {

using testing::run_mpi;
using testing::temp_dir;
using testing::write_file;

constexpr std::uint64_t kFiveGiB = std::uint64_t{5} << 30;
constexpr std::uint32_t kPacketBytes = 1'000'000;

netmodels::NetworkSpec fast_star(netmodels::TransportKind kind) {
  netmodels::NetworkSpec spec = testing::star_platform(2, netmodels::gbps(1000), engine::us(1));
  spec.format = netmodels::testing::plain_format(kPacketBytes);
  spec.transport.kind = kind;
  if (kind == netmodels::TransportKind::tcp)
    spec.switches.buffer_bytes = 256 * std::uint64_t{kPacketBytes};
  return spec;
}

Program five_gib_trace() {
  const std::string path = write_file(temp_dir("big") / "t.tit",
                                      "0 init\n1 init\n0 send 1 0 5368709120\n"
                                      "1 recv 0 0 5368709120\n0 finalize\n1 finalize\n");
  return program_from_trace(read_tit(path), {});
}

struct Case {
  netmodels::TransportKind kind;
  std::uint64_t fragment_bytes;
};

class BigMpiMessage : public ::testing::TestWithParam<Case> {};

TEST_P(BigMpiMessage, FiveGiBSendIsDeliveredWhole) {
  const Program program = five_gib_trace();
  ProtocolConfig protocol;
  protocol.fragment_bytes = GetParam().fragment_bytes;
  const auto run =
      run_mpi(fast_star(GetParam().kind), program, testing::config_for(program, {}, protocol));
  ASSERT_TRUE(run.totals.finished);
  const MessageTotals& rendezvous =
      run.totals.messages[static_cast<std::size_t>(Protocol::rendezvous)];
  EXPECT_EQ(rendezvous.count, 1u);
  EXPECT_EQ(rendezvous.bytes, kFiveGiB);
  // The receiving host's NIC got every byte: the sender's NIC carried them once.
  std::uint64_t sent = 0;
  for (const netmodels::PortRecord& p : run.results.network.ports)
    if (p.node == 0) sent += p.bytes_sent;
  EXPECT_GE(sent, kFiveGiB);
  EXPECT_LT(sent, kFiveGiB + 100'000);
}

std::string case_name(const ::testing::TestParamInfo<Case>& param_info) {
  const bool tcp = param_info.param.kind == netmodels::TransportKind::tcp;
  return std::string(tcp ? "tcp" : "lossless") +
         (param_info.param.fragment_bytes != 0 ? "_fragments" : "");
}

INSTANTIATE_TEST_SUITE_P(Transports, BigMpiMessage,
                         ::testing::Values(Case{netmodels::TransportKind::tcp, 0},
                                           Case{netmodels::TransportKind::lossless, 0},
                                           Case{netmodels::TransportKind::lossless,
                                                std::uint64_t{1} << 30}),
                         case_name);

// Eager messages past 4 GiB under unexpected-buffer credit: the credit returned for each is its
// whole size (carried in two halves), so the second send, which needs the first's credit back
// (6 GiB of credit, 5 GiB each), goes out and the run finishes.
TEST(BigMpiMessage, EagerCreditPastFourGiBIsReturnedWhole) {
  const std::string path = write_file(temp_dir("big_eager") / "t.tit",
                                      "0 send 1 0 5368709120\n0 send 1 0 5368709120\n"
                                      "1 recv 0 0 5368709120\n1 recv 0 0 5368709120\n");
  const Program program = program_from_trace(read_tit(path), {});
  ProtocolConfig protocol;
  protocol.eager_bytes = std::uint64_t{8} << 30;
  protocol.unexpected_buffer_bytes = std::uint64_t{6} << 30;
  const auto run = run_mpi(fast_star(netmodels::TransportKind::lossless), program,
                           testing::config_for(program, {}, protocol));
  ASSERT_TRUE(run.totals.finished);
  const MessageTotals& eager = run.totals.messages[static_cast<std::size_t>(Protocol::eager)];
  EXPECT_EQ(eager.count, 2u);
  EXPECT_EQ(eager.bytes, 2 * kFiveGiB);
}

}  // namespace
}  // namespace netwarp::mpiemul
