#!/usr/bin/env python3
"""Random scenarios (random_scenarios.py, fixed seeds) through `netwarp run`: each runs to its end
(exit 0, 3 or 4, never a refusal or a PFC headroom overflow with the default headroom), no flow
beats its ideal time (slowdown >= 1), no port is busy more than all the time, and each gives
the sequential kernel's digest and every output file (results.json less what describes the
run rather than the network) on 2 threads (hybrid, conservative), 3 threads (optimistic) and,
for the seeds divisible by four, with every event handled, rolled back and handled again
(--check-reverse). A change that breaks determinism or reversibility only where features meet
shows up here. The seeds are fixed, so a failure repeats."""
import hashlib
import json
import os
import sys
import unittest

import netwarp_cli
import random_scenarios
from netwarp_cli import run

# Cheap seeds of the first 160 that together draw every feature below, and four that failed
# before their fixes: 29 (PFC headroom), 60 and 142 (slowdown below 1), 199 (MPI stream order).
# The whole set takes about 8 s in a Release build, ten times that under the sanitizers.
SEEDS = (12, 29, 60, 69, 73, 105, 108, 122, 124, 125, 142, 151, 199)
MODES = {
    "threads-2": ["--threads", "2"],
    "threads-2-conservative": ["--threads", "2", "--sync", "conservative"],
    "threads-3-optimistic": ["--threads", "3", "--sync", "optimistic"],
}
CHECK_REVERSE = ["--kernel", "optimistic", "--check-reverse"]
# results.json's fields about the run (kernel, partitions, events, memory, timings).
RUN_FIELDS = {"kernel", "sync", "ranks", "kernel_ranks", "sole_rank", "efficiency",
              "event_rate", "partitions", "huge_pages", "window_us", "rank_memory",
              "effective_scenario", "rollbacks", "remote_events_sent", "anti_messages_sent",
              "gvt_rounds", "engine_bytes_per_event", "event_store_bytes_per_event",
              "engine_bytes_at_peak", "event_store_bytes_at_peak"}


def is_run_field(key):
    return (key in RUN_FIELDS or key.startswith(("events_", "rolled_back", "peak_")) or
            key.endswith("_seconds"))


def outputs(folder):
    """Every output file's hash, results.json's without the run's fields."""
    hashes = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        if name == "results.json":
            fields = {k: v for k, v in json.loads(data).items() if not is_run_field(k)}
            data = json.dumps(fields, sort_keys=True).encode()
        hashes[name] = hashlib.sha256(data).hexdigest()
    return hashes


class RandomScenarios(netwarp_cli.ScratchCase):
    def run_mode(self, path, seed, mode, args):
        out = os.path.join(self.dir, f"{seed}-{mode}")
        r = run(["run", path, "--out", out, *args])
        self.assertIn(r.returncode, (0, 3, 4), f"seed {seed}, {mode}: {r.stderr}")
        return r.returncode, outputs(out)

    def assert_bounds(self, seed):
        """No flow beats its ideal time; no port is busy more than all the time."""
        with open(os.path.join(self.dir, f"{seed}-sequential", "results.json")) as f:
            results = json.load(f)
        for flow in results.get("flows", []):
            if flow["slowdown"] is not None:
                self.assertGreaterEqual(flow["slowdown"], 1.0, f"seed {seed}, {flow}")
        for port in results.get("ports", []):
            self.assertLessEqual(port["utilisation"], 1.0, f"seed {seed}, {port}")
            self.assertLessEqual(port["busy_utilisation"], 1.0, f"seed {seed}, {port}")

    def test_every_mode_gives_the_sequential_results(self):
        for seed in SEEDS:
            with self.subTest(seed=seed):
                path = self.write(f"random{seed}.pbtxt", random_scenarios.scenario(seed))
                expected = self.run_mode(path, seed, "sequential", [])
                self.assert_bounds(seed)
                modes = dict(MODES, **({"check-reverse": CHECK_REVERSE} if seed % 4 == 0 else {}))
                for mode, args in modes.items():
                    got = self.run_mode(path, seed, mode, args)
                    differ = sorted(k for k in expected[1].keys() | got[1].keys()
                                    if expected[1].get(k) != got[1].get(k))
                    self.assertEqual(got[0], expected[0], f"seed {seed}, {mode}: exit status")
                    self.assertEqual(differ, [], f"seed {seed}, {mode}: files differ")

    def test_the_seeds_cover_the_features_drawn(self):
        texts = "".join(random_scenarios.scenario(seed) for seed in SEEDS)
        features = ("star", "tree", "fat_tree", "torus", "dragonfly", "leaf_spine", "multipath",
                    "kind: TCP", "kind: LOSSLESS", "kind: ROCE", "pfc { }", "pfc { xoff",
                    "flow_control: CREDIT", "scheduler: DRR", "red {", "shared_buffer", "dcqcn",
                    "mpi {", "datacenter", "incast", "all_to_all", "permutation",
                    "uniform_random", "cwnd_trace: true", "nic {", "placement", "levels {",
                    "mss_bytes", "after: ", "SPRAY_ROUND_ROBIN", "SPRAY_RANDOM", "FLOWLET",
                    "VALIANT", "UGAL", "sack: true", "DCTCP", "CUBIC")
        self.assertEqual([f for f in features if f not in texts], [])


if __name__ == "__main__":
    netwarp_cli.NETWARP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
