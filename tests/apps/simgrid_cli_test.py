#!/usr/bin/env python3
"""End-to-end tests of netwarp-simgrid, the SimGrid cross-check: predicted times worked by hand
from link rates, latencies and host costs (ping-pong eager and rendezvous, a two-rank
all-to-all whose two directions must not share a link, a TIT trace with an unexpected
message), agreement with `netwarp run` when the network is nearly free (the protocol rules
and host costs are the packet simulation's), the platform XML it writes, and one-line errors
with exit status 2 (3: deadlock).

Every time below is in picoseconds. SimGrid keeps time in double seconds; the runs are under
1 ms, where one double step is below 1e-19 s, and SimGrid's timing precision is set to 0.1 ps,
so the rounded results may differ from exact arithmetic by at most a picosecond or two
(TOLERANCE_PS)."""
import json
import os
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ET

import netwarp_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBRARY = os.path.join(ROOT, "scenarios")
TOLERANCE_PS = 2
START_PS = 1  # ranks start at 1 ps, as in the packet simulation

run = netwarp_cli.run


def wire_ps(nbytes, rate_bps, latency_ps, hops):
    """CM02 flow model on an idle route: latency of every hop, then the bytes at the link rate."""
    return hops * latency_ps + nbytes * 8 * 10**12 // rate_bps


class SimgridCase(netwarp_cli.ScratchCase):
    def simgrid(self, args, expect=0, name="out.json"):
        out = os.path.join(self.dir, name)
        r = run([*args, "--out", out])
        self.assertEqual(r.returncode, expect, r.stderr)
        with open(out) as f:
            return json.load(f), r

    def assert_near(self, got, expected):
        self.assertLessEqual(abs(got - expected), TOLERANCE_PS, f"got {got}, expected {expected}")

    def assert_one_line_error(self, r, status, expected_part):
        self.assertEqual(r.returncode, status, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith("netwarp-simgrid: error: "), lines[0])
        self.assertIn(expected_part, lines[0])
        self.assertEqual(r.stdout, "")


class PingPong(SimgridCase):
    # Everything the hand computation uses is set here, not taken from the library file.
    RATE = 10 * 10**9
    LATENCY = 500_000
    O = 1_500_000
    SETS = ["links.rate_bps=10000000000", "links.latency_ns=500", "mpi.host.o_ns=1500",
            "mpi.host.send_eager_ns_per_byte=0.3", "mpi.host.recv_eager_ns_per_byte=0.3",
            "mpi.host.send_rendezvous_ns_per_byte=0.1",
            "mpi.host.recv_rendezvous_ns_per_byte=0.1", "mpi.protocol.eager_bytes=16384",
            "mpi.protocol.envelope_bytes=64", "mpi.pingpong.w_us=0"]

    def run_pingpong(self, sizes, repetitions, model=None):
        args = [os.path.join(LIBRARY, "pingpong.pbtxt")]
        for s in self.SETS + [f"mpi.pingpong.sizes={sizes}",
                              f"mpi.pingpong.repetitions={repetitions}"]:
            args += ["--set", s]
        if model:
            args += ["--network-model", model]
        return self.simgrid(args, name=f"pp-{model}.json")

    def one_way_eager(self, k):
        # o + k Oss (0.3 ns/B) on the sender, envelope + k bytes over 2 hops, o + k Ors.
        return 2 * self.O + 2 * k * 300 + wire_ps(64 + k, self.RATE, self.LATENCY, 2)

    def one_way_rendezvous(self, k):
        # Sender o (REQ) | REQ | receiver 2o, CTS | CTS | sender 2o + k Osl (0.1 ns/B), data |
        # k bytes | receiver o + k Orl.
        control = wire_ps(64, self.RATE, self.LATENCY, 2)
        return 6 * self.O + 2 * control + wire_ps(k, self.RATE, self.LATENCY, 2) + k * 200

    def test_eager_and_rendezvous_round_trips_match_the_hand_computation(self):
        results, r = self.run_pingpong("1024,65536", 2)
        expected = START_PS + 2 * 2 * self.one_way_eager(1024) + \
            2 * 2 * self.one_way_rendezvous(65536)
        self.assertEqual(self.one_way_eager(1024), 5_484_800)
        self.assertEqual(self.one_way_rendezvous(65536), 77_638_400)
        self.assert_near(results["predicted_ps"], expected)
        self.assertEqual(results["tool"], "simgrid")
        self.assertEqual(results["network_model"], "CM02")
        self.assertTrue(results["simgrid_version"].startswith("3."))
        self.assertEqual([x["rank"] for x in results["ranks"]], [0, 1])
        self.assertEqual(results["predicted_ps"], max(x["end_ps"] for x in results["ranks"]))
        # Rank 1 ends when its last reply's data is handed to the network (the rendezvous send
        # is then done): before rank 0 by the data's time on the wire and rank 0's o + k Orl.
        last_reply = self.O + 65536 * 100 + wire_ps(65536, self.RATE, self.LATENCY, 2)
        self.assert_near(results["ranks"][1]["end_ps"], expected - last_reply)
        self.assertIsNone(results["platform"])
        self.assertGreater(results["wall_seconds"], 0)
        self.assertEqual(len(r.stdout.strip().splitlines()), 1)
        self.assertIn("predicted", r.stdout)

    def test_lv08_keeps_simgrids_slow_start_correction(self):
        cm02, _ = self.run_pingpong("1024", 1)
        lv08, _ = self.run_pingpong("1024", 1, model="LV08")
        self.assertEqual(lv08["network_model"], "LV08")
        # Latency x 13.01 on each way: at least 12 more latencies of 2 hops per way.
        self.assertGreater(lv08["predicted_ps"] - cm02["predicted_ps"], 2 * 12 * 2 * self.LATENCY)


class Workloads(SimgridCase):
    def test_two_rank_alltoall_uses_each_cable_direction_on_its_own(self):
        # alltoall-ab: 1 Gbit/s, 1 us per hop, o = 5 us, 0.5 ns/B each side. Algorithm B on
        # 2 ranks: irecv (o), send (o + k Oss), then the partner's message, received with
        # o + k Ors. Both ranks send at once over opposite directions of the same cables: a
        # shared link would halve the rate.
        results, _ = self.simgrid([os.path.join(LIBRARY, "alltoall-ab.pbtxt"), "--set",
                                   "mpi.ranks=2", "--set", "mpi.alltoall.algorithm=algorithm_b",
                                   "--set", "mpi.alltoall.bytes=1024"])
        o = 5_000_000
        expected = START_PS + 3 * o + 1024 * 1000 + wire_ps(64 + 1024, 10**9, 1_000_000, 2)
        self.assertEqual(expected, 26_728_001)
        for rank in results["ranks"]:
            self.assert_near(rank["end_ps"], expected)

    def test_alltoall_on_sixteen_ranks_runs(self):
        results, _ = self.simgrid([os.path.join(LIBRARY, "alltoall-ab.pbtxt"), "--set",
                                   "mpi.alltoall.bytes=2048"])
        self.assertEqual(len(results["ranks"]), 16)
        self.assertEqual(results["world_size"], 16)
        # At least the 15 messages each rank receives, one after another on its host link.
        self.assertGreater(results["predicted_ps"], 15 * (64 + 2048) * 8 * 1000)
        self.assertEqual(results["transfers"], 16 * 15)

    def test_trace_with_an_unexpected_message(self):
        # On the default cluster (1 Gbit/s, o = 5 us, 0.5 ns/B, copy at 5 GB/s): rank 1
        # computes 1e5 flops at 1e9 flop/s (100 us) while rank 0's 1000 B arrive, then copies
        # them out of the unexpected buffer: o + 1000 * 0.5 ns + 1000 * 0.2 ns.
        trace = self.write("t.tit", "0 init\n1 init\n0 send 1 0 1000\n1 compute 1e5\n"
                                    "1 recv 0 0 1000\n0 finalize\n1 finalize\n")
        results, _ = self.simgrid(["--trace", trace])
        self.assert_near(results["ranks"][0]["end_ps"], START_PS + 5_000_000 + 500_000)
        self.assert_near(results["ranks"][1]["end_ps"],
                         START_PS + 100_000_000 + 5_000_000 + 500_000 + 200_000)
        self.assertIn("trace", results["program"])

    def test_trace_deadlock_is_exit_3_with_the_blocked_ranks(self):
        trace = self.write("d.tit", "0 send 1 0 1000000\n0 recv 1 0 1000000\n"
                                    "1 send 0 0 1000000\n1 recv 0 0 1000000\n")
        results, r = self.simgrid(["--trace", trace], expect=3)
        self.assertEqual(results["predicted_ps"], -1)
        self.assertIn("deadlock: 2 of 2 ranks never finished", r.stderr)
        self.assertIn("rank 0 blocked in send", r.stderr)


NETWARP = None  # the packet simulator (second argument), for the mirror tests


class ProtocolMirror(SimgridCase):
    """With a nearly free network (100 Tbit/s, 1 ns per hop) only host costs and protocol
    rules are left, and they must be the packet simulation's: netwarp run and netwarp-simgrid
    then agree within what packets still add (headers and per-hop serialisation of about
    0.1 ns per packet), far below 0.01 %."""
    FAST = ["--set", "links.rate_bps=100000000000000", "--set", "links.latency_ns=1"]

    # What packets still add on the nearly free network, per rank: far below one o' (>= 1 us in
    # every scenario used here), so a missing or doubled host cost fails.
    TOLERANCE_PS = 20_000

    def compare(self, args, name):
        """Every rank's end time from both tools; returns the packet run's results.json."""
        self.assertTrue(NETWARP and os.path.exists(NETWARP), f"no netwarp binary: {NETWARP}")
        out = os.path.join(self.dir, "packet-" + name)
        r = subprocess.run([NETWARP, "run", *args, *self.FAST, "--out", out],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            packet = json.load(f)
        results, _ = self.simgrid([*args, *self.FAST], name=name + ".json")
        self.assertEqual(len(results["ranks"]), len(packet["ranks"]))
        for sim, pkt in zip(results["ranks"], packet["ranks"]):
            self.assertLess(abs(sim["end_ps"] - pkt["end_ps"]), self.TOLERANCE_PS,
                            f"{name}: rank {pkt['rank']}: simgrid {sim['end_ps']} packet "
                            f"{pkt['end_ps']}")
        return packet

    def test_pingpong_protocol_variants(self):
        base = [os.path.join(LIBRARY, "pingpong.pbtxt"), "--set",
                "mpi.pingpong.sizes=64,4096,65536", "--set", "mpi.pingpong.repetitions=2"]
        self.compare(base, "rts")
        self.compare(base + ["--set", "mpi.protocol.rendezvous=GET"], "get")
        self.compare(base + ["--set", "mpi.protocol.sender_side_matching=true"], "ssm")

    def test_alltoall_whose_credit_share_forces_rendezvous(self):
        # A 10000 B buffer shared by 7 senders is below 4096 B each: every message goes by
        # rendezvous instead of eager.
        packet = self.compare([os.path.join(LIBRARY, "alltoall-ab.pbtxt"), "--set",
                               "mpi.ranks=8", "--set", "mpi.alltoall.bytes=4096", "--set",
                               "mpi.protocol.unexpected_buffer_bytes=10000"], "share")
        self.assertEqual(packet["messages"]["rendezvous"]["count"], 56)

    def test_eager_sends_wait_for_credit(self):
        # Three 1000 B sends (short, so eager) to a receiver that computes first; a 1500 B
        # buffer holds one at a time, so two sends wait for credit.
        trace = self.write("credit.tit", "0 send 1 0 1000\n0 send 1 1 1000\n0 send 1 2 1000\n"
                           "1 compute 1e5\n1 recv 0 0 1000\n1 recv 0 1 1000\n1 recv 0 2 1000\n")
        packet = self.compare(["--trace", trace, "--set",
                               "mpi.protocol.unexpected_buffer_bytes=1500"], "credit")
        self.assertEqual(packet["ranks"][0]["throttled_sends"], 2)

    def test_several_ranks_per_host_use_the_shared_memory_transport(self):
        # 8 ranks, 4 per host: intra-node eager (1 KiB), single copy (8 KiB, still eager over
        # the network) and single copy against network rendezvous (64 KiB).
        base = [os.path.join(LIBRARY, "alltoall-ab.pbtxt"), "--set", "mpi.ranks=8",
                "--set", "mpi.ranks_per_host=4"]
        for size in (1024, 8192, 65536):
            self.compare(base + ["--set", f"mpi.alltoall.bytes={size}"], f"rph-{size}")

    def test_collectives_trace(self):
        self.compare(["--trace", os.path.join(ROOT, "tests", "mpi-emul", "data",
                                              "collectives.tit")], "collectives")


class Platform(SimgridCase):
    def test_platform_out_names_every_host_and_is_what_ran(self):
        platform = os.path.join(self.dir, "p.xml")
        results, _ = self.simgrid([os.path.join(LIBRARY, "alltoall-ab.pbtxt"), "--set",
                                   "mpi.ranks=4", "--set", "mpi.alltoall.bytes=512",
                                   "--platform-out", platform])
        self.assertEqual(results["platform"], platform)
        root = ET.parse(platform).getroot()
        zone = root.find("zone")
        hosts = {h.get("id") for h in zone.findall("host")}
        self.assertEqual(hosts, {f"host{i}" for i in range(16)})
        self.assertEqual([r.get("id") for r in zone.findall("router")], ["sw0"])
        links = zone.findall("link")
        self.assertEqual(len(links), 32)  # 16 cables, one link per direction
        self.assertTrue(all(l.get("bandwidth") == "1000000000bps" for l in links))
        self.assertTrue(all(l.get("latency") == "1000000ps" for l in links))
        routes = zone.findall("route")
        self.assertEqual(len(routes), 4 * 3)  # between the hosts of the 4 ranks
        r01 = [r for r in routes if r.get("src") == "host0" and r.get("dst") == "host1"][0]
        self.assertEqual([l.get("id") for l in r01.findall("link_ctn")], ["host0-p0", "sw0-p1"])
        config = {p.get("id"): p.get("value") for p in root.find("config").findall("prop")}
        self.assertEqual(config["network/model"], "CM02")


class Errors(SimgridCase):
    def test_scenario_without_mpi_is_a_one_line_error(self):
        r = run([os.path.join(LIBRARY, "incast.pbtxt"), "--out", os.path.join(self.dir, "x.json")])
        self.assert_one_line_error(r, 2, "incast.pbtxt: no mpi section")

    def test_unknown_network_model_lists_the_known_ones(self):
        r = run([os.path.join(LIBRARY, "pingpong.pbtxt"), "--network-model", "ns3", "--out",
                 os.path.join(self.dir, "x.json")])
        self.assert_one_line_error(r, 2, "unknown model 'ns3' (known: CM02, LV08, SMPI)")

    def test_bad_override_names_the_file(self):
        r = run([os.path.join(LIBRARY, "pingpong.pbtxt"), "--set", "mpi.nope=1", "--out",
                 os.path.join(self.dir, "x.json")])
        self.assert_one_line_error(r, 2, "pingpong.pbtxt: --set mpi.nope=1: unknown field")

    def test_bad_trace_names_file_and_line(self):
        bad = self.write("bad.tit", "0 init\n1 init\n0 send 1 0 100\n1 frobnicate 3\n")
        r = run(["--trace", bad, "--out", os.path.join(self.dir, "x.json")])
        self.assert_one_line_error(r, 2, bad + ":4: unknown action 'frobnicate'")

    def test_out_is_required(self):
        r = run([os.path.join(LIBRARY, "pingpong.pbtxt")])
        self.assert_one_line_error(r, 2, "--out is required")


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    NETWARP = sys.argv.pop(1)  # the packet simulator, for the mirror tests
    unittest.main(verbosity=2)
