// The MPI exchange over Boost.MPI: non-blocking byte sends, receives posted in advance,
// and the collectives as Boost.MPI all_reduce / gather / broadcast. MPI matches arriving messages
// to posted receives in posting order and keeps each sender's order, and completed receives are
// taken in posting order too: so an anti-message is never seen before the event it cancels.
//
// With threads in every process (make_hybrid_exchanges), partition (p, t) is rank p x T + t.
// Each local partition t has its own duplicate of the world communicator, made in the same order
// in every process, on which it receives: a message to (p, t) goes on communicator t to process
// p, or through the process's ThreadHub when p is this process; its tag names the sending thread
// (kEventTag + t), so a receiver can count what it took from each partition (NodePromises). Each
// partition is one thread, so MPI keeps its sends' order (MPI_THREAD_MULTIPLE). The collectives
// combine a process's partitions in the hub; partition 0 of each process carries the result
// across processes.
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/mpi/nonblocking.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/cpu_pinning.hpp"
#include "netwarp/engine/job_abort.hpp"
#include "netwarp/engine/rank_exchange.hpp"
#include "node_promises.hpp"
#include "thread_hub.hpp"

namespace netwarp::engine {
namespace {

constexpr int kEventTag = 7001;
namespace mpi = boost::mpi;

// Element 0 summed, element 1 minimised, for each pair.
void combine_sum_and_min(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::int64_t*>(in);
  auto* b = static_cast<std::int64_t*>(inout);
  for (int i = 0; i + 1 < *len; i += 2) {
    b[i] += a[i];
    b[i + 1] = std::min(b[i + 1], a[i + 1]);
  }
}

// One receiver's byte messages on one communicator: sends in flight (their buffers kept until
// done) and receives posted in advance, taken in posting order.
class MpiMailbox {
 public:
  // `any_tag`: messages carry their sending partition in the tag (kEventTag + its thread), and
  // try_receive reports it; otherwise every message has kEventTag.
  explicit MpiMailbox(const mpi::communicator& receives_on, bool any_tag = false)
      : comm_(receives_on), any_tag_(any_tag) {
    if (comm_.size() > 1)
      for (int i = 0; i < kPostedReceives; ++i)
        post_receive(std::make_unique_for_overwrite<std::byte[]>(kMaxMessageBytes));
  }
  // Runs when the run is over: GVT has seen nothing in transit, so no posted receive can match.
  ~MpiMailbox() {
    for (Posted& p : posted_) {
      MPI_Cancel(&p.request);
      MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    }
  }
  MpiMailbox(const MpiMailbox&) = delete;
  MpiMailbox& operator=(const MpiMailbox&) = delete;

  // Sends the message in `bytes`, which MPI reads until the send completes; `bytes` goes on
  // with the buffer of an earlier send that has completed, emptied, if there is one.
  void send_from(const mpi::communicator& comm, int dest, std::vector<std::byte>& bytes,
                 int tag = kEventTag) {
    NW_CHECK(bytes.size() <= kMaxMessageBytes, "message of {} bytes exceeds {}", bytes.size(),
             kMaxMessageBytes);
    reap_completed();
    in_flight_.push_back(InFlight{{}, std::move(bytes)});
    InFlight& f = in_flight_.back();
    f.request = comm.isend(dest, tag, reinterpret_cast<const char*>(f.bytes.data()),
                           static_cast<int>(f.bytes.size()));
    bytes.clear();
    if (!free_.empty()) {
      bytes.swap(free_.back());
      free_.pop_back();
    }
  }

  // `source`, when given: the sender's rank; `tag`, the message's tag.
  bool try_receive(std::vector<std::byte>& bytes, int* source = nullptr, int* tag = nullptr) {
    if (posted_.empty()) return false;
    Posted& oldest = posted_.front();
    int done = 0;
    MPI_Status status;
    MPI_Test(&oldest.request, &done, &status);
    if (!done) return false;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    if (source != nullptr) *source = status.MPI_SOURCE;
    if (tag != nullptr) *tag = status.MPI_TAG;
    bytes.assign(oldest.buffer.get(), oldest.buffer.get() + count);
    std::unique_ptr<std::byte[]> buffer = std::move(oldest.buffer);
    posted_.pop_front();
    post_receive(std::move(buffer));
    return true;
  }

  void complete_sends() {
    for (InFlight& f : in_flight_) f.request.wait();
    in_flight_.clear();
  }

 private:
  struct InFlight {
    mpi::request request;
    std::vector<std::byte> bytes;
  };
  struct Posted {
    MPI_Request request;
    std::unique_ptr<std::byte[]> buffer;
  };
  static constexpr int kPostedReceives = 8;
  static constexpr std::size_t kFreeBuffers = 64;

  // Posts a receive into `buffer` (kMaxMessageBytes, allocated once and reused).
  void post_receive(std::unique_ptr<std::byte[]> buffer) {
    posted_.push_back(Posted{MPI_REQUEST_NULL, std::move(buffer)});
    Posted& p = posted_.back();
    MPI_Irecv(p.buffer.get(), static_cast<int>(kMaxMessageBytes), MPI_BYTE, MPI_ANY_SOURCE,
              any_tag_ ? MPI_ANY_TAG : kEventTag, MPI_Comm(comm_), &p.request);
  }

  void reap_completed() {
    while (!in_flight_.empty() && in_flight_.front().request.test()) {
      if (free_.size() < kFreeBuffers) {
        free_.push_back(std::move(in_flight_.front().bytes));
        free_.back().clear();
      }
      in_flight_.pop_front();
    }
  }

  const mpi::communicator& comm_;
  bool any_tag_;
  std::deque<InFlight> in_flight_;
  std::vector<std::vector<std::byte>> free_;  // of completed sends, for send_from to give back
  std::deque<Posted> posted_;                 // in posting order
};

// The collectives across the processes of the job (one caller per process at a time).
class MpiCollectives {
 public:
  MpiCollectives() { MPI_Op_create(&combine_sum_and_min, 1, &sum_and_min_); }
  ~MpiCollectives() { MPI_Op_free(&sum_and_min_); }
  MpiCollectives(const MpiCollectives&) = delete;
  MpiCollectives& operator=(const MpiCollectives&) = delete;

  const mpi::communicator& comm() const { return comm_; }
  void sum(std::span<std::int64_t> v) { reduce(v, std::plus<std::int64_t>()); }
  void min(std::span<std::int64_t> v) { reduce(v, mpi::minimum<std::int64_t>()); }
  void max(std::span<std::int64_t> v) { reduce(v, mpi::maximum<std::int64_t>()); }

  // Two (sum, min) pairs: (total, least) and (0, horizon).
  void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) {
    NW_CHECK(reduction_ == MPI_REQUEST_NULL, "a GVT reduction is already running");
    reduce_in_[0] = total;
    reduce_in_[1] = least;
    reduce_in_[2] = 0;
    reduce_in_[3] = horizon;
    MPI_Iallreduce(reduce_in_, reduce_out_, 4, MPI_INT64_T, sum_and_min_, MPI_Comm(comm_),
                   &reduction_);
  }
  bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least, std::int64_t& horizon) {
    int done = 0;
    MPI_Test(&reduction_, &done, MPI_STATUS_IGNORE);
    if (!done) return false;
    total = reduce_out_[0];
    least = reduce_out_[1];
    horizon = reduce_out_[3];
    return true;
  }

  // Every process's list at process 0, concatenated in process order (empty elsewhere).
  std::vector<std::vector<std::byte>> gather(const std::vector<std::vector<std::byte>>& mine) {
    std::vector<std::vector<std::vector<char>>> parts;
    mpi::gather(comm_, as_chars(mine), parts, 0);
    std::vector<std::vector<std::byte>> all;
    for (const auto& process : parts)
      for (const auto& p : process)
        all.emplace_back(reinterpret_cast<const std::byte*>(p.data()),
                         reinterpret_cast<const std::byte*>(p.data()) + p.size());
    return all;
  }

  void broadcast(std::vector<std::byte>& bytes) {
    std::vector<char> chars(reinterpret_cast<const char*>(bytes.data()),
                            reinterpret_cast<const char*>(bytes.data()) + bytes.size());
    mpi::broadcast(comm_, chars, 0);
    bytes.assign(reinterpret_cast<const std::byte*>(chars.data()),
                 reinterpret_cast<const std::byte*>(chars.data()) + chars.size());
  }

 private:
  static std::vector<std::vector<char>> as_chars(const std::vector<std::vector<std::byte>>& in) {
    std::vector<std::vector<char>> out;
    for (const auto& b : in)
      out.emplace_back(reinterpret_cast<const char*>(b.data()),
                       reinterpret_cast<const char*>(b.data()) + b.size());
    return out;
  }

  template <class Op>
  void reduce(std::span<std::int64_t> v, Op op) {
    std::vector<std::int64_t> out(v.size());
    mpi::all_reduce(comm_, v.data(), static_cast<int>(v.size()), out.data(), op);
    std::copy(out.begin(), out.end(), v.begin());
  }

  // A duplicate of the world communicator: its own message space, so two exchanges (or other
  // MPI users in the process) never take each other's messages.
  mpi::communicator comm_{MPI_COMM_WORLD, mpi::comm_duplicate};
  MPI_Op sum_and_min_ = MPI_OP_NULL;
  MPI_Request reduction_ = MPI_REQUEST_NULL;
  std::int64_t reduce_in_[4] = {};
  std::int64_t reduce_out_[4] = {};
};

// One partition per process. Promises to the processes of the same machine go through shared
// memory (NodePromises), so it counts the messages it sends to and takes from each process.
class MpiExchange final : public RankExchange {
 public:
  int rank() const override { return collectives_.comm().rank(); }
  int size() const override { return collectives_.comm().size(); }
  void send_from(int dest, std::vector<std::byte>& bytes) override {
    ++sent_[static_cast<std::size_t>(dest)];
    mailbox_.send_from(collectives_.comm(), dest, bytes);
  }
  bool try_receive_view(std::span<const std::byte>& message) override {
    int source = 0;
    if (!mailbox_.try_receive(received_bytes_, &source)) return false;
    ++received_[static_cast<std::size_t>(source)];
    message = received_bytes_;
    return true;
  }
  void sum(std::span<std::int64_t> v) override { collectives_.sum(v); }
  void min(std::span<std::int64_t> v) override { collectives_.min(v); }
  void max(std::span<std::int64_t> v) override { collectives_.max(v); }
  void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) override {
    collectives_.start_sum_and_min(total, least, horizon);
  }
  bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least,
                              std::int64_t& horizon) override {
    return collectives_.try_finish_sum_and_min(total, least, horizon);
  }
  std::vector<std::vector<std::byte>> gather(std::vector<std::byte> bytes) override {
    std::vector<std::vector<std::byte>> mine;
    mine.push_back(std::move(bytes));
    return collectives_.gather(mine);
  }
  void broadcast(std::vector<std::byte>& bytes) override { collectives_.broadcast(bytes); }
  void complete_sends() override { mailbox_.complete_sends(); }
  bool shares_promises_with(int rank) const override { return promises_.shares_with(rank); }
  void begin_run() override { promises_.forget(0, sent_); }
  bool promises_count_messages() const override { return true; }
  void publish_promise(std::int64_t ps) override { promises_.publish(0, ps, sent_); }
  std::int64_t published_promise(int rank) const override {
    return promises_.promise_of(0, rank, received_[static_cast<std::size_t>(rank)]);
  }
  void want_promise(bool waiting) override { promises_.set_waiting(0, waiting); }
  bool promise_wanted() const override { return promises_.others_wait(); }
  bool shares_cpus() const override { return shares_cpus_; }

 private:
  MpiCollectives collectives_;
  MpiMailbox mailbox_{collectives_.comm()};
  mutable NodePromises promises_{MPI_Comm(collectives_.comm())};  // reading one updates a cache
  bool shares_cpus_ = partitions_share_cpus(1, machine_slot_from_launcher());
  std::vector<std::uint64_t> sent_ = std::vector<std::uint64_t>(static_cast<std::size_t>(size()));
  std::vector<std::uint64_t> received_ =
      std::vector<std::uint64_t>(static_cast<std::size_t>(size()));
  std::vector<std::byte> received_bytes_;  // the message try_receive_view lends, reused
};

// What the partitions of one process share in a hybrid job.
struct HybridProcess {
  explicit HybridProcess(int threads)
      : hub(threads),
        node(MPI_COMM_WORLD, threads),
        shares_cpus(partitions_share_cpus(static_cast<std::size_t>(threads),
                                          machine_slot_from_launcher())) {
    for (int t = 0; t < threads; ++t)
      receive_comms.emplace_back(MPI_COMM_WORLD, mpi::comm_duplicate);  // same order everywhere
  }
  ThreadHub hub;
  NodePromises node;  // the promises of the other processes' partitions on this machine
  bool shares_cpus;
  std::deque<mpi::communicator> receive_comms;              // partition t's, in every process
  MpiCollectives collectives;                               // used by partition 0 only
  std::array<std::array<std::int64_t, 3>, 2> gvt_result{};  // by round parity
  std::atomic<std::uint64_t> gvt_published{0};              // rounds whose result is out
};

class HybridExchange final : public RankExchange {
 public:
  HybridExchange(std::shared_ptr<HybridProcess> process, int thread)
      : process_(std::move(process)),
        thread_(thread),
        threads_(process_->hub.size()),
        process_rank_(process_->collectives.comm().rank()),
        size_(process_->collectives.comm().size() * threads_),
        mailbox_(process_->receive_comms[static_cast<std::size_t>(thread)], true) {}

  int rank() const override { return process_rank_ * threads_ + thread_; }
  int size() const override { return size_; }
  void send_from(int dest, std::vector<std::byte>& bytes) override {
    NW_CHECK(dest != rank() && dest >= 0 && dest < size_, "send from {} to {}", rank(), dest);
    const int to_process = dest / threads_;
    const int to_thread = dest % threads_;
    if (to_process == process_rank_) {
      NW_CHECK(bytes.size() <= kMaxMessageBytes, "message of {} bytes exceeds {}", bytes.size(),
               kMaxMessageBytes);
      process_->hub.post(to_thread, bytes);
      bytes.clear();
    } else {
      ++sent_[static_cast<std::size_t>(dest)];
      mailbox_.send_from(process_->receive_comms[static_cast<std::size_t>(to_thread)], to_process,
                         bytes, kEventTag + thread_);
    }
  }
  bool try_receive_view(std::span<const std::byte>& message) override {
    return arrived_.next(process_->hub, thread_, message) || receive_across(message);
  }
  void sum(std::span<std::int64_t> v) override {
    process_->hub.all_reduce(thread_, v, std::plus<>(),
                             [this](std::span<std::int64_t> x) { collectives().sum(x); });
  }
  void min(std::span<std::int64_t> v) override {
    process_->hub.all_reduce(
        thread_, v, [](std::int64_t a, std::int64_t b) { return std::min(a, b); },
        [this](std::span<std::int64_t> x) { collectives().min(x); });
  }
  void max(std::span<std::int64_t> v) override {
    process_->hub.all_reduce(
        thread_, v, [](std::int64_t a, std::int64_t b) { return std::max(a, b); },
        [this](std::span<std::int64_t> x) { collectives().max(x); });
  }
  // The process's partitions meet in the hub; partition 0 then reduces across processes and
  // publishes the result for the others.
  void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) override {
    process_->hub.start_round(thread_, round_, {total, least, horizon});
  }
  bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least,
                              std::int64_t& horizon) override {
    std::array<std::int64_t, 3>& result = process_->gvt_result[round_ % 2];
    if (thread_ == 0) {
      if (!across_running_) {
        std::array<std::int64_t, 3> local{};
        if (!process_->hub.try_finish_round(round_, local)) return false;
        collectives().start_sum_and_min(local[0], local[1], local[2]);
        across_running_ = true;
      }
      std::array<std::int64_t, 3> all{};
      if (!collectives().try_finish_sum_and_min(all[0], all[1], all[2])) return false;
      across_running_ = false;
      result = all;
      process_->gvt_published.store(round_ + 1, std::memory_order_release);
    } else if (process_->gvt_published.load(std::memory_order_acquire) <= round_) {
      return false;
    }
    total = result[0];
    least = result[1];
    horizon = result[2];
    ++round_;
    return true;
  }
  std::vector<std::vector<std::byte>> gather(std::vector<std::byte> bytes) override {
    return process_->hub.gather(
        thread_, std::move(bytes),
        [this](std::vector<std::vector<std::byte>> local) { return collectives().gather(local); });
  }
  void broadcast(std::vector<std::byte>& bytes) override {
    process_->hub.broadcast(thread_, bytes,
                            [this](std::vector<std::byte>& b) { collectives().broadcast(b); });
  }
  void complete_sends() override { mailbox_.complete_sends(); }
  // Within this process through the hub; with the other processes of this machine through
  // NodePromises, whose promises count the messages sent before them (so reading one before
  // taking the messages, as the hub needs, is safe, if later); other machines' partitions get
  // them in messages.
  bool shares_promises_with(int rank) const override {
    return rank != this->rank() &&
           (rank / threads_ == process_rank_ || process_->node.shares_with(rank));
  }
  void begin_run() override {
    process_->hub.publish_promise(thread_, 0);
    process_->node.forget(thread_, sent_);
  }
  void publish_promise(std::int64_t ps) override {
    process_->hub.publish_promise(thread_, ps);
    if (process_->node.has_neighbours()) process_->node.publish(thread_, ps, sent_);
  }
  std::int64_t published_promise(int rank) const override {
    if (rank / threads_ == process_rank_) return process_->hub.promise_of(rank % threads_);
    return process_->node.promise_of(thread_, rank, received_[static_cast<std::size_t>(rank)]);
  }
  void want_promise(bool waiting) override {
    waiting_.set(process_->hub, waiting);
    if (process_->node.has_neighbours()) process_->node.set_waiting(thread_, waiting);
  }
  bool promise_wanted() const override {
    return waiting_.others_wait(process_->hub) ||
           (process_->node.has_neighbours() && process_->node.others_wait());
  }
  // Within this process; other processes join at their own time.
  void request_round() override { process_->hub.request_round(round_); }
  bool round_requested() const override { return process_->hub.round_requested(round_); }
  bool shares_cpus() const override { return process_->shares_cpus; }

 private:
  MpiCollectives& collectives() const { return process_->collectives; }
  // A message from another process: its sending partition is its process's rank and the
  // thread its tag names.
  bool receive_across(std::span<const std::byte>& message) {
    int source = 0;
    int tag = 0;
    if (!mailbox_.try_receive(received_bytes_, &source, &tag)) return false;
    NW_CHECK(tag >= kEventTag && tag - kEventTag < threads_,
             "a message with tag {} on partition {}", tag, rank());
    ++received_[static_cast<std::size_t>(source * threads_ + (tag - kEventTag))];
    message = received_bytes_;
    return true;
  }

  std::shared_ptr<HybridProcess> process_;
  int thread_;
  int threads_;
  int process_rank_;
  int size_;
  MpiMailbox mailbox_;
  Arrivals arrived_;  // from this process's other partitions
  // Messages through MPI, by world partition: what promises through NodePromises count.
  std::vector<std::uint64_t> sent_ = std::vector<std::uint64_t>(static_cast<std::size_t>(size_));
  std::vector<std::uint64_t> received_ =
      std::vector<std::uint64_t>(static_cast<std::size_t>(size_));
  std::vector<std::byte> received_bytes_;  // a message from another process, lent as a view
  std::uint64_t round_ = 0;
  bool across_running_ = false;  // partition 0: the reduction across processes has started
  WaitingPartition waiting_;
};

}  // namespace

std::unique_ptr<RankExchange> make_mpi_exchange() {
  return std::make_unique<MpiExchange>();
}

std::vector<std::unique_ptr<RankExchange>> make_hybrid_exchanges(int threads) {
  NW_CHECK(threads >= 1, "{} threads", threads);
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (level < MPI_THREAD_MULTIPLE)
    throw std::runtime_error(
        "threads under mpirun need MPI_THREAD_MULTIPLE, which this MPI library did not grant");
  auto process = std::make_shared<HybridProcess>(threads);
  std::vector<std::unique_ptr<RankExchange>> exchanges;
  for (int t = 0; t < threads; ++t)
    exchanges.push_back(std::make_unique<HybridExchange>(process, t));
  return exchanges;
}

namespace {

// The job abort while MPI runs: every process of the job ends.
void abort_mpi_job(int status) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, status);
}

}  // namespace

struct MpiSession::Impl {
  Impl(int& argc, char**& argv, bool threads)
      : env(argc, argv, threads ? mpi::threading::multiple : mpi::threading::single, false) {
    set_job_abort(&abort_mpi_job);
  }
  ~Impl() { set_job_abort(nullptr); }  // before env finalizes MPI
  mpi::environment env;
};

MpiSession::MpiSession(int& argc, char**& argv, bool threads)
    : impl_(std::make_unique<Impl>(argc, argv, threads)) {}
MpiSession::~MpiSession() = default;

}  // namespace netwarp::engine
