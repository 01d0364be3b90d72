// --huge-pages: the process starts again, before it does anything else, with glibc's malloc asked
// to advise transparent huge pages on the memory it takes from the system, in one arena for
// every thread (GLIBC_TUNABLES glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1; the loader
// reads them only at start). Where the kernel gives huge pages only on request (`madvise` in
// /sys/kernel/mm/transparent_hugepage/enabled), a model of gigabytes then walks far fewer page
// tables: the 100^3 permutation on 2 threads spent 13 % less time handling events
// (bench/SCALE.md). Small runs gain nothing and may wait for the kernel to compact memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace netwarp::apps {

// Whether argv asks for it: --huge-pages before any "--".
bool huge_pages_requested(int argc, char** argv);

// Starts this program again (execv of /proc/self/exe, the same arguments) with the tunables
// added to the environment, unless this process already runs with them. Returns only when it
// does not start again: "" when the tunables are already in effect, else why (one line).
std::string restart_with_huge_pages(char** argv);

// Whether this process's malloc runs with glibc.malloc.hugetlb on (GLIBC_TUNABLES at start).
bool malloc_huge_pages();

// GLIBC_TUNABLES with ours added: the user's own stay, ours only where the user set none of the
// same name ("glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1" from nothing).
std::string huge_page_tunables(std::string tunables);

// The kernel's mode, the bracketed word of /sys/kernel/mm/transparent_hugepage/enabled ("always",
// "madvise", "never"; "" when unknown).
std::string transparent_huge_pages_mode();

// A note for the end of a run that held `peak_rss_bytes` without huge pages where the kernel
// gives them on request (`mode()` says "madvise") and --huge-pages would have asked: ""
// otherwise. `mode` is asked only for a run that big (it reads sysfs).
std::string huge_pages_hint(std::uint64_t peak_rss_bytes, bool in_effect,
                            const std::function<std::string()>& mode);
inline constexpr std::uint64_t kHugePagesHintBytes = std::uint64_t{4} << 30;

}  // namespace netwarp::apps
