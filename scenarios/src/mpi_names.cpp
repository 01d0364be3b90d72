// Collective algorithm and kernel names: matched against mpi-emul's own names, so the two
// lists cannot drift apart.
#include "mpi_names.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <stdexcept>
#include <vector>

namespace netwarp::scenarios {

namespace {

using namespace mpiemul;

template <class E>
E parse(const std::string& family, const std::string& name, int count) {
  std::vector<std::string> known;
  for (int i = 0; i < count; ++i) {
    const auto value = static_cast<E>(i);
    if (algorithm_name(value) == name) return value;
    known.emplace_back(algorithm_name(value));
  }
  throw std::invalid_argument(
      fmt::format("unknown {} algorithm '{}' (known: {})", family, name, fmt::join(known, ", ")));
}

// Algorithms that run on any number of ranks, for checking one family at a time.
CollectiveAlgorithms any_size_algorithms() {
  CollectiveAlgorithms a;
  a.alltoall = AlltoallAlgorithm::simple_spread;
  a.allgather = AllgatherAlgorithm::ring;
  a.allreduce = AllreduceAlgorithm::reduce_bcast;
  return a;
}

void set_family(CollectiveAlgorithms& a, CollectiveFamily family, const std::string& name) {
  switch (family) {
    case CollectiveFamily::bcast:
      a.bcast = parse<BcastAlgorithm>("bcast", name, 2);
      return;
    case CollectiveFamily::reduce:
      a.reduce = parse<ReduceAlgorithm>("reduce", name, 2);
      return;
    case CollectiveFamily::allreduce:
      a.allreduce = parse<AllreduceAlgorithm>("allreduce", name, 3);
      return;
    case CollectiveFamily::alltoall:
      a.alltoall = parse<AlltoallAlgorithm>("alltoall", name, 6);
      return;
    case CollectiveFamily::barrier:
      a.barrier = parse<BarrierAlgorithm>("barrier", name, 2);
      return;
    case CollectiveFamily::gather:
      a.gather = parse<GatherAlgorithm>("gather", name, 2);
      return;
    case CollectiveFamily::allgather:
      a.allgather = parse<AllgatherAlgorithm>("allgather", name, 3);
      return;
  }
}

constexpr std::array<std::pair<const char*, CollectiveKind>, 7> kKernelKinds = {{
    {"bcast", CollectiveKind::bcast},
    {"reduce", CollectiveKind::reduce},
    {"allreduce", CollectiveKind::allreduce},
    {"barrier", CollectiveKind::barrier},
    {"allgather", CollectiveKind::allgather},
    {"gather", CollectiveKind::gather},
    {"scatter", CollectiveKind::scatter},
}};

}  // namespace

void check_algorithm_name(CollectiveFamily family, const std::string& name, RankCount ranks) {
  CollectiveAlgorithms a = any_size_algorithms();
  set_family(a, family, name);
  check_algorithms(a, ranks);
}

AlltoallAlgorithm alltoall_algorithm(const std::string& name) {
  return parse<AlltoallAlgorithm>("alltoall", name, 6);
}

CollectiveAlgorithms collective_algorithms(const proto::MpiCollectives& c) {
  CollectiveAlgorithms a;
  set_family(a, CollectiveFamily::bcast, c.bcast());
  set_family(a, CollectiveFamily::reduce, c.reduce());
  set_family(a, CollectiveFamily::allreduce, c.allreduce());
  set_family(a, CollectiveFamily::alltoall, c.alltoall());
  set_family(a, CollectiveFamily::barrier, c.barrier());
  set_family(a, CollectiveFamily::gather, c.gather());
  set_family(a, CollectiveFamily::allgather, c.allgather());
  if (c.selection() == proto::MpiCollectives::OPENMPI_TUNED)
    a.selection = CollectiveSelection::openmpi_tuned;
  return a;
}

bool is_collective_kernel_kind(const std::string& name) {
  for (const auto& [n, kind] : kKernelKinds)
    if (name == n) return true;
  return false;
}

CollectiveKind collective_kernel_kind(const std::string& name) {
  for (const auto& [n, kind] : kKernelKinds)
    if (name == n) return kind;
  throw std::invalid_argument(fmt::format("unknown collective '{}'", name));
}

}  // namespace netwarp::scenarios
