"""Study 4: flow vs packet on a full-bisection fat tree (seed 003 section 4). Nnode = 2 p^3
hosts, an all-to-all of 20 KB messages with regular and random rank placement; the packet
simulation against the flow model (MFS, Mode N and Mode F), and the run time of each."""
import math
import statistics

from . import common

NAME = "fat-tree-flow"
TITLE = "Flow vs packet on a fat tree"
SCENARIO = common.scenario("studies/fat-tree-flow.pbtxt")
# The scenario's message size and link rate: a message takes 20 us on a link.
MESSAGE_BYTES = 20000
LINK_BYTES_PER_S = 1e9
MESSAGE_US = MESSAGE_BYTES / LINK_BYTES_PER_S * 1e6
RANDOM = ["placement.random.seed=1"]
MODELS = ["flow", "flow-f"]
SHORT = {"SIMPLE_SPREAD": "A2ASS", "PAIRWISE": "A2APW"}
PLACEMENTS = ("regular", "random")


# Simple spread up to Nnode = 686; pairwise where Nnode is a power of two (128, 1024).
SMOKE = dict(spread=[2, 3], pairwise=[2], detail=3)
FULL = dict(spread=[3, 4, 5, 6, 7], pairwise=[4, 8], detail=4)


# --- the findings (decided on run()'s results: times per (order, placement, p)) ------------
def err(r, m, k):
    return 100 * (r.pred[(m,) + k] - r.pkt[k]) / r.pkt[k]


def ratio(r, o, p):
    """Packet: random / regular completion time."""
    return r.pkt[o, "random", p] / r.pkt[o, "regular", p]


def pratio(r, m, o, p):
    return r.pred[m, o, "random", p] / r.pred[m, o, "regular", p]


def flow_gives_ideal(r):
    exact = [(m, o, p) for m in MODELS for o, p in r.pairs
             if abs(r.pred[m, o, "regular", p] - ideal_us(p)) <= 1e-6 * ideal_us(p)]
    return (len(exact) == len(MODELS) * len(r.pairs),
            f"{len(exact)} of {len(MODELS) * len(r.pairs)} runs")


def packet_above_ideal(r):
    slow = [r.pkt[o, "regular", p] / ideal_us(p) for o, p in r.pairs]
    reg_err = [err(r, m, (o, "regular", p)) for m in MODELS for o, p in r.pairs]
    return (min(slow) > 1,
            f"{min(slow):.2f}x-{max(slow):.2f}x the ideal; the flow model "
            f"{-max(reg_err):.0f}-{-min(reg_err):.0f} % below the packet time")


def contention_in_step(r):
    reg = r.detail["regular"]
    contention = reg["step"] - reg["uncontended"]
    return (contention > 0.1 * reg["step"] and reg["deliver_delay"] > 0
            and reg["notice_delay"] > 0,
            f"A2ASS, Nnode = {nodes(r.detail_p)}, regular: mean step {reg['step']:.1f} us "
            f"against {MESSAGE_US:.0f} us; {reg['uncontended'] - MESSAGE_US:.1f} us of it the "
            f"network's own cost without contention (headers, store-and-forward, latency, the "
            f"notice's flight), {contention:.1f} us ({100 * contention / reg['step']:.0f} %) "
            f"contention; deliveries {reg['deliver_delay']:.1f} us late, notices "
            f"{reg['notice_delay']:.1f} us late on average")


def random_slower(r):
    worst = min([ratio(r, o, p) for o, p in r.pairs]
                + [pratio(r, m, o, p) for o, p in r.pairs for m in MODELS])
    return worst > 1, f"smallest random / regular ratio {worst:.2f}x"


def flow_exaggerates_random(r):
    fr = [pratio(r, "flow-f", o, p) for o, p in r.pairs]
    nr = [pratio(r, "flow", o, p) for o, p in r.pairs]
    pr = [ratio(r, o, p) for o, p in r.pairs]
    rnd = {m: [err(r, m, (o, "random", p)) for o, p in r.pairs] for m in MODELS}
    return (all(pratio(r, m, o, p) > ratio(r, o, p) for o, p in r.pairs for m in MODELS),
            f"random / regular {min(fr):.2f}x-{max(fr):.2f}x in Mode F, "
            f"{min(nr):.2f}x-{max(nr):.2f}x in Mode N, {min(pr):.2f}x-{max(pr):.2f}x in the "
            f"packet simulation; with random placement the flow model is "
            f"{min(rnd['flow-f']):+.0f} % to {max(rnd['flow-f']):+.0f} % off in Mode F, "
            f"{min(rnd['flow']):+.0f} % to {max(rnd['flow']):+.0f} % in Mode N")


def mode_n_gaps(r):
    """Mode N against Mode F with random placement, in % of Mode F."""
    return [100 * (r.pred["flow", o, "random", p] / r.pred["flow-f", o, "random", p] - 1)
            for o, p in r.pairs]


def modes_agree_on_regular(r):
    same = all(r.pred["flow", o, "regular", p] == r.pred["flow-f", o, "regular", p]
               for o, p in r.pairs)
    nf = mode_n_gaps(r)
    return (same and max(nf) <= 0,
            f"regular: {'the same' if same else 'different'} times; random: Mode N "
            f"{-max(nf):.0f}-{-min(nf):.0f} % shorter")


def modes_within_4pct(r):
    nf = mode_n_gaps(r)
    return max(abs(x) for x in nf) <= 4, f"{min(nf):+.1f} % to {max(nf):+.1f} %"


def mode_n_slower_to_compute(r):
    nf_run = {p: r.mwall["flow", "SIMPLE_SPREAD", "random", p]
              / max(r.mwall["flow-f", "SIMPLE_SPREAD", "random", p], 1e-9) for p in r.ss}
    big = max(r.ss)
    return (nf_run[big] > 1,
            f"{nf_run[big]:.1f}x at Nnode = {nodes(big)} (A2ASS; "
            f"{min(nf_run.values()):.1f}x-{max(nf_run.values()):.1f}x over the sizes)")


def flow_computes_faster(r):
    speed = {k: r.wall[k] / max(r.mwall[("flow-f",) + k], 1e-9) for k in r.keys}
    e = r.exps
    return (all(s > 1 for s in speed.values()),
            f"{min(speed.values()):.0f}x-{max(speed.values()):.0f}x; run time grows as "
            f"Nnode^{e['packet regular']:.1f} (packet), Nnode^{e['flow F random']:.1f} "
            f"(Mode F, random placement), Nnode^{e['flow N random']:.1f} (Mode N, random)")


FINDINGS = [
    common.Finding(
        "flow gives the ideal", "with regular placement the flow model gives exactly the "
        f"contention-free time (Nnode - 1) x {MESSAGE_US:.0f} us in both modes, at every size "
        "and order", flow_gives_ideal,
        paper=common.Paper("with regular placement MFS gives the contention-free time")),
    common.Finding(
        "packet above the ideal", "with regular placement the packet simulation takes longer "
        "than the ideal at every size and order", packet_above_ideal),
    common.Finding(
        "contention in a step", "at the detail size (A2ASS, regular placement) more than 10 % "
        "of a message's mean step is contention beyond the uncontended step, with both "
        "deliveries and notices delayed", contention_in_step,
        why="the flow model's hosts stay in lockstep; in the packet simulation they drift out "
            "of step, so messages of different steps meet at receivers and on links, and the "
            "notice leaves through the receiver's NIC queue, behind whatever the receiver is "
            "sending (up to a whole message), and shares the switch queues with the data"),
    common.Finding(
        "random placement slower", "random placement is slower than regular in both "
        "simulators (and both modes) at every size", random_slower,
        paper=common.Paper("random placement is slower than regular (MFS: 2.5x-3.4x)")),
    common.Finding(
        "flow exaggerates random placement", "the flow model's random / regular ratio is above "
        "the packet simulation's at every size, in both modes", flow_exaggerates_random,
        why="the packet simulation's regular placement is already contended; the paper's MFS "
            "had 2.5x-3.4x, with no packet simulation to compare"),
    common.Finding(
        "modes on regular placement", "Mode N and Mode F give the same time with regular "
        "placement, and Mode N is never longer with random placement", modes_agree_on_regular),
    common.Finding(
        "modes within 4 %", "with random placement Mode N and Mode F are within 4 % of each "
        "other", modes_within_4pct,
        paper=common.Paper("Mode N and Mode F are 0-4 % apart"),
        why="the paper's Mode N stops at a 1 % threshold, ours is exact max-min"),
    common.Finding(
        "Mode N slower to compute", "with random placement Mode N takes longer to compute than "
        "Mode F at the largest A2ASS size", mode_n_slower_to_compute,
        paper=common.Paper("with random placement Mode N took 3.6x-11x Mode F's run time"),
        why="our Mode F is incremental (bench/FLOW.md)"),
    common.Finding(
        "flow computes faster", "the flow model (Mode F) computes faster than the packet "
        "simulation at every size, order and placement", flow_computes_faster,
        paper=common.Paper("MFS's run time grows as about Nnode^2")),
]
CI_FINDING = "flow gives the ideal"
CI_WHY = ("it is exact (the flow model against the analytic contention-free time), so it holds "
          "at every size, and a regression in the flow model's routes or shares breaks it.")


def nodes(p):
    return 2 * p ** 3


def ideal_us(p):
    """Contention-free all-to-all: every host sends Nnode - 1 messages back to back."""
    return (nodes(p) - 1) * MESSAGE_US


def fit_exponent(points):
    """Least-squares slope of log(y) against log(x): y grows as x^slope."""
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def path_links(src, dst, p):
    """Links on the route between two hosts (named hostN): host N is on edge switch N // p of
    pod N // p^2 (netmodels/src/topology/fat_tree.cpp); routes are shortest."""
    a, b = int(src[len("host"):]), int(dst[len("host"):])
    if a // p == b // p:
        return 2
    return 4 if a // (p * p) == b // (p * p) else 6


def message_detail(results, p):
    """Per-message times (us) from a `netwarp run`'s flow records. A message's step runs from
    its start to its delivery at the receiver, then to the moment the sender learns of it (the
    notice) and starts its next message. Uncontended: the least delivery and the least notice
    time over the messages whose route has the same number of links."""
    flows = results["flows"]
    least = {}
    rows = []
    for f in flows:
        links = path_links(f["src"], f["dst"], p)
        deliver = (f["delivered_ps"] - f["start_ps"]) / 1e6
        notice = (f["completed_ps"] - f["delivered_ps"]) / 1e6
        rows.append((links, deliver, notice))
        lo = least.setdefault(links, [deliver, notice])
        lo[0], lo[1] = min(lo[0], deliver), min(lo[1], notice)
    return dict(
        least=least,
        uncontended=statistics.mean(least[k][0] + least[k][1] for k, _, _ in rows),
        deliver_delay=statistics.mean(d - least[k][0] for k, d, _ in rows),
        notice_delay=statistics.mean(n - least[k][1] for k, _, n in rows),
        notice_least=min(n for _, _, n in rows),
        step=statistics.mean(d + n for _, d, n in rows),
        completion=results["completion_time_ps"] / 1e6)


# --- running the grid ----------------------------------------------------------------------
def run_grid(ctx, z, cases):
    """({(order, placement): validate report over p}, {placement: message_detail()})."""
    data = {}
    for order, ps in cases:
        for placement in PLACEMENTS:
            # validate checks the scenario with the --set values before the sweep: pairwise
            # needs a power-of-two Nnode there too, so p is set to the sweep's first value.
            sets = [f"topology.fat_tree.p={ps[0]}", f"workload.all_to_all.order={order}"]
            sets += RANDOM if placement == "random" else []
            data[order, placement] = ctx.validate(
                SCENARIO, f"{SHORT[order]}-{placement}", sets=sets, models=MODELS,
                sweep="topology.fat_tree.p=" + ",".join(map(str, ps)))
    detail = {pl: message_detail(ctx.run(
        SCENARIO, f"detail-{pl}", sets=[f"topology.fat_tree.p={z['detail']}"]
        + (RANDOM if pl == "random" else [])), z["detail"]) for pl in PLACEMENTS}
    return data, detail


def measure(z, cases, data, detail):
    """(order, placement, p) -> packet us, packet s, events; (model, ...) -> us, s."""
    r = common.results(pkt={}, wall={}, events={}, pred={}, mwall={}, detail=detail,
                       detail_p=z["detail"], ss=z["spread"], pairwise=z["pairwise"])
    for (order, pl), rep in data.items():
        for pt in rep["points"]:
            k = (order, pl, int(pt["value"]))
            r.pkt[k] = pt["simulated_ps"] / 1e6
            r.wall[k] = pt["simulated_wall_seconds"]
            r.events[k] = pt["simulated_events"]
        for m in MODELS:
            for v, row in common.by_model(rep, m).items():
                r.pred[(m, order, pl, int(v))] = row["predicted_ps"] / 1e6
                r.mwall[(m, order, pl, int(v))] = row["wall_seconds"]
    r.keys = [(o, pl, p) for o, ps in cases for p in ps for pl in PLACEMENTS]
    r.pairs = [(o, p) for o, ps in cases for p in ps]  # (order, p): a regular and a random run
    r.grow = growth(r)
    r.exps = {name: fit_exponent(pts) for name, pts in r.grow.items()}
    return r


def growth(r):
    """{curve name: [(Nnode, run time s)]} of A2ASS, for the growth exponents and the plot."""
    grow = {}
    for label, src, pl in (("packet", None, "regular"), ("packet", None, "random"),
                           ("flow N", "flow", "random"), ("flow F", "flow-f", "random"),
                           ("flow F", "flow-f", "regular"), ("flow N", "flow", "regular")):
        grow[f"{label} {pl}"] = [(nodes(p), r.wall["SIMPLE_SPREAD", pl, p] if src is None
                                  else max(r.mwall[src, "SIMPLE_SPREAD", pl, p], 1e-6))
                                 for p in r.ss]
    return grow


# --- tables and plots ----------------------------------------------------------------------
SETTING = """## Setting

MFS's full-bisection 3-level fat tree of 2p-port switches (the k-ary fat tree with k = 2p), \
Nnode = 2 p^3 hosts: {nodes} (p = {ps}). Static routes (the same in both simulators). 1 GB/s \
links (8 Gbit/s), 100 ns propagation. An all-to-all of one 20,000-byte message per pair in \
1500-byte packets (40 bytes of headers and 38 of framing: 14 packets, 21,092 bytes on the \
wire), in simple-spread order (A2ASS: rank i's p-th message goes to i + p) at every size and \
in pairwise order (A2APW: i XOR p) where Nnode is a power of two ({pairwise_nodes}); the paper \
used pairwise there and simple spread elsewhere. Regular placement puts rank i on host i, \
random placement shuffles the ranks over the hosts (seed 1). Each host sends its messages one \
after another and starts the next when a notice from the receiver says the previous one \
arrived. Lossless: credit flow control, 64 KiB of credit per port (43 packets, "well above a \
packet" as the paper's packet simulator).

The paper gives sizes and bandwidths in units of 1; we use the torus study's 1 GB/s and 20 KB, \
so a message takes 20 us on a link and the contention-free all-to-all takes (Nnode - 1) x \
20 us (the ideal below). The flow model (MFS) runs on the same routes, placement and \
messages, in Mode N (`flow`, max-min shares) and Mode F (`flow-f`, each link split evenly). It \
has no packets, headers, latency, buffers or notices.

Scenario: `scenarios/studies/fat-tree-flow.pbtxt`. Sizes: {sizes}

## Completion time (us)

Error = 100 x (model - packet) / packet.
"""


def sizes_text(ctx, r):
    if ctx.smoke:
        return "the smoke size of CI."
    ss, top = r.ss, ("PAIRWISE", max(r.pairwise))
    largest_seconds = sum(r.wall[top[0], pl, top[1]] + r.mwall["flow", top[0], pl, top[1]]
                          + r.mwall["flow-f", top[0], pl, top[1]] for pl in PLACEMENTS)
    largest_mode_n = r.mwall["flow", top[0], "random", top[1]]
    return (f"Nnode = {nodes(ss[0])} to {nodes(ss[-1])} in simple spread, and "
            f"{' and '.join(str(nodes(p)) for p in r.pairwise)} in pairwise. The largest "
            f"pairwise size took {largest_seconds:.0f} s here, packet and both modes, regular "
            f"and random (Mode N with random placement alone {largest_mode_n:.0f} s), so "
            f"simple spread stops at {nodes(ss[-1])}.")


def setting(ctx, r):
    all_p = sorted({p for _, p in r.pairs})
    return SETTING.format(nodes=", ".join(str(nodes(p)) for p in all_p),
                          ps=", ".join(map(str, all_p)),
                          pairwise_nodes=", ".join(str(nodes(p)) for p in r.pairwise),
                          sizes=sizes_text(ctx, r))


def completion_table(r):
    rows = []
    for o, pl, p in r.keys:
        k = (o, pl, p)
        rows.append([nodes(p), SHORT[o], pl, f"{r.pkt[k]:.1f}",
                     f"{r.pred[('flow',) + k]:.1f} ({common.pct(err(r, 'flow', k))})",
                     f"{r.pred[('flow-f',) + k]:.1f} ({common.pct(err(r, 'flow-f', k))})",
                     f"{ideal_us(p):.1f}"])
    return common.table(["Nnode", "order", "placement", "packet", "flow N (error)",
                         "flow F (error)", "ideal (Nnode - 1) x 20 us"], rows)


def completion_plot(ctx, r):
    ss = r.ss
    series = []
    for pl in PLACEMENTS:
        series.append((f"packet {pl}", [(nodes(p), r.pkt["SIMPLE_SPREAD", pl, p]) for p in ss]))
        series.append((f"flow F {pl}",
                       [(nodes(p), r.pred["flow-f", "SIMPLE_SPREAD", pl, p]) for p in ss]))
    series.append(("flow N random", [(nodes(p), r.pred["flow", "SIMPLE_SPREAD", "random", p])
                                     for p in ss]))
    series.append(("ideal (Nnode-1) x 20 us", [(nodes(p), ideal_us(p)) for p in ss]))
    return common.plot(ctx, "completion", "Fat-tree all-to-all (A2ASS): packet vs flow",
                       "Nnode", "completion (us)", series, logx=True, logy=True)


def placement_table(r):
    rows = [[nodes(p), SHORT[o], f"{ratio(r, o, p):.2f}", f"{pratio(r, 'flow', o, p):.2f}",
             f"{pratio(r, 'flow-f', o, p):.2f}"] for o, p in r.pairs]
    return ["## Random against regular placement\n",
            "Completion time with random placement / with regular placement, per simulator. "
            "The paper (MFS): 2.5x at Nnode = 54 rising to 3.4x at 3456, 3.1x on average.\n",
            common.table(["Nnode", "order", "packet", "flow N", "flow F"], rows)]


def detail_table(r):
    d, detail = r.detail_p, r.detail
    least = detail["regular"]["least"]
    rows = [[pl, f"{detail[pl]['uncontended']:.2f}",
             f"{detail[pl]['deliver_delay']:.2f}", f"{detail[pl]['notice_delay']:.2f}",
             f"{detail[pl]['step']:.2f}", f"{detail[pl]['completion']:.1f}"]
            for pl in PLACEMENTS]
    return [f"### Where the packet time goes (A2ASS, Nnode = {nodes(d)})\n",
            "Per message, from the flow records of `netwarp run` (us). A message's step runs "
            "from its start to its delivery at the receiver, then to the moment the sender "
            "learns of it (the notice) and starts its next message; in the flow model it is one "
            f"message time, {MESSAGE_US:.0f} us, with regular placement. Uncontended: the least "
            "time seen for a route of the same length, delivery plus notice ("
            + ", ".join(f"{k} links: {least[k][0]:.2f} + {least[k][1]:.2f}"
                        for k in sorted(least))
            + " us): the headers, the store-and-forward of each 1500-byte packet at every hop "
            f"({(1500 + 38) / LINK_BYTES_PER_S * 1e6:.2f} us per hop at 1 GB/s), the latency "
            "and the notice's flight. The delays are the mean time beyond that, waiting for "
            "other traffic.\n",
            common.table(["placement", "uncontended step", "+ delivery delay",
                          "+ notice delay", "= mean step", "completion"], rows)]


def modes_table(r):
    rows = []
    for k in r.keys:
        n, f = ("flow",) + k, ("flow-f",) + k
        rows.append([nodes(k[2]), SHORT[k[0]], k[1],
                     common.pct(100 * (r.pred[n] / r.pred[f] - 1)), f"{r.mwall[n]:.4f}",
                     f"{r.mwall[f]:.4f}", f"{r.mwall[n] / max(r.mwall[f], 1e-9):.1f}x"])
    return ["## Mode N against Mode F\n",
            "Virtual time: 100 x (Mode N - Mode F) / Mode F; run time: Mode N's / Mode F's. "
            "The paper, random placement: 0-4 % apart in virtual time, Mode N 3.6x (Nnode = "
            "54) to 11x (3456) the run time; with regular placement the run times hardly "
            "differ.\n",
            common.table(["Nnode", "order", "placement", "N vs F (virtual time)",
                          "Mode N run (s)", "Mode F run (s)", "N / F run time"], rows)]


RUNTIME_TEXT = ("Wall-clock seconds: the packet simulation (sequential kernel, one core) and the "
                "flow model's own run time (building the network excluded), one core. This "
                "machine has 2 cores, shared with other studies' runs while measured, so times "
                "are noisy (easily +-30 %). The paper: MFS's run time grew as about Nnode^2.\n")


def runtime_section(ctx, r):
    rows = []
    for k in r.keys:
        f = ("flow-f",) + k
        rows.append([nodes(k[2]), SHORT[k[0]], k[1], f"{r.wall[k]:.2f}", f"{r.events[k]:,}",
                     f"{r.mwall[('flow',) + k]:.4f}", f"{r.mwall[f]:.4f}",
                     f"{r.wall[k] / max(r.mwall[f], 1e-9):.0f}x"])
    return ["## Run time\n", RUNTIME_TEXT,
            common.table(["Nnode", "order", "placement", "packet (s)", "packet events",
                          "flow N (s)", "flow F (s)", "packet / flow F"], rows),
            "Growth with Nnode (A2ASS, least-squares slope on log-log axes over Nnode = "
            f"{', '.join(str(nodes(p)) for p in r.ss)}): "
            + ", ".join(f"{name} Nnode^{e:.1f}" for name, e in r.exps.items()) + ".\n",
            common.plot(ctx, "runtime", "Run time (A2ASS)", "Nnode", "wall-clock (s)",
                        list(r.grow.items()), logx=True, logy=True)]


def run(ctx):
    z = SMOKE if ctx.smoke else FULL
    cases = [("SIMPLE_SPREAD", z["spread"]), ("PAIRWISE", z["pairwise"])]
    r = measure(z, cases, *run_grid(ctx, z, cases))
    md = [setting(ctx, r), completion_table(r), completion_plot(ctx, r)]
    md += placement_table(r)
    md += detail_table(r)
    md += modes_table(r)
    md += runtime_section(ctx, r)
    md += ["## Discussion\n", discussion(r)]
    return common.Study("\n".join(md), MODELS, r)


def discussion(r):
    """What the numbers say beyond the findings, as text computed from them."""
    pairs, pkt, wall, mwall = r.pairs, r.pkt, r.wall, r.mwall

    def span(values):
        lo, hi = min(values), max(values)
        return f"{lo:.2f}x" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}x-{hi:.2f}x"

    over, cost = {}, {}
    for o, p in pairs:
        over.setdefault(o, []).append(pkt[o, "regular", p] / ideal_us(p))
        cost.setdefault(o, []).append(pkt[o, "random", p] / pkt[o, "regular", p])
    costly = max(cost, key=lambda o: statistics.mean(cost[o]))
    lines = [
        "- With regular placement the packet simulation takes this many times the ideal: "
        + ", ".join(f"{span(v)} in {SHORT[o]}" for o, v in over.items())
        + ". In pairwise order the hosts go in pairs, each sending to the host that sends to "
        "it, which may keep them in step longer (not verified). Random placement costs the "
        f"packet simulation most in {SHORT[costly]}: "
        + ", ".join(f"{span(v)} in {SHORT[o]}" for o, v in cost.items()) + "."]
    slower = [(o, p) for o, p in pairs
              if mwall["flow", o, "random", p] > wall[o, "random", p]]
    if slower:
        lines.append(
            "- Mode N with random placement took longer than the packet simulation of the same "
            "case at Nnode = " + ", ".join(f"{nodes(p)} ({SHORT[o]}: "
                                           f"{mwall['flow', o, 'random', p]:.0f} s against "
                                           f"{wall[o, 'random', p]:.0f} s)" for o, p in slower)
            + ": its exact max-min solve at every change grows faster than the packet "
            "simulation's events. Mode F stayed well below both.")
    else:
        lines.append("- Mode N with random placement stayed faster than the packet simulation at "
                     "every size here.")
    return "\n".join(lines) + "\n"
