#!/usr/bin/env python3
"""Regenerates bench/SCALE.md: how big a packet network netwarp holds and how fast it sets up
and runs (issue 15). For each topology it runs

  tiny   4 flows of 4000 B (host 0 -> the last host, and three more across the network): set-up
         dominates, so the run measures build time and memory per host (peak RSS per host is
         measured after the outputs are written);
  perm   a permutation of 4000-byte messages (every host sends one): events/s;

sequentially on 1 rank and with the optimistic kernel on 2 ranks (4 ranks, oversubscribed, for
the memory each rank holds: with N ranks each rank should hold about 1/N of the model). The
2- and 4-rank runs print each rank's LPs and hosts (`partition` line) and results.json gives
every rank's memory (`rank_memory`: at the start, once the model is built, at the peak), so the
report splits what every rank holds whole from each rank's own part; results must carry the
sequential digest everywhere.

  bench/scale_report.py                  # the short default: minutes
  bench/scale_report.py --full           # adds fat tree k = 64, 40^3 and 128x128 tori and a
                                         # big dragonfly to the tiny-workload table
  bench/scale_report.py --full-perm      # and their permutations (tens of minutes on a quiet
                                         # machine)
  bench/scale_report.py --million        # also the 1,000,000-host 100^3 torus: the tiny
                                         # workload (about 4 GiB)
  bench/scale_report.py --million-perm   # and its permutation of 4 KiB messages (about
                                         # 6 GiB, 613 million events, tens of minutes)
  bench/scale_report.py --million-perm --million-ranks 1,2
                                         # the 100^3 runs sequentially and on 2 ranks
                                         # (optimistic), checking the digests agree

Environment: NETWARP (default build/bin/netwarp, a Release build), OUT (default bench/SCALE.md),
MPIRUN. Run it on an otherwise idle machine.
"""
import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETWARP = os.path.abspath(os.environ.get("NETWARP", os.path.join(ROOT, "build/bin/netwarp")))
OUT = os.path.abspath(os.environ.get("OUT", os.path.join(ROOT, "bench/SCALE.md")))
MPIRUN = os.environ.get("MPIRUN", "mpirun")
MESSAGE_BYTES = 4000

# name, topology block, hosts
SHORT = [
    ("fat tree k = 16", "fat_tree { k: 16 }", 1024),
    ("fat tree k = 32", "fat_tree { k: 32 }", 8192),
    ("2D torus 64 x 64", "torus { dims: [64, 64] }", 4096),
    ("3D torus 16^3", "torus { dims: [16, 16, 16] }", 4096),
    ("dragonfly a=8 p=4 h=4 (33 groups)",
     "dragonfly { routers_per_group: 8 hosts_per_router: 4 global_per_router: 4 }", 1056),
]
FULL = [
    ("fat tree k = 64", "fat_tree { k: 64 }", 65536),
    ("2D torus 128 x 128", "torus { dims: [128, 128] }", 16384),
    ("3D torus 40^3", "torus { dims: [40, 40, 40] }", 64000),
    ("dragonfly a=16 p=8 h=8 (129 groups)",
     "dragonfly { routers_per_group: 16 hosts_per_router: 8 global_per_router: 8 }", 16512),
]
MILLION = ("3D torus 100^3", "torus { dims: [100, 100, 100] }", 1000000)

# kernel, ranks; the tiny workload runs all three, the permutation the first two.
MODES = [("sequential", 1), ("optimistic", 2), ("optimistic", 4)]


def tiny_workload(hosts):
    pairs = [(0, hosts - 1), (1, hosts // 2), (hosts * 5 // 8, 2), (hosts - 1, 3)]
    flows = " ".join(f"flow {{ src: {s} dst: {d} bytes: {MESSAGE_BYTES} }}" for s, d in pairs)
    return f"flows {{ {flows} }}"


def scenario_text(name, topology, workload):
    return f"""name: "{name}"
seed: 1
topology {{ {topology} }}
links {{ rate_bps: 8000000000 latency_ns: 100 mtu_bytes: 1500 header_bytes: 40 }}
switch {{ buffer_bytes: 65536 flow_control: CREDIT }}
transport {{ kind: LOSSLESS }}
workload {{ {workload} }}
"""


def command(path, kernel, ranks, out_dir, extra=()):
    cmd = [NETWARP, "run", path, "--kernel", kernel, "--out", out_dir,
           # The scenario memory estimate still counts route tables of the built-in families.
           "--max-memory", str(1 << 50), *extra]
    if ranks > 1:
        root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
        cmd = [MPIRUN, "--oversubscribe", *root, "-np", str(ranks)] + cmd
    return cmd


def rank_memory(stdout, result):
    """Per rank (LPs, hosts, peak, start, built bytes): LPs and hosts from the `partition` line
    of a multi-rank run, memory from results.json's rank_memory."""
    line = next((l for l in stdout.splitlines() if l.startswith("partition")), "")
    counts = [(int(lps), int(hosts)) for lps, hosts in
              re.findall(r"rank \d+: (\d+) LPs \((\d+) hosts\)", line)] or [(0, result["hosts"])]
    return [{"lps": lps, "hosts": hosts, "peak": m["peak_rss_bytes"],
             "start": m["start_rss_bytes"], "built": m["built_peak_rss_bytes"]}
            for (lps, hosts), m in zip(counts, result["rank_memory"])]


def run(name, topology, hosts, workload, kernel, ranks, extra=()):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scenario.pbtxt")
        with open(path, "w") as f:
            f.write(scenario_text(name.replace(" ", "-"), topology, workload))
        out_dir = os.path.join(tmp, "out")
        start = time.monotonic()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run(command(path, kernel, ranks, out_dir, extra), capture_output=True, text=True,
                           env=dict(os.environ, CI="true"))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        total = time.monotonic() - start
        if r.returncode != 0:
            sys.exit(f"scale_report.py: {name} {kernel} x{ranks} failed:\n{r.stderr}")
        with open(os.path.join(out_dir, "results.json")) as f:
            result = json.load(f)
        output_bytes = sum(os.path.getsize(os.path.join(out_dir, n)) for n in os.listdir(out_dir))
    return {"total": total, "engine": result["wall_seconds"],
            "user": after.ru_utime - before.ru_utime,
            "events": result["events_committed"], "rate": result["event_rate"],
            "peak": result["peak_rss_bytes"], "digest": result["digest"],
            "output_bytes": output_bytes, "hosts": hosts, "ranks": rank_memory(r.stdout, result)}


def mib(b):
    return b / (1 << 20)


def ranks_text(res):
    return " / ".join(f"{mib(r['peak']):.0f}" for r in res["ranks"]) + " MiB; " + " / ".join(
        f"{r['lps']}" for r in res["ranks"]) + " LPs"


def own(rank):
    """A rank's own part: its peak beyond what it held once the model was built."""
    return rank["peak"] - rank["built"]


def holding_row(name, results):
    """What every rank holds whole (program and MPI; scenario, topology, workload) and each
    rank's own part (LPs, events, outputs), sequential against 2 and 4 ranks."""
    seq = results[1]["ranks"][0]
    cells = [name, f"{mib(seq['start']):.0f} + {mib(seq['built'] - seq['start']):.0f} MiB",
             f"{mib(own(seq)):.0f} MiB"]
    shares = {}
    for ranks in (2, 4):
        per_rank = results[ranks]["ranks"]
        shares[ranks] = max(own(r) for r in per_rank) / max(own(seq), 1)
        cells += [" / ".join(f"{mib(r['start']):.0f} + {mib(r['built'] - r['start']):.0f}"
                             for r in per_rank) + " MiB",
                  " / ".join(f"{mib(own(r)):.0f}" for r in per_rank) +
                  f" MiB ({100 * shares[ranks]:.0f} %)"]
    return "| " + " | ".join(cells) + " |", shares


# Issue 15's set-up targets: name -> (wall seconds, peak bytes per host or None, peak bytes).
TARGETS = {"fat tree k = 64": (5, 5 * 1024, None), "3D torus 40^3": (30, None, 512 << 20)}
VERDICTS = []


def check_target(name, hosts, seq):
    if name not in TARGETS:
        return
    wall, per_host, peak = TARGETS[name]
    ok = seq["total"] < wall and (per_host is None or seq["peak"] / hosts < per_host) and (
        peak is None or seq["peak"] < peak)
    limit = f"{per_host // 1024} KiB per host" if per_host else f"{peak >> 20} MiB"
    VERDICTS.append(f"- {'PASS' if ok else 'FAIL'}: {name}, tiny workload, in under {wall} s and"
                    f" {limit}: {seq['total']:.2f} s, {mib(seq['peak']):.0f} MiB"
                    f" ({seq['peak'] / hosts / 1024:.2f} KiB per host).")


def tiny_rows(cases):
    rows, holding = [], []
    for name, topology, hosts in cases:
        results = {}
        for kernel, ranks in MODES:
            res = run(name, topology, hosts, tiny_workload(hosts), kernel, ranks)
            results[ranks] = res
            print(f"  tiny {name} {kernel} x{ranks}: {res['total']:.1f} s, "
                  f"{mib(res['peak']):.0f} MiB", file=sys.stderr)
        same = len({r["digest"] for r in results.values()}) == 1
        seq = results[1]
        check_target(name, hosts, seq)
        rows.append(
            f"| {name} | {hosts:,} | {seq['total']:.2f} s | {mib(seq['peak']):.0f} MiB | "
            f"{seq['peak'] / hosts / 1024:.2f} KiB | {results[2]['total']:.2f} s | "
            f"{ranks_text(results[2])} | {ranks_text(results[4])} | "
            f"{'yes' if same else 'NO'} |")
        holding.append((hosts, *holding_row(name, results)))
    return rows, holding


def half_verdict(holding):
    """Issue 15: with 2 ranks each rank holds about half of the model (its own part at most
    60 % of the sequential run's, for the table's network with the most hosts)."""
    _, row, shares = max(holding, key=lambda h: h[0])
    name = row.split(" | ")[0].lstrip("| ")
    ok = shares[2] <= 0.6
    return (f"- {'PASS' if ok else 'FAIL'}: with 2 ranks each rank holds about half of the model"
            f" ({name}): the largest rank's own part (LPs, events, outputs) is"
            f" {100 * shares[2]:.0f} % of the sequential run's ({100 * shares[4]:.0f} % on 4"
            " ranks); the scenario, topology and workload are still held whole by every rank"
            " (the table below).")


def perm_rows(cases):
    rows = []
    for name, topology, hosts in cases:
        workload = f"permutation {{ bytes: {MESSAGE_BYTES} }}"
        seq = run(name, topology, hosts, workload, "sequential", 1)
        two = run(name, topology, hosts, workload, "optimistic", 2)
        print(f"  perm {name}: {seq['total']:.1f} s / {two['total']:.1f} s", file=sys.stderr)
        rows.append(
            f"| {name} | {hosts:,} | {seq['events']:,} | {seq['total']:.1f} s | "
            f"{seq['rate'] / 1e6:.2f} M/s | {mib(seq['peak']):.0f} MiB | {two['total']:.1f} s | "
            f"{two['rate'] / 1e6:.2f} M/s | {seq['engine'] / two['engine']:.2f}x | "
            f"{'yes' if seq['digest'] == two['digest'] else 'NO'} |")
    return rows


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()}; load average {load:.1f} at the end"


def report(tiny, holding, perm, million, options):
    lines = [
        "# Scale: set-up, memory per host and events/s of big packet networks",
        "",
        "Generated by `bench/scale_report.py" + options + "` (issue 15);"
        " regenerate it rather than edit it.",
        f"Machine: {machine()}. Links 1 GB/s (8 Gbit/s), 100 ns, credit flow control (64 KiB per"
        " port), lossless transport.",
        "",
        *(["## Targets (this machine)", "", *VERDICTS, ""] if VERDICTS else []),
        "## Tiny workload (4 flows of 4000 B): set-up and memory",
        "",
        "Wall time of the whole process (scenario, build, run, outputs); peak RSS of the largest"
        " rank, measured after the outputs. The 2- and 4-rank columns are the optimistic kernel's"
        " per-rank peak RSS and LP counts (`partition` line): each rank builds only its own LPs"
        " and writes only its own records, so each holds about its share of the model plus what"
        " every rank keeps (topology, workload, the MPI library).",
        "",
        "| topology | hosts | wall, 1 rank | peak RSS | per host | wall, 2 ranks |"
        " per rank, 2 ranks | per rank, 4 ranks (oversubscribed) | same digest |",
        "|---|---:|---:|---:|---:|---:|---|---|---|",
        *tiny,
        "",
        "## What each rank holds (tiny workload)",
        "",
        "From results.json's `rank_memory`: resident at the start (program, libraries, MPI) +"
        " what building the model added (scenario, topology, workload: every rank holds these"
        " whole), then each rank's own part, its peak beyond that (its LPs, events and outputs),"
        " with the largest rank's share of the sequential run's own part.",
        "",
        "| topology | 1 rank: start + built | own part | 2 ranks: start + built | own part |"
        " 4 ranks: start + built | own part |",
        "|---|---|---:|---|---:|---|---:|",
        *[row for _, row, _ in holding],
        "",
        f"## Permutation of {MESSAGE_BYTES}-byte messages: events/s",
        "",
        "Every host sends one message to its image under a seeded permutation. Speed-up:"
        " sequential engine wall time over the 2-rank optimistic one.",
        "",
        "| topology | hosts | events | wall, 1 rank | events/s | peak RSS | wall, 2 ranks |"
        " events/s, 2 ranks | speed-up | same digest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        *perm,
    ]
    if million:
        lines += ["", "## A million hosts", "", million]
    return "\n".join(lines) + "\n"


def million_text(with_permutation, rank_counts):
    name, topology, hosts = MILLION
    runs = [("the tiny workload", tiny_workload(hosts))]
    if with_permutation:
        runs.append(("a permutation of 4096-byte messages", "permutation { bytes: 4096 }"))
    lines = []
    for label, workload in runs:
        digests = set()
        for ranks in rank_counts:
            kernel = "sequential" if ranks == 1 else "optimistic"
            # At the uncommitted-event cap a rank scans all its LPs for the latest event
            # (TimeWarpPe::slot_with_latest_event): half a million LPs per event, 20x slower
            # than sequential at 30^3. A byte cap bounds the optimism instead; it counts the
            # pending events too (about 1.6 GB of them at 100^3), so it is set well above those.
            extra = ["--max-uncommitted", str(1 << 30),
                     "--max-uncommitted-bytes", str(3 << 30)] if ranks > 1 else []
            res = run(name, topology, hosts, workload, kernel, ranks, extra)
            digests.add(res["digest"])
            where = "sequential" if ranks == 1 else f"optimistic on {ranks} ranks"
            per_rank = f" (per rank: {ranks_text(res)})" if ranks > 1 else ""
            lines.append(
                f"- {name} ({hosts:,} hosts, {hosts:,} routers), {label}, {where}:"
                f" {res['total']:.0f} s wall ({res['engine']:.0f} s in the engine: building the"
                f" LPs, running, finishing), {res['user']:.0f} s user CPU (all processes),"
                f" {res['events']:,} events ({res['events'] / max(res['user'], 1e-9) / 1e6:.2f} M"
                f" per user CPU second), peak RSS {res['peak'] / (1 << 30):.2f} GiB"
                f" ({res['peak'] / hosts / 1024:.2f} KiB per host){per_rank}, outputs"
                f" {res['output_bytes'] / (1 << 30):.2f} GiB, digest {res['digest']};"
                f" load average {os.getloadavg()[0]:.1f} after.")
            print(lines[-1], file=sys.stderr)
        if len(rank_counts) > 1:
            lines.append(f"- {label}: {'the same digest' if len(digests) == 1 else 'DIGESTS DIFFER'}"
                         f" on {', '.join(map(str, rank_counts))} rank(s).")
    return "\n".join(lines)


# Hand-written sections at the end of the report (measured with other tools), kept on
# regeneration: everything from the first of these headings on.
KEPT_HEADINGS = ["## Issue 31: where each target stands", "## 2-rank efficiency"]


def kept_sections():
    if not os.path.exists(OUT):
        return ""
    with open(OUT) as f:
        old = f.read()
    starts = [old.find("\n" + h) for h in KEPT_HEADINGS if old.find("\n" + h) >= 0]
    return old[min(starts):] if starts else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also the big sizes, tiny workload")
    parser.add_argument("--full-perm", action="store_true",
                        help="also the big sizes' permutations")
    parser.add_argument("--million", action="store_true", help="also the 100^3 torus, tiny")
    parser.add_argument("--million-perm", action="store_true",
                        help="also the 100^3 torus permutation")
    parser.add_argument("--million-ranks", default="1",
                        help="rank counts of the 100^3 runs, comma-separated (1: sequential,"
                        " N > 1: the optimistic kernel on N ranks), e.g. 1,2")
    args = parser.parse_args()
    big = FULL if args.full or args.full_perm else []
    tiny, holding = tiny_rows(SHORT + big)
    VERDICTS.append(half_verdict(holding))
    perm = perm_rows(SHORT + (FULL if args.full_perm else []))
    wants_million = args.million or args.million_perm
    ranks = [int(r) for r in args.million_ranks.split(",")]
    million = million_text(args.million_perm, ranks) if wants_million else ""
    text = report(tiny, holding, perm, million, "".join(" " + a for a in sys.argv[1:]))
    kept = kept_sections()  # read before opening OUT for writing empties it
    with open(OUT, "w") as f:
        f.write(text + kept)
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
