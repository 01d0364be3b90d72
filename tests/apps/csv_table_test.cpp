// CSV table files: a stream of TableRows (the header once, then each row's line), and a write
// that fails (a full disk: /dev/full) reported with the file's name when the file is closed.
#include "csv_table.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app_context.hpp"

namespace netwarp::apps {
namespace {

class CsvTableTest : public ::testing::Test {
 protected:
  void TearDown() override { std::filesystem::remove(path_); }

  std::string read_back() const {
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string path_ = (std::filesystem::temp_directory_path() /
                       ("netwarp_csv_table_" + std::to_string(::getpid()) + ".csv"))
                          .string();
};

TableRow port(const char* node, std::uint32_t port, double utilisation) {
  TableRow row;
  row.add("node", std::string_view(node));
  row.add("port", port);
  row.add("utilisation", utilisation);
  return row;
}

TEST_F(CsvTableTest, WritesTheHeaderOnceThenEveryRow) {
  CsvTableStream csv(path_);
  csv.row(port("host0", 0, 0.25));
  csv.row(port("sw0", 12, 1e-7));
  csv.close();
  EXPECT_EQ(read_back(), "node,port,utilisation\nhost0,0,0.25\nsw0,12,1e-07\n");
}

TEST_F(CsvTableTest, JsonRowsGiveTheSameText) {
  CsvTableStream csv(path_);
  csv.row(port("host0", 0, 0.25).to_json());
  csv.row(port("sw0", 12, 1e-7).to_json());
  csv.close();
  EXPECT_EQ(read_back(), "node,port,utilisation\nhost0,0,0.25\nsw0,12,1e-07\n");
}

TEST_F(CsvTableTest, NoRowsIsAnEmptyFile) {
  CsvTableStream(path_).close();
  EXPECT_EQ(read_back(), "");
}

TEST(CsvTable, AFullDiskIsAnErrorNamingTheFile) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  CsvTableStream csv("/dev/full");
  csv.row(port("host0", 0, 0.25));  // buffered: the failure shows when the file is closed
  try {
    csv.close();
    FAIL() << "a write to /dev/full was not reported";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "/dev/full: write failed");
  }
}

TEST(CsvTable, AFileThatCannotBeOpenedIsAnErrorNamingIt) {
  const std::string path = "/nonexistent-netwarp-folder/ports.csv";
  try {
    CsvTableStream csv(path);
    FAIL() << "opened " << path;
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot write");
  }
}

TEST(CsvTable, CloseWrittenReportsAStreamThatFailed) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  std::ofstream out = open_for_writing("/dev/full");
  out << std::string(100'000, 'x');  // past the stream's buffer: fails while writing
  EXPECT_THROW(close_written(out, "/dev/full"), UsageError);
}

}  // namespace
}  // namespace netwarp::apps
