#!/usr/bin/env python3
"""Pairs two netwarp builds on many threads (issue 31), in one short run.

Whether a change pays off where one device run is all there is.

Runs a big case (default: the fat tree k = 32 permutation of parallel_report.py --big) once with
the sequential kernel of build B, then PAIRS interleaved rounds of: A on T threads, B on T threads,
and B on T threads with NETWARP_PIN_THREADS=0 (partitions left to the operating system's
scheduler). Prints one line per run (engine wall time, handling, communication and GVT seconds of
the largest partition, the least partition's handling, the speed-up over the sequential run) and
a summary: the median per build and the median of the paired ratios A/B. Every digest must equal
the sequential one.

  bench/thread_ab.py OLD/netwarp NEW/netwarp                        # 16 threads, 2 rounds
  bench/thread_ab.py OLD/netwarp NEW/netwarp --threads 8 --pairs 3 --case torus-50-permutation

It prints the machine first (CPUs, cores, threads per core) and writes nothing but a temporary
folder. On the device machine (16 CPUs, 2026-11-30) the fat tree k = 32 permutation took 28-37 s
of engine time sequentially and 2.7-3.3 s on 16 threads at 65bc9c8 (bench/SCALE.md); each run
also builds the model first. 2 rounds took about 80 s there.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parallel_report  # noqa: E402  (the --big scenarios)


def machine():
    text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    keep = ("Model name", "Thread(s) per core", "Core(s) per socket", "Socket(s)", "NUMA node(s)")
    lines = [line.strip() for line in text.splitlines() if line.startswith(keep)]
    return f"{os.cpu_count()} CPUs; " + "; ".join(" ".join(line.split()) for line in lines)


def run(netwarp, scenario, out, args, env_extra=None):
    """One `netwarp run`; returns results.json."""
    cmd = [netwarp, "run", scenario, "--out", out, *parallel_report.BIG_EXTRA, *args]
    env = dict(os.environ, CI="true", **(env_extra or {}))
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if proc.returncode != 0:
        sys.exit(f"thread_ab.py: {' '.join(cmd)} failed:\n{proc.stderr.decode(errors='replace')}")
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="build A's netwarp (the baseline)")
    parser.add_argument("b", help="build B's netwarp (the change)")
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--pairs", type=int, default=2, help="interleaved rounds (default 2)")
    parser.add_argument("--case", default="fat-tree-k32-permutation",
                        choices=sorted(parallel_report.BIG_CASES))
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    walls = {"A": [], "B": [], "B unpinned": []}
    with tempfile.TemporaryDirectory() as tmp:
        scenario = parallel_report.big_scenario(args.case, tmp)
        out = os.path.join(tmp, "out")
        seq = run(os.path.abspath(args.b), scenario, out, ["--kernel", "sequential"])
        print(f"sequential (B): {seq['wall_seconds']:.3f} s, digest {seq['digest']}", flush=True)
        threads = ["--threads", str(args.threads)]
        for round_ in range(1, args.pairs + 1):
            for label, netwarp, env in (("A", args.a, None), ("B", args.b, None),
                                        ("B unpinned", args.b, {"NETWARP_PIN_THREADS": "0"})):
                r = run(os.path.abspath(netwarp), scenario, out, threads, env)
                if r["digest"] != seq["digest"]:
                    sys.exit(f"thread_ab.py: {label} gave digest {r['digest']}, sequential "
                             f"{seq['digest']}")
                walls[label].append(r["wall_seconds"])
                # Builds before 7bdfeb8 write no partitions: their largest stands for all.
                least = min(p["handling_seconds"] for p in r.get("partitions", [r]))
                print(f"round {round_} {label:10s} {args.threads} threads: "
                      f"{r['wall_seconds']:.3f} s ({seq['wall_seconds'] / r['wall_seconds']:.2f}x)"
                      f"  handling {r['handling_seconds']:.3f} (least partition {least:.3f})"
                      f"  communication "
                      f"{r['communication_seconds']:.3f}  GVT {r['gvt_seconds']:.3f} s"
                      f" ({r['gvt_rounds']} rounds)", flush=True)
    for label, values in walls.items():
        median = statistics.median(values)
        print(f"{label}: median {median:.3f} s, {seq['wall_seconds'] / median:.2f}x sequential")
    ratios = [a / b for a, b in zip(walls["A"], walls["B"])]
    print(f"A/B per round: median {statistics.median(ratios):.3f} "
          f"({min(ratios):.3f}-{max(ratios):.3f}); above 1: B is faster")


if __name__ == "__main__":
    main()
