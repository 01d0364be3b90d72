// Partitions pinned to CPUs of their own (cpu_pinning.hpp): which CPUs, and the pinning itself.
#include "netwarp/engine/cpu_pinning.hpp"

#include <pthread.h>

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace netwarp::engine {
namespace {

std::optional<int> env_int(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr) return std::nullopt;
  const std::string_view value(text);
  int n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error != std::errc() || end != value.data() + value.size()) return std::nullopt;
  return n;
}

}  // namespace

std::optional<MachineSlot> machine_slot_from_launcher() {
  const std::optional<int> index = env_int("OMPI_COMM_WORLD_LOCAL_RANK");
  const std::optional<int> count = env_int("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (!index || !count || *count < 1 || *index < 0 || *index >= *count) return std::nullopt;
  return MachineSlot{*index, *count};
}

std::vector<std::optional<int>> cpus_for_partitions(std::size_t count,
                                                    std::optional<MachineSlot> slot) {
  std::vector<std::optional<int>> cpus(count);
  const char* pin = std::getenv("NETWARP_PIN_THREADS");
  if (!slot || (pin != nullptr && std::string_view(pin) == "0")) return cpus;
  const std::size_t partitions = count * static_cast<std::size_t>(slot->count);
  if (partitions < 2) return cpus;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
      static_cast<std::size_t>(CPU_COUNT(&allowed)) < partitions)
    return cpus;
  const std::size_t first = static_cast<std::size_t>(slot->index) * count;
  std::size_t seen = 0;
  std::size_t next = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && next < count; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    if (seen++ >= first) cpus[next++] = cpu;
  }
  return cpus;
}

PinnedThread::PinnedThread(std::optional<int> cpu) {
  if (!cpu || pthread_getaffinity_np(pthread_self(), sizeof before_, &before_) != 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(*cpu, &one);
  pinned_ = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

PinnedThread::~PinnedThread() {
  if (pinned_) pthread_setaffinity_np(pthread_self(), sizeof before_, &before_);
}

}  // namespace netwarp::engine
