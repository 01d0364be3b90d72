"""Study 7: incast and the retransmission timeout. N senders push m bytes each through one
drop-tail switch port; the flow model (no packets, no buffers) predicts N x m / rate."""
from . import common

NAME = "incast-rto"
TITLE = "Incast and the retransmission timeout"
SCENARIO = common.scenario("studies/incast-rto.pbtxt")
# (label, settings): Linux's default, a 1 ms floor alone, and a 1 ms floor with a 1 ms initial
# RTO (the timer before the first RTT sample, 1 s by default as RFC 6298 says).
RTOS = (("200 ms", ["transport.tcp.min_rto_us=200000"]),
        ("1 ms", ["transport.tcp.min_rto_us=1000"]),
        ("1 ms, initial 1 ms", ["transport.tcp.min_rto_us=1000",
                                "transport.tcp.initial_rto_us=1000"]),
        ("1 ms, no handshake", ["transport.tcp.min_rto_us=1000",
                                "transport.tcp.handshake=false"]))


def sizes(ctx):
    if ctx.smoke:
        return dict(senders=[4, 16, 64], bytes=[65536, 262144], buffers=[32768, 262144],
                    buffer_point=(16, 262144))
    return dict(senders=[4, 8, 16, 32, 64], bytes=[16384, 65536, 262144, 1048576],
                buffers=[32768, 65536, 131072, 262144], buffer_point=(32, 262144))


def run(ctx):
    z = sizes(ctx)
    sweep_n = "workload.incast.senders=" + ",".join(map(str, z["senders"]))
    grid = {}  # (rto, m) -> report over N
    for k, (_, rto_sets) in enumerate(RTOS):
        for m in z["bytes"]:
            grid[k, m] = ctx.validate(SCENARIO, f"n-rto{k}-m{m}", sweep=sweep_n,
                                      sets=rto_sets + [f"workload.incast.bytes={m}"])
    n_q, m_q = z["buffer_point"]
    sweep_q = "switch.buffer_bytes=" + ",".join(map(str, z["buffers"]))
    by_buffer = {k: ctx.validate(
        SCENARIO, f"q-rto{k}", sweep=sweep_q,
        sets=rto_sets + [f"workload.incast.senders={n_q}", f"workload.incast.bytes={m_q}"])
        for k, (_, rto_sets) in enumerate(RTOS)}
    rtos = range(len(RTOS))

    md = ["## Setting\n",
          "One switch, 1 Gbit/s links with 5 us latency, a drop-tail output buffer per port "
          "(64 KiB unless swept), TCP NewReno (MSS 1460 B, initial window 10, no delayed ACKs). "
          f"N = {z['senders']} senders send m = {z['bytes']} bytes each to host0 at time 0. "
          "Every configuration runs four ways: the minimum RTO at 200 ms (Linux's default), "
          "at 1 ms, at 1 ms with the initial RTO (used before the first RTT sample, 1 s "
          "by default) also at 1 ms, and at 1 ms without the TCP handshake (whose SYN/SYN-ACK "
          "otherwise gives the first RTT sample). The flow model (MFS) shares the receiver's link evenly and ends at "
          "N x m / 1 Gbit/s: no packets, no buffer, no loss.\n",
          "Scenario: `scenarios/studies/incast-rto.pbtxt`.\n",
          "## Completion time (ms) against N\n"]
    for m in z["bytes"]:
        rows = []
        for i, n in enumerate(z["senders"]):
            row = [n, f"{grid[0, m]['results']['flow'][i]['predicted_ps'] / 1e9:.3f}"]
            for rto in rtos:
                p = grid[rto, m]["points"][i]
                row += [f"{p['simulated_ps'] / 1e9:.3f}", p["packets_dropped"],
                        p["retransmission_timeouts"]]
            rows.append(row)
        headers = ["N", "flow model"]
        for label, _ in RTOS:
            headers += [f"packet, RTO {label}", "drops", "timeouts"]
        md.append(f"### m = {m // 1024} KiB\n\n" + common.table(headers, rows))
    series = []
    for rto in rtos:
        for m in (z["bytes"][0], z["bytes"][-1]):
            series.append((f"packet m={m // 1024}KiB RTO {RTOS[rto][0]}",
                           [(n, p["simulated_ps"] / 1e9) for n, p in
                            zip(z["senders"], grid[rto, m]["points"])]))
    m = z["bytes"][-1]
    series.append((f"flow model m={m // 1024}KiB",
                   [(n, r["predicted_ps"] / 1e9) for n, r in
                    zip(z["senders"], grid[0, m]["results"]["flow"])]))
    md.append(common.plot(ctx, "completion", "Incast completion time", "senders N",
                          "completion (ms)", series, logx=True, logy=True))

    md.append(f"## Buffer size (N = {n_q}, m = {m_q // 1024} KiB)\n")
    rows = []
    for i, q in enumerate(z["buffers"]):
        row = [q // 1024]
        for rto in rtos:
            p = by_buffer[rto]["points"][i]
            row += [f"{p['simulated_ps'] / 1e9:.3f}", p["packets_dropped"],
                    p["retransmission_timeouts"]]
        rows.append(row)
    headers = ["buffer (KiB)"]
    for label, _ in RTOS:
        headers += [f"packet, RTO {label} (ms)", "drops", "timeouts"]
    md.append(common.table(headers, rows))

    # Findings, from the numbers above.
    def ms(k, m, i):
        return grid[k, m]["points"][i]["simulated_ps"] / 1e9

    lossless = [(k, m, i) for (k, m), rep in grid.items()
                for i, p in enumerate(rep["points"]) if p["retransmission_timeouts"] == 0]
    lossy = [(m, i) for (k, m), rep in grid.items() if k == 0
             for i, p in enumerate(rep["points"]) if p["retransmission_timeouts"] > 0]
    flow_err_clean = [grid[k, m]["results"]["flow"][i]["error_pct"] for k, m, i in lossless]
    flow_err_rto = [grid[0, m]["results"]["flow"][i]["error_pct"] for m, i in lossy]
    ctx.check(
        lossy and all(ms(0, m, i) >= 200 for m, i in lossy),
        "with the 200 ms minimum RTO, every run that times out takes at least 200 ms, "
        f"whatever N x m ({len(lossy)} such runs); the flow model misses this by "
        f"{min(flow_err_rto, default=0):+.0f} % to {max(flow_err_rto, default=0):+.0f} %")
    shortened = [(m, i) for m, i in lossy if ms(1, m, i) < 0.5 * ms(0, m, i)]
    ctx.check(
        lossy and len(shortened) == len(lossy),
        f"lowering only the minimum RTO to 1 ms at least halves every one of the {len(lossy)} "
        "runs that timed out: the SYN/SYN-ACK exchange gives every sender an RTT sample before "
        "its data, so no sender's timer is left at the initial RTO of 1 s")
    stuck = [(m, i) for (k, m), rep in grid.items() if k == 3
             for i, p in enumerate(rep["points"]) if ms(3, m, i) >= 1000]
    ctx.observe(
        len(stuck) > 0,
        f"without the handshake (data at once, no RTT sample), {len(stuck)} runs at 1 ms still "
        f"take 1 s or more (N = {sorted({z['senders'][i] for _, i in stuck})}): a sender that "
        "loses its whole initial window waits the initial RTO of 1 s, doubled on every retry")
    fixed = [(m, i) for m, i in lossy if ms(2, m, i) < 0.5 * ms(0, m, i)]
    ctx.check(
        len(fixed) == len(lossy),
        f"with the initial RTO at 1 ms as well, every one of the {len(lossy)} runs is at least "
        "halved (the longest now "
        f"{max((ms(2, m, i) for m, i in lossy), default=0):.1f} ms)")
    if flow_err_clean:
        ctx.check(
            max(abs(e) for e in flow_err_clean) < 50,
            "without a timeout the flow model is within "
            f"{max(abs(e) for e in flow_err_clean):.0f} % of the packet time (it ignores "
            "headers, slow start and fast-retransmit recovery)")
    drops = [[by_buffer[rto]["points"][i]["packets_dropped"] for i in range(len(z["buffers"]))]
             for rto in rtos]
    ctx.check(
        drops[0][0] > drops[0][-1],
        f"a larger buffer drops fewer packets (N = {n_q}: {drops[0][0]} drops at "
        f"{z['buffers'][0] // 1024} KiB, {drops[0][-1]} at {z['buffers'][-1] // 1024} KiB)")
    return common.Study("\n".join(md), ["flow"])
