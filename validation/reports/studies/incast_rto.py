"""Study 7: incast and the retransmission timeout. N senders push m bytes each through one
drop-tail switch port; the flow model (no packets, no buffers) predicts N x m / rate."""
from . import common

NAME = "incast-rto"
TITLE = "Incast and the retransmission timeout"
SCENARIO = common.scenario("studies/incast-rto.pbtxt")
MODELS = ["flow"]

# --- the grid ------------------------------------------------------------------------------
# (label, settings): Linux's default, a 1 ms floor alone, a 1 ms floor with a 1 ms initial
# RTO (the timer before the first RTT sample, 1 s by default as RFC 6298 says), and a 1 ms
# floor without the handshake. Findings refer to them by index: 0 .. 3.
RTOS = (("200 ms", ["transport.tcp.min_rto_us=200000"]),
        ("1 ms", ["transport.tcp.min_rto_us=1000"]),
        ("1 ms, initial 1 ms", ["transport.tcp.min_rto_us=1000",
                                "transport.tcp.initial_rto_us=1000"]),
        ("1 ms, no handshake", ["transport.tcp.min_rto_us=1000",
                                "transport.tcp.handshake=false"]))
DEFAULT_RTO, MIN_RTO_1MS, INITIAL_RTO_1MS, NO_HANDSHAKE = range(len(RTOS))
# Senders N and bytes m swept at every RTO; the buffer swept at one (N, m).
SMOKE = dict(senders=[4, 16, 64], bytes=[65536, 262144], buffers=[32768, 262144],
             buffer_point=(16, 262144))
FULL = dict(senders=[4, 8, 16, 32, 64], bytes=[16384, 65536, 262144, 1048576],
            buffers=[32768, 65536, 131072, 262144], buffer_point=(32, 262144))
FLOW_TOLERANCE_PCT = 50  # the flow model's error allowed on runs without a timeout


# --- the findings --------------------------------------------------------------------------
def timeout_floor(r):
    took = [r.ms[DEFAULT_RTO, m, i] for m, i in r.lossy]
    return (r.lossy and min(took) >= 200,
            f"{len(r.lossy)} runs timed out with the 200 ms minimum RTO; the shortest took "
            f"{min(took, default=0):.1f} ms; the flow model misses them by "
            f"{min(r.flow_err_rto, default=0):+.0f} % to {max(r.flow_err_rto, default=0):+.0f} %")


def halved_by(k):
    def decide(r):
        fixed = [(m, i) for m, i in r.lossy if r.ms[k, m, i] < 0.5 * r.ms[DEFAULT_RTO, m, i]]
        longest = max((r.ms[k, m, i] for m, i in r.lossy), default=0)
        return (r.lossy and len(fixed) == len(r.lossy),
                f"{len(fixed)} of the {len(r.lossy)} runs that timed out at 200 ms are at "
                f"least halved (the longest now {longest:.1f} ms)")
    return decide


def stuck_without_handshake(r):
    stuck = [(m, i) for m, i in r.keys if r.ms[NO_HANDSHAKE, m, i] >= 1000]
    return (len(stuck) > 0,
            f"{len(stuck)} runs take 1 s or more (N = "
            f"{sorted({r.senders[i] for _, i in stuck})})")


def flow_without_timeout(r):
    worst = max((abs(e) for e in r.flow_err_clean), default=None)
    if worst is None:
        return False, "no run was free of timeouts"
    return (worst < FLOW_TOLERANCE_PCT,
            f"within {worst:.0f} % over the {len(r.flow_err_clean)} runs without a timeout")


def buffer_drops(r):
    drops = r.buffer_drops
    return (drops[0] > drops[-1],
            f"N = {r.buffer_point[0]}, 200 ms RTO: {drops[0]} drops at "
            f"{r.buffers[0] // 1024} KiB, {drops[-1]} at {r.buffers[-1] // 1024} KiB")


FINDINGS = [
    common.Finding(
        "timeout floor", "with the 200 ms minimum RTO, every run that times out takes at "
        "least 200 ms, whatever N x m", timeout_floor,
        why="the flow model has no packets, no buffer and no loss, so it cannot see this"),
    common.Finding(
        "1 ms minimum RTO", "lowering only the minimum RTO to 1 ms at least halves every run "
        "that timed out at 200 ms", halved_by(MIN_RTO_1MS),
        why="the SYN/SYN-ACK exchange gives every sender an RTT sample before its data, so no "
            "sender's timer is left at the initial RTO of 1 s"),
    common.Finding(
        "1 ms initial RTO", "with the initial RTO at 1 ms as well, every run that timed out at "
        "200 ms is at least halved", halved_by(INITIAL_RTO_1MS)),
    common.Finding(
        "initial RTO without handshake", "without the handshake (data at once, no RTT "
        "sample), some runs with the 1 ms minimum RTO still take 1 s or more",
        stuck_without_handshake,
        why="a sender that loses its whole initial window waits the initial RTO of 1 s, "
            "doubled on every retry"),
    common.Finding(
        "flow model without timeouts", "on runs without a timeout the flow model is within "
        f"{FLOW_TOLERANCE_PCT} % of the packet time", flow_without_timeout,
        why="it ignores headers, slow start and fast-retransmit recovery"),
    common.Finding(
        "buffer and drops", "a larger switch buffer drops fewer packets (smallest against "
        "largest buffer swept)", buffer_drops),
]
CI_FINDING = "timeout floor"
CI_WHY = ("every run that times out at the 200 ms minimum RTO takes at least 200 ms, at the "
          "smoke size and at full size; it is the study's main point and follows from the "
          "timer, not from which sender happens to lose a packet.")

SETTING = """## Setting

One switch, 1 Gbit/s links with 5 us latency, a drop-tail output buffer per port (64 KiB \
unless swept), TCP NewReno (MSS 1460 B, initial window 10, no delayed ACKs). N = {senders} \
senders send m = {bytes} bytes each to host0 at time 0. Every configuration runs four ways: \
the minimum RTO at 200 ms (Linux's default), at 1 ms, at 1 ms with the initial RTO (used \
before the first RTT sample, 1 s by default) also at 1 ms, and at 1 ms without the TCP \
handshake (whose SYN/SYN-ACK otherwise gives the first RTT sample). The flow model (MFS) \
shares the receiver's link evenly and ends at N x m / 1 Gbit/s: no packets, no buffer, no \
loss.

Scenario: `scenarios/studies/incast-rto.pbtxt`.
"""


# --- running the grid ----------------------------------------------------------------------
def run_grid(ctx, z):
    """({(rto, m): report over N}, {rto: report over the buffer})."""
    sweep_n = "workload.incast.senders=" + ",".join(map(str, z["senders"]))
    grid = {}
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
    return grid, by_buffer


def measure(z, grid, by_buffer):
    """The numbers the findings are decided on."""
    ms = {(k, m, i): p["simulated_ps"] / 1e9 for (k, m), rep in grid.items()
          for i, p in enumerate(rep["points"])}
    lossless = [(k, m, i) for (k, m), rep in grid.items()
                for i, p in enumerate(rep["points"]) if p["retransmission_timeouts"] == 0]
    lossy = [(m, i) for (k, m), rep in grid.items() if k == DEFAULT_RTO
             for i, p in enumerate(rep["points"]) if p["retransmission_timeouts"] > 0]
    flow = {(k, m, i): row["error_pct"] for (k, m), rep in grid.items()
            for i, row in enumerate(rep["results"]["flow"])}
    return common.results(
        ms=ms, lossy=lossy, senders=z["senders"], buffers=z["buffers"],
        keys=[(m, i) for m in z["bytes"] for i in range(len(z["senders"]))],
        flow_err_clean=[flow[k] for k in lossless],
        flow_err_rto=[flow[DEFAULT_RTO, m, i] for m, i in lossy],
        buffer_point=z["buffer_point"],
        buffer_drops=[p["packets_dropped"] for p in by_buffer[DEFAULT_RTO]["points"]])


# --- tables and plots ----------------------------------------------------------------------
def run_cells(point):
    return [f"{point['simulated_ps'] / 1e9:.3f}", point["packets_dropped"],
            point["retransmission_timeouts"]]


def completion_tables(z, grid):
    md = ["## Completion time (ms) against N\n"]
    headers = ["N", "flow model"]
    for label, _ in RTOS:
        headers += [f"packet, RTO {label}", "drops", "timeouts"]
    for m in z["bytes"]:
        rows = []
        for i, n in enumerate(z["senders"]):
            row = [n, f"{grid[DEFAULT_RTO, m]['results']['flow'][i]['predicted_ps'] / 1e9:.3f}"]
            for rto in range(len(RTOS)):
                row += run_cells(grid[rto, m]["points"][i])
            rows.append(row)
        md.append(f"### m = {m // 1024} KiB\n\n" + common.table(headers, rows))
    return md


def completion_plot(ctx, z, grid):
    series = []
    for rto in range(len(RTOS)):
        for m in (z["bytes"][0], z["bytes"][-1]):
            series.append((f"packet m={m // 1024}KiB RTO {RTOS[rto][0]}",
                           [(n, p["simulated_ps"] / 1e9) for n, p in
                            zip(z["senders"], grid[rto, m]["points"])]))
    m = z["bytes"][-1]
    series.append((f"flow model m={m // 1024}KiB",
                   [(n, r["predicted_ps"] / 1e9) for n, r in
                    zip(z["senders"], grid[DEFAULT_RTO, m]["results"]["flow"])]))
    return common.plot(ctx, "completion", "Incast completion time", "senders N",
                       "completion (ms)", series, logx=True, logy=True)


def buffer_table(z, by_buffer):
    n_q, m_q = z["buffer_point"]
    rows = []
    for i, q in enumerate(z["buffers"]):
        rows.append([q // 1024] + [c for rto in range(len(RTOS))
                                   for c in run_cells(by_buffer[rto]["points"][i])])
    headers = ["buffer (KiB)"]
    for label, _ in RTOS:
        headers += [f"packet, RTO {label} (ms)", "drops", "timeouts"]
    return [f"## Buffer size (N = {n_q}, m = {m_q // 1024} KiB)\n", common.table(headers, rows)]


def run(ctx):
    z = SMOKE if ctx.smoke else FULL
    grid, by_buffer = run_grid(ctx, z)
    md = [SETTING.format(senders=z["senders"], bytes=z["bytes"])]
    md += completion_tables(z, grid)
    md.append(completion_plot(ctx, z, grid))
    md += buffer_table(z, by_buffer)
    return common.Study("\n".join(md), MODELS, measure(z, grid, by_buffer))
