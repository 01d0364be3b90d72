// RankExchange: the only way the optimistic kernel talks to other ranks. Byte messages to a
// rank, non-blocking receive, and the few collectives GVT and result gathering need. The MPI
// implementation uses Boost.MPI; the local one is a single rank with no MPI at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace netwarp::engine {

// The largest message send() accepts: receives are posted in advance with buffers this big.
inline constexpr std::size_t kMaxMessageBytes = 64 * 1024;

class RankExchange {
 public:
  virtual ~RankExchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Starts sending the message in `bytes` to `dest` (!= rank()), at most kMaxMessageBytes;
  // delivery is in order per (sender, receiver) pair. `bytes` is left empty, with storage for the
  // caller to reuse where the exchange has some to give back (it copied the message, or an
  // earlier send's buffer is free again): a steady flow of messages then allocates nothing.
  virtual void send_from(int dest, std::vector<std::byte>& bytes) = 0;
  // The same for a message the caller keeps no storage of.
  void send(int dest, std::vector<std::byte> bytes) { send_from(dest, bytes); }
  // Takes one arrived message, if any, as a view that holds until the next call on this
  // exchange: an exchange that holds its messages in memory lends them without a copy.
  virtual bool try_receive_view(std::span<const std::byte>& message) = 0;
  // The same, copied into `bytes`.
  bool try_receive(std::vector<std::byte>& bytes) {
    std::span<const std::byte> message;
    if (!try_receive_view(message)) return false;
    bytes.assign(message.begin(), message.end());
    return true;
  }
  // Element-wise reductions over all ranks, in place; every rank gets the result.
  virtual void sum(std::span<std::int64_t> values) = 0;
  virtual void min(std::span<std::int64_t> values) = 0;
  virtual void max(std::span<std::int64_t> values) = 0;
  // GVT's reduction, non-blocking: starts summing `total` and minimising `least` and `horizon`
  // over all ranks; try_finish_sum_and_min returns true (with the results) once it has completed.
  virtual void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) = 0;
  virtual bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least,
                                      std::int64_t& horizon) = 0;
  // Every rank's bytes at rank 0, in rank order (empty elsewhere).
  virtual std::vector<std::vector<std::byte>> gather(std::vector<std::byte> bytes) = 0;
  // Rank 0's bytes everywhere.
  virtual void broadcast(std::vector<std::byte>& bytes) = 0;
  // Waits until every started send has completed.
  virtual void complete_sends() = 0;
  // More partitions on this machine than CPUs for them (partitions_share_cpus, cpu_pinning.hpp):
  // a waiting partition then yields its CPU at once rather than spin.
  virtual bool shares_cpus() const { return false; }
  // Promises (the kernel's per-channel lower bounds on what a rank sends next) can go through
  // memory this rank shares with `rank` instead of riding on messages: whether they can (threads
  // of one process, MPI processes of one machine). A promise read there covers every message
  // sent before it: a rank that reads one and then takes what has arrived (or, where
  // promises_count_messages(), takes what has arrived and then reads one) holds everything sent
  // before that promise.
  virtual bool shares_promises_with(int /*rank*/) const { return false; }
  // Whether a promise read here covers exactly the messages this rank has taken from its
  // publisher when it reads it (MPI processes count them), so reading it after taking them is
  // as safe as before, and sooner; false: read before taking (threads).
  virtual bool promises_count_messages() const { return false; }
  // Every rank calls it before a run's first collective: the promises an earlier run on this
  // exchange published there no longer hold. (Every run ends with want_promise(false).)
  virtual void begin_run() {}
  // Publishes this rank's promise, in picoseconds, to the ranks it shares them with.
  virtual void publish_promise(std::int64_t /*ps*/) {}
  // The latest promise `rank` published (0 before its first).
  virtual std::int64_t published_promise(int /*rank*/) const { return 0; }
  // Whether this rank waits for a promise now, told to those it shares them with (a write only
  // when that changes), and whether any of them waits.
  virtual void want_promise(bool /*waiting*/) {}
  virtual bool promise_wanted() const { return false; }
  // A rank about to start its next GVT round because it found nothing to do asks the ranks it
  // shares memory with to join that round soon, rather than once they too run out of work or
  // reach the interval's boundary: while it waits in the round it publishes no promises, so
  // they would soon wait for it. Only timing depends on it.
  virtual void request_round() {}
  virtual bool round_requested() const { return false; }

  std::int64_t sum(std::int64_t v) {
    sum(std::span<std::int64_t>(&v, 1));
    return v;
  }
  std::int64_t min(std::int64_t v) {
    min(std::span<std::int64_t>(&v, 1));
    return v;
  }
  std::int64_t max(std::int64_t v) {
    max(std::span<std::int64_t>(&v, 1));
    return v;
  }
  // Returns once every rank has called it (a reduction nobody reads).
  void barrier() { sum(0); }
};

// One rank, no MPI.
std::unique_ptr<RankExchange> make_local_exchange();
// `partitions` ranks as threads of this process, sharing memory: element i is rank i's, to be
// used by one thread each (thread_exchange.cpp).
std::vector<std::unique_ptr<RankExchange>> make_thread_exchanges(int partitions);
// Runs body on `partitions` threads, rank 0 on the calling thread, each with its rank's exchange
// from make_thread_exchanges; returns when all have, rethrowing the first rank's exception. A rank
// that throws while the others wait for it in a collective leaves them waiting: callers end the
// process on such errors, as MPI_Abort does.
void run_as_threads(int partitions, const std::function<void(RankExchange&)>& body);
// The same with given exchanges (make_thread_exchanges, make_hybrid_exchanges): element i on
// thread i.
void run_as_threads(std::span<const std::unique_ptr<RankExchange>> exchanges,
                    const std::function<void(RankExchange&)>& body);
// All ranks of MPI_COMM_WORLD; MPI must already be initialized (see MpiSession).
std::unique_ptr<RankExchange> make_mpi_exchange();
// `threads` partitions in each process of MPI_COMM_WORLD, element t to be used by this process's
// thread t: rank (process x threads + t) of size() = processes x threads. Every process calls it
// with the same count; MPI must be initialized with threads (MpiSession(..., true)).
std::vector<std::unique_ptr<RankExchange>> make_hybrid_exchanges(int threads);

// Initializes MPI for its lifetime (thread level: single, or multiple for partitions as threads
// in each process); finalizes on destruction.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv, bool threads = false);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  // True when this process was started by mpirun (so MPI should be initialized).
  static bool launched_by_mpirun();
  // Whether the launcher made this process rank 0 (true when it says no rank): before MPI starts,
  // so that one rank alone reports that MPI could not.
  static bool first_in_launch();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace netwarp::engine
