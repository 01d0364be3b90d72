#!/usr/bin/env python3
"""DCQCN report: netwarp's RoCE/DCQCN against the DCQCN paper's fluid model, and fairness.

Usage: run.py NETWARP [--out DIR] [--red | --seeds]   (prints the markdown tables of README.md)

1. Trajectory: 2 flows into one 40 Gbit/s port (the paper's testbed rate), RED marking with
   the paper's Kmin 5 KB, Kmax 200 KB, Pmax 1 %, DCQCN defaults. netwarp's per-flow rate is
   measured at the bottleneck (a pcap port mirror of the switch's port toward the receiver),
   the queue from queues.csv; the reference is the fluid model of Zhu et al. (SIGCOMM 2015,
   section 4.1) integrated here (equations in README.md).
2. Fairness: N = 2, 8, 32 flows into one 10 Gbit/s port, starting 50 us apart, step ECN at
   40 KB marked at dequeue (tests/netmodels/roce_transport_test.cpp's setting), Jain's index
   and the worst deviation from the fair share over the run's second half; with --red also
   with the paper's RED marking, in runs long enough to converge.
"""
import argparse
import csv
import math
import os
import struct
import subprocess
import sys
import tempfile

PACKET = 1000  # bytes on the wire per packet (no headers: the fluid model counts packets)


PFC_20K = "xoff_bytes: 20000 xon_bytes: 10000"


def scenario(n, rate, end_ns, switch, gap_ns, pfc=False, seed=1, pfc_thresholds=PFC_20K,
             dcqcn=""):
    flows = "\n".join(
        f"    flow {{ src: {i} dst: {n} bytes: 4000000000 start_ns: {i * gap_ns} }}" for i in range(n))
    classes = f"classes {{ lossless: true }} pfc {{ {pfc_thresholds} }}" if pfc else ""
    transport = f"kind: ROCE roce {{ dcqcn {{ {dcqcn} }} }}" if dcqcn else "kind: ROCE"
    return f"""name: "dcqcn-{n}"
seed: {seed}
end_time_ns: {end_ns}
topology {{ star {{ hosts: {n + 1} }} }}
links {{ rate_bps: {rate} latency_ns: 1000 mtu_bytes: {PACKET} header_bytes: 0 frame_overhead_bytes: 0 }}
switch {{ {switch} {classes} }}
transport {{ {transport} }}
workload {{ flows {{
{flows}
}} }}
outputs {{
  pcap_ports {{ toward_host: "host{n}" }}
  queue_ports {{ toward_host: "host{n}" }}
}}
"""


def run(netwarp, text, out):
    path = out + ".pbtxt"
    with open(path, "w") as f:
        f.write(text)
    # Exit 4: flows still running at end_time_ns, as meant (long-lived flows).
    r = subprocess.run([netwarp, "run", path, "--out", out], stdout=subprocess.DEVNULL)
    if r.returncode not in (0, 4):
        raise SystemExit(f"netwarp failed on {path}")
    return out


def pcap_packets(path):
    """(time_s, src_host) of every data packet in a pcap file (IPv4 10.x.y.z = host)."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    scale = 1e-9 if magic == 0xA1B23C4D else 1e-6
    pos = 24
    while pos + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack("<IIII", data[pos:pos + 16])
        frame = data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
        src = struct.unpack(">I", frame[26:30])[0] & 0xFFFFFF
        tcp_flags = frame[14 + 20 + 13]
        if tcp_flags & 0x10:  # ACK flag: not data (the mirror sees data only, but be sure)
            continue
        yield sec + frac * scale, src


def mirror_file(out, n):
    return next(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".pcap"))


def rates(out, n, bin_s, end_s):
    bins = int(round(end_s / bin_s))
    series = [[0.0] * bins for _ in range(n)]
    for t, src in pcap_packets(mirror_file(out, n)):
        b = int(t / bin_s)
        if b < bins and src < n:
            series[src][b] += PACKET * 8 / bin_s
    return series


def queue_series(out, bin_s, end_s):
    bins = int(round(end_s / bin_s))
    q = [0.0] * bins
    with open(os.path.join(out, "queues.csv")) as f:
        for row in csv.DictReader(f):
            b = int(int(row["time_ps"]) * 1e-12 / bin_s)
            if b < bins:
                q[b] = max(q[b], float(row["queue_bytes"]))
    return q


# --- the fluid model (Zhu et al. 2015, section 4.1), in packets of PACKET bytes --------------

def fluid(n, capacity_bps, end_s, dt=1e-7, delay_s=4e-6, kmin=5000, kmax=200000, pmax=0.01,
          g=1 / 256, tau=50e-6, tau_alpha=55e-6, timer=55e-6, byte_counter=10 * 1024 * 1024,
          f_steps=5, rai_bps=40e6):
    c = capacity_bps / 8 / PACKET          # packets per second
    rai = rai_bps / 8 / PACKET
    b = byte_counter / PACKET
    rc, rt, alpha, q = c, c, 1.0, 0.0
    lag = max(1, int(delay_s / dt))
    history = [0.0] * lag
    out = []
    steps = int(end_s / dt)
    for i in range(steps):
        qd = history[i % lag]
        history[i % lag] = q
        qb = qd * PACKET
        p = 0.0 if qb <= kmin else (1.0 if qb > kmax else (qb - kmin) / (kmax - kmin) * pmax)
        cut = 1 - (1 - p) ** (tau * rc)           # a CNP in the interval
        alpha_hit = 1 - (1 - p) ** (tau_alpha * rc)
        if p >= 1:  # every packet marked: no increase event completes
            byte_events = timer_events = byte_ai = timer_ai = 0.0
        elif p > 0:
            byte_events = rc * p / ((1 - p) ** (-b) - 1)
            timer_events = rc * p / ((1 - p) ** (-timer * rc) - 1)
            byte_ai = byte_events * (1 - p) ** (f_steps * b)
            timer_ai = timer_events * (1 - p) ** (f_steps * timer * rc)
        else:
            byte_events, timer_events = rc / b, 1 / timer
            byte_ai, timer_ai = byte_events, timer_events
        d_alpha = g / tau_alpha * (alpha_hit - alpha)
        d_rt = -(rt - rc) / tau * cut + rai * (byte_ai + timer_ai)
        d_rc = -rc * alpha / (2 * tau) * cut + (rt - rc) / 2 * (byte_events + timer_events)
        d_q = n * rc - c
        alpha += d_alpha * dt
        rt = min(c, rt + d_rt * dt)
        rc = min(c, max(0.0, rc + d_rc * dt))
        q = max(0.0, q + d_q * dt)
        out.append((rc * 8 * PACKET, q * PACKET))
    return out


def trajectory(netwarp, tmp):
    end_s, bin_s, n, rate = 0.02, 100e-6, 2, 40_000_000_000
    red = "red { min_bytes: 5000 max_bytes: 200000 max_probability: 0.01 }"
    out = run(netwarp, scenario(n, rate, int(end_s * 1e9), red, 0), os.path.join(tmp, "traj"))
    sim = rates(out, n, bin_s, end_s)
    q = queue_series(out, bin_s, end_s)
    dt = 1e-7
    model = fluid(n, rate, end_s, dt)
    per_bin = int(bin_s / dt)
    print("| t (ms) | netwarp flow 0 (Gbit/s) | flow 1 | fluid model, each | netwarp queue max (KB) "
          "| fluid queue (KB) |")
    print("|---|---|---|---|---|---|")
    for t_ms in (0.1, 0.2, 0.5, 1, 2, 3, 5, 7.5, 10, 15, 19.9):
        i = int(t_ms * 1e-3 / bin_s)
        rc, mq = model[min(len(model) - 1, (i + 1) * per_bin - 1)]
        print(f"| {t_ms} | {sim[0][i] / 1e9:.2f} | {sim[1][i] / 1e9:.2f} | {rc / 1e9:.2f} | "
              f"{q[i] / 1e3:.0f} | {mq / 1e3:.0f} |")
    half = len(sim[0]) // 2
    mean = [sum(s[half:]) / (len(s) - half) for s in sim]
    fl = [m[0] for m in model[len(model) // 2:]]
    fq = [m[1] for m in model[len(model) // 2:]]
    print(f"\nSecond half means: netwarp {mean[0] / 1e9:.2f} and {mean[1] / 1e9:.2f} Gbit/s, "
          f"queue {sum(q[half:]) / (len(q) - half) / 1e3:.0f} KB (bin maxima); fluid model "
          f"{sum(fl) / len(fl) / 1e9:.2f} Gbit/s each, queue {sum(fq) / len(fq) / 1e3:.0f} KB.")


STEP = "ecn_threshold_bytes: 40000 mark_at: DEQUEUE"
RED = "red { min_bytes: 5000 max_bytes: 200000 max_probability: 0.01 } mark_at: DEQUEUE"


def fairness(netwarp, tmp, n, end_ms, pfc=False, marking=STEP, label="", **settings):
    name = f"fair{n}{'pfc' if pfc else ''}{'red' if marking == RED else ''}{end_ms}"
    name += "".join(f"-{v}" for v in settings.values()).replace(" ", "").replace(":", "")
    out = run(netwarp, scenario(n, 10_000_000_000, end_ms * 1_000_000, marking, 50_000, pfc,
                                **settings), os.path.join(tmp, name))
    end_s = end_ms * 1e-3
    sums = [0.0] * n
    for t, src in pcap_packets(mirror_file(out, n)):
        if t >= end_s / 2 and src < n:
            sums[src] += PACKET * 8 / (end_s / 2)
    total = sum(sums)
    jain = total * total / (n * sum(r * r for r in sums))
    worst = max(abs(r / (10e9 / n) - 1) for r in sums)
    qmax = 0.0
    with open(os.path.join(out, "queues.csv")) as f:
        for row in csv.DictReader(f):
            if int(row["time_ps"]) * 1e-12 >= end_s / 2:
                qmax = max(qmax, float(row["queue_bytes"]))
    with open(os.path.join(out, "results.json")) as f:
        import json
        pauses = json.load(f).get("pause_frames", 0)
    print(f"| {label}{n} | {'on' if pfc else 'off'} | {end_ms} | {jain:.4f} | {worst * 100:.1f} % | "
          f"{total / 10e9 * 100:.1f} % | {qmax / 1e3:.0f} | {pauses} |")


# N = 32 with PFC and RED over several seeds: the paper's marking with a 20 KB XOFF (an ingress
# can pause before its egress marks every packet), an XOFF above K_max (ECN before PFC, the
# paper's buffer guideline), and a 4 us CNP interval (the reaction granularity of NVIDIA NICs
# and of the HPCC ns-3 code's RP, which checks for CNPs every 4 us).
SEED_SETTINGS = (
    ("XOFF 20 KB, CNP 50 us", dict(pfc_thresholds=PFC_20K)),
    ("XOFF 256 KB, CNP 50 us", dict(pfc_thresholds="xoff_bytes: 256000 xon_bytes: 236000")),
    ("XOFF 20 KB, CNP 4 us", dict(pfc_thresholds=PFC_20K, dcqcn="cnp_interval_us: 4")),
)


def seeds(netwarp, tmp, end_ms=150, count=8):
    print("| setting, seed, N | PFC | run (ms) | Jain, 2nd half | worst vs fair share | "
          "utilisation | max queue, 2nd half (KB) | pause frames |")
    print("|---|---|---|---|---|---|---|---|")
    for label, settings in SEED_SETTINGS:
        for seed in range(1, count + 1):
            fairness(netwarp, tmp, 32, end_ms, pfc=True, marking=RED,
                     label=f"{label}, seed {seed}, ", seed=seed, **settings)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("netwarp")
    parser.add_argument("--out")
    parser.add_argument("--red", action="store_true",
                        help="also the fairness rows with RED marking (runs of 8-150 ms, ~2 min)")
    parser.add_argument("--seeds", action="store_true",
                        help="only the N = 32 PFC + RED rows over seeds 1-8 and three settings")
    args = parser.parse_args()
    tmp = args.out or tempfile.mkdtemp(prefix="dcqcn-report-")
    os.makedirs(tmp, exist_ok=True)
    if args.seeds:
        seeds(args.netwarp, tmp)
        return 0
    trajectory(args.netwarp, tmp)
    print("\n| N | PFC | run (ms) | Jain, 2nd half | worst vs fair share | utilisation | "
          "max queue, 2nd half (KB) | pause frames |")
    print("|---|---|---|---|---|---|---|---|")
    fairness(args.netwarp, tmp, 2, 4)
    fairness(args.netwarp, tmp, 8, 8)
    fairness(args.netwarp, tmp, 32, 20, pfc=True)
    if args.red:
        print("\nWith the paper's RED marking (Kmin 5 KB, Kmax 200 KB, Pmax 1 %, at dequeue):\n")
        print("| N | PFC | run (ms) | Jain, 2nd half | worst vs fair share | utilisation | "
              "max queue, 2nd half (KB) | pause frames |")
        print("|---|---|---|---|---|---|---|---|")
        for n, end_ms in ((2, 8), (2, 80), (8, 24), (8, 80), (8, 120)):
            fairness(args.netwarp, tmp, n, end_ms, marking=RED)
        fairness(args.netwarp, tmp, 32, 150, pfc=True, marking=RED)
    return 0


if __name__ == "__main__":
    sys.exit(main())
