#!/usr/bin/env bash
# The several-ranks-per-host grid of README.md ("Collectives on a 25/100 Gbit/s tree"): every
# program at 1, 2, 4 and 8 ranks per host (4 hosts, so 4R ranks; the trace's 8 ranks on 8/R
# hosts of 8), LogGPS and the flow model against the packet run. Prints one markdown row per point.
# Usage: grid.sh [NETWARP]   (default build-check/bin/netwarp; about a minute on 2 cores)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
netwarp=${1:-$root/build-check/bin/netwarp}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

point() {  # label R m scenario args...
  local label=$1 r=$2 m=$3 scenario=$4
  shift 4
  local row
  row=$("$netwarp" validate "$scenario" --models loggps,flow --out "$out/v" --timelines none \
    --no-sweep "$@" | awk '$1 == "-" {print $2 " | " $4 " | " $6}')
  echo "| $label | $r | $m | $row |"
}

echo "| program | ranks/host | m (B) | packet (us) | loggps err % | flow err % |"
echo "|---|---:|---:|---:|---:|---:|"
tree=$here/tree-25-100.pbtxt
for r in 1 2 4 8; do
  for m in 16384 262144 1048576; do
    point "allreduce recursive doubling" $r $m "$tree" --set mpi.ranks_per_host=$r \
      --set mpi.ranks=$((4 * r)) --set mpi.collective.bytes=$m
  done
done
for alg in ring reduce_bcast; do
  for r in 1 2 4 8; do
    point "allreduce $alg" $r 262144 "$tree" --set mpi.ranks_per_host=$r \
      --set mpi.ranks=$((4 * r)) --set mpi.collectives.allreduce=$alg
  done
done
for r in 1 2 4 8; do
  point "bcast binomial" $r 262144 "$tree" --set mpi.ranks_per_host=$r \
    --set mpi.ranks=$((4 * r)) --set mpi.collective.kind=bcast
  point "all-to-all A" $r 65536 "$here/alltoall-25-100.pbtxt" --set mpi.ranks_per_host=$r \
    --set mpi.ranks=$((4 * r))
  point "trace otf2-halo (8 ranks)" $r 65536 "$tree" --set mpi.ranks_per_host=$r \
    --set topology.tree.hosts_per_leaf=4 --set mpi.ranks=8 --trace "$root/scenarios/traces/otf2-halo/traces.otf2"
done
