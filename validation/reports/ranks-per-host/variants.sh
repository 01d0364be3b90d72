#!/usr/bin/env bash
# Variants of the 4-ranks-per-host recursive doubling of README.md ("Gl from a shared NIC") on
# platforms and programs grid.sh does not cover: other link rates, eager limit, host costs,
# placement, tree size, transport, ranks per host, and the all-to-all at other sizes/algorithms.
# Prints one markdown row per point. Usage: variants.sh [NETWARP] (about 40 s on 2 cores)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
netwarp=${1:-$root/build-check/bin/netwarp}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tree=$here/tree-25-100.pbtxt

point() {  # label scenario args...
  local label=$1
  shift
  local row
  row=$("$netwarp" validate "$@" --models loggps,flow --out "$out/v" --timelines none \
    --no-sweep 2>/dev/null | awk '$1 == "-" {print $2 " | " $4 " | " $6}')
  echo "| $label | $row |"
}
rd() {  # label R m args...
  local label=$1 r=$2 m=$3
  shift 3
  point "$label | $r | $m" "$tree" --set mpi.ranks_per_host=$r --set mpi.ranks=$((4 * r)) \
    --set mpi.collective.bytes=$m "$@"
}

echo "| variant | ranks/host | m (B) | packet (us) | loggps err % | flow err % |"
echo "|---|---:|---:|---:|---:|---:|"
for m in 65536 524288 2097152; do
  rd "10/40 Gbit/s links" 4 $m --set links.rate_bps=10000000000 \
    --set 'links.levels[0].rate_bps=40000000000'
done
for m in 32768 131072 1048576; do
  rd "eager limit 64 KiB" 4 $m --set mpi.protocol.eager_bytes=65536
done
for m in 65536 524288; do
  rd "Osl 0.1, Orl 0.2 ns/byte" 4 $m --set mpi.host.recv_rendezvous_ns_per_byte=0.2 \
    --set mpi.host.send_rendezvous_ns_per_byte=0.1
  rd "cyclic rank order" 4 $m --set mpi.rank_order=CYCLIC
  point "8 hosts (4 leaves) | 4 | $m" "$tree" --set mpi.ranks_per_host=4 --set mpi.ranks=32 \
    --set mpi.collective.bytes=$m --set topology.tree.leaves=4
  rd "TCP transport" 4 $m --set transport.kind=TCP
  rd "3 ranks per host (12 ranks)" 3 $m
  rd "allgather" 4 $m --set mpi.collective.kind=allgather
done
point "all-to-all A | 4 | 262144" "$here/alltoall-25-100.pbtxt" --set mpi.alltoall.bytes=262144
point "all-to-all B | 4 | 65536" "$here/alltoall-25-100.pbtxt" \
  --set mpi.alltoall.algorithm=algorithm_b
