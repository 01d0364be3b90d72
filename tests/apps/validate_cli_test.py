#!/usr/bin/env python3
"""End-to-end tests of `netwarp fit`, `netwarp predict` and `netwarp validate`: the report's
files, its numbers equal to separate `run` and `predict` invocations, a sweep as one table and
one plot, and one-line errors with exit status 2."""
import json
import os
import sys
import unittest

import netwarp_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBRARY = os.path.join(ROOT, "scenarios")
ALLTOALL = os.path.join(LIBRARY, "alltoall-ab.pbtxt")
PINGPONG = os.path.join(LIBRARY, "pingpong.pbtxt")
INCAST = os.path.join(LIBRARY, "incast.pbtxt")
TORUS = os.path.join(LIBRARY, "torus-alltoall.pbtxt")
TRACE_DATA = os.path.join(ROOT, "tests", "mpi-emul", "data")

run = netwarp_cli.run


def predicted_ps(stdout):
    first = stdout.splitlines()[0].split()
    assert first[0] == "predicted_ps", stdout
    return int(first[1])


class ValidateCase(netwarp_cli.ScratchCase):
    def validate(self, args, out="report"):
        out_dir = os.path.join(self.dir, out)
        r = run(["validate", *args, "--out", out_dir])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out_dir, "report.json")) as f:
            return json.load(f), out_dir, r

    def test_report_numbers_equal_separate_run_and_predict(self):
        sets = ["--set", "mpi.alltoall.bytes=4096", "--set", "validation.sweep.values=4096"]
        report, out_dir, _ = self.validate([ALLTOALL, "--models", "loggps,plogp,mpiete,flow",
                                            *sets])
        for name in ("report.md", "report.json", "report.dat", "report.gp"):
            self.assertTrue(os.path.exists(os.path.join(out_dir, name)), name)
        results, _, _ = self.run_scenario([ALLTOALL, *sets])
        for model in ("loggps", "plogp", "mpiete", "flow"):
            row = report["results"][model][0]
            self.assertEqual(row["simulated_ps"], results["run_time_ps"])
            r = run(["predict", ALLTOALL, *sets, "--model", model, "--params",
                     os.path.join(out_dir, row["params_file"])])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(predicted_ps(r.stdout), row["predicted_ps"], model)
            expected = 100.0 * (row["predicted_ps"] - row["simulated_ps"]) / row["simulated_ps"]
            self.assertAlmostEqual(row["error_pct"], expected, places=9)
        with open(os.path.join(out_dir, "report.md")) as f:
            md = f.read()
        self.assertIn("| 4096 |", md)
        self.assertIn("Where the time goes", md)

    def test_sweep_is_one_table_and_one_plot(self):
        report, out_dir, r = self.validate(
            [ALLTOALL, "--models", "loggps", "--set", "validation.sweep.values=1024,65536"])
        self.assertEqual([p["value"] for p in report["points"]], ["1024", "65536"])
        self.assertEqual(len(report["results"]["loggps"]), 2)
        small, large = report["points"]
        self.assertLess(small["simulated_ps"], large["simulated_ps"])
        with open(os.path.join(out_dir, "report.dat")) as f:
            rows = [line.split() for line in f if not line.startswith("#")]
        self.assertEqual([row[0] for row in rows], ["1024", "65536"])
        self.assertIn("65536", r.stdout)

    def test_unavailable_models_are_reported_not_fatal(self):
        report, _, r = self.validate([PINGPONG, "--models", "plogp-br,simgrid,loggps",
                                      "--set", "mpi.pingpong.sizes=1024"])
        self.assertFalse(report["results"]["plogp-br"][0]["available"])
        self.assertIn("all-to-all", report["results"]["plogp-br"][0]["note"])
        simgrid = report["results"]["simgrid"][0]
        built = os.path.exists(os.path.join(os.path.dirname(netwarp_cli.NETWARP),
                                            "netwarp-simgrid"))
        self.assertEqual(simgrid["available"], built, simgrid)
        if built:
            self.assertGreater(simgrid["predicted_ps"], 0)
        else:
            self.assertIn("netwarp-simgrid was not built", simgrid["note"])
        self.assertTrue(report["results"]["loggps"][0]["available"])

    def test_workload_scenario_packet_and_flow_equal_run_and_flow_commands(self):
        sets = ["--set", "topology.torus.dims=4,4"]
        report, out_dir, _ = self.validate([TORUS, "--models", "flow,flow-f", *sets])
        self.assertEqual(report["program"], "workload all_to_all")
        results, _, _ = self.run_scenario([TORUS, *sets])
        self.assertEqual(report["points"][0]["simulated_ps"], results["completion_time_ps"])
        for model, mode in (("flow", "N"), ("flow-f", "F")):
            flow_dir = os.path.join(self.dir, "flow-" + mode)
            r = run(["flow", TORUS, *sets, "--mode", mode, "--out", flow_dir])
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(flow_dir, "flow.json")) as f:
                flow = json.load(f)
            self.assertEqual(report["results"][model][0]["predicted_ps"],
                             flow["completion_time_ps"], model)
        with open(os.path.join(out_dir, "report.md")) as f:
            md = f.read()
        self.assertIn("Run times", md)
        self.assertNotIn("Where the time goes", md)  # no MPI ranks in a workload

    def test_sweep_of_a_list_field_separates_values_with_semicolons(self):
        report, _, _ = self.validate([TORUS, "--models", "flow-f",
                                      "--sweep", "topology.torus.dims=3,3; 4,4"])
        self.assertEqual([p["value"] for p in report["points"]], ["3,3", "4,4"])
        small, large = report["points"]
        self.assertLess(small["simulated_ps"], large["simulated_ps"])

    def test_losses_and_timeouts_per_point_equal_run(self):
        sets = ["--set", "workload.incast.senders=8", "--set", "workload.incast.bytes=131072"]
        report, out_dir, _ = self.validate(
            [INCAST, *sets, "--sweep", "switch.buffer_bytes=16384,1048576"])
        self.assertEqual([p["value"] for p in report["points"]], ["16384", "1048576"])
        for point in report["points"]:
            results, _, _ = self.run_scenario(
                [INCAST, *sets, "--set", "switch.buffer_bytes=" + point["value"]])
            for key in ("packets_dropped", "retransmission_timeouts", "retransmitted_segments",
                        "fast_retransmits"):
                self.assertEqual(point[key], results[key], (point["value"], key))
        small, large = report["points"]
        self.assertGreater(small["packets_dropped"], 0)
        self.assertEqual(large["packets_dropped"], 0)  # 1 MiB holds all 8 x 128 KiB
        with open(os.path.join(out_dir, "report.md")) as f:
            md = f.read()
        self.assertIn("losses and recovery", md)
        self.assertIn("Slowdown by class and flow size", md)
        # The flow model has no losses: where the packet run's flow at a percentile
        # retransmitted, no error is given; without losses the error is the plain ratio.
        lossy = small["classes"]["flow"][0]
        self.assertEqual(lossy["class"], "workload")
        self.assertGreater(lossy["lossy_flows"], 0)
        self.assertIsNone(lossy["error_pct"]["p99"])
        clean = large["classes"]["flow"][0]
        self.assertEqual(clean["lossy_flows"], 0)
        packet, model = clean["packet_slowdown"]["p50"], clean["model_slowdown"]["p50"]
        self.assertAlmostEqual(clean["error_pct"]["p50"], 100.0 * (model - packet) / packet)

    def test_slowdown_by_class_equals_the_runs_classes(self):
        scenario = self.write("two-classes.pbtxt", """
            name: "two-classes"
            topology { star { hosts: 8 } }
            links { rate_bps: 1000000000 latency_ns: 1000 }
            transport { kind: LOSSLESS }
            outputs { size_buckets_bytes: [20000] }
            workloads { name: "incast" hosts { range { first: 0 count: 4 } }
                        incast { bytes: 30000 } }
            workloads { name: "background" hosts { range { first: 4 count: 4 } }
                        permutation { bytes: 10000 } }
        """)
        report, _, _ = self.validate([scenario, "--models", "flow"])
        results, _, _ = self.run_scenario([scenario])
        rows = report["points"][0]["classes"]["flow"]
        whole = {r["class"]: r for r in rows if r["min_bytes_exclusive"] == 0
                 and r["max_bytes"] is None}
        self.assertEqual(sorted(whole), ["background", "incast"])
        for c in results["classes"]:
            row = whole[c["name"]]
            self.assertEqual(row["flows"], c["messages_delivered"], c["name"])
            self.assertAlmostEqual(row["packet_slowdown"]["p50"], c["slowdown"]["p50"])
            self.assertAlmostEqual(row["packet_slowdown"]["p99"], c["slowdown"]["p99"])
            self.assertIsNotNone(row["error_pct"]["p50"])
        buckets = [(r["class"], r["max_bytes"]) for r in rows if r not in whole.values()]
        self.assertEqual(buckets, [("incast", None), ("background", 20000)])

    def test_scenarios_lists_and_checks_the_library(self):
        r = run(["scenarios"])
        self.assertEqual(r.returncode, 0, r.stderr)
        files = sorted(os.path.relpath(os.path.join(d, f), LIBRARY)
                       for d, _, names in os.walk(LIBRARY) for f in names
                       if f.endswith(".pbtxt"))
        lines = r.stdout.splitlines()
        self.assertEqual([line.split()[0] for line in lines[:-1]], files)
        self.assertIn("incast.pbtxt  ", r.stdout)
        self.assertIn(f"{len(files)} scenarios", lines[-1])
        self.write("good.pbtxt", 'name: "g" description: "a good one"\n'
                   "topology { star { hosts: 2 } }\n"
                   "workload { flows { flow { src: 0 dst: 1 bytes: 10 } } }\n")
        self.write("bad.pbtxt", "topology { star { hosts: 1 } }\n")
        r = run(["scenarios", "--dir", self.dir])
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("good.pbtxt  g: a good one", r.stdout)
        self.assertRegex(r.stdout, r"bad.pbtxt +BROKEN: .*bad.pbtxt.*hosts")

    def test_fit_writes_a_parameter_file_predict_reads(self):
        params = os.path.join(self.dir, "loggps.json")
        r = run(["fit", PINGPONG, "--model", "loggps", "--out", params])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(params) as f:
            fitted = json.load(f)
        self.assertEqual(fitted["model"], "loggps")
        self.assertEqual(fitted["params"]["S"], 16384)  # from the scenario's protocol
        self.assertLess(fitted["fit"]["max_abs_error_pct"], 2.0)
        r = run(["predict", "--trace", os.path.join(TRACE_DATA, "p2p.tit"), "--model", "loggps",
                 "--params", params])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(predicted_ps(r.stdout), 0)

    def test_predict_refuses_out_of_range_parameters_and_times_instead_of_wrapping(self):
        cases = [("1e17", "h.json: params.alpha: must be <= 1e+12, got 1e+17"),
                 ("1e308", "h.json: params.alpha: must be <= 1e+12, got 1e+308"),
                 ("1e12", "the predicted run time of 9.83055e+17 ns is beyond the largest time")]
        for value, message in cases:
            params = self.write("h.json", '{"model": "hockney", "params": '
                                f'{{"alpha": {value}, "beta": {value}}}}}')
            r = run(["predict", ALLTOALL, "--model", "hockney", "--params", params])
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(message, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertEqual(r.stdout, "")

    def test_errors_are_one_line_with_status_2(self):
        cases = [
            (["validate", ALLTOALL, "--models", "loggps,nosuch"], "unknown model 'nosuch'"),
            (["validate", INCAST, "--models", "loggps"], "validation.models"),
            (["validate", ALLTOALL, "--sweep", "mpi.alltoall.bytes"], "--sweep"),
            (["validate", ALLTOALL, "--sweep", "mpi.alltoall.bytes=1024,,2048"], "empty value"),
            (["validate", ALLTOALL, "--sweep", "mpi.alltoall.bites=1024"], "bites"),
            (["fit", PINGPONG, "--model", "flow"], "no fitted parameters"),
            (["predict", ALLTOALL, "--model", "loggps"], "--params is required"),
            (["predict", ALLTOALL, "--model", "loggps", "--params",
              self.write("bad.json", '{"model": "loggps", "params": {"L": 1}}')], "bad.json"),
            (["validate", ALLTOALL, "--set", "validation.sweep.values=1024,"], "values"),
        ]
        for args, message in cases:
            r = run(args + ["--out", os.path.join(self.dir, "x")] if args[0] == "validate"
                    else args)
            self.assertEqual(r.returncode, 2, (args, r.stdout, r.stderr))
            self.assertIn(message, r.stderr, args)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            # A failed validate writes nothing: no report folder, no params/, no staging folder.
            self.assertEqual(sorted(os.listdir(self.dir)), ["bad.json"], args)

    def test_rerun_into_a_used_folder_leaves_none_of_the_earlier_files(self):
        sets = ["--models", "loggps", "--set", "mpi.pingpong.sizes=1024"]
        _, out_dir, _ = self.validate([PINGPONG, *sets, "--sweep", "mpi.pingpong.sizes=1024,2048",
                                       "--keep-runs"])
        self.assertIn("calls_compare-p1.csv", os.listdir(out_dir))
        self.assertIn("runs", os.listdir(out_dir))
        mine = os.path.join(out_dir, "notes.txt")
        with open(mine, "w") as f:
            f.write("mine")
        _, out_dir, _ = self.validate([PINGPONG, *sets, "--sweep", "mpi.pingpong.sizes=1024"])
        names = os.listdir(out_dir)
        self.assertNotIn("calls_compare-p1.csv", names)
        self.assertNotIn("runs", names)
        self.assertIn("notes.txt", names)
        self.assertEqual(sorted(os.listdir(self.dir)), ["report"])


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
