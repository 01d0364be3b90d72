#!/usr/bin/env python3
"""Regenerates the "2-rank efficiency" section of bench/SCALE.md (issue 15): how much faster the
optimistic kernel on 2 MPI ranks runs than the sequential kernel, with default settings, and how
close sequential PHOLD comes to a bare event loop.

  library   every scenario of scenarios/*.pbtxt: `netwarp run X` against
            `mpirun -np 2 netwarp run X --kernel optimistic`, engine wall time (results.json
            wall_seconds), PAIRS interleaved pairs (more for scenarios of a few ms), the
            median of the pair ratios;
  phold     weak scaling as bench/PHOLD.md: sequential 2048 LPs against 2 ranks x 1024 LPs
            (remote 0.1, end --phold-end us), committed events/s;
  floor     with --floor FILE (shared/bench/phold_floor.cpp): sequential PHOLD, 1024 LPs, remote
            0.1, end 20000 us, against that bare heap loop compiled with g++ -O2, paired user CPU
            time (it prints nothing of netwarp's: the ratio is whole-process CPU);
  ceiling   with --ceiling: torus-alltoall and PHOLD as interleaved triples (sequential, the
            optimistic kernel on 1 rank, on 2 ranks), engine wall time. The optimistic kernel's
            own cost per event (1 rank against sequential) bounds what 2 ranks can reach even
            if they never waited for each other: 2 x sequential / optimistic on 1 rank. (With
            --sync optimistic: on one rank the other modes run every event safe.)
  sync      with --sync-modes (issue 31): writes the section "Sync modes" instead of the above:
            PHOLD (2048 LPs / RANKS x 2048/RANKS) and the library scenarios (--only narrows
            them) as interleaved tuples: sequential, then the optimistic kernel on each rank
            count of --ranks (default 2), as MPI processes and as threads (--as narrows it),
            in each engine.sync mode (--modes narrows them); engine wall time, the share
            of events that ran safe, rollbacks, GVT time. With --big also the fat tree k = 32
            (1 MiB TCP) and 3D torus 50^3 (4000 B, credit flow control) permutations,
            --big-pairs tuples each (--only narrows them too). A many-core machine:
            bench/thread_scaling.sh (1 to 16 threads, hybrid).

Every pair must give equal digests. Run it on an otherwise idle machine: a 2-rank run needs both
cores, and any other process makes one rank wait for the other at every GVT round.

  bench/parallel_report.py                      # writes the section into bench/SCALE.md
  bench/parallel_report.py --pairs 5 --floor ../shared/bench/phold_floor.cpp --ceiling

Environment: NETWARP (default build/bin/netwarp, a Release build), OUT (default bench/SCALE.md),
MPIRUN.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

import per_hop
import scale_report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETWARP = os.path.abspath(os.environ.get("NETWARP", os.path.join(ROOT, "build/bin/netwarp")))
OUT = os.path.abspath(os.environ.get("OUT", os.path.join(ROOT, "bench/SCALE.md")))
MPIRUN = os.environ.get("MPIRUN", "mpirun")
HEADING = "## 2-rank efficiency"
# Library scenarios whose pairs add up to less than this much engine time get more pairs.
SHORT_RUN_SECONDS = 1.0
SHORT_RUN_PAIRS_CAP = 5

# Issue 15's targets for 2 ranks against sequential.
TORUS_TARGET = 1.6   # scenarios/torus-alltoall.pbtxt, engine wall time
LIBRARY_FLOOR = 0.8  # every library scenario, default settings
PHOLD_TARGET = 1.9   # PHOLD weak scaling, committed events/s
FLOOR_RATIO = 2.0    # sequential PHOLD CPU time at most twice the bare loop's
# Issue 31's targets for 2 partitions (--sync-modes): PHOLD on 2 threads, engine wall time; every
# library scenario in the default sync mode.
PHOLD_THREADS_TARGET = 1.85
LIBRARY_DEFAULT_FLOOR = 0.9
DEFAULT_SYNC = "hybrid"


def mpi(ranks, cmd):
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return [MPIRUN, "--oversubscribe", *root, "-np", str(ranks)] + cmd


def run_json(cmd, json_path):
    """Runs cmd (CI=true: no progress line), returns the JSON it wrote and its user CPU s."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err,
                                env=dict(os.environ, CI="true"))
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"parallel_report.py: {' '.join(cmd)} failed:\n"
                     f"{err.read().decode(errors='replace')}")
    with open(json_path) as f:
        return json.load(f), usage.ru_utime


def sync_args(kernel, sync):
    return ["--sync", sync] if kernel == "optimistic" and sync else []


def launch(cmd, ranks, threads=False):
    """cmd on `ranks` partitions: MPI processes, or threads of one process (--threads)."""
    if ranks <= 1:
        return cmd
    return cmd + ["--threads", str(ranks)] if threads else mpi(ranks, cmd)


def scenario_run(path, kernel, ranks, out, sync=None, threads=False, extra=()):
    """`netwarp run` of a scenario file; returns results.json."""
    cmd = [NETWARP, "run", path, "--kernel", kernel, "--out", out, *sync_args(kernel, sync),
           *extra]
    result, _ = run_json(launch(cmd, ranks, threads), os.path.join(out, "results.json"))
    return result


def phold_command(kernel, lps, end, json_path, sync=None):
    """`netwarp bench phold`, remote 0.1, on one rank."""
    return [NETWARP, "bench", "phold", "--remote", "0.1", "--end", str(end), "--kernel", kernel,
            "--lps", str(lps), "--json", json_path, *sync_args(kernel, sync)]


def phold_run(kernel, ranks, lps, end, json_path, sync=None, threads=False):
    """PHOLD on `ranks` ranks (or threads); returns its JSON."""
    cmd = phold_command(kernel, lps, end, json_path, sync)
    result, _ = run_json(launch(cmd, ranks, threads), json_path)
    return result


def library_pair(path, tmp):
    return (scenario_run(path, "sequential", 1, os.path.join(tmp, "seq")),
            scenario_run(path, "optimistic", 2, os.path.join(tmp, "opt")))


def library_row(path, pairs):
    """PAIRS interleaved pairs, and more (up to SHORT_RUN_PAIRS_CAP x PAIRS) while the pairs
    so far add up to less than SHORT_RUN_SECONDS of engine time: a run of a few milliseconds
    moves by a third when a napping rank wakes late, so its median needs more pairs."""
    name = os.path.splitext(os.path.basename(path))[0]
    seq_walls, opt_walls, ratios, same = [], [], [], True
    with tempfile.TemporaryDirectory() as tmp:
        while len(ratios) < pairs or (sum(seq_walls) + sum(opt_walls) < SHORT_RUN_SECONDS
                                      and len(ratios) < SHORT_RUN_PAIRS_CAP * pairs):
            seq, opt = library_pair(path, tmp)
            seq_walls.append(seq["wall_seconds"])
            opt_walls.append(opt["wall_seconds"])
            ratios.append(seq["wall_seconds"] / max(opt["wall_seconds"], 1e-9))
            same = same and seq["digest"] == opt["digest"]
    how = f"rank {opt['sole_rank']} holds every LP" if opt.get("sole_rank") is not None else (
        f"{opt['events_rolled_back'] / max(opt['events_processed'], 1) * 100:.1f} % rolled back, "
        f"{opt['gvt_rounds']:,} GVT rounds; {split(opt)}")
    speedup = statistics.median(ratios)
    print(f"  {name}: {speedup:.2f}x", file=sys.stderr)
    row = (f"| {name} | {seq['events_committed']:,} | {walls(seq_walls)} | {walls(opt_walls)} | "
           f"{speedup:.2f}x | {how} | {'yes' if same else 'NO'} |")
    return name, speedup, same, row


def split(result):
    """Where the largest rank's wall time went (the summary's `time` line), and the least
    partition's handling time beside it."""
    handling = [p["handling_seconds"] for p in result.get("partitions", [])]
    least = f" (least partition {min(handling):.3f} s)" if len(handling) > 1 else ""
    return (f"{result['handling_seconds']:.3f} s handling{least}, "
            f"{result['communication_seconds']:.3f} s messages, {result['gvt_seconds']:.3f} s GVT,"
            f" {result['fossil_seconds']:.3f} s fossil collection")


def walls(values):
    """Every wall time, or min / median / max (n) when there are many."""
    if len(values) <= 5:
        return " / ".join(f"{v:.3f}" for v in values)
    return (f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f} "
            f"(min / median / max of {len(values)})")


def phold_pair(end, tmp):
    return (phold_run("sequential", 1, 2048, end, os.path.join(tmp, "seq.json")),
            phold_run("optimistic", 2, 1024, end, os.path.join(tmp, "opt.json")))


def phold_rows(pairs, end):
    rows, ratios, same = [], [], True
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(pairs):
            seq, opt = phold_pair(end, tmp)
            ratios.append(opt["event_rate"] / seq["event_rate"])
            same = same and seq["digest"] == opt["digest"]
            rows.append(f"| {seq['event_rate'] / 1e6:.2f} M/s | {opt['event_rate'] / 1e6:.2f} M/s"
                        f" | {ratios[-1]:.2f}x | {opt['efficiency'] * 100:.2f} % |"
                        f" {opt['gvt_rounds']:,} | {split(opt)} |")
    speedup = statistics.median(ratios)
    print(f"  phold: {speedup:.2f}x", file=sys.stderr)
    return speedup, same, rows


def floor_ratio(floor_source, pairs):
    floor = os.path.join(tempfile.mkdtemp(), "phold_floor")
    subprocess.run(["g++", "-O2", "-std=c++20", "-o", floor, floor_source], check=True)
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        json_path = os.path.join(tmp, "seq.json")
        for _ in range(pairs):
            _, cpu = run_json(phold_command("sequential", 1024, 20000, json_path), json_path)
            proc = subprocess.Popen([floor, "1024", "0.1"], stdout=subprocess.DEVNULL)
            _, _, usage = os.wait4(proc.pid, 0)
            ratios.append(cpu / usage.ru_utime)
    print(f"  floor: {statistics.median(ratios):.2f}", file=sys.stderr)
    return ratios


def ceiling_runs(case, phold_end, tmp):
    """One triple of engine wall times: sequential, optimistic on 1 rank, on 2 ranks (PHOLD:
    2048 LPs, then 2 x 1024, weak scaling as the PHOLD rows)."""
    times, digests = [], set()
    for kernel, ranks in (("sequential", 1), ("optimistic", 1), ("optimistic", 2)):
        out = os.path.join(tmp, f"{kernel}{ranks}")
        if case == "phold":
            result = phold_run(kernel, ranks, 2048 // ranks, phold_end, out + ".json",
                               "optimistic")
        else:
            result = scenario_run(os.path.join(ROOT, "scenarios", case + ".pbtxt"), kernel, ranks,
                                  out, "optimistic")
        times.append(result["wall_seconds"])
        digests.add(result["digest"])
    return times, len(digests) == 1


def ceiling_rows(pairs, phold_end):
    """Per case: the medians of the triples' ratios. Returns (rows, same digests)."""
    rows, same = [], True
    for case, target in (("torus-alltoall", TORUS_TARGET), ("phold", PHOLD_TARGET)):
        triples = []
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(pairs):
                times, equal = ceiling_runs(case, phold_end, tmp)
                triples.append(times)
                same = same and equal
        cost = statistics.median(o1 / s for s, o1, _ in triples)
        bound = statistics.median(2 * s / o1 for s, o1, _ in triples)
        reached = statistics.median(s / o2 for s, _, o2 in triples)
        print(f"  ceiling {case}: {cost:.2f} per event, bound {bound:.2f}x, {reached:.2f}x",
              file=sys.stderr)
        rows.append(f"| {case} | {walls_of(triples, 0)} | {walls_of(triples, 1)} |"
                    f" {walls_of(triples, 2)} | {cost:.2f} | {bound:.2f}x | {reached:.2f}x"
                    f" ({100 * reached / bound:.0f} % of it) | {target}x: at most"
                    f" {2 / target:.2f} |")
    return rows, same


def walls_of(triples, i):
    return walls([t[i] for t in triples])


def verdict(ok, text):
    return f"- {'PASS' if ok else 'FAIL'}: {text}"


def section(library, phold, floor, ceiling, options):
    verdicts = []
    torus = next((s for n, s, _, _ in library if n == "torus-alltoall"), None)
    if torus is not None:
        verdicts.append(verdict(torus >= TORUS_TARGET, f"torus-alltoall (16 x 16, 20 KB) on 2"
                                f" ranks at least {TORUS_TARGET}x sequential: {torus:.2f}x."))
    slowest = min(library, key=lambda r: r[1])
    verdicts.append(verdict(slowest[1] >= LIBRARY_FLOOR, f"no library scenario under"
                            f" {LIBRARY_FLOOR}x sequential on 2 ranks: the slowest is"
                            f" {slowest[0]} at {slowest[1]:.2f}x."))
    verdicts.append(verdict(phold[0] >= PHOLD_TARGET, f"PHOLD weak scaling on 2 ranks at least"
                            f" {PHOLD_TARGET}x: {phold[0]:.2f}x."))
    if floor:
        median = statistics.median(floor)
        verdicts.append(verdict(median <= FLOOR_RATIO, f"sequential PHOLD (1024 LPs, remote 0.1)"
                                f" at least half the bare loop's rate: CPU time ratio"
                                f" {median:.2f} ({len(floor)} pairs, {min(floor):.2f}-"
                                f"{max(floor):.2f})."))
    same = all(s for _, _, s, _ in library) and phold[1] and (not ceiling or ceiling[1])
    verdicts.append(verdict(same, "digests equal to sequential in every run."))
    load = os.getloadavg()[0]
    return "\n".join([
        HEADING,
        "",
        f"Generated by `bench/parallel_report.py{options}`; regenerate it rather than edit it."
        f" Load average {load:.1f} at the end (a 2-rank run needs both cores to itself).",
        "",
        *verdicts,
        "",
        "Library scenarios with default settings: engine wall time (results.json `wall_seconds`)"
        " of `netwarp run X` and of `mpirun -np 2 netwarp run X --kernel optimistic`, interleaved"
        " pairs (more for short scenarios: pairs are added until they hold"
        f" {SHORT_RUN_SECONDS:g} s of engine time, at most {SHORT_RUN_PAIRS_CAP} x as many);"
        " the speed-up is the median of the pairs' ratios.",
        "",
        "| scenario | committed events | sequential (s) | 2 ranks (s) | speed-up | 2-rank run"
        " (last pair) | same digest |",
        "|---|---:|---|---|---:|---|---|",
        *[row for _, _, _, row in library],
        "",
        "PHOLD weak scaling (remote 0.1): sequential 2048 LPs against 2 ranks x 1024 LPs,"
        " committed events/s, one row per interleaved pair.",
        "",
        "| sequential | 2 ranks | speed-up | efficiency | GVT rounds | largest rank's time |",
        "|---:|---:|---:|---:|---:|---|",
        *phold[2],
        "",
        *ceiling_text(ceiling),
    ])


def ceiling_text(ceiling):
    if not ceiling:
        return []
    return [
        "What bounds 2 ranks (`--ceiling`): interleaved triples of engine wall times, the"
        " sequential kernel, the optimistic kernel on 1 rank and on 2 ranks (PHOLD: 2048 LPs,"
        " then 2 x 1024). On 1 rank the optimistic kernel does all of Time Warp's bookkeeping"
        " (the log of handled events, the sends kept for cancellation, undo records, commit)"
        " and none of its waiting, so 2 x sequential / optimistic on 1 rank is about the most 2"
        " ranks can reach with perfect balance and free synchronisation (about: a rank of two"
        " holds half the state, which can only help its caches). A target of T x needs the"
        " optimistic kernel's cost per event within 2 / T of the sequential kernel's, before"
        " anything is spent on synchronisation.",
        "",
        "| case | sequential (s) | optimistic, 1 rank (s) | optimistic, 2 ranks (s) |"
        " optimistic cost per event (1 rank / sequential) | bound on 2 ranks | reached |"
        " target: cost per event needed |",
        "|---|---|---|---|---:|---:|---|---|",
        *ceiling[0],
        "",
    ]


SYNC_HEADING = "## Sync modes (issue 31)"
SYNC_MODES = ("optimistic", "conservative", "hybrid")

# The big permutations of issue 31 (--big): the fat tree k = 32 of bench/per_hop.py (100 Gbit/s,
# 1 us links, TCP, 1 MiB per host) and a 3D torus 50^3 as bench/scale_report.py builds its tori
# (lossless, credit flow control, 8 Gbit/s, 100 ns links, 4000 B per host). Each host sends one
# message to its image under a seeded permutation; no time series.
BIG_CASES = {
    "fat-tree-k32-permutation": lambda: per_hop.scenario_text(32, 1 << 20),
    "torus-50-permutation": lambda: scale_report.scenario_text(
        "torus-50-permutation", "torus { dims: [50, 50, 50] }",
        f"permutation {{ bytes: {scale_report.MESSAGE_BYTES} }}") +
    "outputs { sample_interval_ns: 0 }\n",
}
BIG_TARGET = 1.8          # both, on 2 threads
FAT_TREE_16_TARGET = 12   # the fat tree on 16 threads (a 16-core machine)
# The big ones' scenario memory estimate counts route tables the built-in families never build.
BIG_EXTRA = ["--max-memory", str(1 << 50)]


def big_scenario(case, folder):
    """Writes the scenario file of a --big case into `folder`; returns its path."""
    path = os.path.join(folder, case + ".pbtxt")
    with open(path, "w") as f:
        f.write(BIG_CASES[case]())
    return path


def case_run(case, kernel, ranks, phold_end, out, sync, threads=False):
    if case == "phold":
        return phold_run(kernel, ranks, 2048 // ranks, phold_end, out + ".json", sync, threads)
    if case in BIG_CASES:
        path = big_scenario(case, os.path.dirname(out))
        return scenario_run(path, kernel, ranks, out, sync, threads, BIG_EXTRA)
    return scenario_run(os.path.join(ROOT, "scenarios", case + ".pbtxt"), kernel, ranks, out, sync,
                        threads)


def sync_configs(rank_counts, launches, modes):
    """(partitions, as threads, sync mode) of every optimistic run; one partition runs once."""
    return [(r, t, m) for r in rank_counts for t in (launches if r > 1 else ["processes"])
            for m in modes]


def sync_rows(case, configs, pairs, phold_end):
    """Interleaved tuples (sequential, then every configuration); per configuration the median
    of the tuples' speed-ups over the sequential run of the same tuple."""
    speedups = {c: [] for c in configs}
    last, seq_walls, same = {}, [], True
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(pairs):
            seq = case_run(case, "sequential", 1, phold_end, os.path.join(tmp, "seq"), None)
            seq_walls.append(seq["wall_seconds"])
            for config in configs:
                ranks, launch_as, mode = config
                out = os.path.join(tmp, f"{mode}{ranks}{launch_as}")
                result = case_run(case, "optimistic", ranks, phold_end, out, mode,
                                  launch_as == "threads")
                speedups[config].append(seq["wall_seconds"] / max(result["wall_seconds"], 1e-9))
                last[config] = result
                same = same and result["digest"] == seq["digest"]
    rows, medians = [], {}
    for config in configs:
        ranks, launch_as, mode = config
        r = last[config]
        median = statistics.median(speedups[config])
        medians[config] = median
        safe = r.get("events_safe", 0) / max(r["events_committed"], 1) * 100
        rolled = r["events_rolled_back"] / max(r["events_processed"], 1) * 100
        print(f"  {case} {ranks} {launch_as} {mode}: {median:.2f}x, {safe:.0f} % safe",
              file=sys.stderr)
        rows.append(f"| {case} | {ranks} | {launch_as if ranks > 1 else '-'} | {mode} |"
                    f" {statistics.median(seq_walls):.3f} |"
                    f" {r['wall_seconds']:.3f} | {median:.2f}x"
                    f" ({min(speedups[config]):.2f}-{max(speedups[config]):.2f}) |"
                    f" {safe:.1f} % | {rolled:.2f} % | {r['gvt_rounds']:,} |"
                    f" {r['gvt_seconds']:.3f} |")
    return rows, same, medians


def best_on_two_threads(medians, case):
    """The best median speed-up of `case` on 2 threads over the sync modes run, and its mode."""
    runs = [(m, mode) for (c, (ranks, launch_as, mode)), m in medians.items()
            if c == case and ranks == 2 and launch_as == "threads"]
    return max(runs) if runs else None


def target_verdicts(medians):
    """Issue 31's targets that these runs measure (2 partitions; bench/SCALE.md)."""
    lines = []
    for case, target in (("phold", PHOLD_THREADS_TARGET), ("torus-alltoall", TORUS_TARGET)):
        best = best_on_two_threads(medians, case)
        if best:
            lines.append(verdict(best[0] >= target, f"{case} on 2 threads at least {target}x"
                                 f" sequential: {best[0]:.2f}x ({best[1]})."))
    for case in BIG_CASES:
        for ranks, target in ((2, BIG_TARGET), (16, FAT_TREE_16_TARGET)):
            if ranks == 16 and case != "fat-tree-k32-permutation":
                continue
            m = medians.get((case, (ranks, "threads", DEFAULT_SYNC)))
            if m is not None:
                lines.append(verdict(m >= target, f"{case} on {ranks} threads ({DEFAULT_SYNC}) at"
                                     f" least {target}x sequential: {m:.2f}x."))
    default = [(m, c, launch_as) for (c, (ranks, launch_as, mode)), m in medians.items()
               if mode == DEFAULT_SYNC and ranks == 2 and c != "phold" and c not in BIG_CASES]
    if default:
        worst = min(default)
        lines.append(verdict(worst[0] >= LIBRARY_DEFAULT_FLOOR,
                             f"no library scenario under {LIBRARY_DEFAULT_FLOOR}x sequential in"
                             f" the default mode ({DEFAULT_SYNC}) on 2 partitions (of those"
                             f" run): the slowest is {worst[1]} as {worst[2]} at"
                             f" {worst[0]:.2f}x."))
    return lines


def sync_section(cases, configs, pairs, phold_end, options, big_pairs=1,
                 heading=SYNC_HEADING):
    rows, same, medians = [], True, {}
    for case in cases:
        case_pairs = big_pairs if case in BIG_CASES else pairs
        case_rows, case_same, case_medians = sync_rows(case, configs, case_pairs, phold_end)
        rows += case_rows
        same = same and case_same
        medians.update({(case, config): m for config, m in case_medians.items()})
    load = os.getloadavg()[0]
    big = [c for c in cases if c in BIG_CASES]
    big_text = (f" The big permutations ({', '.join(big)}; `--big`) run {big_pairs} tuple(s),"
                " one process at a time." if big else "")
    tuples = big_pairs if big and len(big) == len(cases) else pairs
    return "\n".join([
        heading,
        "",
        f"Generated by `bench/parallel_report.py{options}`; regenerate it rather than edit it."
        f" Load average {load:.1f} at the end.",
        "",
        verdict(same, "digests equal to sequential in every run."),
        *target_verdicts(medians),
        "",
        f"Interleaved tuples ({tuples}): the sequential kernel, then the optimistic kernel on each"
        " partition count, as MPI processes (mpirun -np N) or as threads of one process"
        " (--threads N), in each `engine.sync` mode (PHOLD: 2048 LPs in all, remote 0.1, lookahead"
        f" 0.1 us, end {phold_end} us). Speed-up: the median (min-max) over the tuples of"
        " sequential / optimistic engine wall time; the other columns are the last tuple's run"
        " (safe: events handled below the safe horizon, share of those committed; GVT: the"
        " largest rank's time in GVT rounds)." + big_text,
        "",
        "| case | partitions | as | sync | sequential (s, median) | optimistic (s) | speed-up |"
        " safe | rolled back | GVT rounds | GVT (s) |",
        "|---|---:|---|---|---:|---:|---|---:|---:|---:|---:|",
        *rows,
        "",
    ])


def write_section(text, heading=HEADING):
    """Puts the section in place of the old one (up to the next "## " heading), or at the end."""
    old = open(OUT).read() if os.path.exists(OUT) else ""
    padded = "\n" + old
    at = padded.find("\n" + heading)
    if at < 0:
        head, rest = (old.rstrip("\n") + "\n\n" if old.strip() else ""), ""
    else:
        head = padded[1:at + 1]
        after = padded.find("\n## ", at + 1 + len(heading))
        rest = padded[after:] if after >= 0 else ""
    with open(OUT, "w") as f:
        f.write(head + text + rest)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="interleaved pairs per case")
    parser.add_argument("--phold-end", type=int, default=20000, help="PHOLD end time, us")
    parser.add_argument("--floor", help="phold_floor.cpp, to pair sequential PHOLD against")
    parser.add_argument("--only", nargs="*",
                        help="library scenarios (and --big cases) to run (default: all)")
    parser.add_argument("--ceiling", action="store_true",
                        help="also the bound that the optimistic kernel's own cost sets")
    parser.add_argument("--sync-modes", action="store_true",
                        help="write the sync-modes section instead (issue 31)")
    parser.add_argument("--ranks", type=int, nargs="*", default=[2],
                        help="rank counts of --sync-modes (default 2)")
    parser.add_argument("--no-phold", action="store_true", help="--sync-modes without PHOLD")
    parser.add_argument("--as", dest="launches", nargs="*", default=["processes", "threads"],
                        choices=["processes", "threads"],
                        help="--sync-modes: partitions as MPI processes, threads or both")
    parser.add_argument("--big", action="store_true",
                        help="--sync-modes: also the fat tree k = 32 and 50^3 torus permutations"
                        " (a minute each sequential)")
    parser.add_argument("--big-pairs", type=int, default=1, help="tuples of each --big case")
    parser.add_argument("--heading", default=SYNC_HEADING,
                        help="--sync-modes: the section's heading (default: %(default)s)")
    parser.add_argument("--modes", nargs="*", default=list(SYNC_MODES), choices=SYNC_MODES,
                        help="--sync-modes: the engine.sync modes to run (default all)")
    args = parser.parse_args()
    paths = sorted(glob.glob(os.path.join(ROOT, "scenarios", "*.pbtxt")))
    if args.only:
        paths = [p for p in paths if os.path.splitext(os.path.basename(p))[0] in args.only]
    options = "".join(" " + a for a in sys.argv[1:])
    if args.sync_modes:
        cases = ([] if args.no_phold else ["phold"]) + [
            os.path.splitext(os.path.basename(p))[0] for p in paths]
        if args.big:
            cases += [c for c in BIG_CASES if not args.only or c in args.only]
        configs = sync_configs(args.ranks, args.launches, args.modes)
        write_section(sync_section(cases, configs, args.pairs, args.phold_end, options,
                                   args.big_pairs, args.heading), args.heading)
        print(f"wrote {OUT}", file=sys.stderr)
        return
    library = [library_row(p, args.pairs) for p in paths]
    phold = phold_rows(args.pairs, args.phold_end)
    floor = floor_ratio(args.floor, args.pairs) if args.floor else []
    ceiling = ceiling_rows(args.pairs, args.phold_end) if args.ceiling else None
    write_section(section(library, phold, floor, ceiling, options))
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
