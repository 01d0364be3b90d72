#!/usr/bin/env bash
# Installs what is missing, builds Release into build/, and runs the main job on its built-in
# default. Extra arguments go to the job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" --target netwarp >/dev/null
mkdir -p out
exec build/bin/netwarp bench phold --json out/phold.json "$@"
