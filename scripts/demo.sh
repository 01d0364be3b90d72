#!/usr/bin/env bash
# Installs what is missing, builds Release into build/, and runs the main job, `netwarp run`, on
# its built-in default scenario (an incast of 16 TCP senders on one switch). Extra arguments go
# to the job: `scripts/demo.sh scenarios/torus-alltoall.pbtxt --kernel optimistic`.
# The build says that it is building and shows cmake's progress (one line rewritten in place on
# a terminal); its whole log is build/demo-build.log, whose end is shown if it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh

# cmake's lines: rewritten in place on a terminal, as they come otherwise.
show_progress() {
  if [[ -t 2 ]]; then
    while IFS= read -r line; do printf '\r%-79.79s' "$line" >&2; done
    printf '\r%79s\r' '' >&2
  else
    cat >&2
  fi
}

echo "demo: building netwarp into build/ (Release; a first build takes several minutes)" >&2
mkdir -p build
log=build/demo-build.log
if ! { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release &&
  cmake --build build -j "$jobs" --target netwarp; } 2>&1 | tee "$log" | show_progress; then
  echo "demo: the build failed; the end of $log:" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
echo "demo: built build/bin/netwarp; running: netwarp run $*" >&2
exec build/bin/netwarp run "$@"
