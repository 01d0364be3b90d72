// A promise shared in memory between processes of one machine (NodePromises), checked the same
// way for one partition per process and for processes with threads.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine::testing {

// Collective over `ex`'s ranks, all on one machine: `publisher` sends `reader` one message, then
// promises 1000. The reader must not take the promise before the message, must take it after,
// sees no promise from anyone else, and after begin_run sees none at all.
inline void expect_a_promise_waits_for_its_message(RankExchange& ex, int publisher, int reader) {
  const int r = ex.rank();
  for (int q = 0; q < ex.size(); ++q)
    EXPECT_EQ(ex.shares_promises_with(q), q != r) << r << " and " << q;
  ex.begin_run();
  ex.barrier();
  if (r == publisher) {
    ex.send(reader, std::vector<std::byte>(3, std::byte{7}));
    ex.publish_promise(1000);
  }
  ex.barrier();  // published before the reader reads
  if (r == reader) {
    EXPECT_EQ(ex.published_promise(publisher), 0);  // its message not taken yet
    std::vector<std::byte> bytes;
    while (!ex.try_receive(bytes)) {
    }
    EXPECT_EQ(bytes, std::vector<std::byte>(3, std::byte{7}));
    EXPECT_EQ(ex.published_promise(publisher), 1000);
    for (int q = 0; q < ex.size(); ++q)
      if (q != publisher && q != reader) {
        EXPECT_EQ(ex.published_promise(q), 0) << q;
      }
  }
  ex.barrier();
  ex.begin_run();
  ex.barrier();
  if (r == reader) {
    EXPECT_EQ(ex.published_promise(publisher), 0);  // the earlier run's promise is gone
  }
  ex.complete_sends();
  ex.barrier();
}

}  // namespace netwarp::engine::testing
