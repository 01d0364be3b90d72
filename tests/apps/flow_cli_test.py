#!/usr/bin/env python3
"""End-to-end tests of `netwarp flow`: the flow model (MFS) on a library scenario writes
flow.json and flow_messages.csv; a pattern file gives hand-checked times; bad input exits 2 with
one line; and on a 4x4 torus all-to-all the flow model's time is below or near the packet
network's."""
import csv
import json
import os
import sys
import unittest

import netwarp_cli

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
TORUS = os.path.join(LIBRARY, "torus-alltoall.pbtxt")
SMALL_TORUS = ["--set", "topology.torus.dims=4,4"]

run = netwarp_cli.run


class FlowCase(netwarp_cli.ScratchCase):
    def flow(self, args, expect=0):
        out_dir = os.path.join(self.dir, "out")
        r = run(["flow", *args, "--out", out_dir])
        self.assertEqual(r.returncode, expect, r.stderr)
        if expect != 0:
            return None, r
        with open(os.path.join(out_dir, "flow.json")) as f:
            return json.load(f), r

    def assert_one_line_error(self, args, fragment):
        r = run(["flow", *args, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(fragment, lines[0])
        self.assertEqual(r.stdout, "")


class FlowRuns(FlowCase):
    def test_torus_all_to_all_writes_results(self):
        for mode in ["F", "N"]:
            result, r = self.flow([TORUS, *SMALL_TORUS, "--mode", mode])
            self.assertEqual(result["mode"], mode)
            self.assertGreater(result["completion_time_ps"], 0)
            self.assertEqual(result["message_count"], 16 * 15)
            self.assertEqual(len(result["messages"]), 240)
            self.assertEqual(result["hosts"], 16)
            self.assertGreaterEqual(result["run_time_s"], 0)
            last = max(m["end_ps"] for m in result["messages"])
            self.assertEqual(last, result["completion_time_ps"])
            self.assertIn("completion", r.stdout)
            self.assertIn("run time", r.stdout)
            with open(os.path.join(self.dir, "out", "flow_messages.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 240)
            self.assertEqual(int(rows[0]["bytes"]), 20000)

    def test_pattern_file_times(self):
        # 1 GB/s links: host 0 sends 20 kB to 1 (20 us), then after 5 us 10 kB to 2 (25-35 us);
        # host 3 sends 10 kB to 2 at once (0-10 us).
        pattern = self.write("p.csv", "sender,dest,order,bytes,delay_ns\n"
                             "0,2,1,10000,5000\n0,1,0,20000,0\n3,2,0,10000,\n")
        result, _ = self.flow([TORUS, *SMALL_TORUS, "--pattern", pattern])
        self.assertEqual(result["pattern"], pattern)
        ends = [m["end_ps"] for m in result["messages"]]
        self.assertEqual(ends, [35_000_000, 20_000_000, 10_000_000])
        self.assertEqual(result["messages"][0]["start_ps"], 25_000_000)
        self.assertEqual(result["completion_time_ps"], 35_000_000)

    def test_options_resolution_latency_and_sync(self):
        # Two 10 kB messages from host 0 (10 us each at 1 GB/s); host 1 sends 10 kB to host 0
        # after 30 us.
        pattern = self.write("p.csv", "sender,dest,order,bytes,delay_ns\n"
                             "0,1,0,10000,0\n0,2,1,10000,0\n1,0,0,10000,30000\n")
        base = [TORUS, *SMALL_TORUS, "--pattern", pattern]
        result, _ = self.flow(base)
        self.assertEqual(result["messages"][1]["end_ps"], 20_000_000)
        # Resolu = 15 us: the first message ends with its cycle at 15 us, the second at 30 us.
        result, _ = self.flow([*base, "--resolution", "15000"])
        self.assertEqual(result["resolution_ps"], 15_000_000)
        self.assertEqual(result["messages"][1]["end_ps"], 30_000_000)
        # Start-up latency: host 0 to host 1 crosses 3 links of 100 ns.
        result, _ = self.flow([*base, "--latency"])
        self.assertEqual(result["messages"][0]["end_ps"], 10_300_000)
        # Synchronised: host 0's order-1 message waits for host 1's order-0 message (30-40 us).
        result, _ = self.flow([*base, "--sync"])
        self.assertTrue(result["synchronised_sends"])
        self.assertEqual(result["messages"][1]["start_ps"], 40_000_000)

    def test_flow_time_is_below_or_near_packet_time(self):
        # The flow model has no headers, latency or acknowledgements, and its rates follow
        # contention instantly: it should not be slower than the packet network (MFS was 40 %
        # faster than BigSimulator). Seen: 653 us (Mode F) against 874 us of packets.
        flow, _ = self.flow([TORUS, *SMALL_TORUS])
        packets, _, _ = self.run_scenario([TORUS, *SMALL_TORUS], out="packets")
        self.assertLessEqual(flow["completion_time_ps"], packets["completion_time_ps"] * 1.05)


class FlowErrors(FlowCase):
    def test_bad_mode(self):
        self.assert_one_line_error([TORUS, *SMALL_TORUS, "--mode", "X"], "--mode")

    def test_pattern_error_names_file_and_line(self):
        pattern = self.write("bad.csv", "sender,dest,order,bytes,delay_ns\n0,1,0,5,0\n0,99,1,5,0\n")
        self.assert_one_line_error([TORUS, *SMALL_TORUS, "--pattern", pattern],
                                   pattern + ":3: dest 99 is not a host")

    def test_scenario_error_names_the_file(self):
        self.assert_one_line_error([TORUS, "--set", "topology.torus.dims=1,4"], TORUS)

    def test_mpi_scenario_needs_a_pattern(self):
        self.assert_one_line_error([os.path.join(LIBRARY, "pingpong.pbtxt")], "--pattern")


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
