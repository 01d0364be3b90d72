#!/usr/bin/env python3
"""End-to-end tests of netwarp-ns3, the ns-3 cross-check: a single flow over an idle two-host
star completes at the picosecond worked out by hand (handshake, PPP framing, store and forward,
ns-3's one-time-step delay of data handed to an established socket), a sender's messages
marked after_previous start when its previous one is acknowledged, every port of a tree, a fat
tree and a torus carries exactly the packets netwarp's carries, handshakes included (same
static routes), an incast small enough to
overflow the bottleneck reports drops and retransmissions that agree with each other, pcap
files are written per port, and bad input gets a one-line error with exit status 2.

Skipped (exit status 77, ctest SKIP_RETURN_CODE) when netwarp-ns3 was not built, i.e. where
libns3-dev is not installed.

Every time below is in picoseconds. ns-3 runs at picosecond resolution; a transmission time is
bits / rate rounded to the nearest picosecond (DataRate::CalculateBytesTxTime), exact for the
1 Gbit/s links used here (8000 ps per byte)."""
import json
import os
import shutil
import struct
import subprocess
import sys
import unittest

import netwarp_cli

RATE = 10**9
PS_PER_BYTE = 8 * 10**12 // RATE
LATENCY = 5_000_000
MSS = 1460
IP_TCP = 40     # IPv4 + TCP headers, no options (timestamps off)
SYN_IP = 44     # SYN and SYN-ACK carry the window-scale option: 3 B, padded to 4
SACK_SYN_IP = 48  # with SACK also SACK permitted: 3 + 2 B, padded to 8
SACK_PRR = ["--set", "transport.tcp.sack=true", "--set", "transport.tcp.recovery=PRR"]
CUBIC = ["--set", "transport.tcp.congestion_control=CUBIC"]
DCTCP = ["--set", "transport.tcp.congestion_control=DCTCP",
         "--set", "switch.ecn_threshold_bytes=20000"]
PPP = 2         # ns-3's point-to-point header, on the wire and in the device queue
LINKTYPE_PPP = 9

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBRARY = os.path.join(ROOT, "scenarios")

run = netwarp_cli.run
NETWARP = None  # the packet simulator, for `netwarp validate --models ns3`


def tx(frame_bytes):
    return frame_bytes * PS_PER_BYTE


def data_frames(message_bytes):
    full, rest = divmod(message_bytes, MSS)
    return [MSS + IP_TCP + PPP] * full + ([rest + IP_TCP + PPP] if rest else [])


def store_and_forward(frames, first_leaves, hops=2):
    """When each frame has fully arrived after `hops` links of equal rate, sent back to back
    from `first_leaves`: at each hop a frame leaves at max(arrival, port free)."""
    times = []
    t = first_leaves
    for f in frames:
        times.append(t + tx(f))
        t += tx(f)
    for _ in range(hops - 1):
        free = 0
        out = []
        for f, arrived in zip(frames, times):
            start = max(arrived + LATENCY, free)
            free = start + tx(f)
            out.append(free)
        times = out
    return [t + LATENCY for t in times]


def star_scenario(message_bytes, start_ns):
    return f"""
name: "single"
topology {{ star {{ hosts: 2 }} }}
links {{ rate_bps: {RATE} latency_ns: {LATENCY // 1000} mtu_bytes: 1500 header_bytes: 40 }}
transport {{ kind: TCP tcp {{ mss_bytes: {MSS} initial_window_segments: 10 }} }}
workload {{ flows {{ flow {{ src: 0 dst: 1 bytes: {message_bytes} start_ns: {start_ns} }} }} }}
"""


class Ns3Case(netwarp_cli.ScratchCase):
    def ns3(self, args, expect=0, name="out.json"):
        out = os.path.join(self.dir, name)
        r = run([*args, "--out", out])
        self.assertEqual(r.returncode, expect, r.stderr)
        with open(out) as f:
            return json.load(f), r

    def assert_one_line_error(self, r, expected_part):
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith("netwarp-ns3: error: "), lines[0])
        self.assertIn(expected_part, lines[0])


class SingleFlow(Ns3Case):
    BYTES = 10_000  # 6 full segments and one of 1240 B: all inside the initial window

    # SYN out and SYN-ACK back, each 46 B over two hops.
    HANDSHAKE = 4 * (tx(SYN_IP + PPP) + LATENCY)
    ACK = IP_TCP + PPP

    def ack_back(self, delivered):
        return delivered + 2 * (tx(self.ACK) + LATENCY)

    def test_data_waiting_for_the_handshake_follows_its_ack(self):
        # Handed over in SYN_SENT, the data leaves right after the handshake's ACK.
        j, _ = self.ns3([self.write("s.pbtxt", star_scenario(self.BYTES, 0))])
        f = j["flows"][0]
        arrivals = store_and_forward([self.ACK] + data_frames(self.BYTES), self.HANDSHAKE)
        self.assertEqual(f["start_ps"], 0)
        self.assertEqual(f["delivered_ps"], arrivals[-1])
        self.assertEqual(f["completed_ps"], self.ack_back(arrivals[-1]))
        self.assertEqual(j["completion_time_ps"], arrivals[-1])
        self.assertEqual(f["segments_sent"], 7)
        self.assertEqual(j["packets_dropped"], 0)

    def test_data_handed_to_an_established_connection_leaves_one_time_step_later(self):
        # TcpSocketBase::Send schedules the sending TimeStep(1) = 1 ps after the call.
        start = 100_000_000
        j, _ = self.ns3([self.write("s.pbtxt", star_scenario(self.BYTES, start // 1000))])
        f = j["flows"][0]
        arrivals = store_and_forward(data_frames(self.BYTES), start + 1)
        self.assertEqual(f["start_ps"], start)
        self.assertEqual(f["delivered_ps"], arrivals[-1])
        self.assertEqual(f["completed_ps"], self.ack_back(arrivals[-1]))

    def test_with_sack_the_handshake_carries_sack_permitted_as_in_emulate_ns3(self):
        # SYN and SYN-ACK are 50 B frames; netwarp's emulate: NS3 gives them the same 8 option
        # bytes (syn_option_bytes), so both simulators deliver at the same picosecond.
        s = self.write("s.pbtxt", star_scenario(self.BYTES, 0))
        j, _ = self.ns3([s, *SACK_PRR])
        self.assertEqual(j["tcp"], "TcpNewReno, Sack on, TcpPrrRecovery (SSRB)")
        f = j["flows"][0]
        handshake = 4 * (tx(SACK_SYN_IP + PPP) + LATENCY)
        arrivals = store_and_forward([self.ACK] + data_frames(self.BYTES), handshake)
        self.assertEqual(f["delivered_ps"], arrivals[-1])
        self.assertEqual(f["completed_ps"], self.ack_back(arrivals[-1]))
        out = os.path.join(self.dir, "nw")
        r = subprocess.run([NETWARP, "run", s, *SACK_PRR, "--set", "emulate=NS3", "--out", out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "results.json")) as fh:
            nw = json.load(fh)["flows"][0]
        self.assertEqual((nw["delivered_ps"], nw["completed_ps"]),
                         (f["delivered_ps"], f["completed_ps"]))

    def test_pcap_has_one_ppp_file_per_port(self):
        pcap = os.path.join(self.dir, "pcap")
        j, _ = self.ns3([self.write("s.pbtxt", star_scenario(self.BYTES, 0)), "--pcap", pcap])
        self.assertEqual(j["pcap_dir"], pcap)
        names = sorted(os.listdir(pcap))
        self.assertEqual(names, ["host0-p0.pcap", "host1-p0.pcap", "sw0-p0.pcap", "sw0-p1.pcap"])
        with open(os.path.join(pcap, "host0-p0.pcap"), "rb") as f:
            header = f.read(24)
        magic, linktype = struct.unpack("<I", header[:4])[0], struct.unpack("<I", header[20:])[0]
        self.assertIn(magic, (0xA1B2C3D4, 0xA1B23C4D))
        self.assertEqual(linktype, LINKTYPE_PPP)


class AfterPrevious(Ns3Case):
    def test_next_message_starts_when_the_previous_is_acknowledged(self):
        s = self.write("a.pbtxt", f"""
name: "a2a"
topology {{ star {{ hosts: 3 }} }}
links {{ rate_bps: {RATE} latency_ns: 1000 }}
transport {{ kind: TCP }}
workload {{ all_to_all {{ bytes: 20000 }} }}
""")
        j, _ = self.ns3([s])
        by_src = {}
        for f in j["flows"]:
            by_src.setdefault(f["src"], []).append(f)
        for flows in by_src.values():
            self.assertEqual(len(flows), 2)
            self.assertEqual(flows[0]["start_ps"], 0)
            self.assertEqual(flows[1]["start_ps"], flows[0]["completed_ps"])
            self.assertGreater(flows[1]["completed_ps"], flows[1]["start_ps"])


class IncastDrops(Ns3Case):
    SENDERS = 8

    def test_drops_at_the_bottleneck_agree_with_retransmissions(self):
        s = self.write("incast.pbtxt", f"""
name: "incast-small"
topology {{ star {{ hosts: {self.SENDERS + 1} }} }}
links {{ rate_bps: {RATE} latency_ns: 5000 }}
switch {{ buffer_bytes: 16384 }}
transport {{ kind: TCP tcp {{ min_rto_us: 10000 }} }}
workload {{ incast {{ senders: {self.SENDERS} receiver: 0 bytes: 131072 }} }}
""")
        j, _ = self.ns3([s])
        self.assertEqual(j["messages_delivered"], self.SENDERS)
        drops = {(p["node"], p["peer"]): p["packets_dropped"] for p in j["ports"]}
        bottleneck = drops.pop(("sw0", "host0"))
        self.assertGreater(bottleneck, 0)
        self.assertEqual(sum(drops.values()), 0, drops)
        self.assertEqual(j["packets_dropped"], bottleneck)
        # Every dropped data segment is sent again; go-back-N after a timeout may resend more.
        self.assertGreaterEqual(j["retransmitted_segments"], j["packets_dropped"])
        self.assertGreater(j["fast_retransmits"] + j["retransmission_timeouts"], 0)
        flows = j["flows"]
        for key in ("retransmitted_segments", "fast_retransmits", "retransmission_timeouts"):
            self.assertEqual(sum(f[key] for f in flows), j[key], key)
        self.assertEqual(j["completion_time_ps"], max(f["delivered_ps"] for f in flows))
        for f in flows:
            self.assertGreater(f["completed_ps"], f["delivered_ps"])
            if f["retransmitted_segments"] > 0:
                self.assertGreater(f["fast_retransmits"] + f["retransmission_timeouts"], 0, f)


class EmulateNs3(Ns3Case):
    """netwarp with emulate: NS3 against ns-3 on small incasts of the library scenario: the same
    drops at every port and the same RTOs and retransmissions, completion within 0.01 % (ns-3
    rounds transmission times to the nearest ps where netwarp rounds up, and delays data handed
    to an open socket by one time step)."""

    def compare(self, senders, message_bytes, buffer_bytes, extra=()):
        sets = ["--set", f"topology.star.hosts={senders + 1}",
                "--set", f"workload.incast.senders={senders}",
                "--set", f"workload.incast.bytes={message_bytes}",
                "--set", f"switch.buffer_bytes={buffer_bytes}", *extra]
        scenario = os.path.join(LIBRARY, "incast.pbtxt")
        ns3, _ = self.ns3([scenario, *sets])
        out = os.path.join(self.dir, f"netwarp-{senders}-{message_bytes}-{buffer_bytes}")
        r = subprocess.run([NETWARP, "run", scenario, *sets, "--set", "emulate=NS3", "--out", out],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            nw = json.load(f)
        for key in ("packets_dropped", "retransmission_timeouts", "retransmitted_segments",
                    "messages_delivered"):
            self.assertEqual(nw[key], ns3[key], key)
        drops = lambda j: {(p["node"], p["peer"]): p["packets_dropped"] for p in j["ports"]}
        self.assertEqual({k: v for k, v in drops(nw).items() if v},
                         {k: v for k, v in drops(ns3).items() if v})
        self.assertAlmostEqual(nw["completion_time_ps"] / ns3["completion_time_ps"], 1.0, delta=1e-4)

    def test_four_senders_without_loss(self):
        self.compare(4, 65536, 262144)

    def test_four_senders_with_drops_and_fast_retransmits(self):
        self.compare(4, 65536, 65536)

    def test_small_buffer_with_timeouts(self):
        self.compare(4, 16384, 32768)

    def test_fast_recoveries_and_timeouts_of_ns3s_reno_scoreboard(self):
        # ns-3's recovery without SACK (recovery NS3_CLASSIC) decides the RTOs here.
        self.compare(4, 262144, 32768)

    def test_sixteen_senders_with_repeated_timeouts(self):
        self.compare(16, 65536, 32768)

    def test_simultaneous_arrivals_after_waiting_on_busy_nics(self):
        # Packets of two senders meet the full port in the same picosecond; ns-3 takes first
        # the one whose NIC has been busy longer (engine.tie_order FIFO_CREATOR, busy periods).
        self.compare(8, 262144, 32768)

    def test_sack_and_prr_with_timeouts(self):
        # ns-3 with SACK and TcpPrrRecovery; emulate: NS3 sets ssthresh from the pipe.
        self.compare(4, 16384, 32768, SACK_PRR)

    def test_sack_and_prr_with_repeated_timeouts(self):
        self.compare(8, 16384, 65536, SACK_PRR)

    def test_sack_and_prr_repair_many_holes_as_ns3_does(self):
        # Some 45 holes per window: ns-3 retransmits at once on partial ACKs and beyond the
        # highest SACK (sack_reading SACK_NS3); RFC 6675 as written ends one flow in a timeout.
        self.compare(4, 262144, 262144, SACK_PRR)

    def test_cubic_with_fast_recoveries_and_timeouts(self):
        # ns-3's TcpCubic (HyStart off); emulate: NS3 selects cubic_reading CUBIC_NS3.
        self.compare(8, 65536, 65536, CUBIC)

    def test_cubic_with_repeated_timeouts(self):
        self.compare(16, 65536, 32768, CUBIC)

    def test_dctcp_marked_by_red_without_loss(self):
        # ns-3's TcpDctcp and its RedQueueDisc step marker at K = 20 000 B; emulate: NS3 selects
        # dctcp_reading DCTCP_NS3 and switch.mark_reading MARK_NS3_RED.
        self.compare(8, 65536, 262144, DCTCP)

    def test_dctcp_with_drops_past_the_marks(self):
        self.compare(16, 65536, 32768, DCTCP)

    def test_sixty_four_senders_started_one_syn_ack_apart(self):
        # The senders start one 46-byte SYN-ACK apart (syn_option_bytes 4).
        self.compare(64, 16384, 262144)


class Notes(Ns3Case):
    def test_readings_ns3_follows_instead_are_named_in_the_report(self):
        s = self.write("s.pbtxt", star_scenario(10_000, 0))
        j, r = self.ns3([s, "--verbose"])
        noted = [n.split(":")[0] for n in j["notes"]]
        for field in ("engine.tie_order", "links.frame_overhead_bytes", "transport.tcp.recovery",
                      "switch.same_instant"):
            self.assertIn(field, noted)
        self.assertIn("netwarp-ns3: note: engine.tie_order: netwarp-ns3 runs its own reading, "
                      "not FIFO:", r.stderr)
        j, r = self.ns3([s, "--set", "emulate=NS3"], name="ns3.json")
        self.assertEqual(j["notes"], [])
        self.assertEqual(r.stderr, "")

    def test_dctcp_runs_as_tcpdctcp_and_native_readings_are_noted(self):
        s = self.write("s.pbtxt", star_scenario(10_000, 0))
        j, _ = self.ns3([s, *DCTCP, "--set", "transport.tcp.dctcp_initial_alpha=0.5"])
        self.assertEqual(j["tcp"], "TcpDctcp (DctcpShiftG 0.0625, DctcpAlphaOnInit 0.5), Sack off, "
                         "TcpClassicRecovery")
        noted = [n.split(":")[0] for n in j["notes"]]
        self.assertIn("transport.tcp.dctcp_reading", noted)
        self.assertIn("switch.mark_reading", noted)
        j, _ = self.ns3([s, *DCTCP, "--set", "emulate=NS3"], name="ns3.json")
        self.assertEqual(j["notes"], [])

    def test_cubic_runs_as_tcpcubic_and_rfc_9438_is_noted(self):
        s = self.write("s.pbtxt", star_scenario(10_000, 0))
        j, _ = self.ns3([s, *CUBIC, "--set", "transport.tcp.cubic_beta=0.5"])
        self.assertEqual(j["tcp"], "TcpCubic (C 0.4, Beta 0.5, HyStart off), Sack off, "
                         "TcpClassicRecovery")
        self.assertIn("transport.tcp.cubic_reading", [n.split(":")[0] for n in j["notes"]])
        j, _ = self.ns3([s, *CUBIC, "--set", "emulate=NS3"], name="ns3.json")
        self.assertEqual(j["notes"], [])

    def test_ns3s_own_sack_readings_are_noted_unless_emulate_ns3_selects_them(self):
        s = self.write("s.pbtxt", star_scenario(10_000, 0))
        j, _ = self.ns3([s, *SACK_PRR])
        noted = [n.split(":")[0] for n in j["notes"]]
        self.assertIn("transport.tcp.sack_reading", noted)
        self.assertIn("transport.tcp.sack_option_bytes", noted)
        j, _ = self.ns3([s, *SACK_PRR, "--set", "emulate=NS3"], name="ns3.json")
        self.assertEqual(j["notes"], [])

    def test_ecn_marking_ns3_would_not_do_is_refused(self):
        s = self.write("s.pbtxt", star_scenario(10_000, 0))
        r = run([s, "--set", "switch.ecn_threshold_bytes=30000", "--set",
                 "switch.mark_at=DEQUEUE", "--out", os.path.join(self.dir, "x.json")])
        self.assert_one_line_error(r, "switch.mark_at: netwarp-ns3 cannot mirror DEQUEUE: "
                                   "ns-3's RedQueueDisc marks on arrival")


class EndTime(Ns3Case):
    def test_end_time_stops_ns3_and_unfinished_messages_exit_4(self):
        s = self.write("s.pbtxt", "end_time_ns: 50000\n" + star_scenario(1_000_000, 0))
        j, r = self.ns3([s], expect=4)
        self.assertEqual(j["messages_delivered"], 0)
        self.assertEqual(j["flows"][0]["completed_ps"], -1)
        self.assertIn("0/1 messages", r.stdout)


class SamePathsAsNetwarp(Ns3Case):
    """Without losses every port carries, per flow whose data crosses it (a) or whose ACKs do
    (b), the same segments in both simulators, plus in ns-3 the handshake: SYN and ACK forward,
    SYN-ACK back. (a, b) per port come from netwarp's packet and byte counts; ns-3's counts must
    follow from them, which holds only if every flow takes the same ports."""
    BYTES = 100_000
    NETWARP_FRAME = 40 + 38  # header_bytes + frame_overhead_bytes (defaults)

    def check_topology(self, topology):
        s = self.write("t.pbtxt", f"""
name: "paths"
topology {{ {topology} }}
links {{ rate_bps: 10000000000 latency_ns: 500 }}
transport {{ kind: TCP }}
workload {{ permutation {{ bytes: {self.BYTES} }} }}
""")
        ns3, _ = self.ns3([s])
        out = os.path.join(self.dir, "nw")
        r = subprocess.run([NETWARP, "run", s, "--out", out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            nw = json.load(f)
        self.assertEqual(nw["packets_dropped"] + ns3["packets_dropped"], 0)
        frames = data_frames(self.BYTES)
        segments = len(frames)
        data_nw = sum(f - IP_TCP - PPP + self.NETWARP_FRAME for f in frames)
        ack_nw = self.NETWARP_FRAME
        ports_ns3 = {(p["node"], p["port"]): p for p in ns3["ports"]}
        self.assertEqual(len(ports_ns3), len(nw["ports"]))
        # netwarp too opens each connection with a handshake (transport.tcp.handshake): a
        # forward flow sends its segments, the SYN and the handshake ACK, a flow the other way
        # its ACKs and the SYN-ACK, all but data segments at the ACK's size. Packets p =
        # forward (segments + 2) + back (segments + 1), bytes b = forward (data + 2 ack) +
        # back (segments + 1) ack, so forward = (b - ack p) / (data - ack segments).
        for p in nw["ports"]:
            packets, sent = p["packets_sent"], p["bytes_sent"]
            forward, rest = divmod(sent - ack_nw * packets, data_nw - ack_nw * segments)
            self.assertEqual(rest, 0, p)
            back, rest = divmod(packets - forward * (segments + 2), segments + 1)
            self.assertEqual(rest, 0, p)
            q = ports_ns3[(p["node"], p["port"])]
            self.assertEqual(q["packets_sent"], packets, p)
            self.assertEqual(q["bytes_sent"],
                             forward * (sum(frames) + SYN_IP + PPP + IP_TCP + PPP)
                             + back * (segments * (IP_TCP + PPP) + SYN_IP + PPP), p)

    def test_two_level_tree_with_parallel_uplinks(self):
        self.check_topology("tree { leaves: 3 hosts_per_leaf: 4 uplinks: 2 }")

    def test_fat_tree(self):
        self.check_topology("fat_tree { p: 2 }")

    def test_torus(self):
        self.check_topology("torus { dims: 4 dims: 4 }")


class BadInput(Ns3Case):
    def out(self):
        return os.path.join(self.dir, "x.json")

    def test_lossless_transport_is_refused(self):
        s = self.write("l.pbtxt", star_scenario(1000, 0).replace("kind: TCP", "kind: LOSSLESS")
                       .replace(f"tcp {{ mss_bytes: {MSS} initial_window_segments: 10 }}", ""))
        r = run([s, "--out", self.out()])
        self.assert_one_line_error(r, "transport.kind: netwarp-ns3 cannot mirror LOSSLESS")

    def test_mpi_scenario_is_refused(self):
        r = run([os.path.join(LIBRARY, "pingpong.pbtxt"), "--out", self.out()])
        self.assert_one_line_error(r, "netwarp-ns3 runs network workloads")

    def test_credit_flow_control_is_refused(self):
        s = self.write("c.pbtxt", star_scenario(1000, 0))
        r = run([s, "--set", "switch.flow_control=CREDIT", "--set", "switch.buffer_bytes=65536",
                 "--out", self.out()])
        self.assert_one_line_error(r, "switch.flow_control: netwarp-ns3 cannot mirror CREDIT")

    def test_red_with_a_packet_limit_is_refused(self):
        s = self.write("cc.pbtxt", star_scenario(1000, 0))
        r = run([s, *DCTCP, "--set", "switch.buffer_packets=40", "--out", self.out()])
        self.assert_one_line_error(
            r, "switch.ecn_threshold_bytes: netwarp-ns3 cannot mirror 20000")

    def test_sack_with_newreno_recovery_is_refused_not_run_without_it(self):
        # ns-3 with Sack on recovers by its SACK scoreboard; recovery NEWRENO ignores blocks.
        s = self.write("sack.pbtxt", star_scenario(1000, 0))
        r = run([s, "--set", "transport.tcp.sack=true", "--out", self.out()])
        self.assert_one_line_error(r, "transport.tcp.sack: netwarp-ns3 cannot mirror true")
        self.assertFalse(os.path.exists(self.out()))
        r = run([s, *SACK_PRR, "--set", "transport.tcp.prr_whole_segments=true",
                 "--out", self.out()])
        self.assert_one_line_error(
            r, "transport.tcp.prr_whole_segments: netwarp-ns3 cannot mirror true")

    def test_recovery_types_reach_ns3(self):
        # Four senders lose segments in one window: PRR (SSRB) paces the repair differently
        # from TcpClassicRecovery, whose runs PRR-CRB repeats here.
        sets = ["--set", "topology.star.hosts=5", "--set", "workload.incast.senders=4",
                "--set", "workload.incast.bytes=65536", "--set", "switch.buffer_bytes=65536",
                "--set", "transport.tcp.sack=true"]
        scenario = os.path.join(LIBRARY, "incast.pbtxt")
        runs = {}
        for name, more in (("classic", ["transport.tcp.recovery=SACK_6675"]),
                           ("ssrb", ["transport.tcp.recovery=PRR"]),
                           ("crb", ["transport.tcp.recovery=PRR",
                                    "transport.tcp.prr_conservative_bound=true"])):
            j, _ = self.ns3([scenario, *sets, *[a for m in more for a in ("--set", m)]],
                            name=f"{name}.json")
            runs[name] = (j["tcp"], [f["completed_ps"] for f in j["flows"]])
        self.assertEqual(runs["classic"][0], "TcpNewReno, Sack on, TcpClassicRecovery")
        self.assertEqual(runs["crb"][0], "TcpNewReno, Sack on, TcpPrrRecovery (CRB)")
        self.assertNotEqual(runs["ssrb"][1], runs["classic"][1])
        self.assertEqual(runs["crb"][1], runs["classic"][1])

    def test_missing_file_and_bad_override(self):
        r = run([os.path.join(self.dir, "nope.pbtxt"), "--out", self.out()])
        self.assert_one_line_error(r, "nope.pbtxt")
        s = self.write("s.pbtxt", star_scenario(1000, 0))
        r = run([s, "--set", "links.nope=1", "--out", self.out()])
        self.assert_one_line_error(r, "links.nope")

    def test_out_is_required(self):
        r = run([self.write("s.pbtxt", star_scenario(1000, 0))])
        self.assert_one_line_error(r, "--out is required")


class ValidateWithNs3(Ns3Case):
    SETS = ["--set", "workload.incast.senders=4", "--set", "workload.incast.bytes=65536"]

    def validate(self, netwarp, args):
        out = os.path.join(self.dir, "report")
        r = subprocess.run([netwarp, "validate", os.path.join(LIBRARY, "incast.pbtxt"), *args,
                            "--out", out], capture_output=True, text=True, timeout=300)
        return r, out

    def test_report_sets_ns3_beside_the_packet_run(self):
        r, out = self.validate(NETWARP, ["--models", "ns3", *self.SETS])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        point = report["points"][0]
        row = report["results"]["ns3"][0]
        self.assertTrue(row["available"])
        with open(os.path.join(out, row["params_file"])) as f:
            ns3 = json.load(f)
        self.assertEqual(row["predicted_ps"], ns3["completion_time_ps"])
        self.assertEqual(point["ns3"]["packets_dropped"],
                         [point["packets_dropped"], ns3["packets_dropped"]])
        self.assertEqual(len(point["ns3"]["flows"]), 4)
        self.assertEqual(set(point["ns3"]["fct_ps"]), {"p50", "p90", "p99", "max"})
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("## ns-3 cross-check", md)
        self.assertIn("| FCT p99 (us) |", md)

    def test_a_refused_setting_is_named_in_the_ns3_row_and_leaves_no_file(self):
        r, out = self.validate(NETWARP, ["--models", "ns3,flow", *self.SETS,
                                         "--set", "transport.tcp.sack=true"])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "report.json")) as f:
            results = json.load(f)["results"]
        row = results["ns3"][0]
        self.assertFalse(row["available"])
        self.assertIn("transport.tcp.sack: netwarp-ns3 cannot mirror true", row["note"])
        self.assertTrue(results["flow"][0]["available"])
        self.assertEqual([n for n in os.listdir(out) if n.startswith("ns3-")], [])

    def test_without_the_binary_the_cross_check_is_unavailable(self):
        lone = os.path.join(self.dir, "bin")
        os.makedirs(lone)
        netwarp = shutil.copy(NETWARP, lone)  # no netwarp-ns3 beside this copy
        r, out = self.validate(netwarp, ["--models", "ns3", *self.SETS])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("ns3: cross-check unavailable: netwarp-ns3 was not built", r.stdout)
        with open(os.path.join(out, "report.json")) as f:
            self.assertFalse(json.load(f)["results"]["ns3"][0]["available"])

    def test_mpi_scenario_names_why_in_the_ns3_row_and_runs_the_others(self):
        out = os.path.join(self.dir, "report")
        r = subprocess.run([NETWARP, "validate", os.path.join(LIBRARY, "pingpong.pbtxt"),
                            "--models", "ns3,loggps", "--out", out], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "report.json")) as f:
            results = json.load(f)["results"]
        self.assertFalse(results["ns3"][0]["available"])
        self.assertIn("netwarp-ns3 cross-checks network workloads", results["ns3"][0]["note"])
        self.assertTrue(results["loggps"][0]["available"])


if __name__ == "__main__":
    binary = sys.argv.pop(1)
    NETWARP = sys.argv.pop(1)
    if not binary or not os.path.exists(binary):
        print("netwarp-ns3 was not built (libns3-dev 3.37 not found): skipped")
        sys.exit(77)
    netwarp_cli.NETWARP = binary
    unittest.main(verbosity=2)
