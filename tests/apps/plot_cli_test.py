#!/usr/bin/env python3
"""End-to-end tests of the time series outputs and `netwarp plot`: the CSV tables beside
results.json, the same tables from the optimistic kernel on 2 MPI ranks, the FCT summary,
`run --plot` and `plot DIR` drawing non-empty PNG and SVG files (packet and MPI runs), and a
folder without results refused in one line; the zoom on the busiest interval when RTO gaps
stretch a run, --from/--to, the log-x FCT CDF, its curves per traffic class, overlays of
several runs, and no stale plot after a re-run."""
import csv
import os
import sys
import unittest

import netwarp_cli

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
SMALL_INCAST = [os.path.join(LIBRARY, "incast.pbtxt"), "--set", "workload.incast.senders=4",
                "--set", "workload.incast.bytes=65536", "--set", "switch.buffer_bytes=16384"]
FIGURES = ["queue_occupancy", "utilisation", "cwnd", "fct_cdf"]


def read(path):
    with open(path) as f:
        return f.read()


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


class TimeSeries(netwarp_cli.ScratchCase):
    def test_tables_sit_beside_results_and_agree_across_kernels(self):
        results, out, _ = self.run_scenario(SMALL_INCAST)
        self.assertEqual(results["sample_interval_ps"], 100_000_000)
        ports = rows(os.path.join(out, "ports_timeseries.csv"))
        flows = rows(os.path.join(out, "flows_timeseries.csv"))
        self.assertTrue(ports and flows)
        self.assertTrue(all(0 <= float(r["utilisation"]) <= 1 for r in ports))
        self.assertEqual(sum(int(r["packets_dropped"]) for r in ports), results["packets_dropped"])
        self.assertEqual(sum(int(r["rto_events"]) for r in flows),
                         results["retransmission_timeouts"])
        fct = results["flow_completion"]
        self.assertEqual(fct["delivered"], 4)
        self.assertTrue(0 < fct["p50_ps"] <= fct["p90_ps"] <= fct["p99_ps"] <= fct["max_ps"])
        self.assertEqual(len(read(os.path.join(out, "fct_cdf.csv")).splitlines()), 5)
        for p in results["ports"]:
            self.assertGreaterEqual(p["busy_utilisation"], p["utilisation"])
        _, parallel, _ = self.run_scenario(SMALL_INCAST + ["--kernel", "optimistic"],
                                           mpi_ranks=2, out="parallel")
        for name in ["ports_timeseries.csv", "flows_timeseries.csv", "fct_cdf.csv"]:
            self.assertEqual(read(os.path.join(out, name)), read(os.path.join(parallel, name)),
                             name)

    def test_interval_zero_switches_the_series_off(self):
        results, out, _ = self.run_scenario(SMALL_INCAST +
                                            ["--set", "outputs.sample_interval_ns=0"])
        self.assertEqual(results["sample_interval_ps"], 0)
        self.assertFalse(os.path.exists(os.path.join(out, "ports_timeseries.csv")))


class Plot(netwarp_cli.ScratchCase):
    def assert_images(self, out, names):
        for name in names:
            for ext in ["png", "svg"]:
                path = os.path.join(out, "plots", f"{name}.{ext}")
                self.assertTrue(os.path.getsize(path) > 1000, path)

    def test_run_with_plot_draws_every_packet_figure(self):
        _, out, r = self.run_scenario(SMALL_INCAST + ["--plot"])
        self.assertIn("plots ", r.stdout)
        self.assert_images(out, FIGURES)
        self.assertIn("rank_breakdown left out", r.stderr)

    def test_plot_of_an_mpi_run_draws_the_rank_breakdown(self):
        _, out, _ = self.run_scenario([os.path.join(LIBRARY, "pingpong.pbtxt")])
        r = netwarp_cli.run(["plot", out, "--top", "4"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_images(out, ["rank_breakdown", "queue_occupancy", "utilisation"])

    def test_rerun_into_a_used_folder_leaves_no_stale_plot(self):
        _, out, _ = self.run_scenario(SMALL_INCAST + ["--plot"])
        self.assert_images(out, FIGURES)
        _, out, _ = self.run_scenario(SMALL_INCAST + ["--set", "switch.buffer_bytes=32768"])
        self.assertFalse(os.path.exists(os.path.join(out, "plots")))
        self.assertEqual(sorted(os.listdir(self.dir)), ["out"])  # no staging folder left

    def test_rto_gaps_get_a_zoom_on_the_busiest_interval(self):
        _, out, _ = self.run_scenario([os.path.join(LIBRARY, "studies", "incast-rto.pbtxt"),
                                       "--plot"])
        self.assert_images(out, [f + "_busy" for f in ["queue_occupancy", "utilisation", "cwnd"]])
        script = read(os.path.join(out, "plots", "utilisation_busy.gp"))
        self.assertIn("zoom on the busiest interval, 0 us to 36.44 ms, of a run that idle gaps "
                      "stretch to 205.1 ms", script)
        self.assertIn("set xrange [0:36.435]", script)
        self.assertIn("set logscale x", read(os.path.join(out, "plots", "fct_cdf.gp")))
        # No gaps: no zoom.
        _, out, _ = self.run_scenario(SMALL_INCAST + ["--set", "switch.buffer_bytes=0", "--plot"],
                                      out="unlimited")
        self.assertFalse(any("_busy" in n for n in os.listdir(os.path.join(out, "plots"))))

    def test_time_window_keeps_the_rows_inside_it(self):
        _, out, _ = self.run_scenario(SMALL_INCAST)
        # Active 0-0.9 ms, then after each retransmission timeout (200 ms, 600 ms).
        r = netwarp_cli.run(["plot", out, "--from", "200ms", "--to", "202ms"])
        self.assertEqual(r.returncode, 0, r.stderr)
        script = read(os.path.join(out, "plots", "queue_occupancy.gp"))
        self.assertIn("set xrange [200:202]", script)
        times = [float(line.split()[0]) for line in script.splitlines()
                 if line[:1].isdigit() and len(line.split()) == 2]
        self.assertTrue(times and all(200 <= t <= 202 for t in times), times[:5])
        self.assertFalse(os.path.exists(os.path.join(out, "plots", "queue_occupancy_busy.gp")))
        r = netwarp_cli.run(["plot", out, "--from", "3ms", "--to", "1ms"])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--from, --to", r.stderr)

    def test_fct_cdf_has_a_curve_per_traffic_class(self):
        _, out, _ = self.run_scenario(SMALL_INCAST)
        flows = rows(os.path.join(out, "flows.csv"))  # a class column, as traffic classes write
        with open(os.path.join(out, "flows.csv"), "w") as f:
            writer = csv.DictWriter(f, fieldnames=list(flows[0]) + ["class"], lineterminator="\n")
            writer.writeheader()
            for i, row in enumerate(flows):
                writer.writerow(dict(row, **{"class": "bulk" if i % 2 else "mice"}))
        r = netwarp_cli.run(["plot", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        script = read(os.path.join(out, "plots", "fct_cdf.gp"))
        self.assertIn("class bulk (2 flows)", script)
        self.assertIn("class mice (2 flows)", script)
        netwarp_cli.run(["plot", out, "--classes", "mice"])
        script = read(os.path.join(out, "plots", "fct_cdf.gp"))
        self.assertNotIn("class bulk", script)

    def test_slowdown_by_size_has_p50_and_p99_lines_per_class(self):
        scenario = os.path.join(self.dir, "classes.pbtxt")
        with open(scenario, "w") as f:
            f.write("""
                topology { star { hosts: 8 } }
                transport { kind: TCP }
                switch { buffer_bytes: 12000 }
                outputs { size_buckets_bytes: [20000] }
                workloads { name: "incast" hosts { range { first: 0 count: 5 } }
                            incast { bytes: 60000 } }
                workloads { name: "mice" hosts { range { first: 5 count: 3 } }
                            permutation { bytes: 3000 } }
            """)
        _, out, _ = self.run_scenario([scenario])
        r = netwarp_cli.run(["plot", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        script = read(os.path.join(out, "plots", "slowdown_by_size.gp"))
        for title in ("class incast p50", "class incast p99", "class mice p50", "class mice p99"):
            self.assertIn(title, script)
        self.assertIn('set xtics ("<= 20 KB" 0, "> 20 KB" 1)', script)
        self.assertIn("set logscale y", script)  # 200 ms timeouts: slowdowns over decades
        mice = script[script.index("$c1 << EOD"):].splitlines()[1].split()
        self.assertEqual(mice[0], "0")  # 3000 B: the first bucket only
        netwarp_cli.run(["plot", out, "--classes", "mice"])
        self.assertNotIn("class incast", read(os.path.join(out, "plots", "slowdown_by_size.gp")))

    def test_several_folders_are_overlaid_with_their_labels(self):
        _, a, _ = self.run_scenario(SMALL_INCAST, out="a")
        _, b, _ = self.run_scenario(SMALL_INCAST + ["--set", "switch.buffer_bytes=65536"], out="b")
        overlay = os.path.join(self.dir, "ab")
        r = netwarp_cli.run(["plot", a, b, "--label", "16 KiB", "--label", "64 KiB", "--out",
                             overlay])
        self.assertEqual(r.returncode, 0, r.stderr)
        for name in ["fct_cdf", "queue_occupancy", "utilisation"]:
            self.assertTrue(os.path.getsize(os.path.join(overlay, f"{name}.png")) > 1000, name)
        script = read(os.path.join(overlay, "fct_cdf.gp"))
        self.assertIn("16 KiB (4 flows)", script)
        self.assertIn("64 KiB (4 flows)", script)
        r = netwarp_cli.run(["plot", a, b, "--out", overlay])  # labels: the folders' names
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("b: sw0 port 0 -> host0", read(os.path.join(overlay, "queue_occupancy.gp")))
        r = netwarp_cli.run(["plot", a, b, "--label", "one"])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--label: 1 labels for 2 folders", r.stderr)

    def test_folder_without_results_is_refused_in_one_line(self):
        r = netwarp_cli.run(["plot", self.dir])
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("no results.json", r.stderr)
        self.assertEqual(r.stdout, "")


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
