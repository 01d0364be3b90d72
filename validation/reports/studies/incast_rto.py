"""Study 7: incast and the retransmission timeout. N senders push m bytes each through one
drop-tail switch port; the flow model (no packets, no buffers) predicts N x m / rate."""
from . import common

NAME = "incast-rto"
TITLE = "Incast and the retransmission timeout"
SCENARIO = common.scenario("studies/incast-rto.pbtxt")
RTOS_US = (200000, 1000)


def sizes(ctx):
    if ctx.smoke:
        return dict(senders=[4, 16, 32], bytes=[65536, 262144], buffers=[32768, 262144],
                    buffer_point=(16, 262144))
    return dict(senders=[4, 8, 16, 32, 64], bytes=[16384, 65536, 262144, 1048576],
                buffers=[32768, 65536, 131072, 262144], buffer_point=(32, 262144))


def rto_label(us):
    return f"{us // 1000} ms"


def run(ctx):
    z = sizes(ctx)
    sweep_n = "workload.incast.senders=" + ",".join(map(str, z["senders"]))
    grid = {}  # (rto, m) -> report over N
    for rto in RTOS_US:
        for m in z["bytes"]:
            grid[rto, m] = ctx.validate(
                SCENARIO, f"n-rto{rto}-m{m}", sweep=sweep_n,
                sets=[f"transport.tcp.min_rto_us={rto}", f"workload.incast.bytes={m}"])
    n_q, m_q = z["buffer_point"]
    sweep_q = "switch.buffer_bytes=" + ",".join(map(str, z["buffers"]))
    by_buffer = {rto: ctx.validate(
        SCENARIO, f"q-rto{rto}", sweep=sweep_q,
        sets=[f"transport.tcp.min_rto_us={rto}", f"workload.incast.senders={n_q}",
              f"workload.incast.bytes={m_q}"]) for rto in RTOS_US}

    md = ["## Setting\n",
          "One switch, 1 Gbit/s links with 5 us latency, a drop-tail output buffer per port "
          "(64 KiB unless swept), TCP NewReno (MSS 1460 B, initial window 10, no delayed ACKs). "
          f"N = {z['senders']} senders send m = {z['bytes']} bytes each to host0 at time 0. "
          "Every configuration runs with the minimum RTO at 200 ms (Linux's default) and at "
          "1 ms. The flow model (MFS) shares the receiver's link evenly and ends at "
          "N x m / 1 Gbit/s: no packets, no buffer, no loss.\n",
          "Scenario: `scenarios/studies/incast-rto.pbtxt`.\n",
          "## Completion time (ms) against N\n"]
    for m in z["bytes"]:
        rows = []
        for i, n in enumerate(z["senders"]):
            row = [n, f"{grid[RTOS_US[0], m]['results']['flow'][i]['predicted_ps'] / 1e9:.3f}"]
            for rto in RTOS_US:
                p = grid[rto, m]["points"][i]
                row += [f"{p['simulated_ps'] / 1e9:.3f}", p["packets_dropped"],
                        p["retransmission_timeouts"]]
            rows.append(row)
        headers = ["N", "flow model"]
        for rto in RTOS_US:
            headers += [f"packet, RTO {rto_label(rto)}", "drops", "timeouts"]
        md.append(f"### m = {m // 1024} KiB\n\n" + common.table(headers, rows))
    series = []
    for rto in RTOS_US:
        for m in (z["bytes"][0], z["bytes"][-1]):
            series.append((f"packet m={m // 1024}KiB RTO {rto_label(rto)}",
                           [(n, p["simulated_ps"] / 1e9) for n, p in
                            zip(z["senders"], grid[rto, m]["points"])]))
    m = z["bytes"][-1]
    series.append((f"flow model m={m // 1024}KiB",
                   [(n, r["predicted_ps"] / 1e9) for n, r in
                    zip(z["senders"], grid[RTOS_US[0], m]["results"]["flow"])]))
    md.append(common.plot(ctx, "completion", "Incast completion time", "senders N",
                          "completion (ms)", series, logx=True, logy=True))

    md.append(f"## Buffer size (N = {n_q}, m = {m_q // 1024} KiB)\n")
    rows = []
    for i, q in enumerate(z["buffers"]):
        row = [q // 1024]
        for rto in RTOS_US:
            p = by_buffer[rto]["points"][i]
            row += [f"{p['simulated_ps'] / 1e9:.3f}", p["packets_dropped"],
                    p["retransmission_timeouts"]]
        rows.append(row)
    headers = ["buffer (KiB)"]
    for rto in RTOS_US:
        headers += [f"packet, RTO {rto_label(rto)} (ms)", "drops", "timeouts"]
    md.append(common.table(headers, rows))

    # Findings, from the numbers above.
    slow, fast = RTOS_US
    lossless = [(rto, m, i) for (rto, m), rep in grid.items()
                for i, p in enumerate(rep["points"]) if p["retransmission_timeouts"] == 0]
    lossy = [(m, i) for (rto, m), rep in grid.items() if rto == slow
             for i, p in enumerate(rep["points"]) if p["retransmission_timeouts"] > 0]
    flow_err_clean = [grid[rto, m]["results"]["flow"][i]["error_pct"] for rto, m, i in lossless]
    flow_err_rto = [grid[slow, m]["results"]["flow"][i]["error_pct"] for m, i in lossy]
    ctx.check(
        lossy and all(grid[slow, m]["points"][i]["simulated_ps"] >= 200e9 for m, i in lossy),
        "with the 200 ms minimum RTO, every run that times out takes at least 200 ms, "
        f"whatever N x m ({len(lossy)} such runs); the flow model misses this by "
        f"{min(flow_err_rto, default=0):+.0f} % to {max(flow_err_rto, default=0):+.0f} %")
    better = [(m, i) for m, i in lossy
              if grid[fast, m]["points"][i]["simulated_ps"]
              < grid[slow, m]["points"][i]["simulated_ps"]]
    ctx.check(
        len(better) == len(lossy),
        f"a 1 ms minimum RTO shortens every run that timed out at 200 ms ({len(better)} of "
        f"{len(lossy)})")
    if flow_err_clean:
        ctx.check(
            max(abs(e) for e in flow_err_clean) < 50,
            "without a timeout the flow model is within "
            f"{max(abs(e) for e in flow_err_clean):.0f} % of the packet time (it ignores "
            "headers, slow start and fast-retransmit recovery)")
    drops = [[by_buffer[rto]["points"][i]["packets_dropped"] for i in range(len(z["buffers"]))]
             for rto in RTOS_US]
    ctx.check(
        all(d[0] > d[-1] for d in drops),
        f"a larger buffer drops fewer packets (N = {n_q}: {drops[0][0]} drops at "
        f"{z['buffers'][0] // 1024} KiB, {drops[0][-1]} at {z['buffers'][-1] // 1024} KiB)")
    return common.Study("\n".join(md), ["flow"])
