#!/usr/bin/env python3
"""End-to-end tests of the call-by-call comparison and sweep grids: `predict --calls`,
validate's calls_compare.csv, timeline_compare.json and error tables, `--sweep` grids,
`--keep-runs` folders and the plots' kinds."""
import csv
import json
import os
import sys
import unittest

import netwarp_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBRARY = os.path.join(ROOT, "scenarios")
PINGPONG = os.path.join(LIBRARY, "pingpong.pbtxt")
ALLTOALL = os.path.join(LIBRARY, "alltoall-ab.pbtxt")
SMALL_PINGPONG = ["--set", "mpi.pingpong.sizes=64,4096", "--set", "mpi.pingpong.repetitions=1"]

run = netwarp_cli.run

# Round LogGPS parameters (ns, ns/byte) so the ping-pong's calls are easy to work by hand.
LOGGPS = {"model": "loggps", "params": {"L": 1000, "o": 2000, "Oss": 1, "Ors": 2, "Osl": 0.5,
                                        "Orl": 0.25, "Gs": 4, "Gl": 0.125, "s": 1024,
                                        "S": 4096}}

TRACE = """0 init
1 init
0 send 1 0 64
1 recv 0 0 64
1 send 0 0 64
0 recv 1 0 64
0 finalize
1 finalize
"""


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


class CallCompareCase(netwarp_cli.ScratchCase):
    def validate(self, args, out="report"):
        out_dir = os.path.join(self.dir, out)
        r = run(["validate", *args, "--out", out_dir])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out_dir, "report.json")) as f:
            return json.load(f), out_dir

    def test_predict_writes_each_call_as_worked_by_hand(self):
        params = self.write("loggps.json", json.dumps(LOGGPS))
        trace = self.write("pp.tit", TRACE)
        calls = os.path.join(self.dir, "calls.csv")
        r = run(["predict", "--trace", trace, "--model", "loggps", "--params", params,
                 "--calls", calls])
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = read_csv(calls)
        self.assertEqual([(row["rank"], row["kind"]) for row in rows],
                         [("0", "send"), ("0", "recv"), ("1", "recv"), ("1", "send")])
        # Rank 1's receive: T1 + T2 + T3 = (2000 + 64) + (64 x 4 + 1000) + (2000 + 64 x 2) ns,
        # waiting until the data is in (T1 + T2), then T3 of overhead.
        recv = rows[2]
        self.assertEqual(recv["source"], trace + ":4")
        self.assertEqual(int(recv["start_ps"]), 0)
        self.assertEqual(int(recv["end_ps"]), 5448000)
        self.assertEqual(int(recv["recv_wait_ps"]), 3320000)
        self.assertEqual(int(recv["overhead_ps"]), 2128000)
        self.assertEqual(int(rows[0]["end_ps"]), 2064000)
        self.assertEqual(rows[0]["source"], trace + ":3")

    def test_calls_compare_rows_are_the_packet_calls(self):
        report, out_dir = self.validate([PINGPONG, *SMALL_PINGPONG, "--models", "loggps,plogp-br",
                                         "--keep-runs"])
        point = report["points"][0]
        self.assertEqual(point["calls_file"], "calls_compare.csv")
        self.assertEqual(point["run_dir"], os.path.join("runs", "run"))
        compare = read_csv(os.path.join(out_dir, "calls_compare.csv"))
        packet = read_csv(os.path.join(out_dir, "runs", "run", "calls.csv"))
        self.assertEqual(len(compare), len(packet))
        for c, p in zip(compare, packet):
            self.assertEqual((c["rank"], c["call"], c["kind"]), (p["rank"], p["call"], p["kind"]))
            self.assertEqual((c["packet_start_ps"], c["packet_end_ps"]),
                             (p["start_ps"], p["end_ps"]))
            predicted = int(c["loggps_end_ps"]) - int(c["loggps_start_ps"])
            simulated = int(p["end_ps"]) - int(p["start_ps"])
            self.assertEqual(int(c["loggps_error_ps"]), predicted - simulated)
            self.assertEqual(c["plogp-br_start_ps"], "")  # closed form: no calls
        for name in ("timeline.json", "results.json"):
            self.assertTrue(os.path.exists(os.path.join(out_dir, "runs", "run", name)), name)
        with open(os.path.join(out_dir, "timeline_compare.json")) as f:
            timeline = json.load(f)
        processes = {e["pid"]: e["args"]["name"] for e in timeline["traceEvents"]
                     if e["name"] == "process_name"}
        self.assertEqual(processes, {0: "packet", 1: "loggps"})
        slices = [e for e in timeline["traceEvents"] if e["ph"] == "X"]
        self.assertEqual(len(slices), 2 * len(packet))
        with open(os.path.join(out_dir, "report.md")) as f:
            md = f.read()
        self.assertIn("Call by call: where the error is", md)
        self.assertIn("| call kind | calls |", md)
        self.assertIn("pingpong call ", md)
        # The packet run's timeline has one flow arrow per message, ids in pairs.
        with open(os.path.join(out_dir, "runs", "run", "timeline.json")) as f:
            events = json.load(f)["traceEvents"]
        starts = sorted(e["id"] for e in events if e["ph"] == "s")
        finishes = sorted(e["id"] for e in events if e["ph"] == "f")
        self.assertEqual(starts, finishes)
        self.assertEqual(len(starts), len(packet) // 2)  # each call of a ping-pong is one message

    def test_two_sweeps_make_a_grid_with_one_plot_per_field(self):
        report, out_dir = self.validate([
            ALLTOALL, "--models", "loggps", "--sweep", "mpi.alltoall.bytes=1024,4096",
            "--sweep", "links.latency_ns=500,2000", "--keep-runs"])
        self.assertEqual(report["sweep_fields"], ["mpi.alltoall.bytes", "links.latency_ns"])
        self.assertEqual([p["values"] for p in report["points"]],
                         [["1024", "500"], ["1024", "2000"], ["4096", "500"], ["4096", "2000"]])
        self.assertEqual(len(report["results"]["loggps"]), 4)
        for i in range(4):
            self.assertTrue(os.path.isfile(os.path.join(out_dir, "runs", f"p{i}", "calls.csv")))
            self.assertTrue(os.path.isfile(os.path.join(out_dir, f"calls_compare-p{i}.csv")))
        with open(os.path.join(out_dir, "report.md")) as f:
            md = f.read()
        self.assertIn("| mpi.alltoall.bytes | links.latency_ns | packet (simulated) |", md)
        self.assertIn("| 4096 | 2000 |", md)
        for field in ("mpi-alltoall-bytes", "links-latency-ns"):
            self.assertIn(f"](report-{field}.png)", md)
            self.assertTrue(os.path.isfile(os.path.join(out_dir, f"report-{field}.gp")))

    def test_plots_without_a_sweep_are_bars_and_one_sweep_has_an_error_panel(self):
        _, flat = self.validate([PINGPONG, *SMALL_PINGPONG, "--models", "loggps"], out="flat")
        with open(os.path.join(flat, "report.gp")) as f:
            self.assertIn("with boxes", f.read())
        _, swept = self.validate([ALLTOALL, "--models", "loggps", "--sweep",
                                  "mpi.alltoall.bytes=1024,4096"], out="swept")
        with open(os.path.join(swept, "report.gp")) as f:
            script = f.read()
        self.assertIn("multiplot layout 2,1", script)
        self.assertIn("(model - packet) / packet (%)", script)

    def test_a_field_swept_twice_is_refused(self):
        r = run(["validate", ALLTOALL, "--sweep", "mpi.alltoall.bytes=1", "--sweep",
                 "mpi.alltoall.bytes=2", "--out", os.path.join(self.dir, "x")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("mpi.alltoall.bytes is swept twice", r.stderr)


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
