// The single-rank exchange: no peers, so sends are impossible and collectives are identities.
#include "netwarp/engine/check.hpp"
#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {
namespace {

class LocalExchange final : public RankExchange {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void send_from(int dest, std::vector<std::byte>&) override {
    NW_CHECK(false, "send to rank {} with a single rank", dest);
  }
  bool try_receive_view(std::span<const std::byte>&) override { return false; }
  void sum(std::span<std::int64_t>) override {}
  void min(std::span<std::int64_t>) override {}
  void max(std::span<std::int64_t>) override {}
  void start_sum_and_min(std::int64_t total, std::int64_t least, std::int64_t horizon) override {
    reduced_[0] = total;
    reduced_[1] = least;
    reduced_[2] = horizon;
  }
  bool try_finish_sum_and_min(std::int64_t& total, std::int64_t& least,
                              std::int64_t& horizon) override {
    total = reduced_[0];
    least = reduced_[1];
    horizon = reduced_[2];
    return true;
  }
  std::vector<std::vector<std::byte>> gather(std::vector<std::byte> bytes) override {
    std::vector<std::vector<std::byte>> all;
    all.push_back(std::move(bytes));
    return all;
  }
  void broadcast(std::vector<std::byte>&) override {}
  void complete_sends() override {}

 private:
  std::int64_t reduced_[3] = {};
};

}  // namespace

std::unique_ptr<RankExchange> make_local_exchange() {
  return std::make_unique<LocalExchange>();
}

}  // namespace netwarp::engine
