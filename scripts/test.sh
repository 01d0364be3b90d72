#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test through ctest: the Release build (unit,
# MPI with 2 and 4 ranks, end-to-end CLI tests), then everything but the MPI tests again under ASan/UBSan,
# then a short run of each libFuzzer target (fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNETWARP_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DNETWARP_SANITIZE=ON -DNETWARP_BUILD_BENCH=OFF \
  -DNETWARP_BUILD_TESTS=ON >/dev/null
cmake --build build-asan -j "$jobs"
# libotf2 leaks on broken archives (tests/lsan_suppressions.txt says where).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan_suppressions.txt"
ctest --test-dir build-asan -L unit --output-on-failure -j "$jobs"
# Open MPI's own allocations are never freed: no leak checking where netwarp runs under mpirun.
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-asan -L e2e --output-on-failure

# The fuzz targets only (clang, ASan/UBSan, libFuzzer), each for NETWARP_FUZZ_SECONDS on its seeds.
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNETWARP_FUZZ=ON \
  -DNETWARP_BUILD_TESTS=OFF -DNETWARP_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target netwarp_fuzz_targets
ctest --test-dir build-fuzz -L fuzz --output-on-failure -j "$jobs"
