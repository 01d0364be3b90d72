// Partitions pinned to CPUs of their own. Two partitions that spin while they wait for each other
// run far slower when the scheduler keeps them on one core: a 5 ms run on 2 threads of a 2-core
// machine took 14-63 ms unpinned (bench/SCALE.md). MPI processes that mpirun bound already (its
// default for up to two per machine: one core each) are left as they are; those it left free
// (--bind-to none, as processes with threads need) are placed by their local rank.
// NETWARP_PIN_THREADS=0 turns it off.
#pragma once

#include <sched.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace netwarp::engine {

// This process's place among the processes of its job on this machine: the launcher's local
// rank and count (Open MPI's mpirun: OMPI_COMM_WORLD_LOCAL_RANK and _LOCAL_SIZE). None when the
// launcher does not say.
struct MachineSlot {
  int index = 0;
  int count = 1;
};
std::optional<MachineSlot> machine_slot_from_launcher();

// The CPU for each of this process's `count` partitions: when the machine's processes hold
// slot.count x count partitions in all, at least 2, and this process may use that many CPUs, the
// process of slot i takes the (i x count)-th to the ((i + 1) x count - 1)-th of its allowed CPUs,
// in cores_first order (the machine's topology from /sys; where it cannot be read, CPU order).
// None otherwise (fewer CPUs than partitions, a process already bound to one core by mpirun,
// NETWARP_PIN_THREADS=0, or no slot: a process of a job whose launcher does not say).
std::vector<std::optional<int>> cpus_for_partitions(std::size_t count,
                                                    std::optional<MachineSlot> slot);

// The order in which partitions take the allowed CPUs: the first hardware thread of every core
// before the second of any, keeping the CPUs' order otherwise, so that while the machine has a
// core for each partition no two share one (the hardware threads of a core share its execution
// units and caches). `thread_of_core(cpu)`: the CPU's position among its core's hardware
// threads, 0 for the first.
std::vector<int> cores_first(std::vector<int> cpus, const std::function<int(int)>& thread_of_core);

// `cpu`'s position in a CPU list as sysfs writes one ("0-1", "0,8", "2-3,10-11"), or -1 when the
// list does not hold it or cannot be read.
int position_in_cpu_list(std::string_view list, int cpu);

// How many CPUs this process may run on (its affinity mask; 0 when it cannot be read).
std::size_t usable_cpus();

// How many CPUs the process could use before the first PinnedThread pinned its thread (as
// usable_cpus() when none has): a pinned partition's usable_cpus() says 1.
std::size_t process_cpus();
// Lets the calling thread run on the CPUs of process_cpus(): a helper that a pinned partition
// starts (the outputs' writers) would otherwise inherit, and share, that partition's one CPU.
void run_on_process_cpus();

// Whether this machine runs more partitions than there are CPUs for them: more than this process
// may use for its own `count`, or, when the launcher says how many processes share the machine
// (`slot`) and left this one free to use every CPU, more than that for all of theirs. A waiting
// partition then yields its CPU at once instead of spinning first (IdleWait): a spinning one
// holds the CPU that the partition it waits for needs.
bool partitions_share_cpus(std::size_t count, std::optional<MachineSlot> slot);

// Pins the calling thread to `cpu` (if any) while it lives; a refusal leaves it as it was.
class PinnedThread {
 public:
  explicit PinnedThread(std::optional<int> cpu);
  ~PinnedThread();
  PinnedThread(const PinnedThread&) = delete;
  PinnedThread& operator=(const PinnedThread&) = delete;

 private:
  cpu_set_t before_{};
  bool pinned_ = false;
};

}  // namespace netwarp::engine
