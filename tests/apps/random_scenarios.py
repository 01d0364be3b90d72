#!/usr/bin/env python3
"""Random packet scenarios for checks that must hold on every scenario: small networks of every
topology family with features drawn together (multipath modes, TCP variants, RoCE with PFC and
DCQCN, credit flow control, traffic classes under strict priority or DRR, RED, ECN, shared
buffers, NIC pacing and jitter, random placement, switch links faster or slower than the
hosts', TCP's segment size and receive window), one to three workloads of every kind, flows
that wait for one another, at times an MPI job beside them, time series and cwnd traces.
Every scenario is valid: netwarp runs
it to the end (exit 0), or to its end_time (4), or into a PFC deadlock (3).

  random_scenarios.py SEED        # prints the scenario of SEED
"""
import random
import sys

DISTRIBUTIONS = ("web_search", "data_mining", "hadoop")


def topology(r):
    """(the topology's text, whether it has equal-cost paths for a multipath mode)."""
    kind = r.randrange(6)
    if kind == 0:
        return f"star {{ hosts: {r.randint(4, 12)} }}", False
    if kind == 1:
        return (f"tree {{ leaves: {r.randint(2, 4)} hosts_per_leaf: {r.randint(2, 5)} "
                f"uplinks: {r.randint(1, 2)} }}"), True
    if kind == 2:
        return f"fat_tree {{ k: 4 routing: {r.choice(['D_MOD_K', 'ECMP'])} }}", True
    if kind == 3:
        dims = r.choice([[3, 3], [4, 4], [2, 3, 2], [3, 3, 2]])
        return (f"torus {{ dims: {dims} mesh: {r.choice(['true', 'false'])} "
                f"hosts_per_router: {r.randint(1, 2)} }}"), False
    if kind == 4:
        return (f"dragonfly {{ routers_per_group: {r.randint(2, 3)} hosts_per_router: "
                f"{r.randint(1, 2)} global_per_router: {r.randint(1, 2)} routing: "
                f"{r.choice(['MINIMAL', 'VALIANT', 'UGAL'])} }}"), False
    return (f"leaf_spine {{ leaves: {r.randint(2, 4)} spines: {r.randint(1, 3)} hosts_per_leaf: "
            f"{r.randint(2, 4)} links_per_spine: {r.randint(1, 2)} }}"), True


def tcp(r):
    congestion = r.choice(["NEW_RENO", "CUBIC", "DCTCP"])
    parts = [f"congestion_control: {congestion}"]
    if r.random() < 0.5:
        parts += ["sack: true", f"recovery: {r.choice(['NEWRENO', 'SACK_6675', 'PRR'])}"]
    if congestion == "DCTCP" or r.random() < 0.3:
        parts.append("ecn: true")
    if r.random() < 0.3:
        parts.append("delayed_ack: true")
    parts += [f"min_rto_us: {r.choice([200, 1000, 10000])}",
              f"initial_rto_us: {r.choice([10000, 20000])}"]
    if r.random() < 0.3:
        parts.append(f"initial_window_segments: {r.randint(1, 20)}")
    if r.random() < 0.3:
        parts.append("handshake: true")
    return "tcp { " + " ".join(parts) + " }"


def switch(r, kind, tcp_text, classes, pfc):
    """The switch block's fields (a list) and whether it has a shared buffer."""
    fields = []
    if kind == "LOSSLESS":
        if not classes and r.random() < 0.7:
            fields.append(f"buffer_bytes: {r.choice([16384, 65536])} flow_control: CREDIT")
        return fields, False
    shared = r.random() < 0.3
    if not shared:
        fields.append(f"buffer_bytes: {r.choice([20000, 65536, 200000])}")
    red = not classes and r.random() < 0.2
    if red:
        fields.append("red { min_bytes: 5000 max_bytes: 15000 max_probability: 0.2 "
                      "queue_weight: 0.1 }")
    marks = "DCTCP" in tcp_text or kind == "ROCE" or r.random() < 0.4
    if marks and not red:
        fields.append(f"ecn_threshold_bytes: {r.choice([10000, 15000])}")
    if shared:
        fields.append(f"shared_buffer {{ bytes: {r.choice([100000, 400000])} "
                      f"alpha: {r.choice([0.5, 1, 4])} }}")
    if r.random() < 0.3:
        fields.append("mark_at: DEQUEUE")
    return fields, shared


def workload(r, kind, name=None, priority=None):
    size = lambda: r.choice([1000, 4000, 20000, 100000, 300000])
    pick = r.randrange(5)
    if pick == 0:
        body = f"incast {{ bytes: {size()} senders: {r.randint(1, 2)} }}"
    elif pick == 1:
        body = f"all_to_all {{ bytes: {size()} order: {r.choice(['SIMPLE_SPREAD', 'RANDOM'])} }}"
    elif pick == 2:
        body = f"permutation {{ bytes: {size()} }}"
    elif pick == 3:
        body = f"uniform_random {{ messages_per_host: {r.randint(1, 3)} bytes: {size()} }}"
    else:
        body = (f'datacenter {{ distribution: "{r.choice(DISTRIBUTIONS)}" '
                f"load: {r.choice([0.3, 0.6])} flows: {r.randint(5, 30)} }}")
    if name:
        body += f' name: "{name}"'
    if priority is not None:
        body += f" priority: {priority}"
    if r.random() < 0.2:
        body += f" start_ns: {r.randint(0, 20000)}"
    if kind == "TCP" and r.random() < 0.2:
        body += " persistent_connections: true"
    return body


def mpi_job(r, classes):
    program = r.choice(["pingpong { sizes: [1000, 50000] repetitions: 2 }",
                        "alltoall { bytes: 8000 }", "ring { bytes: 30000 iterations: 2 }",
                        'collective { kind: "allreduce" bytes: 16000 }',
                        'collective { kind: "bcast" bytes: 64000 }'])
    per_host = r.choice([1, 1, 2])
    ranks = 2 * per_host if r.random() < 0.5 else 2
    return (f"mpi {{ ranks: {ranks} ranks_per_host: {per_host} {program}"
            f"{' priority: 3' if classes else ''} }}")


def scenario(seed):
    r = random.Random(seed)
    topo, multipath = topology(r)
    lines = [f'name: "random{seed}"', f"seed: {r.randint(1, 1000)}"]
    if multipath and r.random() < 0.6:
        mode = r.choice(["ECMP", "SPRAY_RANDOM", "SPRAY_ROUND_ROBIN", "FLOWLET"])
        topo = topo.replace("routing: ECMP", "routing: D_MOD_K") + f" multipath {{ mode: {mode} }}"
    lines.append(f"topology {{ {topo} }}")
    rate = r.choice([1_000_000_000, 10_000_000_000, 40_000_000_000])
    lines.append(f"links {{ rate_bps: {rate} latency_ns: {r.choice([100, 500, 1000, 2000])} }}")
    kind = r.choice(["TCP", "TCP", "LOSSLESS", "ROCE"])
    classes = r.random() < 0.4
    tcp_text = tcp(r) if kind == "TCP" else ""
    pfc = kind == "ROCE" and r.random() < 0.7
    fields, shared = switch(r, kind, tcp_text, classes, pfc)
    lossless = " lossless: true" if pfc else ""
    if classes:
        fields += [f"scheduler: {r.choice(['STRICT_PRIORITY', 'DRR'])}",
                   f"classes {{ priority: 0 weight: 1{lossless} }}",
                   f"classes {{ priority: 3 weight: {r.randint(1, 4)}{lossless} }}"]
    elif pfc:
        fields.append("classes { priority: 0 lossless: true }")
    if pfc:  # dynamic thresholds with a shared buffer, else static ones
        fields.append("pfc { }" if shared else "pfc { xoff_bytes: 30000 xon_bytes: 15000 }")
    if fields:
        lines.append("switch { " + " ".join(fields) + " }")
    transport = f"transport {{ kind: {kind}"
    if kind == "TCP":
        transport += " " + tcp_text
    if kind == "ROCE" and r.random() < 0.5:
        transport += " roce { dcqcn { enabled: true } }"
    lines.append(transport + " }")
    count = r.randint(1, 3)
    priority = lambda: r.choice([0, 3]) if classes else None
    if count == 1 and r.random() < 0.5:
        lines.append(f"workload {{ {workload(r, kind, priority=priority())} }}")
    else:
        lines += [f"workloads {{ {workload(r, kind, f'w{i}', priority())} }}"
                  for i in range(count)]
    if kind != "ROCE" and r.random() < 0.3:
        lines.append(mpi_job(r, classes))
    if r.random() < 0.4:
        lines.append("engine { few_groups: SPREAD }")
    end = r.choice([0, 0, 0, 2_000_000]) or (20_000_000 if pfc else 0)  # PFC needs an end
    lines.append(f"end_time_ns: {end}")
    cwnd = " cwnd_trace: true" if kind == "TCP" and r.random() < 0.3 else ""
    outputs = r.random()
    if outputs < 0.4:
        lines.append(f"outputs {{ sample_interval_ns: 0{cwnd} }}")
    elif outputs < 0.7:
        lines.append(f"outputs {{ sample_interval_ns: {r.choice([5000, 20000, 100000])}{cwnd} }}")
    if r.random() < 0.25:
        lines.append(f"nic {{ rate_bps: {rate // r.choice([1, 2])} "
                     f"jitter_ns: {r.choice([0, 50, 500])} }}")
    if r.random() < 0.25:
        lines.append("placement { random { } }")
    extras(r, lines, kind, rate)
    return "\n".join(lines) + "\n"


def extras(r, lines, kind, rate):
    """Drawn after the rest, so that adding one leaves the earlier draws of a seed as they were:
    switch links at another rate than the hosts', TCP's segment size and receive window, and
    flows that wait for one another."""
    star = any(line.startswith("topology { star") for line in lines)  # no level 1
    if r.random() < 0.3 and not star:
        at = next(i for i, line in enumerate(lines) if line.startswith("links {"))
        level = f"levels {{ level: 1 rate_bps: {rate * r.choice([2, 4]) // 4} }}"
        lines[at] = lines[at][:-1] + level + " }"
    if kind == "TCP" and r.random() < 0.3:
        at = next(i for i, line in enumerate(lines) if line.startswith("transport {"))
        window = r.choice([0, 8000, 65536])
        lines[at] = lines[at].replace(
            "tcp { ", f"tcp {{ mss_bytes: {r.choice([536, 1000, 1460])} "
            f"receive_window_bytes: {window} ")
    if r.random() < 0.2:
        lines.append('workloads { flows { flow { src: 0 dst: 1 bytes: 5000 name: "a" } '
                     f'flow {{ src: 1 dst: 2 bytes: {r.choice([3000, 60000])} after: "a" '
                     f'gap_ns: {r.choice([0, 1000])} }} }} name: "chain" }}')


if __name__ == "__main__":
    sys.stdout.write(scenario(int(sys.argv[1])))
