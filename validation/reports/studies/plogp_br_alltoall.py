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


def sizes(ctx):
    if ctx.smoke:
        return dict(hosts=[8], bytes=[8192, 32768, 131072, 262144, 1048576])
    return dict(hosts=[8, 64], bytes=[1024 << i for i in range(11)])  # 1 KiB .. 1 MiB


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


def run(ctx):
    z = sizes(ctx)
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

    # --- numbers per (P, m) ------------------------------------------------------------
    pts = {}  # (hosts, m) -> dict
    fit = {}  # hosts -> fitted PlogP-BR params at each m
    for hosts in z["hosts"]:
        for i, m in enumerate(z["bytes"]):
            d = {}
            for alg in ALGORITHMS:
                rep = main[hosts, alg]
                p = rep["points"][i]
                assert int(p["value"]) == m
                d[alg] = dict(packet=p["simulated_ps"], drops=p["packets_dropped"],
                              rto=p["retransmission_timeouts"], fr=p["fast_retransmits"],
                              rtx=p["retransmitted_segments"],
                              lockstep=ref[hosts, alg]["points"][i]["simulated_ps"],
                              lockstep_drops=ref[hosts, alg]["points"][i]["packets_dropped"])
                for model in MODELS:
                    row = rep["results"][model][i]
                    d[alg][model] = row["predicted_ps"] if row.get("available") else None
                    d[alg][model + " err"] = row.get("error_pct") if row.get("available") else None
            params = br_params(ctx, f"p{hosts}-a", main[hosts, "a"]["results"]["plogp-br"][i])
            fit.setdefault(hosts, {})[m] = params
            d["eq"] = e_q(params, m, hosts - 1)
            d["peak"] = peak[hosts, m]
            pts[hosts, m] = d

    md = ["## Setting\n",
          "Seed 002 (Nomura and Ishikawa) adds two things to PlogP for Ethernet with TCP: "
          "the gap depends on the communication pattern, g(m, C), and a phase-structured "
          "exchange pays one retransmission timeout T_RTO when a switch egress queue of q "
          "bytes overflows at a phase boundary: E_q(m, n) = 1 iff q < (n - 1) m, with no flow "
          "control. For the two all-to-all programs (P - 1 phases, partner r XOR k in phase k) "
          "that gives T_BR^A = sum_k g(m, C_k) + L + E_q(m, P - 1) T_RTO (algorithm A: "
          "receives posted, sends back to back) and T_BR^B = sum_k (g(m, C_k) + L) (algorithm "
          "B: one receive-send-wait per phase, E_q(m, 1) = 0). PlogP has no loss: "
          "(P - 1) g(m) + L for A and (P - 1)(g(m) + L) for B, so it always ranks A first; "
          "PlogP-BR ranks B first once E_q(m, P - 1) = 1.\n",
          f"Here: P = {' and '.join(map(str, z['hosts']))} hosts on one switch (star), "
          "1 Gbit/s links with 1 us latency, a drop-tail egress buffer of "
          f"q = {kib(int(fit[z['hosts'][0]][z['bytes'][0]]['q_bytes']))} per port and no flow "
          "control (the paper gives no q; this is the order of a commodity GbE switch of its "
          "time), "
          "TCP NewReno (MSS 1460 B, initial window 10 segments, no delayed ACKs, minimum RTO "
          "200 ms = T_RTO). MPI: o = 5 us per message, eager up to 16 KiB, rendezvous "
          "(request, clear to send, data) above, as YAMPII's rendezvous was on in the paper. "
          "Each host waits a uniform random 0 .. 1 us before each packet (`nic.jitter_ns`), "
          "the timing skew of real hosts; the lock-step section below shows why it is "
          f"needed. m = {kib(z['bytes'][0])} .. {kib(z['bytes'][-1])}"
          f"{', powers of two' if not ctx.smoke else ''}, one all-to-all per run.\n",
          "Both models are fitted per point in the packet simulator on the same platform: "
          "PlogP by Kielmann's procedure (g(0) from a burst, L from RTT(0), g(m) from "
          "m-byte / 0-byte round trips); PlogP-BR adds g(m, C_k) from all pairs of phase k "
          "ping-ponging m bytes at once (eq. 3), q from `switch.buffer_bytes` and T_RTO from "
          "the TCP minimum RTO.\n",
          "Scenario: `scenarios/studies/plogp-br-alltoall.pbtxt` (64 hosts; 8 hosts with "
          "`--set topology.star.hosts=8 --set mpi.ranks=8`).\n"]

    rows = []
    for hosts in z["hosts"]:
        ratios = []
        for m, params in fit[hosts].items():
            g_ce = table_at(params["g"], m)
            ratios += [v[0]["value"] / g_ce for v in params["g_by_pattern"].values()]
        p0 = fit[hosts][z["bytes"][-1]]
        rows.append([hosts, f"{p0['L'] / 1e3:.2f}",
                     f"{min(ratios):.3f} .. {max(ratios):.3f}", kib(int(p0["q_bytes"])),
                     f"{p0['rto_ns'] / 1e6:.0f}",
                     f"{p0['q_bytes'] / (hosts - 2) / 1024:.2f} KiB"])
    md.append("Fitted PlogP-BR parameters (g(m) itself is in each point's params file):\n")
    md.append(common.table(["P", "L (us)", "g(m, C_k) / g(m, C_e), every k and m", "q",
                            "T_RTO (ms)", "E_q = 1 for A when m >"], rows))
    md.append("On one switch every phase C_k is a perfect matching with no shared link, so "
              "g(m, C_k) stays at g(m, C_e) (the ratio column): the bottleneck part of "
              "PlogP-BR has nothing to correct here, and PlogP-BR differs from PlogP by the "
              "E_q T_RTO term.\n")

    # --- per P tables and plots ----------------------------------------------------------
    for hosts in z["hosts"]:
        md.append(f"## {hosts} hosts\n")
        rows = []
        for m in z["bytes"]:
            d = pts[hosts, m]
            a = d["a"]
            rows.append([kib(m), ms(a["packet"]), a["drops"], a["fr"], a["rto"],
                         f"{d['peak'] / 1024:.1f}", ms(a["plogp"]), common.pct(a["plogp err"]),
                         d["eq"], ms(a["plogp-br"]), common.pct(a["plogp-br err"])])
        md.append(f"### Algorithm A (times in ms)\n\n" + common.table(
            ["m", "packet", "drops", "fast retransmits", "timeouts",
             "busiest switch queue (KiB)", "PlogP", "error", "E_q(m, P-1)", "PlogP-BR",
             "error"], rows))
        rows = []
        for m in z["bytes"]:
            b = pts[hosts, m]["b"]
            rows.append([kib(m), ms(b["packet"]), b["drops"], b["rto"], ms(b["plogp"]),
                         common.pct(b["plogp err"]), ms(b["plogp-br"]),
                         common.pct(b["plogp-br err"])])
        md.append(f"### Algorithm B (times in ms)\n\n" + common.table(
            ["m", "packet", "drops", "timeouts", "PlogP", "error", "PlogP-BR", "error"], rows))
        rows = []
        for m in z["bytes"]:
            d = pts[hosts, m]
            rows.append([kib(m), f"{d['a']['packet'] / d['b']['packet']:.2f}",
                         faster(d["a"]["packet"], d["b"]["packet"]),
                         faster(d["a"]["plogp"], d["b"]["plogp"]),
                         faster(d["a"]["plogp-br"], d["b"]["plogp-br"])])
        md.append("### Which is faster\n\n" + common.table(
            ["m", "packet A / B", "packet", "PlogP", "PlogP-BR"], rows))
        series = []
        for alg in ALGORITHMS:
            series.append((f"packet {alg.upper()}",
                           [(m // 1024, pts[hosts, m][alg]["packet"] / 1e9) for m in z["bytes"]]))
        for model, label in (("plogp", "PlogP"), ("plogp-br", "PlogP-BR")):
            for alg in ALGORITHMS:
                series.append((f"{label} {alg.upper()}",
                               [(m // 1024, None if pts[hosts, m][alg][model] is None
                                 else pts[hosts, m][alg][model] / 1e9) for m in z["bytes"]]))
        md.append(common.plot(ctx, f"time-p{hosts}",
                              f"All-to-all on {hosts} hosts: packet simulation and models",
                              "message size m (KiB)", "time (ms)", series, logx=True,
                              logy=True))

    # --- without loss ------------------------------------------------------------------
    small = [(h, m) for h in z["hosts"] for m in z["bytes"]
             if m <= eager and pts[h, m]["a"]["drops"] == 0]
    if small:
        def errs(model, alg, keep=lambda k: True):
            return [pts[k][alg][model + " err"] for k in small if keep(k)]

        def span(values):
            if not values:
                return "n/a"
            lo, hi = min(values), max(values)
            return f"{lo:+.0f} %" if f"{lo:+.0f}" == f"{hi:+.0f}" else f"{lo:+.0f} .. {hi:+.0f} %"
        a_errs = errs("plogp", "a") + errs("plogp-br", "a", lambda k: pts[k]["eq"] == 0)
        b_errs = errs("plogp", "b") + errs("plogp-br", "b")
        text = (f"## Before any loss\n\nFor eager messages (m <= {kib(eager)}), where nothing "
                "is dropped, the errors are: PlogP " + span(errs("plogp", "a")) + " for A and "
                + span(errs("plogp", "b")) + " for B; PlogP-BR, where E_q = 0, "
                + span(errs("plogp-br", "a", lambda k: pts[k]["eq"] == 0)) + " for A and "
                + span(errs("plogp-br", "b")) + " for B.")
        if a_errs and min(a_errs) > 0:
            text += (" Both models over-predict A: Kielmann's g(m), taken from round trips, "
                     "includes costs that A's back-to-back sends overlap.")
        if b_errs and max(abs(e) for e in b_errs) < 20:
            text += (" They are close for B, whose phases each pay g(m) + L as the models "
                     "assume.")
        agree = all(faster(pts[k]["a"]["packet"], pts[k]["b"]["packet"])
                    == faster(pts[k]["a"]["plogp"], pts[k]["b"]["plogp"]) for k in small)
        text += (" PlogP ranks A and B as the packet simulation does at every one of these "
                 "points." if agree else " PlogP's ranking of A and B differs from the packet "
                 "simulation's at some of these points.")
        md.append(text + "\n")

    # --- crossover and onset -------------------------------------------------------------
    md.append("## Where A becomes slower than B, and where the timeouts start\n")
    rows = []
    onset = {}
    for hosts in z["hosts"]:
        swept = z["bytes"]
        a_slower = [m for m in swept if pts[hosts, m]["a"]["packet"] > pts[hosts, m]["b"]["packet"]]
        plogp_b = [m for m in swept if pts[hosts, m]["a"]["plogp"] > pts[hosts, m]["b"]["plogp"]]
        br_b = [m for m in swept
                if pts[hosts, m]["a"]["plogp-br"] > pts[hosts, m]["b"]["plogp-br"]]
        drop = [m for m in swept if pts[hosts, m]["a"]["drops"] > 0]
        rto = [m for m in swept if pts[hosts, m]["a"]["rto"] > 0]
        threshold = fit[hosts][swept[-1]]["q_bytes"] / (hosts - 2)
        onset[hosts] = dict(threshold=threshold, drop=first(drop), rto=first(rto),
                            a_slower=first(a_slower), br=first(br_b))
        rows.append([hosts, kib(first(a_slower)) if a_slower else "none",
                     kib(first(plogp_b)) if plogp_b else "never",
                     kib(first(br_b)) if br_b else "never", f"{threshold / 1024:.2f} KiB",
                     kib(first(drop)) if drop else "none", kib(first(rto)) if rto else "none",
                     f"{first(rto) / threshold:.0f}" if rto else "n/a"])
    md.append(common.table(
        ["P", "B faster from (packet)", "PlogP: B faster from", "PlogP-BR: B faster from",
         "E_q = 1 for m >", "first drop (A)", "first timeout (A)",
         "first timeout / E_q threshold"], rows))

    # Prose from the numbers.
    text = []
    for hosts in z["hosts"]:
        o = onset[hosts]
        if o["rto"] is None:
            text.append(f"At {hosts} hosts A never timed out in this sweep.")
            continue
        before = [m for m in z["bytes"] if m < o["rto"] and pts[hosts, m]["eq"] == 1]
        wrong = [m for m in z["bytes"]
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
        s += "."
        q = fit[hosts][o["rto"]]["q_bytes"]
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
        text.append(s)
    md.append("\n\n".join(text) + "\n")
    md.append(
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
        "repaired without the RTO); here the first timeout comes "
        + " and ".join(f"{onset[h]['rto'] / onset[h]['threshold']:.0f} x above E_q's threshold "
                       f"at {h} hosts" for h in z["hosts"] if onset[h]["rto"])
        + ".\n")
    multi = [(hosts, m) for hosts in z["hosts"] for m in z["bytes"]
             if pts[hosts, m]["a"]["rto"] > 0]
    if multi:
        worst = max(multi, key=lambda k: pts[k]["a"]["packet"])
        rto_ps = fit[worst[0]][worst[1]]["rto_ns"] * 1e3
        md.append(
            "Once timeouts occur, PlogP-BR's single T_RTO is a floor, not the cost: after a "
            "first timeout the skew is large and later phases lose segments too, sometimes "
            f"at a message's tail again. The worst point, {worst[0]} hosts at "
            f"{kib(worst[1])}, took {ms(pts[worst]['a']['packet'])} ms = "
            f"{pts[worst]['a']['packet'] / rto_ps:.1f} T_RTO with "
            f"{pts[worst]['a']['rto']} timeouts, against PlogP-BR's "
            f"{ms(pts[worst]['a']['plogp-br'])} ms.\n")

    # --- lock step and B --------------------------------------------------------------
    md.append("## Without timing skew (lock step)\n")
    rows = []
    for hosts in z["hosts"]:
        for m in z["bytes"]:
            d = pts[hosts, m]
            rows.append([hosts, kib(m), ms(d["a"]["lockstep"]), d["a"]["lockstep_drops"],
                         ms(d["a"]["packet"]), ms(d["b"]["lockstep"]),
                         d["b"]["lockstep_drops"], ms(d["b"]["packet"]),
                         ms(d["b"]["plogp-br"])])
    md.append(common.table(["P", "m", "A, no jitter", "drops", "A, jitter", "B, no jitter",
                            "drops", "B, jitter", "PlogP-BR B"], rows))
    largest = z["bytes"][-1]
    b_ratio = {h: (pts[h, largest]["b"]["packet"] / pts[h, largest]["b"]["plogp-br"],
                   pts[h, largest]["b"]["lockstep"] / pts[h, largest]["b"]["plogp-br"])
               for h in z["hosts"]}
    md.append(
        "With identical hosts and no jitter every rank reaches phase k at the same instant; "
        "the phases of r XOR k are then a permutation, no two senders ever share a "
        "receiver's port and nothing is dropped at any m, although E_q predicts a timeout. "
        "E_q's premise, that phase boundaries of different senders overlap, is a statement "
        "about timing skew.\n")
    md.append(
        "Skew also costs algorithm B, which neither model sees: at "
        f"{kib(largest)} B takes "
        + ", ".join(f"{b_ratio[h][0]:.2f} x PlogP-BR's prediction at {h} hosts "
                    f"({b_ratio[h][1]:.2f} x without jitter)" for h in z["hosts"])
        + ". When two partners enter a phase at slightly different times, the first one's "
        "clear-to-send lets the other push its whole message, and the reply clear-to-send "
        "then travels on the same TCP connection behind that message; the two directions "
        "of the exchange run one after the other instead of at once. No segment is lost, "
        "so B still beats A wherever A times out.\n")

    # --- pipelined rendezvous ---------------------------------------------------------
    md.append("## Algorithm B with pipelined rendezvous\n")
    piped = {}
    for h in z["hosts"]:
        p = pipelined[h]["points"][0]
        piped[h] = dict(packet=p["simulated_ps"],
                        plogp=pipelined[h]["results"]["plogp"][0]["predicted_ps"],
                        br=pipelined[h]["results"]["plogp-br"][0]["predicted_ps"])
    md.append(common.table(
        ["P", "m", "B, whole messages", "PlogP-BR", "ratio", f"B, {kib(FRAGMENT)} fragments",
         "PlogP-BR (pipelined fit)", "ratio", "PlogP (pipelined fit)"],
        [[h, kib(largest), ms(pts[h, largest]["b"]["packet"]), ms(pts[h, largest]["b"]["plogp-br"]),
          f"{b_ratio[h][0]:.2f}", ms(piped[h]["packet"]), ms(piped[h]["br"]),
          f"{piped[h]['packet'] / piped[h]['br']:.2f}", ms(piped[h]["plogp"])]
         for h in z["hosts"]]))
    md.append(
        f"With `mpi.protocol.fragment_bytes: {FRAGMENT}` the rendezvous data leaves the host "
        "in fragments, the next one handed to the NIC when the previous is on the wire, as "
        "Open MPI's pipeline protocol does; a clear-to-send then waits behind one fragment "
        "instead of a whole message, both directions of a phase run at once again, and B "
        "comes back to the sum of per-phase costs that PlogP-BR (and PlogP) assume. The "
        "fits run their benchmarks with the same setting, so their parameters change "
        "slightly too.\n")

    # --- findings ---------------------------------------------------------------------
    keys = [(h, m) for h in z["hosts"] for m in z["bytes"]]
    timed_out = [k for k in keys if pts[k]["a"]["rto"] > 0]
    clean = [k for k in keys if pts[k]["a"]["rto"] == 0]
    ctx.check(
        timed_out and all(pts[k]["b"]["packet"] < pts[k]["a"]["packet"] for k in timed_out),
        "once A pays a retransmission timeout, B is faster than A (every one of the "
        f"{len(timed_out)} points where A timed out; B itself never timed out: "
        f"{sum(pts[k]['b']['rto'] for k in keys)} timeouts)")
    ctx.check(
        clean and all(pts[k]["a"]["packet"] < pts[k]["b"]["packet"] for k in clean),
        f"where A does not time out, A is faster than B ({len(clean)} points), so the "
        "packet crossover is A's first timeout")
    plogp_wrong = [k for k in timed_out if faster(pts[k]["a"]["plogp"], pts[k]["b"]["plogp"])
                   == "A"]
    ctx.check(
        all(faster(pts[k]["a"]["plogp"], pts[k]["b"]["plogp"]) == "A" for k in keys)
        and len(plogp_wrong) == len(timed_out) > 0,
        "PlogP ranks A first at every point (eq. 10), so it gets the ranking wrong at all "
        f"{len(plogp_wrong)} points where A timed out")
    closer = [k for k in timed_out
              if abs(pts[k]["a"]["plogp-br err"]) < abs(pts[k]["a"]["plogp err"])]
    ctx.check(
        timed_out and len(closer) == len(timed_out),
        "PlogP-BR tracks the RTO step that PlogP misses: where A timed out its error is "
        "smaller than PlogP's at every point (PlogP-BR "
        + ", ".join(f"{pts[k]['a']['plogp-br err']:+.0f} %" for k in timed_out)
        + "; PlogP " + ", ".join(f"{pts[k]['a']['plogp err']:+.0f} %" for k in timed_out)
        + ")")
    early = [h for h in z["hosts"]
             if onset[h]["rto"] is not None and onset[h]["threshold"] < onset[h]["rto"]]
    ctx.check(
        len(early) == len(z["hosts"]),
        "E_q's onset is before the packet onset: E_q = 1 from m > "
        + ", ".join(f"{onset[h]['threshold'] / 1024:.2f} KiB at {h} hosts (first timeout "
                    f"{kib(onset[h]['rto']) if onset[h]['rto'] else 'none'})"
                    for h in z["hosts"]))
    lossy = [k for k in keys if pts[k]["a"]["drops"] > 0]
    share = max((pts[k]["a"]["rto"] / pts[k]["a"]["drops"] for k in lossy), default=1.0)
    ctx.observe(
        lossy and share < 0.5,
        "most losses are repaired without waiting for the RTO (fast retransmit): at every "
        f"point with drops, timeouts are at most {100 * share:.0f} % of the drops")
    lockstep_drops = sum(pts[k][alg]["lockstep_drops"] for k in keys for alg in ALGORITHMS)
    ctx.check(
        lockstep_drops == 0,
        "without timing skew (no host jitter) no packet is dropped at any point, A or B: "
        "the XOR phases never meet at one port")
    several = [k for k in timed_out
               if pts[k]["a"]["packet"] > 2 * fit[k[0]][k[1]]["rto_ns"] * 1e3]
    ctx.observe(
        len(several) > 0,
        f"PlogP-BR's single T_RTO is not the whole penalty: at {len(several)} of the "
        f"{len(timed_out)} points where A timed out it took more than 2 T_RTO")
    ctx.check(
        all(b_ratio[h][0] > b_ratio[h][1] for h in z["hosts"]),
        f"timing skew slows B beyond both models at {kib(largest)} ("
        + ", ".join(f"{b_ratio[h][0]:.2f} x PlogP-BR with jitter, {b_ratio[h][1]:.2f} x "
                    f"without, {h} hosts" for h in z["hosts"]) + ")")
    ctx.check(
        all(piped[h]["packet"] / piped[h]["br"] < b_ratio[h][0] for h in z["hosts"]),
        f"pipelined rendezvous ({kib(FRAGMENT)} fragments) brings B at {kib(largest)} back "
        "towards PlogP-BR: "
        + ", ".join(f"{piped[h]['packet'] / piped[h]['br']:.2f} x its prediction instead of "
                    f"{b_ratio[h][0]:.2f} x, {h} hosts" for h in z["hosts"]))
    ctx.observe(
        all(piped[h]["packet"] / piped[h]["br"] < 1.15 for h in z["hosts"]),
        "with pipelined rendezvous B at the largest m is within 15 % of PlogP-BR")
    return common.Study("\n".join(md), MODELS)
