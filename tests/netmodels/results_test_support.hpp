// What the tests of committed-record storage share: reading every record of a type from a
// ResultsSource, comparing record vectors byte for byte, and a fresh folder per test (ctest runs
// the tests of one file in parallel processes).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "netwarp/netmodels/results_source.hpp"

namespace netwarp::netmodels::testing {

template <class R>
std::vector<R> read_all(const ResultsSource& source) {
  std::vector<R> out;
  for (auto records = source.open<R>(); const R* r = records.peek(); records.pop())
    out.push_back(*r);
  return out;
}

template <class R>
void expect_same(const std::vector<R>& a, const std::vector<R>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(R)), 0) << "record " << i;
}

// dir_: TempDir()/<prefix>.<test name>, empty at the start of each test, removed after it.
class FolderPerTest : public ::testing::Test {
 protected:
  explicit FolderPerTest(const std::string& prefix) : prefix_(prefix) {}
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/" + prefix_ + "." +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;

 private:
  std::string prefix_;
};

}  // namespace netwarp::netmodels::testing
