// PcapWriter (netmodels/src/output/pcap_writer.cpp): writes a few packets and reads them back
// with tshark, checking addresses, ports, raw sequence numbers, ECN bits, lengths, timestamps
// and the IPv4 and TCP checksums (1: good, 2: unverified). tshark is a test dependency
// (scripts/install-deps.sh installs it): without it these tests fail rather than skip.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "netwarp/netmodels/pcap_writer.hpp"

namespace netwarp::netmodels {
namespace {

struct CommandResult {
  std::string output;
  int status = -1;
};

CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  result.status = ::pclose(pipe);
  return result;
}

std::vector<std::vector<std::string>> rows_of(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
    rows.push_back(fields);
  }
  return rows;
}

PacketTrace trace(std::int64_t time_ps, PacketKind kind, NodeId src, NodeId dst, std::uint32_t seq,
                  std::uint32_t ack, std::uint32_t payload, std::uint8_t flags) {
  PacketTrace t;
  t.time_ps = time_ps;
  t.node = src;
  t.packet.flow = 7;
  t.packet.kind = kind;
  t.packet.src = src;
  t.packet.dst = dst;
  t.packet.seq = seq;
  t.packet.ack = ack;
  t.packet.payload_bytes = payload;
  t.packet.flags = flags;
  return t;
}

class PcapWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run("command -v tshark >/dev/null 2>&1").status, 0)
        << "tshark is not on PATH: run scripts/install-deps.sh (it installs tshark)";
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // tshark's fields of every packet in the file, one row per packet.
  std::vector<std::vector<std::string>> read_back(const std::string& fields) {
    const CommandResult r = run("tshark -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -r " +
                                path_ + " -T fields" + fields + " 2>/dev/null");
    EXPECT_EQ(r.status, 0) << "tshark failed on " << path_;
    return rows_of(r.output);
  }

  std::string path_ = (std::filesystem::temp_directory_path() /
                       ("netwarp_pcap_" + std::to_string(::getpid()) + ".pcap"))
                          .string();
};

TEST_F(PcapWriterTest, TsharkReadsAddressesSequencesAndEcn) {
  {
    PcapWriter writer(path_);
    writer.write(trace(1'500'000, PacketKind::data, 1, 3, 1000, 0, 1460, packet_flags::ect));
    writer.write(trace(2'000'000, PacketKind::data, 1, 3, 2460, 0, 1460,
                       packet_flags::ect | packet_flags::ce));
    writer.write(trace(3'000'000, PacketKind::ack, 3, 1, 0, 3920, 0, packet_flags::ece));
    writer.write(trace(4'000'000, PacketKind::data, 300, 70000, 5, 0, 10, 0));
    EXPECT_EQ(writer.packets_written(), 4u);
  }
  const auto rows = read_back(
      " -e frame.number -e ip.src -e ip.dst -e tcp.seq_raw -e tcp.ack_raw -e ip.dsfield.ecn"
      " -e tcp.srcport -e tcp.dstport -e tcp.flags.ece -e ip.checksum.status");
  ASSERT_EQ(rows.size(), 4u);
  using Row = std::vector<std::string>;
  EXPECT_EQ(rows[0],
            (Row{"1", "10.0.0.1", "10.0.0.3", "1000", "0", "2", "10007", "5001", "0", "1"}));
  EXPECT_EQ(rows[1],
            (Row{"2", "10.0.0.1", "10.0.0.3", "2460", "0", "3", "10007", "5001", "0", "1"}));
  EXPECT_EQ(rows[2],
            (Row{"3", "10.0.0.3", "10.0.0.1", "0", "3920", "0", "5001", "10007", "1", "1"}));
  EXPECT_EQ(rows[3],
            (Row{"4", "10.0.1.44", "10.1.17.112", "5", "0", "0", "10007", "5001", "0", "1"}));
}

TEST_F(PcapWriterTest, FramesAreTruncatedButKeepTheirLengthAndTime) {
  {
    PcapWriter writer(path_);
    writer.write(trace(2'000'001'234'999, PacketKind::data, 0, 2, 0, 0, 1460, 0));
    writer.write(trace(5'000, PacketKind::ack, 2, 0, 0, 1460, 0, 0));
  }
  const auto rows = read_back(
      " -e frame.len -e frame.cap_len -e ip.len -e frame.time_epoch -e eth.src -e eth.dst"
      " -e tcp.checksum.status");
  ASSERT_EQ(rows.size(), 2u);
  using Row = std::vector<std::string>;
  EXPECT_EQ(rows[0], (Row{"1514", "128", "1500", "2.000001234", "02:00:00:00:00:00",
                          "02:00:00:00:00:02", "2"}));  // TCP checksum unverifiable: truncated
  EXPECT_EQ(rows[1], (Row{"54", "54", "40", "0.000000005", "02:00:00:00:00:02", "02:00:00:00:00:00",
                          "1"}));  // TCP checksum good
}

TEST(PcapWriter, ThrowsNamingAFileItCannotOpen) {
  try {
    PcapWriter writer("/nonexistent-dir/out.pcap");
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/out.pcap"), std::string::npos);
  }
}

}  // namespace
}  // namespace netwarp::netmodels
