#!/usr/bin/env python3
"""DCQCN report, section 3: the shipped 32-to-1 RoCE incast (scenarios/roce-incast.pbtxt).

Usage: incast.py NETWARP [--out DIR]   (prints the markdown tables of README.md, section 3)

For seeds 1-8, the receiver's link busy fraction between its first and last byte (ports.csv
busy_utilisation of sw0 port 32), the completion time and the pause frames, with the shipped
alpha update (NVIDIA ConnectX's: every 1 us, gain 5/1024) and with the paper's (K = 55 us,
g = 1/256); then the shipped setting at other PFC thresholds (seed 1). About 40 s.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

SCENARIO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                        "scenarios", "roce-incast.pbtxt")
PAPER_ALPHA = ["--set", "transport.roce.dcqcn.alpha_timer_us=55",
               "--set", "transport.roce.dcqcn.g=0.00390625"]


def run(netwarp, out, extra):
    subprocess.run([netwarp, "run", SCENARIO, "--out", out, *extra], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "results.json")) as f:
        results = json.load(f)
    with open(os.path.join(out, "ports.csv")) as f:
        busy = next(float(r["busy_utilisation"]) for r in csv.DictReader(f)
                    if (r["node"], r["port"]) == ("sw0", "32"))
    with open(os.path.join(out, "flows.csv")) as f:
        done = max(int(r["delivered_ps"]) for r in csv.DictReader(f)) / 1e9
    assert results["packets_dropped"] == 0
    return busy, done, results["pause_frames"]


def seeds(netwarp, tmp):
    print("| alpha update | " + " | ".join(f"seed {s}" for s in range(1, 9)) + " | mean | min |")
    print("|---|" + "---|" * 10)
    for label, extra in (("ConnectX: 1 us, g = 5/1024 (shipped)", []),
                         ("paper: 55 us, g = 1/256", PAPER_ALPHA)):
        busy = [run(netwarp, os.path.join(tmp, f"s{s}"), ["--set", f"seed={s}", *extra])[0]
                for s in range(1, 9)]
        cells = " | ".join(f"{b * 100:.1f} %" for b in busy)
        print(f"| {label} | {cells} | {sum(busy) / 8 * 100:.1f} % | {min(busy) * 100:.1f} % |")


def thresholds(netwarp, tmp):
    print("\n| XOFF / XON (KiB), seed 1 | busy | done (ms) | pause frames |")
    print("|---|---|---|---|")
    for xoff in (2, 3, 4, 6, 8, 16):
        extra = ["--set", f"switch.pfc.xoff_bytes={xoff * 1024}",
                 "--set", f"switch.pfc.xon_bytes={xoff * 512}"]
        busy, done, pauses = run(netwarp, os.path.join(tmp, f"x{xoff}"), extra)
        print(f"| {xoff} / {xoff / 2:g} | {busy * 100:.1f} % | {done:.2f} | {pauses} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("netwarp")
    parser.add_argument("--out")
    args = parser.parse_args()
    tmp = args.out or tempfile.mkdtemp(prefix="dcqcn-incast-")
    os.makedirs(tmp, exist_ok=True)
    seeds(args.netwarp, tmp)
    thresholds(args.netwarp, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
