"""Study 3: seed 002's all-to-all algorithms A and B on one GbE switch without flow control,
TCP with a 200 ms minimum RTO. PlogP (no loss) and PlogP-BR (one T_RTO when E_q says the
egress queue q overflows) against the packet simulation, at 8 and 64 hosts."""
import json
import os
import re

from . import common

NAME = "plogp-br-alltoall"
TITLE = "PlogP-BR: all-to-all A and B with retransmission timeouts"
SCENARIO = common.scenario("studies/plogp-br-alltoall.pbtxt")
ALGORITHMS = ("a", "b")
MODELS = ["plogp", "plogp-br"]
FRAGMENT = 65536  # mpi.protocol.fragment_bytes of the pipelined B runs


SMOKE = dict(hosts=[8], bytes=[8192, 32768, 131072, 262144, 1048576])
FULL = dict(hosts=[8, 64], bytes=[1024 << i for i in range(11)])  # 1 KiB .. 1 MiB


# --- the findings (decided on run()'s results: numbers per (P, m), see measure()) ----------
def timed_out(r):
    return [k for k in r.keys if r.pts[k]["a"]["rto"] > 0]


def b_faster_after_timeout(r):
    t = timed_out(r)
    faster = [k for k in t if r.pts[k]["b"]["packet"] < r.pts[k]["a"]["packet"]]
    return (t and len(faster) == len(t),
            f"B faster at {len(faster)} of the {len(t)} points where A timed out; B itself "
            f"timed out {sum(r.pts[k]['b']['rto'] for k in r.keys)} times")


def a_faster_without_timeout(r):
    clean = [k for k in r.keys if r.pts[k]["a"]["rto"] == 0]
    faster = [k for k in clean if r.pts[k]["a"]["packet"] < r.pts[k]["b"]["packet"]]
    return clean and len(faster) == len(clean), f"A faster at {len(faster)} of {len(clean)} points"


def plogp_ranks_a_first(r):
    first = [k for k in r.keys if faster(r.pts[k]["a"]["plogp"], r.pts[k]["b"]["plogp"]) == "A"]
    t = timed_out(r)
    return (len(first) == len(r.keys) and len(t) > 0,
            f"A first at {len(first)} of {len(r.keys)} points, so wrong at the {len(t)} "
            "points where A timed out")


def plogp_br_closer(r):
    t = timed_out(r)
    closer = [k for k in t
              if abs(r.pts[k]["a"]["plogp-br err"]) < abs(r.pts[k]["a"]["plogp err"])]
    return (t and len(closer) == len(t),
            f"closer at {len(closer)} of {len(t)}: PlogP-BR "
            + ", ".join(f"{r.pts[k]['a']['plogp-br err']:+.0f} %" for k in t)
            + "; PlogP " + ", ".join(f"{r.pts[k]['a']['plogp err']:+.0f} %" for k in t))


def eq_early(r):
    early = [h for h in r.hosts
             if r.onset[h]["rto"] is not None and r.onset[h]["threshold"] < r.onset[h]["rto"]]
    return (len(early) == len(r.hosts),
            "E_q = 1 from m > " + ", ".join(
                f"{r.onset[h]['threshold'] / 1024:.2f} KiB at {h} hosts (first timeout "
                f"{kib(r.onset[h]['rto']) if r.onset[h]['rto'] else 'none'})" for h in r.hosts))


def fast_retransmit_repairs(r):
    lossy = [k for k in r.keys if r.pts[k]["a"]["drops"] > 0]
    share = max((r.pts[k]["a"]["rto"] / r.pts[k]["a"]["drops"] for k in lossy), default=1.0)
    return (lossy and share < 0.5,
            f"at the {len(lossy)} points with drops, timeouts are at most {100 * share:.0f} % "
            "of the drops")


def lockstep_no_drops(r):
    drops = sum(r.pts[k][alg]["lockstep_drops"] for k in r.keys for alg in ALGORITHMS)
    return drops == 0, f"{drops} drops over {len(r.keys)} points, A and B"


def several_rtos(r):
    t = timed_out(r)
    several = [k for k in t if r.pts[k]["a"]["packet"] > 2 * r.fit[k[0]][k[1]]["rto_ns"] * 1e3]
    return len(several) > 0, f"{len(several)} of the {len(t)} points where A timed out"


def skew_slows_b(r):
    return (all(r.b_ratio[h][0] > r.b_ratio[h][1] for h in r.hosts),
            f"at {kib(r.largest)}: " + ", ".join(
                f"{r.b_ratio[h][0]:.2f} x PlogP-BR with jitter, {r.b_ratio[h][1]:.2f} x "
                f"without, {h} hosts" for h in r.hosts))


def piped_ratio(r, h):
    return r.piped[h]["packet"] / r.piped[h]["br"]


def pipelining_helps(r):
    return (all(piped_ratio(r, h) < r.b_ratio[h][0] for h in r.hosts),
            f"at {kib(r.largest)}: " + ", ".join(
                f"{piped_ratio(r, h):.2f} x its prediction instead of {r.b_ratio[h][0]:.2f} x, "
                f"{h} hosts" for h in r.hosts))


def pipelined_within_15pct(r):
    return (all(piped_ratio(r, h) < 1.15 for h in r.hosts),
            ", ".join(f"{piped_ratio(r, h):.2f} x at {h} hosts" for h in r.hosts))


FINDINGS = [
    common.Finding(
        "B faster once A times out", "at every point where A pays a retransmission timeout, B "
        "is faster than A", b_faster_after_timeout,
        paper=common.Paper("B beats A once A's exchange pays a retransmission timeout")),
    common.Finding(
        "A faster without timeouts", "at every point where A does not time out, A is faster "
        "than B, so the packet crossover is A's first timeout", a_faster_without_timeout),
    common.Finding(
        "PlogP ranks A first", "PlogP ranks A first at every point (eq. 10), so it gets the "
        "ranking wrong wherever A timed out (at least one point)", plogp_ranks_a_first,
        paper=common.Paper("PlogP, without loss, always ranks A first and misses the "
                           "crossover")),
    common.Finding(
        "PlogP-BR tracks the RTO", "where A timed out, PlogP-BR's error is smaller than "
        "PlogP's at every point", plogp_br_closer,
        paper=common.Paper("PlogP-BR's E_q T_RTO term accounts for the timeout that PlogP "
                           "misses")),
    common.Finding(
        "E_q early", "E_q's onset (q < (P - 2) m) comes before the packet simulation's first "
        "timeout, at every P", eq_early,
        why="E_q counts bytes, not timing: it assumes adjacent phases overlap at a port as soon "
            "as their bytes exceed q (see the section on timeouts)"),
    common.Finding(
        "fast retransmit repairs most losses", "at every point with drops, timeouts are under "
        "50 % of the drops", fast_retransmit_repairs),
    common.Finding(
        "no drops in lock step", "without timing skew (no host jitter) no packet is dropped at "
        "any point, A or B", lockstep_no_drops,
        why="the XOR phases are then a permutation and never meet at one port"),
    common.Finding(
        "more than one T_RTO", "at some point where A timed out it took more than 2 T_RTO "
        "(PlogP-BR charges one)", several_rtos),
    common.Finding(
        "skew slows B", "at the largest m, B's time over PlogP-BR's prediction is larger with "
        "jitter than without, at every P", skew_slows_b),
    common.Finding(
        "pipelined rendezvous helps B", "with pipelined rendezvous "
        f"({FRAGMENT // 1024} KiB fragments) B at the largest m is closer to PlogP-BR's "
        "prediction than with whole messages, at "
        "every P", pipelining_helps),
    common.Finding(
        "pipelined B within 15 %", "with pipelined rendezvous B at the largest m is within "
        "15 % of PlogP-BR's prediction at every P", pipelined_within_15pct),
]
CI_FINDING = "B faster once A times out"
CI_WHY = ("it is the paper's central claim and holds at both sizes: at the smoke size A times "
          "out at 1 MiB on 8 hosts and B is faster there; at full size at all 10 such points.")


def kib(b):
    return f"{b / 1024:g} KiB" if b < 1 << 20 else f"{b / (1 << 20):g} MiB"


def ms(ps):
    return f"{ps / 1e9:.3f}"


def on_p(hosts):
    return [f"topology.star.hosts={hosts}", f"mpi.ranks={hosts}"]


def alg_set(alg):
    return f"mpi.alltoall.algorithm=algorithm_{alg}"


def br_params(ctx, name, row):
    """The fitted PlogP-BR parameters of one sweep point (its params file)."""
    with open(os.path.join(ctx.work(name), row["params_file"])) as f:
        return json.load(f)["params"]


def table_at(points, m):
    """A PlogP table ([{m, value}]) at m, linear in between (m is one of the fitted sizes)."""
    for lo, hi in zip(points, points[1:]):
        if lo["m"] <= m <= hi["m"]:
            t = (m - lo["m"]) / (hi["m"] - lo["m"])
            return lo["value"] + t * (hi["value"] - lo["value"])
    return points[-1]["value"]


def e_q(params, m, phases):
    """Eq. (1) from the fitted q and flow control: 1 iff q < (n - 1) m."""
    if params["flow_control"] or phases <= 1:
        return 0
    return 1 if params["q_bytes"] < (phases - 1) * m else 0


def faster(a, b):
    return "A" if a < b else "B"


def first(ms_list):
    return ms_list[0] if ms_list else None


# --- running the grid ----------------------------------------------------------------------
def run_grid(ctx, z):
    """main and lock-step validate reports per (P, algorithm), the busiest switch queue per
    (P, m), the pipelined B report per P, and the network eager limit."""
    sweep = "mpi.alltoall.bytes=" + ",".join(map(str, z["bytes"]))
    main, ref, peak, pipelined = {}, {}, {}, {}
    for hosts in z["hosts"]:
        for alg in ALGORITHMS:
            main[hosts, alg] = ctx.validate(SCENARIO, f"p{hosts}-{alg}", models=MODELS,
                                            sweep=sweep, sets=on_p(hosts) + [alg_set(alg)])
            # The same sweep with the hosts in lock step (no jitter): packet times only.
            ref[hosts, alg] = ctx.validate(
                SCENARIO, f"p{hosts}-{alg}-lockstep", models=["plogp"], sweep=sweep,
                sets=on_p(hosts) + [alg_set(alg), "nic.jitter_ns=0"], count=False)
        for m in z["bytes"]:  # the busiest switch port of A's run (validate does not report it)
            results = ctx.run(SCENARIO, f"p{hosts}-a-m{m}",
                              sets=on_p(hosts) + [alg_set("a"), f"mpi.alltoall.bytes={m}"])
            peak[hosts, m] = max(p["max_queue_bytes"] for p in results["ports"]
                                 if not p["node"].startswith("host"))
            eager = int(re.search(r"\beager_bytes: (\d+)", results["effective_scenario"])[1])
        # B at the largest m with pipelined rendezvous (Open MPI's pipeline protocol): the data
        # goes in fragments, so a clear-to-send waits behind one fragment, not a whole message.
        pipelined[hosts] = ctx.validate(
            SCENARIO, f"p{hosts}-b-pipelined", models=MODELS,
            sweep=f"mpi.alltoall.bytes={z['bytes'][-1]}", count=False,
            sets=on_p(hosts) + [alg_set("b"), f"mpi.protocol.fragment_bytes={FRAGMENT}"])
    return main, ref, peak, pipelined, eager


def algorithm_numbers(main, ref, hosts, alg, i):
    """Packet and model numbers of algorithm alg at sweep point i."""
    rep = main[hosts, alg]
    p = rep["points"][i]
    lock = ref[hosts, alg]["points"][i]
    d = dict(packet=p["simulated_ps"], drops=p["packets_dropped"],
             rto=p["retransmission_timeouts"], fr=p["fast_retransmits"],
             rtx=p["retransmitted_segments"], lockstep=lock["simulated_ps"],
             lockstep_drops=lock["packets_dropped"])
    for model in MODELS:
        row = rep["results"][model][i]
        d[model] = row["predicted_ps"] if row.get("available") else None
        d[model + " err"] = row.get("error_pct") if row.get("available") else None
    return d


def measure(ctx, z, main, ref, peak, pipelined, eager):
    r = common.results(hosts=z["hosts"], bytes=z["bytes"], largest=z["bytes"][-1], eager=eager,
                       keys=[(h, m) for h in z["hosts"] for m in z["bytes"]], pts={}, fit={})
    for hosts in z["hosts"]:
        for i, m in enumerate(z["bytes"]):
            assert all(int(main[hosts, alg]["points"][i]["value"]) == m for alg in ALGORITHMS)
            d = {alg: algorithm_numbers(main, ref, hosts, alg, i) for alg in ALGORITHMS}
            params = br_params(ctx, f"p{hosts}-a", main[hosts, "a"]["results"]["plogp-br"][i])
            r.fit.setdefault(hosts, {})[m] = params
            d["eq"] = e_q(params, m, hosts - 1)
            d["peak"] = peak[hosts, m]
            r.pts[hosts, m] = d
    r.onset = {h: onset(r, h) for h in r.hosts}
    r.b_ratio = {h: (r.pts[h, r.largest]["b"]["packet"] / r.pts[h, r.largest]["b"]["plogp-br"],
                     r.pts[h, r.largest]["b"]["lockstep"] / r.pts[h, r.largest]["b"]["plogp-br"])
                 for h in r.hosts}
    r.piped = {h: dict(packet=pipelined[h]["points"][0]["simulated_ps"],
                       plogp=pipelined[h]["results"]["plogp"][0]["predicted_ps"],
                       br=pipelined[h]["results"]["plogp-br"][0]["predicted_ps"])
               for h in r.hosts}
    return r


def sizes_where(r, hosts, test):
    return [m for m in r.bytes if test(r.pts[hosts, m])]


def onset(r, hosts):
    """E_q's threshold, A's first drop and timeout, where each source has B faster."""
    return dict(threshold=r.fit[hosts][r.largest]["q_bytes"] / (hosts - 2),
                drop=first(sizes_where(r, hosts, lambda d: d["a"]["drops"] > 0)),
                rto=first(sizes_where(r, hosts, lambda d: d["a"]["rto"] > 0)),
                a_slower=first(sizes_where(
                    r, hosts, lambda d: d["a"]["packet"] > d["b"]["packet"])),
                plogp=first(sizes_where(r, hosts, lambda d: d["a"]["plogp"] > d["b"]["plogp"])),
                br=first(sizes_where(
                    r, hosts, lambda d: d["a"]["plogp-br"] > d["b"]["plogp-br"])))


# --- tables, plots and text ----------------------------------------------------------------
SETTING = """## Setting

Seed 002 (Nomura and Ishikawa) adds two things to PlogP for Ethernet with TCP: the gap depends \
on the communication pattern, g(m, C), and a phase-structured exchange pays one retransmission \
timeout T_RTO when a switch egress queue of q bytes overflows at a phase boundary: E_q(m, n) = \
1 iff q < (n - 1) m, with no flow control. For the two all-to-all programs (P - 1 phases, \
partner r XOR k in phase k) that gives T_BR^A = sum_k g(m, C_k) + L + E_q(m, P - 1) T_RTO \
(algorithm A: receives posted, sends back to back) and T_BR^B = sum_k (g(m, C_k) + L) \
(algorithm B: one receive-send-wait per phase, E_q(m, 1) = 0). PlogP has no loss: \
(P - 1) g(m) + L for A and (P - 1)(g(m) + L) for B, so it always ranks A first; PlogP-BR \
ranks B first once E_q(m, P - 1) = 1.

Here: P = {hosts} hosts on one switch (star), 1 Gbit/s links with 1 us latency, a drop-tail \
egress buffer of q = {q} per port and no flow control (the paper gives no q; this is the order \
of a commodity GbE switch of its time), TCP NewReno (MSS 1460 B, initial window 10 segments, \
no delayed ACKs, minimum RTO 200 ms = T_RTO). MPI: o = 5 us per message, eager up to 16 KiB, \
rendezvous (request, clear to send, data) above, as YAMPII's rendezvous was on in the paper. \
Each host waits a uniform random 0 .. 1 us before each packet (`nic.jitter_ns`), the timing \
skew of real hosts; the lock-step section below shows why it is needed. m = {m_lo} .. \
{m_hi}{powers}, one all-to-all per run.

Both models are fitted per point in the packet simulator on the same platform: PlogP by \
Kielmann's procedure (g(0) from a burst, L from RTT(0), g(m) from m-byte / 0-byte round \
trips); PlogP-BR adds g(m, C_k) from all pairs of phase k ping-ponging m bytes at once (eq. \
3), q from `switch.buffer_bytes` and T_RTO from the TCP minimum RTO.

Scenario: `scenarios/studies/plogp-br-alltoall.pbtxt` (64 hosts; 8 hosts with `--set \
topology.star.hosts=8 --set mpi.ranks=8`).
"""


def setting(ctx, r):
    return SETTING.format(
        hosts=" and ".join(map(str, r.hosts)),
        q=kib(int(r.fit[r.hosts[0]][r.bytes[0]]["q_bytes"])), m_lo=kib(r.bytes[0]),
        m_hi=kib(r.bytes[-1]), powers=", powers of two" if not ctx.smoke else "")


def fit_table(r):
    rows = []
    for hosts in r.hosts:
        ratios = []
        for m, params in r.fit[hosts].items():
            g_ce = table_at(params["g"], m)
            ratios += [v[0]["value"] / g_ce for v in params["g_by_pattern"].values()]
        p0 = r.fit[hosts][r.largest]
        rows.append([hosts, f"{p0['L'] / 1e3:.2f}",
                     f"{min(ratios):.3f} .. {max(ratios):.3f}", kib(int(p0["q_bytes"])),
                     f"{p0['rto_ns'] / 1e6:.0f}",
                     f"{p0['q_bytes'] / (hosts - 2) / 1024:.2f} KiB"])
    return ["Fitted PlogP-BR parameters (g(m) itself is in each point's params file):\n",
            common.table(["P", "L (us)", "g(m, C_k) / g(m, C_e), every k and m", "q",
                          "T_RTO (ms)", "E_q = 1 for A when m >"], rows),
            "On one switch every phase C_k is a perfect matching with no shared link, so "
            "g(m, C_k) stays at g(m, C_e) (the ratio column): the bottleneck part of "
            "PlogP-BR has nothing to correct here, and PlogP-BR differs from PlogP by the "
            "E_q T_RTO term.\n"]


def a_table(r, hosts):
    rows = []
    for m in r.bytes:
        d = r.pts[hosts, m]
        a = d["a"]
        rows.append([kib(m), ms(a["packet"]), a["drops"], a["fr"], a["rto"],
                     f"{d['peak'] / 1024:.1f}", ms(a["plogp"]), common.pct(a["plogp err"]),
                     d["eq"], ms(a["plogp-br"]), common.pct(a["plogp-br err"])])
    return "### Algorithm A (times in ms)\n\n" + common.table(
        ["m", "packet", "drops", "fast retransmits", "timeouts", "busiest switch queue (KiB)",
         "PlogP", "error", "E_q(m, P-1)", "PlogP-BR", "error"], rows)


def b_table(r, hosts):
    rows = []
    for m in r.bytes:
        b = r.pts[hosts, m]["b"]
        rows.append([kib(m), ms(b["packet"]), b["drops"], b["rto"], ms(b["plogp"]),
                     common.pct(b["plogp err"]), ms(b["plogp-br"]),
                     common.pct(b["plogp-br err"])])
    return "### Algorithm B (times in ms)\n\n" + common.table(
        ["m", "packet", "drops", "timeouts", "PlogP", "error", "PlogP-BR", "error"], rows)


def faster_table(r, hosts):
    rows = []
    for m in r.bytes:
        d = r.pts[hosts, m]
        rows.append([kib(m), f"{d['a']['packet'] / d['b']['packet']:.2f}",
                     faster(d["a"]["packet"], d["b"]["packet"]),
                     faster(d["a"]["plogp"], d["b"]["plogp"]),
                     faster(d["a"]["plogp-br"], d["b"]["plogp-br"])])
    return "### Which is faster\n\n" + common.table(
        ["m", "packet A / B", "packet", "PlogP", "PlogP-BR"], rows)


def time_plot(ctx, r, hosts):
    series = []
    for alg in ALGORITHMS:
        series.append((f"packet {alg.upper()}",
                       [(m // 1024, r.pts[hosts, m][alg]["packet"] / 1e9) for m in r.bytes]))
    for model, label in (("plogp", "PlogP"), ("plogp-br", "PlogP-BR")):
        for alg in ALGORITHMS:
            series.append((f"{label} {alg.upper()}",
                           [(m // 1024, None if r.pts[hosts, m][alg][model] is None
                             else r.pts[hosts, m][alg][model] / 1e9) for m in r.bytes]))
    return common.plot(ctx, f"time-p{hosts}",
                       f"All-to-all on {hosts} hosts: packet simulation and models",
                       "message size m (KiB)", "time (ms)", series, logx=True, logy=True)


def per_p_sections(ctx, r):
    md = []
    for hosts in r.hosts:
        md += [f"## {hosts} hosts\n", a_table(r, hosts), b_table(r, hosts),
               faster_table(r, hosts), time_plot(ctx, r, hosts)]
    return md


def error_span(values):
    if not values:
        return "n/a"
    lo, hi = min(values), max(values)
    return f"{lo:+.0f} %" if f"{lo:+.0f}" == f"{hi:+.0f}" else f"{lo:+.0f} .. {hi:+.0f} %"


def before_loss(r):
    small = [(h, m) for h, m in r.keys if m <= r.eager and r.pts[h, m]["a"]["drops"] == 0]
    if not small:
        return []

    def errs(model, alg, keep=lambda k: True):
        return [r.pts[k][alg][model + " err"] for k in small if keep(k)]

    def eq0(k):
        return r.pts[k]["eq"] == 0
    a_errs = errs("plogp", "a") + errs("plogp-br", "a", eq0)
    b_errs = errs("plogp", "b") + errs("plogp-br", "b")
    text = (f"## Before any loss\n\nFor eager messages (m <= {kib(r.eager)}), where nothing "
            "is dropped, the errors are: PlogP " + error_span(errs("plogp", "a")) + " for A and "
            + error_span(errs("plogp", "b")) + " for B; PlogP-BR, where E_q = 0, "
            + error_span(errs("plogp-br", "a", eq0)) + " for A and "
            + error_span(errs("plogp-br", "b")) + " for B.")
    if a_errs and min(a_errs) > 0:
        text += (" Both models over-predict A: Kielmann's g(m), taken from round trips, "
                 "includes costs that A's back-to-back sends overlap.")
    if b_errs and max(abs(e) for e in b_errs) < 20:
        text += (" They are close for B, whose phases each pay g(m) + L as the models "
                 "assume.")
    agree = all(faster(r.pts[k]["a"]["packet"], r.pts[k]["b"]["packet"])
                == faster(r.pts[k]["a"]["plogp"], r.pts[k]["b"]["plogp"]) for k in small)
    text += (" PlogP ranks A and B as the packet simulation does at every one of these "
             "points." if agree else " PlogP's ranking of A and B differs from the packet "
             "simulation's at some of these points.")
    return [text + "\n"]


def crossover_table(r):
    rows = []
    for hosts in r.hosts:
        o = r.onset[hosts]
        rows.append([hosts, kib(o["a_slower"]) if o["a_slower"] else "none",
                     kib(o["plogp"]) if o["plogp"] else "never",
                     kib(o["br"]) if o["br"] else "never", f"{o['threshold'] / 1024:.2f} KiB",
                     kib(o["drop"]) if o["drop"] else "none",
                     kib(o["rto"]) if o["rto"] else "none",
                     f"{o['rto'] / o['threshold']:.0f}" if o["rto"] else "n/a"])
    return ["## Where A becomes slower than B, and where the timeouts start\n",
            common.table(["P", "B faster from (packet)", "PlogP: B faster from",
                          "PlogP-BR: B faster from", "E_q = 1 for m >", "first drop (A)",
                          "first timeout (A)", "first timeout / E_q threshold"], rows)]


def onset_sentence(r, hosts):
    """What happens at one P before and at A's first timeout."""
    o, pts = r.onset[hosts], r.pts
    if o["rto"] is None:
        return f"At {hosts} hosts A never timed out in this sweep."
    before = [m for m in r.bytes if m < o["rto"] and pts[hosts, m]["eq"] == 1]
    wrong = [m for m in r.bytes
             if faster(pts[hosts, m]["a"]["plogp-br"], pts[hosts, m]["b"]["plogp-br"]) == "B"
             and faster(pts[hosts, m]["a"]["packet"], pts[hosts, m]["b"]["packet"]) == "A"]
    if o["a_slower"] == o["rto"]:
        s = (f"At {hosts} hosts the packet simulation's A becomes slower than B at "
             f"{kib(o['rto'])}, exactly where it first pays a retransmission timeout.")
    else:
        slower = (f"becomes slower than B at {kib(o['a_slower'])}" if o["a_slower"]
                  else "never becomes slower than B")
        s = (f"At {hosts} hosts the packet simulation's A {slower}; it first pays a "
             f"retransmission timeout at {kib(o['rto'])}.")
    s += (f" E_q already predicts the timeout for m > "
          f"{o['threshold'] / 1024:.2f} KiB, {o['rto'] / o['threshold']:.0f} x earlier")
    if wrong:
        s += (f", so PlogP-BR ranks B first at {len(wrong)} sizes where the packet "
              f"simulation has A faster ({', '.join(kib(m) for m in wrong)})")
    return s + "." + before_timeout_text(r, hosts, before)


def before_timeout_text(r, hosts, before):
    """The sizes where E_q = 1 but A did not time out: no drop, or drops repaired."""
    pts, s = r.pts, ""
    q = r.fit[hosts][r.onset[hosts]["rto"]]["q_bytes"]
    no_drop = [m for m in before if pts[hosts, m]["a"]["drops"] == 0]
    if no_drop:
        m = no_drop[-1]
        s += (f" At {kib(m)} E_q's overlap (P - 2) m = {(hosts - 2) * m / 1024:.0f} KiB is "
              f"{(hosts - 2) * m / q:.1f} x q, yet the busiest switch port never held more "
              f"than {pts[hosts, m]['peak'] / 1024:.1f} KiB and nothing was dropped.")
    repaired = [m for m in before if pts[hosts, m]["a"]["drops"] > 0]
    if repaired:
        s += (" The queue did overflow at "
              + ", ".join(f"{kib(m)} ({pts[hosts, m]['a']['drops']} drops, "
                          f"{pts[hosts, m]['a']['fr']} fast retransmits)" for m in repaired)
              + ", but every loss was repaired without a timeout.")
    return s


WHY_EQ_EARLY = (
    "Why E_q is early: it counts bytes, not timing. It assumes that once (P - 2) m bytes "
    "of adjacent phases exceed q, they can meet at one receiver's port. In the packet "
    "simulation A's blocking sends return once the data is handed to TCP, so each "
    "sender does have several phases in flight; but which senders aim at one receiver "
    "at a given moment depends on how far apart their phase boundaries have drifted, and "
    "each new connection starts with a 10-segment window. For short messages few "
    "senders meet at a port and the busiest queue stays below q; as m grows, the "
    "windows grow in slow start and the drift between senders accumulates over more "
    "packets, so more phases overlap at one port. The first losses are then repaired by "
    "fast retransmit, because later segments of the same message follow and trigger "
    "duplicate ACKs; only once losses "
    "hit the tail of a message does A wait for the RTO. This is the paper's own "
    "explanation for its 64-node runs (skew accumulating over many phases, losses "
    "repaired without the RTO); here the first timeout comes ")


def onset_text(r):
    md = ["\n\n".join(onset_sentence(r, h) for h in r.hosts) + "\n",
          WHY_EQ_EARLY + " and ".join(
              f"{r.onset[h]['rto'] / r.onset[h]['threshold']:.0f} x above E_q's threshold "
              f"at {h} hosts" for h in r.hosts if r.onset[h]["rto"]) + ".\n"]
    multi = [k for k in r.keys if r.pts[k]["a"]["rto"] > 0]
    if multi:
        worst = max(multi, key=lambda k: r.pts[k]["a"]["packet"])
        rto_ps = r.fit[worst[0]][worst[1]]["rto_ns"] * 1e3
        a = r.pts[worst]["a"]
        md.append(
            "Once timeouts occur, PlogP-BR's single T_RTO is a floor, not the cost: after a "
            "first timeout the skew is large and later phases lose segments too, sometimes "
            f"at a message's tail again. The worst point, {worst[0]} hosts at "
            f"{kib(worst[1])}, took {ms(a['packet'])} ms = {a['packet'] / rto_ps:.1f} T_RTO "
            f"with {a['rto']} timeouts, against PlogP-BR's {ms(a['plogp-br'])} ms.\n")
    return md


LOCKSTEP_TEXT = (
    "With identical hosts and no jitter every rank reaches phase k at the same instant; "
    "the phases of r XOR k are then a permutation, no two senders ever share a "
    "receiver's port and nothing is dropped at any m, although E_q predicts a timeout. "
    "E_q's premise, that phase boundaries of different senders overlap, is a statement "
    "about timing skew.\n")
SKEW_B_TEXT = (
    ". When two partners enter a phase at slightly different times, the first one's "
    "clear-to-send lets the other push its whole message, and the reply clear-to-send "
    "then travels on the same TCP connection behind that message; the two directions "
    "of the exchange run one after the other instead of at once. No segment is lost, "
    "so B still beats A wherever A times out.\n")


def lockstep_section(r):
    rows = []
    for hosts, m in r.keys:
        d = r.pts[hosts, m]
        rows.append([hosts, kib(m), ms(d["a"]["lockstep"]), d["a"]["lockstep_drops"],
                     ms(d["a"]["packet"]), ms(d["b"]["lockstep"]),
                     d["b"]["lockstep_drops"], ms(d["b"]["packet"]), ms(d["b"]["plogp-br"])])
    return ["## Without timing skew (lock step)\n",
            common.table(["P", "m", "A, no jitter", "drops", "A, jitter", "B, no jitter",
                          "drops", "B, jitter", "PlogP-BR B"], rows),
            LOCKSTEP_TEXT,
            f"Skew also costs algorithm B, which neither model sees: at {kib(r.largest)} B "
            "takes " + ", ".join(f"{r.b_ratio[h][0]:.2f} x PlogP-BR's prediction at {h} hosts "
                                 f"({r.b_ratio[h][1]:.2f} x without jitter)" for h in r.hosts)
            + SKEW_B_TEXT]


PIPELINED_TEXT = (
    "With `mpi.protocol.fragment_bytes: {fragment}` the rendezvous data leaves the host "
    "in fragments, the next one handed to the NIC when the previous is on the wire, as "
    "Open MPI's pipeline protocol does; a clear-to-send then waits behind one fragment "
    "instead of a whole message, both directions of a phase run at once again, and B "
    "comes back to the sum of per-phase costs that PlogP-BR (and PlogP) assume. The "
    "fits run their benchmarks with the same setting, so their parameters change "
    "slightly too.\n")


def pipelined_section(r):
    largest, piped = r.largest, r.piped
    rows = [[h, kib(largest), ms(r.pts[h, largest]["b"]["packet"]),
             ms(r.pts[h, largest]["b"]["plogp-br"]), f"{r.b_ratio[h][0]:.2f}",
             ms(piped[h]["packet"]), ms(piped[h]["br"]),
             f"{piped[h]['packet'] / piped[h]['br']:.2f}", ms(piped[h]["plogp"])]
            for h in r.hosts]
    return ["## Algorithm B with pipelined rendezvous\n",
            common.table(["P", "m", "B, whole messages", "PlogP-BR", "ratio",
                          f"B, {kib(FRAGMENT)} fragments", "PlogP-BR (pipelined fit)", "ratio",
                          "PlogP (pipelined fit)"], rows),
            PIPELINED_TEXT.format(fragment=FRAGMENT)]


def run(ctx):
    z = SMOKE if ctx.smoke else FULL
    r = measure(ctx, z, *run_grid(ctx, z))
    md = [setting(ctx, r)]
    md += fit_table(r)
    md += per_p_sections(ctx, r)
    md += before_loss(r)
    md += crossover_table(r)
    md += onset_text(r)
    md += lockstep_section(r)
    md += pipelined_section(r)
    return common.Study("\n".join(md), MODELS, r)
