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


def sizes(ctx):
    if ctx.smoke:
        return dict(spread=[2, 3], pairwise=[2], detail=3)
    # Simple spread up to Nnode = 686; pairwise where Nnode is a power of two (128, 1024).
    return dict(spread=[3, 4, 5, 6, 7], pairwise=[4, 8], detail=4)


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


def run(ctx):
    z = sizes(ctx)
    cases = [("SIMPLE_SPREAD", z["spread"]), ("PAIRWISE", z["pairwise"])]
    data = {}  # (order, placement) -> report
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

    # (order, placement, p) -> packet us, packet s, events; (model, ...) -> us, s
    pkt, wall, events, pred, mwall = {}, {}, {}, {}, {}
    for (order, pl), rep in data.items():
        for pt in rep["points"]:
            k = (order, pl, int(pt["value"]))
            pkt[k] = pt["simulated_ps"] / 1e6
            wall[k] = pt["simulated_wall_seconds"]
            events[k] = pt["simulated_events"]
        for m in MODELS:
            for v, row in common.by_model(rep, m).items():
                pred[(m, order, pl, int(v))] = row["predicted_ps"] / 1e6
                mwall[(m, order, pl, int(v))] = row["wall_seconds"]
    keys = [(o, pl, p) for o, ps in cases for p in ps for pl in PLACEMENTS]
    pairs = [(o, p) for o, ps in cases for p in ps]  # (order, p): a regular and a random run
    all_p = sorted({p for _, p in pairs})

    def err(m, k):
        return 100 * (pred[(m,) + k] - pkt[k]) / pkt[k]

    def ratio(source, o, p):
        """random / regular completion time."""
        return source[o, "random", p] / source[o, "regular", p]

    def pratio(m, o, p):
        return pred[m, o, "random", p] / pred[m, o, "regular", p]

    ss = z["spread"]
    top = ("PAIRWISE", max(z["pairwise"]))
    largest_seconds = sum(wall[top[0], pl, top[1]] + mwall["flow", top[0], pl, top[1]]
                          + mwall["flow-f", top[0], pl, top[1]] for pl in PLACEMENTS)
    largest_mode_n = mwall["flow", top[0], "random", top[1]]
    md = ["## Setting\n",
          "MFS's full-bisection 3-level fat tree of 2p-port switches (the k-ary fat tree with "
          f"k = 2p), Nnode = 2 p^3 hosts: {', '.join(str(nodes(p)) for p in all_p)} (p = "
          f"{', '.join(map(str, all_p))}). Static routes (the same in both simulators). 1 GB/s "
          "links (8 Gbit/s), 100 ns propagation. An all-to-all of one 20,000-byte message per "
          "pair in 1500-byte packets (40 bytes of headers and 38 of framing: 14 packets, 21,092 "
          "bytes on the wire), in simple-spread order (A2ASS: rank i's p-th message goes to "
          "i + p) at every size and in pairwise order (A2APW: i XOR p) where Nnode is a power of "
          f"two ({', '.join(str(nodes(p)) for p in z['pairwise'])}); the paper used pairwise "
          "there and simple spread elsewhere. Regular placement puts rank i on host i, random "
          "placement shuffles the ranks over the hosts (seed 1). Each host sends its messages "
          "one after another and starts the next when a notice from the receiver says the "
          "previous one arrived. Lossless: credit flow control, 64 KiB of credit per port (43 "
          "packets, \"well above a packet\" as the paper's packet simulator).\n",
          "The paper gives sizes and bandwidths in units of 1; we use the torus study's 1 GB/s "
          "and 20 KB, so a message takes 20 us on a link and the contention-free all-to-all "
          "takes (Nnode - 1) x 20 us (the ideal below). The flow model (MFS) runs on the same "
          "routes, placement and messages, in Mode N (`flow`, max-min shares) and Mode F "
          "(`flow-f`, each link split evenly). It has no packets, headers, latency, buffers or "
          "notices.\n",
          "Scenario: `scenarios/studies/fat-tree-flow.pbtxt`. Sizes: "
          + ("the smoke size of CI." if ctx.smoke else
             f"Nnode = {nodes(ss[0])} to {nodes(ss[-1])} in simple spread, and "
             f"{' and '.join(str(nodes(p)) for p in z['pairwise'])} in pairwise. The largest "
             f"pairwise size took {largest_seconds:.0f} s here, packet and both modes, regular "
             f"and random (Mode N with random placement alone {largest_mode_n:.0f} s), so "
             f"simple spread stops at {nodes(ss[-1])}.") + "\n",
          "## Completion time (us)\n",
          "Error = 100 x (model - packet) / packet.\n"]
    rows = []
    for o, pl, p in keys:
        k = (o, pl, p)
        rows.append([nodes(p), SHORT[o], pl, f"{pkt[k]:.1f}",
                     f"{pred[('flow',) + k]:.1f} ({common.pct(err('flow', k))})",
                     f"{pred[('flow-f',) + k]:.1f} ({common.pct(err('flow-f', k))})",
                     f"{ideal_us(p):.1f}"])
    md.append(common.table(["Nnode", "order", "placement", "packet", "flow N (error)",
                            "flow F (error)", "ideal (Nnode - 1) x 20 us"], rows))
    series = []
    for pl in PLACEMENTS:
        series.append((f"packet {pl}", [(nodes(p), pkt["SIMPLE_SPREAD", pl, p]) for p in ss]))
        series.append((f"flow F {pl}",
                       [(nodes(p), pred["flow-f", "SIMPLE_SPREAD", pl, p]) for p in ss]))
    series.append(("flow N random", [(nodes(p), pred["flow", "SIMPLE_SPREAD", "random", p])
                                     for p in ss]))
    series.append(("ideal (Nnode-1) x 20 us", [(nodes(p), ideal_us(p)) for p in ss]))
    md.append(common.plot(ctx, "completion", "Fat-tree all-to-all (A2ASS): packet vs flow",
                          "Nnode", "completion (us)", series, logx=True, logy=True))

    md.append("## Random against regular placement\n")
    md.append("Completion time with random placement / with regular placement, per simulator. "
              "The paper (MFS): 2.5x at Nnode = 54 rising to 3.4x at 3456, 3.1x on average.\n")
    rows = [[nodes(p), SHORT[o], f"{ratio(pkt, o, p):.2f}", f"{pratio('flow', o, p):.2f}",
             f"{pratio('flow-f', o, p):.2f}"] for o, p in pairs]
    md.append(common.table(["Nnode", "order", "packet", "flow N", "flow F"], rows))

    d = z["detail"]
    md.append(f"### Where the packet time goes (A2ASS, Nnode = {nodes(d)})\n")
    least = detail["regular"]["least"]
    md.append(
        "Per message, from the flow records of `netwarp run` (us). A message's step runs from "
        "its start to its delivery at the receiver, then to the moment the sender learns of it "
        "(the notice) and starts its next message; in the flow model it is one message time, "
        f"{MESSAGE_US:.0f} us, with regular placement. Uncontended: the least time seen for a "
        "route of the same length, delivery plus notice ("
        + ", ".join(f"{k} links: {least[k][0]:.2f} + {least[k][1]:.2f}" for k in sorted(least))
        + " us): the headers, the store-and-forward of each 1500-byte packet at every hop "
        f"({(1500 + 38) / LINK_BYTES_PER_S * 1e6:.2f} us per hop at 1 GB/s), the latency and "
        "the notice's flight. The delays are the mean time beyond that, waiting for other "
        "traffic.\n")
    rows = [[pl, f"{detail[pl]['uncontended']:.2f}",
             f"{detail[pl]['deliver_delay']:.2f}", f"{detail[pl]['notice_delay']:.2f}",
             f"{detail[pl]['step']:.2f}", f"{detail[pl]['completion']:.1f}"]
            for pl in PLACEMENTS]
    md.append(common.table(["placement", "uncontended step",
                            "+ delivery delay", "+ notice delay", "= mean step",
                            "completion"], rows))

    md.append("## Mode N against Mode F\n")
    md.append("Virtual time: 100 x (Mode N - Mode F) / Mode F; run time: Mode N's / Mode F's. "
              "The paper, random placement: 0-4 % apart in virtual time, Mode N 3.6x (Nnode = "
              "54) to 11x (3456) the run time; with regular placement the run times hardly "
              "differ.\n")
    rows = []
    for o, pl, p in keys:
        k = (o, pl, p)
        rows.append([nodes(p), SHORT[o], pl,
                     common.pct(100 * (pred[("flow",) + k] / pred[("flow-f",) + k] - 1)),
                     f"{mwall[('flow',) + k]:.4f}", f"{mwall[('flow-f',) + k]:.4f}",
                     f"{mwall[('flow',) + k] / max(mwall[('flow-f',) + k], 1e-9):.1f}x"])
    md.append(common.table(["Nnode", "order", "placement", "N vs F (virtual time)",
                            "Mode N run (s)", "Mode F run (s)", "N / F run time"], rows))

    md.append("## Run time\n")
    md.append("Wall-clock seconds: the packet simulation (sequential kernel, one core) and the "
              "flow model's own run time (building the network excluded), one core. This machine "
              "has 2 cores, shared with other studies' runs while measured, so times are noisy "
              "(easily +-30 %). The paper: MFS's run time grew as about Nnode^2.\n")
    rows = []
    for o, pl, p in keys:
        k = (o, pl, p)
        rows.append([nodes(p), SHORT[o], pl, f"{wall[k]:.2f}", f"{events[k]:,}",
                     f"{mwall[('flow',) + k]:.4f}", f"{mwall[('flow-f',) + k]:.4f}",
                     f"{wall[k] / max(mwall[('flow-f',) + k], 1e-9):.0f}x"])
    md.append(common.table(["Nnode", "order", "placement", "packet (s)", "packet events",
                            "flow N (s)", "flow F (s)", "packet / flow F"], rows))
    grow = {}
    for label, src, pl in (("packet", None, "regular"), ("packet", None, "random"),
                           ("flow N", "flow", "random"), ("flow F", "flow-f", "random"),
                           ("flow F", "flow-f", "regular"), ("flow N", "flow", "regular")):
        pts = [(nodes(p), wall["SIMPLE_SPREAD", pl, p] if src is None
                else max(mwall[src, "SIMPLE_SPREAD", pl, p], 1e-6)) for p in ss]
        grow[f"{label} {pl}"] = pts
    exps = {name: fit_exponent(pts) for name, pts in grow.items()}
    md.append("Growth with Nnode (A2ASS, least-squares slope on log-log axes over Nnode = "
              f"{', '.join(str(nodes(p)) for p in ss)}): "
              + ", ".join(f"{name} Nnode^{e:.1f}" for name, e in exps.items()) + ".\n")
    md.append(common.plot(ctx, "runtime", "Run time (A2ASS)", "Nnode", "wall-clock (s)",
                          [(name, pts) for name, pts in grow.items()], logx=True, logy=True))

    md.append("## Discussion\n")
    md.append(discussion(z, pairs, pkt, wall, mwall))

    # --- findings, from the numbers above ---------------------------------------------------
    exact = [(m, o, p) for m in MODELS for o, p in pairs
             if abs(pred[m, o, "regular", p] - ideal_us(p)) <= 1e-6 * ideal_us(p)]
    ctx.check(len(exact) == len(MODELS) * len(pairs),
              "regular placement: the flow model gives exactly the contention-free time "
              f"(Nnode - 1) x {MESSAGE_US:.0f} us in both modes ({len(exact)} of "
              f"{len(MODELS) * len(pairs)} runs), as the paper")
    slow = [pkt[o, "regular", p] / ideal_us(p) for o, p in pairs]
    reg_err = [err(m, (o, "regular", p)) for m in MODELS for o, p in pairs]
    ctx.check(min(slow) > 1,
              f"regular placement: the packet simulation takes {min(slow):.2f}x-{max(slow):.2f}x "
              f"the ideal, so the flow model is {-max(reg_err):.0f}-{-min(reg_err):.0f} % below "
              "it")
    reg = detail["regular"]
    contention = reg["step"] - reg["uncontended"]
    ctx.check(contention > 0.1 * reg["step"] and reg["deliver_delay"] > 0
              and reg["notice_delay"] > 0,
              f"why (A2ASS, Nnode = {nodes(d)}, regular): a message's step takes "
              f"{reg['step']:.1f} us on average against {MESSAGE_US:.0f} us. "
              f"{reg['uncontended'] - MESSAGE_US:.1f} us of it is the packet network's own cost "
              "without contention: headers, store-and-forward at each hop, latency, the "
              f"notice's flight. The other {contention:.1f} us "
              f"({100 * contention / reg['step']:.0f} %) is contention that the flow model, "
              "with its hosts in lockstep, cannot have. The hosts drift out of step, so "
              "messages of different steps meet at receivers and on links (deliveries "
              f"{reg['deliver_delay']:.1f} us late on average). The notice leaves through the "
              "receiver's NIC queue, behind whatever the receiver is sending (up to a whole "
              f"message), and shares the switch queues with the data ({reg['notice_delay']:.1f} "
              "us late)")
    ctx.check(all(ratio(pkt, o, p) > 1 and pratio(m, o, p) > 1 for o, p in pairs
                  for m in MODELS),
              "random placement is slower than regular in both simulators at every size")
    fr = [pratio("flow-f", o, p) for o, p in pairs]
    nr = [pratio("flow", o, p) for o, p in pairs]
    pr = [ratio(pkt, o, p) for o, p in pairs]
    ctx.check(all(pratio(m, o, p) > ratio(pkt, o, p) for o, p in pairs for m in MODELS),
              "the flow model exaggerates the cost of random placement: random / regular is "
              f"{min(fr):.2f}x-{max(fr):.2f}x in Mode F and {min(nr):.2f}x-{max(nr):.2f}x in "
              f"Mode N (the paper's MFS: 2.5x-3.4x) but only {min(pr):.2f}x-{max(pr):.2f}x in "
              "the packet simulation, whose regular placement is already contended. With "
              "random placement the flow model is "
              f"{min(err('flow-f', (o, 'random', p)) for o, p in pairs):+.0f} % to "
              f"{max(err('flow-f', (o, 'random', p)) for o, p in pairs):+.0f} % off in Mode F, "
              f"{min(err('flow', (o, 'random', p)) for o, p in pairs):+.0f} % to "
              f"{max(err('flow', (o, 'random', p)) for o, p in pairs):+.0f} % in Mode N")
    same = all(pred["flow", o, "regular", p] == pred["flow-f", o, "regular", p] for o, p in pairs)
    nf = [100 * (pred["flow", o, "random", p] / pred["flow-f", o, "random", p] - 1)
          for o, p in pairs]
    ctx.check(same and max(nf) <= 0,
              "Mode N and Mode F give the same time with regular placement; with random "
              f"placement Mode N is {-max(nf):.0f}-{-min(nf):.0f} % shorter (the paper: 0-4 % "
              "apart; its Mode N stops at a 1 % threshold, ours is exact max-min)")
    big = max(ss)
    nf_run = {p: mwall["flow", "SIMPLE_SPREAD", "random", p]
              / max(mwall["flow-f", "SIMPLE_SPREAD", "random", p], 1e-9) for p in ss}
    ctx.check(nf_run[big] > 1,
              "with random placement Mode N takes longer to compute than Mode F: "
              f"{nf_run[big]:.1f}x at Nnode = {nodes(big)} (A2ASS; "
              f"{min(nf_run.values()):.1f}x-{max(nf_run.values()):.1f}x over the sizes; the "
              "paper: 3.6x-11x, but our Mode F is incremental, see bench/FLOW.md)")
    speed = {k: wall[k] / max(mwall[("flow-f",) + k], 1e-9) for k in keys}
    ctx.check(all(s > 1 for s in speed.values()),
              "the flow model (Mode F) computes faster than the packet simulation at every "
              f"size: {min(speed.values()):.0f}x-{max(speed.values()):.0f}x; run time grows as "
              f"Nnode^{exps['packet regular']:.1f} (packet), Nnode^{exps['flow F random']:.1f} "
              f"(Mode F, random placement), Nnode^{exps['flow N random']:.1f} (Mode N, random); "
              "the paper: about Nnode^2 for MFS")
    return common.Study("\n".join(md), MODELS)


def discussion(z, pairs, pkt, wall, mwall):
    """What the numbers say beyond the findings, as text computed from them."""
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
