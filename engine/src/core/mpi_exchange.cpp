// The MPI exchange over Boost.MPI: non-blocking byte sends on one tag, receives posted in advance,
// and the collectives as Boost.MPI all_reduce / gather / broadcast. MPI matches arriving messages
// to posted receives in posting order and keeps each sender's order, and completed receives are
// taken in posting order too: so an anti-message is never seen before the event it cancels.
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/mpi/nonblocking.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {
namespace {

constexpr int kEventTag = 7001;
namespace mpi = boost::mpi;

class MpiExchange final : public RankExchange {
 public:
  MpiExchange() {
    MPI_Op_create(&combine_sum_and_min, 1, &sum_and_min_);
    if (comm_.size() > 1)
      for (int i = 0; i < kPostedReceives; ++i)
        post_receive(std::make_unique_for_overwrite<std::byte[]>(kMaxMessageBytes));
  }
  // Runs when the run is over: GVT has seen nothing in transit, so no posted receive can match.
  ~MpiExchange() override {
    for (Posted& p : posted_) {
      MPI_Cancel(&p.request);
      MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    }
    MPI_Op_free(&sum_and_min_);
  }
  MpiExchange(const MpiExchange&) = delete;
  MpiExchange& operator=(const MpiExchange&) = delete;

  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }

  void send(int dest, std::vector<std::byte> bytes) override {
    NW_CHECK(bytes.size() <= kMaxMessageBytes, "message of {} bytes exceeds {}", bytes.size(),
             kMaxMessageBytes);
    reap_completed();
    in_flight_.push_back(InFlight{{}, std::move(bytes)});
    InFlight& f = in_flight_.back();
    f.request = comm_.isend(dest, kEventTag, reinterpret_cast<const char*>(f.bytes.data()),
                            static_cast<int>(f.bytes.size()));
  }

  bool try_receive(std::vector<std::byte>& bytes) override {
    if (posted_.empty()) return false;
    Posted& oldest = posted_.front();
    int done = 0;
    MPI_Status status;
    MPI_Test(&oldest.request, &done, &status);
    if (!done) return false;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    bytes.assign(oldest.buffer.get(), oldest.buffer.get() + count);
    std::unique_ptr<std::byte[]> buffer = std::move(oldest.buffer);
    posted_.pop_front();
    post_receive(std::move(buffer));
    return true;
  }

  void sum(std::span<std::int64_t> v) override { reduce(v, std::plus<std::int64_t>()); }
  void min(std::span<std::int64_t> v) override { reduce(v, mpi::minimum<std::int64_t>()); }
  void max(std::span<std::int64_t> v) override { reduce(v, mpi::maximum<std::int64_t>()); }

  // Two (sum, min) pairs: (total, least) and (0, horizon).
  void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) override {
    NW_CHECK(reduction_ == MPI_REQUEST_NULL, "a GVT reduction is already running");
    reduce_in_[0] = total;
    reduce_in_[1] = least;
    reduce_in_[2] = 0;
    reduce_in_[3] = horizon;
    MPI_Iallreduce(reduce_in_, reduce_out_, 4, MPI_INT64_T, sum_and_min_, MPI_Comm(comm_),
                   &reduction_);
  }
  bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least,
                              std::int64_t& horizon) override {
    int done = 0;
    MPI_Test(&reduction_, &done, MPI_STATUS_IGNORE);
    if (!done) return false;
    total = reduce_out_[0];
    least = reduce_out_[1];
    horizon = reduce_out_[3];
    return true;
  }

  std::vector<std::vector<std::byte>> gather(std::vector<std::byte> bytes) override {
    std::vector<std::vector<std::byte>> all;
    std::vector<std::vector<char>> parts;
    std::vector<char> mine(reinterpret_cast<const char*>(bytes.data()),
                           reinterpret_cast<const char*>(bytes.data()) + bytes.size());
    mpi::gather(comm_, mine, parts, 0);
    for (const auto& p : parts)
      all.emplace_back(reinterpret_cast<const std::byte*>(p.data()),
                       reinterpret_cast<const std::byte*>(p.data()) + p.size());
    return all;
  }

  void broadcast(std::vector<std::byte>& bytes) override {
    std::vector<char> chars(reinterpret_cast<const char*>(bytes.data()),
                            reinterpret_cast<const char*>(bytes.data()) + bytes.size());
    mpi::broadcast(comm_, chars, 0);
    bytes.assign(reinterpret_cast<const std::byte*>(chars.data()),
                 reinterpret_cast<const std::byte*>(chars.data()) + chars.size());
  }

  void complete_sends() override {
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

  // Element 0 summed, element 1 minimised.
  static void combine_sum_and_min(void* in, void* inout, int* len, MPI_Datatype*) {
    const auto* a = static_cast<const std::int64_t*>(in);
    auto* b = static_cast<std::int64_t*>(inout);
    for (int i = 0; i + 1 < *len; i += 2) {
      b[i] += a[i];
      b[i + 1] = std::min(b[i + 1], a[i + 1]);
    }
  }

  template <class Op>
  void reduce(std::span<std::int64_t> v, Op op) {
    std::vector<std::int64_t> out(v.size());
    mpi::all_reduce(comm_, v.data(), static_cast<int>(v.size()), out.data(), op);
    std::copy(out.begin(), out.end(), v.begin());
  }

  // Posts a receive into `buffer` (kMaxMessageBytes, allocated once and reused).
  void post_receive(std::unique_ptr<std::byte[]> buffer) {
    posted_.push_back(Posted{MPI_REQUEST_NULL, std::move(buffer)});
    Posted& p = posted_.back();
    MPI_Irecv(p.buffer.get(), static_cast<int>(kMaxMessageBytes), MPI_BYTE, MPI_ANY_SOURCE,
              kEventTag, MPI_Comm(comm_), &p.request);
  }

  void reap_completed() {
    while (!in_flight_.empty() && in_flight_.front().request.test()) in_flight_.pop_front();
  }

  // A duplicate of the world communicator: its own message space, so two exchanges (or other
  // MPI users in the process) never take each other's messages.
  mpi::communicator comm_{MPI_COMM_WORLD, mpi::comm_duplicate};
  std::deque<InFlight> in_flight_;
  std::deque<Posted> posted_;  // in posting order
  MPI_Op sum_and_min_ = MPI_OP_NULL;
  MPI_Request reduction_ = MPI_REQUEST_NULL;
  std::int64_t reduce_in_[4] = {};
  std::int64_t reduce_out_[4] = {};
};

}  // namespace

std::unique_ptr<RankExchange> make_mpi_exchange() {
  return std::make_unique<MpiExchange>();
}

struct MpiSession::Impl {
  Impl(int& argc, char**& argv) : env(argc, argv, mpi::threading::single, false) {}
  mpi::environment env;
};

MpiSession::MpiSession(int& argc, char**& argv) : impl_(std::make_unique<Impl>(argc, argv)) {}
MpiSession::~MpiSession() = default;

bool MpiSession::launched_by_mpirun() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(var) != nullptr) return true;
  return false;
}

}  // namespace netwarp::engine
