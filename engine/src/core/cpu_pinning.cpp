// Partitions pinned to CPUs of their own (cpu_pinning.hpp): which CPUs, and the pinning itself.
#include "netwarp/engine/cpu_pinning.hpp"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
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

// The CPU's position among its core's hardware threads, from sysfs (0 where unknown: some
// containers and sandboxes do not show the topology).
int thread_of_core_from_sysfs(int cpu) {
  std::ifstream file("/sys/devices/system/cpu/cpu" + std::to_string(cpu) +
                     "/topology/thread_siblings_list");
  std::string list;
  if (!std::getline(file, list)) return 0;
  return std::max(0, position_in_cpu_list(list, cpu));
}

// The affinity of the first thread a PinnedThread pinned, before it was pinned: the CPUs the
// process was given. Unset until then.
struct ProcessAffinity {
  std::mutex mutex;
  std::optional<cpu_set_t> cpus;
};

ProcessAffinity& process_affinity() {
  static ProcessAffinity affinity;
  return affinity;
}

void remember_process_affinity(const cpu_set_t& before) {
  ProcessAffinity& p = process_affinity();
  const std::scoped_lock lock(p.mutex);
  if (!p.cpus) p.cpus = before;
}

std::optional<cpu_set_t> remembered_process_affinity() {
  ProcessAffinity& p = process_affinity();
  const std::scoped_lock lock(p.mutex);
  return p.cpus;
}

// The CPUs this process may run on, in CPU order (none when the mask cannot be read).
std::vector<int> allowed_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  return cpus;
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
  std::vector<int> allowed = allowed_cpus();
  if (allowed.size() < partitions) return cpus;
  const std::vector<int> order = cores_first(std::move(allowed), thread_of_core_from_sysfs);
  const std::size_t first = static_cast<std::size_t>(slot->index) * count;
  for (std::size_t i = 0; i < count; ++i) cpus[i] = order[first + i];
  return cpus;
}

std::size_t usable_cpus() {
  return allowed_cpus().size();
}

std::size_t process_cpus() {
  const std::optional<cpu_set_t> cpus = remembered_process_affinity();
  return cpus ? static_cast<std::size_t>(CPU_COUNT(&*cpus)) : usable_cpus();
}

void run_on_process_cpus() {
  if (const std::optional<cpu_set_t> cpus = remembered_process_affinity())
    pthread_setaffinity_np(pthread_self(), sizeof *cpus, &*cpus);
}

bool partitions_share_cpus(std::size_t count, std::optional<MachineSlot> slot) {
  const std::size_t cpus = usable_cpus();
  if (cpus == 0) return false;
  if (count > cpus) return true;
  if (!slot) return false;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const bool free_on_machine = online > 0 && cpus >= static_cast<std::size_t>(online);
  return free_on_machine && count * static_cast<std::size_t>(slot->count) > cpus;
}

std::vector<int> cores_first(std::vector<int> cpus, const std::function<int(int)>& thread_of_core) {
  std::vector<std::pair<int, int>> keyed;  // (thread of its core, cpu)
  keyed.reserve(cpus.size());
  for (int cpu : cpus) keyed.emplace_back(std::max(0, thread_of_core(cpu)), cpu);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < cpus.size(); ++i) cpus[i] = keyed[i].second;
  return cpus;
}

int position_in_cpu_list(std::string_view list, int cpu) {
  int position = 0;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    std::string_view range = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!range.empty() && (range.back() == '\n' || range.back() == ' ')) range.remove_suffix(1);
    const std::size_t dash = range.find('-');
    int low = 0;
    const std::string_view low_text = range.substr(0, dash);
    if (std::from_chars(low_text.data(), low_text.data() + low_text.size(), low).ec != std::errc())
      return -1;
    int high = low;
    if (dash != std::string_view::npos) {
      const std::string_view high_text = range.substr(dash + 1);
      if (std::from_chars(high_text.data(), high_text.data() + high_text.size(), high).ec !=
              std::errc() ||
          high < low)
        return -1;
    }
    if (cpu >= low && cpu <= high) return position + (cpu - low);
    position += high - low + 1;
  }
  return -1;
}

PinnedThread::PinnedThread(std::optional<int> cpu) {
  if (!cpu || pthread_getaffinity_np(pthread_self(), sizeof before_, &before_) != 0) return;
  remember_process_affinity(before_);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(*cpu, &one);
  pinned_ = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

PinnedThread::~PinnedThread() {
  if (pinned_) pthread_setaffinity_np(pthread_self(), sizeof before_, &before_);
}

}  // namespace netwarp::engine
