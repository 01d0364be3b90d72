#!/usr/bin/env bash
# Installs what is missing, builds Release into build/, and runs the main job, `netwarp run`, on
# its built-in default scenario (an incast of 16 TCP senders on one switch). Extra arguments go
# to the job: `scripts/demo.sh scenarios/torus-alltoall.pbtxt --kernel optimistic`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" --target netwarp >/dev/null
exec build/bin/netwarp run "$@"
