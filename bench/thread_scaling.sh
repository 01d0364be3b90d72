#!/usr/bin/env bash
# Thread scaling on a many-core machine (issue 31): the optimistic kernel in its default mode
# (hybrid) on 2, 4, 8 and 16 threads of one process against the sequential kernel, as interleaved
# tuples (bench/parallel_report.py --sync-modes): the fat tree k = 32 permutation (1 MiB TCP) and
# the 3D torus 50^3 permutation first, one tuple each, then PHOLD, torus-alltoall and
# fat-tree-alltoall, 3 tuples. Each part writes its own Markdown table, so a run cut short keeps
# the parts it finished. Needs python3 and a Release netwarp; no MPI.
#
#   bench/thread_scaling.sh [OUT_DIR [THREADS...]]   # default: scaling/ and 2 4 8 16
#
# Environment: NETWARP (default build/bin/netwarp). 4.5 minutes on the 16-CPU device machine at
# e6b4930 (bench/SCALE.md, "16 threads on the device machine again").
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-scaling}")
shift || true
threads=("$@")
((${#threads[@]})) || threads=(2 4 8 16)
export NETWARP="${NETWARP:-$PWD/build/bin/netwarp}"
mkdir -p "$out"
{
  echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "netwarp: $NETWARP, sha256 $(sha256sum "$NETWARP" | cut -c1-16)"
  echo "threads: ${threads[*]}"
  # Cores, threads per core and sockets: 16 CPUs may be 8 cores with two hardware threads each.
  lscpu 2>/dev/null | grep -E '^(Thread|Core|Socket|NUMA node\(s\)|L3)' || true
} | tee "$out/machine.txt"

part() {  # part NAME ARGS...: one table into $out/NAME.md
  local name=$1
  shift
  echo "== $name ($(date -u +%H:%M:%S))" >&2
  OUT="$out/$name.md" python3 bench/parallel_report.py --sync-modes --as threads \
    --modes hybrid --ranks "${threads[@]}" \
    --heading "## Thread scaling, $(nproc) CPUs: $name (issue 31)" "$@"
}
part fat-tree-k32 --no-phold --big --only fat-tree-k32-permutation
part torus-50 --no-phold --big --only torus-50-permutation
part small --pairs 3 --only torus-alltoall fat-tree-alltoall
echo "== done ($(date -u +%H:%M:%S)); tables in $out" >&2
