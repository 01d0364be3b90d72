#!/usr/bin/env python3
"""Fixed costs of a short run: the whole `netwarp run` process against its event loop.

Runs the library's 64 x 1 MiB incast (scenarios/incast.pbtxt) with each given netwarp binary in
turn (interleaved: A B A B ...), each run into a fresh output folder, and prints per binary the
median and least of the whole process's wall time (fork to exit, as the caller sees it), of the
engine's `wall_seconds` (results.json: building the LPs, the event loop, the LPs' final records)
and of their difference, the time outside the loop: start-up, reading the scenario, building the
network, sorting and writing the outputs, exit. Two output settings: `default` (the scenario as
it is: queue trace of the bottleneck, 100 us time series, 7.4 MB of CSV) and `minimal` (no queue
trace, `outputs { sample_interval_ns: 0 }`: results.json, flows.csv, ports.csv, fct_cdf.csv). Also
the process's CPU time (user + system, as its parent's wait4 reports it: less inflated than wall
time on a busy machine), a third setting, `start`: `netwarp run --help`, start-up and exit
alone (no run, no engine), and a fourth, `sweep/point`: the minimal incast as one process of
`--sweep-points` points (`netwarp run --sweep seed=1,2,...`), per point (the whole process and
the engine's time summed over sweep.csv, divided by the points).

  bench/fixed_costs.py build/bin/netwarp                      # one binary
  bench/fixed_costs.py OLD/netwarp NEW/netwarp --runs 15     # before/after, with A/B ratios
  bench/fixed_costs.py OLD/netwarp NEW/netwarp --instructions  # and instructions, by callgrind

--instructions also counts, under valgrind's callgrind (one run each, about a minute), the
instructions of the minimal incast outside `netwarp::apps::run_kernel` (the engine: building the
LPs, the loop, their final records) and of `run --help`: on a shared or virtual machine, where
wall times move by half between calls, a figure that does not move.
"""
import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCAST = os.path.join(ROOT, "scenarios", "incast.pbtxt")


def minimal_scenario(folder):
    """The incast with an outputs block of no time series instead of its own (the queue trace),
    in `folder`. Written in the file rather than by --set, which reads the schema by reflection
    and so costs protobuf's descriptors (about 0.7 ms) that a plain run no longer builds."""
    with open(INCAST) as f:
        lines = f.read().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("outputs {"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("}"))
    path = os.path.join(folder, "incast-minimal.pbtxt")
    with open(path, "w") as f:
        f.writelines(lines[:start] + ["outputs { sample_interval_ns: 0 }\n"] + lines[end + 1:])
    return path


def one_sweep(netwarp, scenario, extra, out, points):
    """(whole wall, engine wall_seconds, process CPU) per point of one sweep process, ms."""
    shutil.rmtree(out, ignore_errors=True)
    seeds = ",".join(str(seed) for seed in range(1, points + 1))
    args = [netwarp, "run", scenario, "--out", out, "--sweep", "seed=" + seeds] + extra
    start = time.monotonic()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    whole = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), args)
    with open(os.path.join(out, "sweep.csv")) as f:
        engine = sum(float(row["wall_seconds"]) for row in csv.DictReader(f))
    cpu = usage.ru_utime + usage.ru_stime
    return whole * 1e3 / points, engine * 1e3 / points, cpu * 1e3 / points


def one_run(netwarp, scenario, extra, out):
    """(whole wall, engine wall_seconds, process CPU), ms; no scenario: `run --help`."""
    shutil.rmtree(out, ignore_errors=True)
    args = [netwarp, "run", scenario, "--out", out] + extra if scenario else [netwarp, "run",
                                                                            "--help"]
    start = time.monotonic()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    whole = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, args)
    engine = 0.0
    if scenario:
        with open(os.path.join(out, "results.json")) as f:
            engine = json.load(f)["wall_seconds"]
    return whole * 1e3, engine * 1e3, (usage.ru_utime + usage.ru_stime) * 1e3


def measure(binaries, scenario, extra, runs, folder, points=0):
    times = {b: [] for b in range(len(binaries))}
    for i in range(runs + 1):  # the first round warms the page cache, not counted
        for b, netwarp in enumerate(binaries):
            out = os.path.join(folder, f"out{b}")
            result = (one_sweep(netwarp, scenario, extra, out, points) if points else
                      one_run(netwarp, scenario, extra, out))
            if i > 0:
                times[b].append(result)
    return times


def callgrind(args, folder, *options):
    """Runs `args` under valgrind's callgrind (with `options`); returns the profile's path."""
    profile = os.path.join(folder, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", *options, f"--callgrind-out-file={profile}",
                    *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return profile


def callgrind_instructions(args, folder):
    """(the run's instructions, those inside run_kernel) under callgrind; None without valgrind."""
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        return None
    profile = callgrind(args, folder)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", profile],
                          capture_output=True, text=True, check=True).stdout
    count = lambda line: int(line.split()[0].replace(",", ""))
    total = next(count(line) for line in text.splitlines() if "PROGRAM TOTALS" in line)
    kernel = [count(line) for line in text.splitlines()
              if re.search(r"netwarp::apps::run_kernel\(", line)]
    return total, (kernel[0] if kernel else 0)


def print_instructions(binaries, minimal, folder):
    print("\ninstructions (callgrind, one run each), millions:")
    print("| binary | minimal incast, outside run_kernel | `run --help` |")
    print("|---|---:|---:|")
    for b, netwarp in enumerate(binaries):
        out = os.path.join(folder, f"callgrind-out{b}")
        shutil.rmtree(out, ignore_errors=True)
        run = callgrind_instructions([netwarp, "run", minimal, "--out", out], folder)
        if run is None:
            print("valgrind (callgrind) is not installed: no instruction counts")
            return
        start, _ = callgrind_instructions([netwarp, "run", "--help"], folder)
        print(f"| {chr(ord('A') + b)} | {(run[0] - run[1]) / 1e6:.3f} | {start / 1e6:.3f} |")


def summary(values):
    return f"{statistics.median(values):7.1f} ({min(values):6.1f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("netwarp", nargs="+", help="netwarp binaries, measured in turn")
    parser.add_argument("--runs", type=int, default=11, help="counted runs of each (default 11)")
    parser.add_argument("--sweep-points", type=int, default=40,
                        help="points of the sweep setting's one process (default 40; 0: no sweep)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions outside the loop under callgrind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        minimal = minimal_scenario(folder)
        settings = [("default", INCAST, [], 0), ("minimal", minimal, [], 0),
                    ("start", None, [], 0)]
        if args.sweep_points > 0:
            settings.append(("sweep/point", minimal, [], args.sweep_points))
        print(f"load average before: {os.getloadavg()[0]:.2f}; {args.runs} interleaved runs each;"
              " ms, median (least)")
        print("| outputs | binary | whole process | engine wall_seconds | outside the loop |"
              " process CPU |")
        print("|---|---|---|---|---|---|")
        for name, scenario, extra, points in settings:
            times = measure(args.netwarp, scenario, extra, args.runs, folder, points)
            for b, netwarp in enumerate(args.netwarp):
                whole = [w for w, _, _ in times[b]]
                engine = [e for _, e, _ in times[b]]
                outside = [w - e for w, e, _ in times[b]]
                cpu = [c for _, _, c in times[b]]
                print(f"| {name} | {chr(ord('A') + b)} | {summary(whole)} | {summary(engine)} |"
                      f" {summary(outside)} | {summary(cpu)} |")
            if len(args.netwarp) == 2:
                for what, i in (("whole", 0), ("CPU", 2)):
                    ratios = [a[i] / b[i] for a, b in zip(times[0], times[1])]
                    print(f"| {name} | A/B {what}, per pair | {statistics.median(ratios):.3f} "
                          f"({min(ratios):.3f}-{max(ratios):.3f}) | | | |")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        if args.instructions:
            print_instructions(args.netwarp, minimal, folder)


if __name__ == "__main__":
    main()
