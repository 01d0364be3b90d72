#!/usr/bin/env python3
"""Cost per packet-hop of fat-tree permutations as the tree grows (issue 31, "fixed costs").

Every host of a k-ary fat tree (100 Gbit/s, 1 us links, up-down routing by destination) sends one TCP message (1 MiB by
default) to its image under a seeded permutation. A packet-hop is one packet put on one link
(results.json: the ports' packets_sent, hosts' NICs included, ACKs included); the cost is the
sequential kernel's wall time (results.json wall_seconds), or with --cpu the whole process's CPU
time, divided by the packet-hops. Sizes are run interleaved, `--repeat` times each, and the
medians compared with the smallest k.

Usage: bench/per_hop.py --netwarp build/bin/netwarp [--k 8 32] [--bytes 1048576] [--repeat 3]
                        [--cpu]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile


def scenario_text(k, size):
    return f"""name: "fat-tree-{k}-permutation"
seed: 1
topology {{ fat_tree {{ k: {k} }} }}
links {{ rate_bps: 100000000000 latency_ns: 1000 mtu_bytes: 1500 header_bytes: 40 }}
transport {{ kind: TCP }}
workload {{ permutation {{ bytes: {size} }} }}
outputs {{ sample_interval_ns: 0 }}
"""


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(netwarp, path, out):
    before = cpu_seconds()
    subprocess.run([netwarp, "run", path, "--out", out], check=True, stdout=subprocess.DEVNULL)
    cpu = cpu_seconds() - before
    with open(os.path.join(out, "results.json")) as f:
        r = json.load(f)
    if r["messages_delivered"] != r["messages"]:
        raise SystemExit(f"{path}: {r['messages_delivered']} of {r['messages']} delivered")
    hops = sum(p["packets_sent"] for p in r["ports"])
    return r["wall_seconds"], cpu, hops, r["events_committed"], r["peak_rss_bytes"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--netwarp", required=True)
    parser.add_argument("--k", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--bytes", type=int, default=1 << 20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpu", action="store_true",
                        help="the whole process's CPU time instead of the engine's wall time "
                             "(start-up and outputs included; robust on a loaded machine)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for k in args.k:
            paths[k] = os.path.join(tmp, f"ft{k}.pbtxt")
            with open(paths[k], "w") as f:
                f.write(scenario_text(k, args.bytes))
        ns = {k: [] for k in args.k}
        facts = {}
        for i in range(args.repeat):
            for k in args.k:
                wall, cpu, hops, events, rss = run_once(args.netwarp, paths[k],
                                                        os.path.join(tmp, "o"))
                seconds = cpu if args.cpu else wall
                ns[k].append(1e9 * seconds / hops)
                facts[k] = (hops, events, rss)
                print(f"run {i + 1}, k = {k}: engine {wall:.2f} s, process CPU {cpu:.2f} s, "
                      f"{hops:,} packet-hops, {1e9 * seconds / hops:.0f} ns per packet-hop",
                      flush=True)
        base = statistics.median(ns[args.k[0]])
        print("\n| k | hosts | packet-hops | events | peak RSS (MiB) | ns per packet-hop (median) "
              f"| against k = {args.k[0]} |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for k in args.k:
            hops, events, rss = facts[k]
            med = statistics.median(ns[k])
            print(f"| {k} | {k ** 3 // 4:,} | {hops:,} | {events:,} | {rss / 2 ** 20:.0f} | "
                  f"{med:.0f} | {med / base:.2f}x |")


if __name__ == "__main__":
    main()
