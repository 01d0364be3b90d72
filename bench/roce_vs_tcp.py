#!/usr/bin/env python3
"""RoCE incast against TCP on the same lossless fabric, per committed event (issue 29).

Runs scenarios/roce-incast.pbtxt and the same file with `transport { kind: TCP }` (1 ms RTOs;
PFC keeps it lossless too) in interleaved pairs and prints each pair's engine ns per committed
event (results.json wall_seconds / events_committed), their ratio and the medians.

Usage: bench/roce_vs_tcp.py --netwarp build/bin/netwarp [--pairs 7] [--bytes 8388608]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ROCE = os.path.join(REPO, "scenarios", "roce-incast.pbtxt")


def tcp_variant(directory):
    with open(ROCE) as f:
        text = f.read()
    # The whole transport block (kind and the RoCE settings) becomes TCP's.
    tcp = "transport {\n  kind: TCP\n  tcp { min_rto_us: 1000 initial_rto_us: 1000 }\n}\n"
    text, found = re.subn(r"(?ms)^transport \{\n.*?^\}\n", tcp, text)
    assert found == 1 and "  kind: ROCE" not in text, "roce-incast.pbtxt changed: update this script"
    path = os.path.join(directory, "tcp-incast-lossless.pbtxt")
    with open(path, "w") as f:
        f.write(text)
    return path


def ns_per_event(netwarp, scenario, size, out):
    subprocess.run([netwarp, "run", scenario, "--set", f"workload.incast.bytes={size}",
                    "--out", out], check=True, capture_output=True)
    with open(os.path.join(out, "results.json")) as f:
        r = json.load(f)
    assert r["messages_delivered"] == r["messages"], scenario
    return 1e9 * r["wall_seconds"] / r["events_committed"], r["events_committed"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--netwarp", required=True)
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--bytes", type=int, default=8 * 1024 * 1024)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tcp = tcp_variant(tmp)
        roce_ns, tcp_ns, ratios = [], [], []
        for i in range(args.pairs):
            a, roce_events = ns_per_event(args.netwarp, ROCE, args.bytes, os.path.join(tmp, "r"))
            b, tcp_events = ns_per_event(args.netwarp, tcp, args.bytes, os.path.join(tmp, "t"))
            roce_ns.append(a)
            tcp_ns.append(b)
            ratios.append(a / b)
            print(f"pair {i + 1}: RoCE {a:.1f} ns/event ({roce_events:,} events), "
                  f"TCP {b:.1f} ns/event ({tcp_events:,} events), ratio {a / b:.3f}")
        print(f"median: RoCE {statistics.median(roce_ns):.1f}, TCP {statistics.median(tcp_ns):.1f} "
              f"ns/event; median pair ratio {statistics.median(ratios):.3f} "
              f"(range {min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
