#!/usr/bin/env python3
"""The kernels' prefetches survive the optimiser: the disassembly of the sequential kernel (with
PendingQueue::prefetch_next inlined into it, or beside it) holds prefetch instructions. GCC 12 at
-O2/-O3 dropped every one of them, unnoticed, from 2026-11-28, when they moved from the kernel's
loop into a function of their own, to 2026-11-30 (a function whose only effects are
__builtin_prefetch is found pure: engine/src/core/prefetch.hpp). That cost the 50^3 torus
permutation 18 % of its time sequentially and 28 % on 2 threads. x86-64 with objdump only;
skipped (77) elsewhere."""
import platform
import shutil
import subprocess
import sys

SKIP = 77


def prefetches_in(library, wanted):
    listing = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", library],
                             capture_output=True, text=True, check=True).stdout
    count = 0
    inside = False
    for line in listing.splitlines():
        if line.endswith(">:"):  # a function's first line: "0000... <name>:"
            inside = any(name in line for name in wanted)
        elif inside and "\tprefetch" in line:
            count += 1
    return count


def main():
    if platform.machine() not in ("x86_64", "AMD64") or shutil.which("objdump") is None:
        print("skipped: needs x86-64 and objdump")
        return SKIP
    found = prefetches_in(sys.argv[1], ("run_sequential", "SequentialKernel::run", "prefetch_next"))
    # prefetch_next loads three lines per candidate (the event's two, the LP's first).
    if found < 3:
        print(f"{sys.argv[1]}: {found} prefetch instructions in the sequential kernel, expected"
              " at least 3: the optimiser dropped PendingQueue::prefetch_next")
        return 1
    print(f"{found} prefetch instructions in the sequential kernel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
