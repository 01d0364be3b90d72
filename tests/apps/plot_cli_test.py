#!/usr/bin/env python3
"""End-to-end tests of the time series outputs and `netwarp plot`: the CSV tables beside
results.json, the same tables from the optimistic kernel on 2 MPI ranks, the FCT summary,
`run --plot` and `plot DIR` drawing non-empty PNG and SVG files (packet and MPI runs), and a
folder without results refused in one line."""
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

    def test_folder_without_results_is_refused_in_one_line(self):
        r = netwarp_cli.run(["plot", self.dir])
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("no results.json", r.stderr)
        self.assertEqual(r.stdout, "")


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
