#!/usr/bin/env bash
# Installs what is missing, builds once and runs every test through ctest in that build: clang
# with ASan/UBSan and libFuzzer coverage at -O1 (build-check/), so the unit, MPI (2 and 4 ranks),
# end-to-end, study and docs tests all run sanitized, then each libFuzzer target briefly
# (fuzz/README.md). One build instead of three (Release, ASan, fuzz) keeps CI under 25 minutes on
# 2 cores; the Release build is scripts/demo.sh's. Then the threads' tests under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh

CC=clang CXX=clang++ cmake -S . -B build-check -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DNETWARP_FUZZ=ON \
  -DNETWARP_BUILD_TESTS=ON -DNETWARP_BUILD_BENCH=OFF >/dev/null
cmake --build build-check -j "$jobs"

# libotf2 leaks on broken archives (tests/lsan_suppressions.txt says where).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan_suppressions.txt"
ctest --test-dir build-check -L unit --output-on-failure -j "$jobs"
# Open MPI's own allocations are never freed: no leak checking where netwarp may run under
# mpirun (the MPI, end-to-end, study and docs tests).
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-check -LE "unit|fuzz" --output-on-failure -j "$jobs"
# Each fuzz target for NETWARP_FUZZ_SECONDS on its seeds, and fuzz/mutate.py's smoke run.
ctest --test-dir build-check -L fuzz --output-on-failure -j "$jobs"

# Partitions as threads share mailboxes, promises and GVT slots: their tests again under
# ThreadSanitizer, which cannot share a build with ASan (engine_tests alone, about a minute).
CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" "-DCMAKE_CXX_FLAGS=-fsanitize=thread" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread" -DNETWARP_BUILD_TESTS=ON \
  -DNETWARP_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j "$jobs" --target engine_tests
TSAN_OPTIONS=halt_on_error=1 build-tsan/bin/engine_tests \
  --gtest_filter='*Thread*:*thread*:MessageQueue.*:CpuPinning.*' --gtest_brief=1
