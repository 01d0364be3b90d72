#!/usr/bin/env bash
# Installs the Debian packages netwarp needs, only those missing. Silent when nothing is missing.
set -euo pipefail

packages=(
  cmake g++ make pkg-config python3
  clang lld ccache
  libopenmpi-dev openmpi-bin
  libboost-mpi-dev libboost-serialization-dev
  libprotobuf-dev protobuf-compiler
  libcli11-dev libfmt-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  tshark
  libsimgrid-dev libns3-dev gnuplot-nox
  libopen-trace-format2-dev
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "netwarp: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
