#!/usr/bin/env python3
"""End-to-end tests of the call-by-call comparison and sweep grids: `predict --calls`,
validate's calls_compare.csv, timeline_compare.json and error tables, `--sweep` grids,
`--keep-runs` folders and the plots' kinds; the error of collectives per step (round k of a
recursive doubling), per-rank tables in CSV, the report's length, `--trace` with a sweep over the
program it replaces, `--no-sweep` and `--timelines`."""
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

ALLREDUCE = """name: "ar"
topology { star { hosts: 8 } }
mpi { collectives { allreduce: "recursive_doubling" }
      collective { kind: "allreduce" bytes: 65536 iterations: 2 } }
"""

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
        # Run times in the unit of the largest one (the data file keeps us).
        with open(os.path.join(swept, "report.json")) as f:
            points = json.load(f)["points"]
        most = max(p["simulated_ps"] for p in points)
        unit, per_unit = (("s", 1e6) if most >= 1e12 else ("ms", 1e3) if most >= 1e9
                          else ("us", 1))
        self.assertIn('set ylabel "run time (%s)"' % unit, script)
        self.assertIn("using 1:($2/%d)" % per_unit, script)

    def test_a_field_swept_twice_is_refused(self):
        r = run(["validate", ALLTOALL, "--sweep", "mpi.alltoall.bytes=1", "--sweep",
                 "mpi.alltoall.bytes=2", "--out", os.path.join(self.dir, "x")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("mpi.alltoall.bytes is swept twice", r.stderr)


class StepsAndReport(netwarp_cli.ScratchCase):
    def validate(self, args, out="report"):
        out_dir = os.path.join(self.dir, out)
        r = run(["validate", *args, "--out", out_dir])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out_dir, "report.md")) as f:
            return out_dir, f.read()

    def test_recursive_doubling_allreduce_error_is_attributed_per_round(self):
        out_dir, md = self.validate([self.write("ar.pbtxt", ALLREDUCE), "--models", "loggps",
                                     "--keep-runs"])
        steps = read_csv(os.path.join(out_dir, "steps_compare.csv"))
        calls = {(int(c["rank"]), int(c["call"])): c
                 for c in read_csv(os.path.join(out_dir, "runs", "run", "calls.csv"))}
        self.assertEqual(len(steps), 8 * 3 * 2)  # 8 ranks x log2(8) rounds x 2 iterations
        previous = None  # ((rank, call), the last match in that call)
        for row in steps:
            key = (int(row["rank"]), int(row["call"]))
            self.assertEqual(row["kind"], "allreduce")
            start = previous[1] if previous and previous[0] == key else int(calls[key]["start_ps"])
            self.assertEqual(int(row["packet_step_ps"]), int(row["packet_matched_ps"]) - start)
            self.assertEqual(int(row["loggps_error_ps"]),
                             int(row["loggps_step_ps"]) - int(row["packet_step_ps"]))
            previous = (key, int(row["packet_matched_ps"]))
        rounds = [row["step"] for row in steps
                  if row["rank"] == "0" and row["call"] == steps[0]["call"]]
        self.assertEqual(rounds, ["round 1", "round 2", "round 3"])
        for k in (1, 2, 3):
            self.assertIn(f"| allreduce | round {k} | 16 |", md)
        self.assertIn("where the error is inside collectives", md)

    def test_report_of_five_points_on_64_ranks_is_short_and_ranks_go_to_csv(self):
        scenario = self.write("a64.pbtxt", """name: "a64"
topology { star { hosts: 64 } }
mpi { collective { kind: "allreduce" bytes: 1024 } }
""")
        out_dir, md = self.validate([scenario, "--models", "loggps,plogp",
                                     "--sweep", "mpi.collective.bytes=1024,2048,4096,8192,16384"])
        self.assertLess(len(md.splitlines()), 150)
        for i in range(5):
            rows = read_csv(os.path.join(out_dir, "ranks", f"p{i}.csv"))
            self.assertEqual(len(rows), 64 * 3)  # packet and two models per rank
            self.assertIn(f"(ranks/p{i}.csv)", md)
        self.assertTrue(md.index("| mpi.collective.bytes | packet (simulated) |")
                        < md.index("## Call by call"))

    def test_trace_refuses_a_sweep_over_the_program_it_replaces(self):
        trace = self.write("pp.tit", TRACE)
        out = os.path.join(self.dir, "x")
        r = run(["validate", ALLTOALL, "--trace", trace, "--models", "loggps", "--out", out])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("validation.sweep.field: mpi.alltoall.bytes is a field of the MPI program, "
                      "which --trace replaces", r.stderr)
        self.assertIn("--no-sweep", r.stderr)
        self.assertFalse(os.path.exists(out))
        r = run(["validate", PINGPONG, "--trace", trace, "--sweep", "mpi.pingpong.sizes=1,2",
                 "--out", out])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--sweep: mpi.pingpong.sizes is a field of the MPI program", r.stderr)
        out_dir, md = self.validate([ALLTOALL, "--trace", trace, "--models", "loggps",
                                     "--set", "mpi.ranks=2", "--no-sweep", "--timelines",
                                     "none"])
        self.assertIn("| - |", md)  # one point
        self.assertFalse(os.path.exists(os.path.join(out_dir, "timeline_compare.json")))

    def test_summary_timeline_keeps_16_ranks_and_says_so(self):
        scenario = self.write("a32.pbtxt", """name: "a32"
topology { star { hosts: 32 } }
mpi { collective { kind: "allreduce" bytes: 1024 } }
""")
        out_dir, md = self.validate([scenario, "--models", "loggps"])
        with open(os.path.join(out_dir, "timeline_compare.json")) as f:
            events = json.load(f)["traceEvents"]
        tracks = {(e["pid"], e["tid"]) for e in events if e["ph"] == "X"}
        self.assertEqual(max(tid for _, tid in tracks), 15)
        self.assertIn("(ranks 0-15 of 32 only)", md)
        out_dir, md = self.validate([scenario, "--models", "loggps", "--timelines", "full"],
                                    out="full")
        with open(os.path.join(out_dir, "timeline_compare.json")) as f:
            events = json.load(f)["traceEvents"]
        self.assertEqual(max(e["tid"] for e in events if e["ph"] == "X"), 31)
        self.assertNotIn("only)", md)


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
