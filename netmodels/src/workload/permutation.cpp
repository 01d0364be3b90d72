// Permutation traffic: every host sends one message to its image under a seeded random
// derangement (a permutation without fixed points), all at time 0 and independently. The
// derangement is drawn uniformly by rejection: shuffle until no host maps to itself (about
// e = 2.72 shuffles on average).
#include <numeric>
#include <vector>

#include "netwarp/netmodels/workload.hpp"
#include "workload/seeded_rng.hpp"
#include "workload/workload_checks.hpp"

namespace netwarp::netmodels {
namespace {

bool has_fixed_point(const std::vector<NodeId>& image) {
  for (std::size_t i = 0; i < image.size(); ++i) {
    if (image[i] == i) return true;
  }
  return false;
}

std::vector<NodeId> random_derangement(std::uint32_t n, std::uint64_t seed) {
  workload_detail::SeededRng rng(seed, 0);
  std::vector<NodeId> image(n);
  do {
    std::iota(image.begin(), image.end(), NodeId{0});
    rng.shuffle(image);
  } while (has_fixed_point(image));
  return image;
}

}  // namespace

Workload make_permutation(const PermutationSpec& spec, std::uint32_t host_count,
                          const std::string& at) {
  workload_detail::check_two_hosts(at, host_count);
  workload_detail::check_message_bytes(at + ".bytes", spec.bytes);
  const std::vector<NodeId> image = random_derangement(host_count, spec.seed);
  Workload w;
  w.kind = "permutation";
  w.messages.reserve(host_count);
  for (NodeId src = 0; src < host_count; ++src) {
    workload_detail::add_message(w, src, image[src], spec.bytes, SimTime::zero(), false);
  }
  return w;
}

}  // namespace netwarp::netmodels
