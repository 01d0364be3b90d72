#!/usr/bin/env python3
"""End-to-end tests of `netwarp run --sweep`: every point's folder holds what `netwarp run --set`
writes for it, sweep.csv lists the points, a bad value stops the sweep before anything runs, and
what a sweep cannot run is refused in one line."""
import csv
import json
import os
import pty
import subprocess
import sys
import unittest

import netwarp_cli

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
INCAST = os.path.join(LIBRARY, "incast.pbtxt")
SMALL = ["--set", "workload.incast.bytes=65536", "--set", "outputs.sample_interval_ns=0"]
# Timings and memory differ from run to run; everything else is the point's.
RUN_DEPENDENT = ("event_rate", "wall_seconds", "handling_seconds", "peak_rss_bytes",
                 "rank_memory")

run = netwarp_cli.run


class SweepCase(netwarp_cli.ScratchCase):
    def sweep(self, args, out="sweep", expect=0):
        out_dir = os.path.join(self.dir, out)
        r = run(["run", INCAST, *SMALL, *args, "--out", out_dir])
        self.assertEqual(r.returncode, expect, r.stderr)
        return out_dir, r

    def table(self, out_dir):
        with open(os.path.join(out_dir, "sweep.csv")) as f:
            return list(csv.DictReader(f))

    def results(self, folder):
        with open(os.path.join(folder, "results.json")) as f:
            result = json.load(f)
        return {k: v for k, v in result.items() if k not in RUN_DEPENDENT}


class Sweep(SweepCase):
    def test_every_point_is_the_run_its_settings_make(self):
        out_dir, r = self.sweep(["--sweep", "workload.incast.senders=2,6",
                                 "--sweep", "switch.buffer_bytes=8192,65536"])
        points = [("2", "8192"), ("2", "65536"), ("6", "8192"), ("6", "65536")]
        rows = self.table(out_dir)
        self.assertEqual([(row["workload.incast.senders"], row["switch.buffer_bytes"])
                          for row in rows], points)
        self.assertEqual(r.stdout.count("sweep         point "), 4)
        for i, (senders, buffer) in enumerate(points):
            with self.subTest(point=i):
                row = rows[i]
                self.assertEqual((row["point"], row["folder"], row["exit_status"]),
                                 ("p%d" % i, "p%d" % i, "0"))
                alone = os.path.join(self.dir, "alone%d" % i)
                a = run(["run", INCAST, *SMALL, "--set", "workload.incast.senders=" + senders,
                         "--set", "switch.buffer_bytes=" + buffer, "--out", alone])
                self.assertEqual(a.returncode, 0, a.stderr)
                point = os.path.join(out_dir, "p%d" % i)
                self.assertEqual(self.results(point), self.results(alone))
                self.assertEqual(sorted(os.listdir(point)), sorted(os.listdir(alone)))
                tables = [name for name in os.listdir(alone) if name.endswith(".csv")]
                self.assertIn("queues.csv", tables)
                for table in tables:
                    with open(os.path.join(point, table), "rb") as p, \
                            open(os.path.join(alone, table), "rb") as q:
                        self.assertEqual(p.read(), q.read(), table)
                result = self.results(point)
                self.assertEqual(row["digest"], result["digest"])
                self.assertEqual(int(row["messages"]), int(senders))
                self.assertEqual(int(row["messages_delivered"]), result["messages_delivered"])
                self.assertEqual(int(row["completion_time_ps"]), result["completion_time_ps"])
                self.assertEqual(int(row["packets_dropped"]), result["packets_dropped"])
                self.assertEqual(row["completed"], "true")
        # The points differ: a smaller buffer drops more.
        self.assertGreater(int(rows[2]["packets_dropped"]), int(rows[3]["packets_dropped"]))

    def test_a_list_value_is_one_quoted_field(self):
        out_dir, _ = self.sweep(["--sweep", "workload.incast.senders=2;3"])
        self.assertEqual([row["workload.incast.senders"] for row in self.table(out_dir)],
                         ["2", "3"])
        with open(os.path.join(LIBRARY, "torus-alltoall.pbtxt")) as f:
            torus = self.write("torus.pbtxt", f.read())
        out_dir = os.path.join(self.dir, "torus")
        r = run(["run", torus, "--set", "workload.all_to_all.bytes=2000", "--set",
                 "outputs.sample_interval_ns=0", "--sweep", "topology.torus.dims=2,2;3,2",
                 "--out", out_dir])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([row["topology.torus.dims"] for row in self.table(out_dir)],
                         ["2,2", "3,2"])
        self.assertEqual([self.results(os.path.join(out_dir, p))["hosts"] for p in ("p0", "p1")],
                         [4, 6])

    def test_a_smaller_sweep_into_the_same_folder_leaves_no_point_of_the_larger(self):
        out_dir, _ = self.sweep(["--sweep", "workload.incast.senders=2,3,4"])
        self.assertIn("p2", os.listdir(out_dir))
        self.sweep(["--sweep", "workload.incast.senders=5"])
        self.assertEqual(sorted(os.listdir(out_dir)), ["p0", "sweep.csv"])
        self.assertEqual([row["workload.incast.senders"] for row in self.table(out_dir)], ["5"])

    def test_plotting_a_sweeps_folder_points_at_its_points(self):
        out_dir, _ = self.sweep(["--sweep", "workload.incast.senders=2,3"])
        r = run(["plot", out_dir])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("holds a sweep", r.stderr)
        self.assertIn(os.path.join(out_dir, "p0"), r.stderr)
        r = run(["plot", os.path.join(out_dir, "p0")])
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_bad_value_stops_the_sweep_before_any_point_runs(self):
        out_dir, r = self.sweep(["--sweep", "workload.incast.senders=2,3,500"], expect=2)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn("workload.incast.senders", lines[0])
        self.assertEqual(r.stdout, "")
        self.assertFalse(os.path.exists(out_dir))

    def test_what_a_sweep_cannot_take_is_refused_in_one_line(self):
        cases = {
            "malformed": (["--sweep", "workload.incast.senders"], "--sweep: "),
            "twice": (["--sweep", "seed=1,2", "--sweep", "seed=3"], "seed is swept twice"),
            "empty value": (["--sweep", "seed=1,,2"], "empty value"),
        }
        for name, (args, fragment) in cases.items():
            with self.subTest(case=name):
                out_dir, r = self.sweep(args, out=name, expect=2)
                lines = r.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                self.assertIn(fragment, lines[0])
                self.assertFalse(os.path.exists(out_dir))
        out_dir = os.path.join(self.dir, "trace")
        trace = os.path.join(LIBRARY, "traces", "otf2-halo", "traces.otf2")
        r = run(["run", "--trace", trace, "--sweep", "mpi.pingpong.sizes=64;128", "--out",
                 out_dir])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("--trace replaces", r.stderr)
        self.assertFalse(os.path.exists(out_dir))

    def test_under_mpirun_a_sweep_is_refused_once(self):
        out_dir = os.path.join(self.dir, "mpirun")
        r = run(["run", INCAST, *SMALL, "--sweep", "seed=1,2", "--out", out_dir], mpi_ranks=2)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.count("not under mpirun"), 1, r.stderr)
        self.assertFalse(os.path.exists(out_dir))

    def test_an_mpi_program_is_swept_as_its_runs_of_its_own(self):
        pingpong = os.path.join(LIBRARY, "pingpong.pbtxt")
        out_dir = os.path.join(self.dir, "mpi")
        r = run(["run", pingpong, "--sweep", "mpi.pingpong.sizes=64;65536", "--sweep",
                 "links.rate_bps=10G,100G", "--out", out_dir])
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = self.table(out_dir)
        self.assertEqual(len(rows), 4)
        times = [int(row["mpi_run_time_ps"]) for row in rows]
        self.assertLess(times[0], times[2])  # 64 B against 64 KiB at 10 Gbit/s
        self.assertLess(times[3], times[2])  # 64 KiB at 100 against 10 Gbit/s
        alone = os.path.join(self.dir, "alone")
        a = run(["run", pingpong, "--set", "mpi.pingpong.sizes=65536", "--set",
                 "links.rate_bps=100G", "--out", alone])
        self.assertEqual(a.returncode, 0, a.stderr)
        self.assertEqual(self.results(os.path.join(out_dir, "p3")), self.results(alone))
        self.assertEqual(int(rows[3]["mpi_run_time_ps"]), self.results(alone)["run_time_ps"])
        self.assertEqual(rows[3]["digest"], self.results(alone)["digest"])
        self.assertEqual(rows[3]["completed"], "true")

    def test_partitions_as_threads_give_each_point_its_sequential_digest(self):
        args = ["--sweep", "workload.incast.senders=2,5"]
        seq_dir, _ = self.sweep(args, out="sequential")
        thr_dir, _ = self.sweep(args + ["--threads", "2"], out="threads")
        self.assertEqual([row["digest"] for row in self.table(seq_dir)],
                         [row["digest"] for row in self.table(thr_dir)])


class SweepSideBySide(SweepCase):
    """--jobs N: points in processes forked from the sweep's, up to N at once."""

    def without_timings(self, rows):
        return [{k: v for k, v in row.items() if k != "wall_seconds"} for row in rows]

    def test_points_side_by_side_are_the_points_one_after_another(self):
        args = ["--sweep", "workload.incast.senders=2,4,6", "--sweep",
                "switch.buffer_bytes=8192,65536"]
        one_dir, one = self.sweep(args, out="one")
        two_dir, two = self.sweep(args + ["--jobs", "3"], out="three")
        self.assertEqual(self.without_timings(self.table(two_dir)),
                         self.without_timings(self.table(one_dir)))
        self.assertEqual(len(self.table(two_dir)), 6)
        for i in range(6):
            point = "p%d" % i
            self.assertEqual(self.results(os.path.join(two_dir, point)),
                             self.results(os.path.join(one_dir, point)))
            for table in os.listdir(os.path.join(one_dir, point)):
                if table.endswith(".csv"):
                    with open(os.path.join(one_dir, point, table), "rb") as a, \
                            open(os.path.join(two_dir, point, table), "rb") as b:
                        self.assertEqual(a.read(), b.read(), point + "/" + table)
            # Each point's block of lines is printed once, whole.
            self.assertEqual(two.stdout.count("(%s):" % point), 1)
            self.assertEqual(two.stdout.count("results       %s" % os.path.join(two_dir, point)),
                             1)

    def test_a_point_that_fails_in_its_process_gives_its_status_and_line(self):
        out_dir = os.path.join(self.dir, "failing")
        os.makedirs(out_dir)
        with open(os.path.join(out_dir, "p1"), "w") as f:  # a file where p1's folder goes
            f.write("not a folder")
        _, r = self.sweep(["--sweep", "workload.incast.senders=2,3,4", "--jobs", "2"],
                          out="failing", expect=2)
        errors = r.stderr.strip().splitlines()
        self.assertEqual(len(errors), 1, r.stderr)
        self.assertIn("p1", errors[0])
        rows = self.table(out_dir)
        self.assertEqual([row["exit_status"] for row in rows], ["0", "2", "0"])
        self.assertEqual(rows[1]["digest"], "")
        self.assertNotEqual(rows[2]["digest"], "")

    def test_an_unfinished_point_keeps_its_results_and_status(self):
        _, r = self.sweep(["--sweep", "end_time_ns=0,1000000", "--jobs", "2"], out="end",
                          expect=4)
        rows = self.table(os.path.join(self.dir, "end"))
        self.assertEqual([row["exit_status"] for row in rows], ["0", "4"])
        self.assertEqual([row["completed"] for row in rows], ["true", "false"])

    def on_a_terminal(self, args):
        """The sweep's stdout and stderr on a terminal, as a person runs it: what it drew."""
        master, slave = pty.openpty()
        env = dict(os.environ)
        env.pop("CI", None)  # CI=true turns the progress line off
        p = subprocess.Popen([netwarp_cli.NETWARP, "run", INCAST, "--set",
                              "workload.incast.bytes=32MiB", "--set",
                              "outputs.sample_interval_ns=0", *args], stdout=slave,
                             stderr=slave, env=env)
        os.close(slave)
        drawn = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
        self.assertEqual(p.wait(timeout=300), 0, drawn)
        return drawn.decode(errors="replace")

    def test_on_a_terminal_points_side_by_side_draw_no_progress_line(self):
        points = ["--sweep", "workload.incast.senders=48,64"]
        alone = self.on_a_terminal(points + ["--out", os.path.join(self.dir, "one")])
        self.assertIn("[netwarp] t = ", alone)  # a point of a second or so draws it
        beside = self.on_a_terminal(points + ["--jobs", "2", "--out",
                                              os.path.join(self.dir, "two")])
        self.assertNotIn("[netwarp] t = ", beside)
        for point in ("p0", "p1"):  # each point's block whole: its header, then its results line
            header = beside.index("(%s):" % point)
            results = beside.index("results       " + os.path.join(self.dir, "two", point))
            self.assertNotIn("sweep         point", beside[header:results])

    def test_jobs_without_a_sweep_or_beside_threads_are_refused(self):
        for args, fragment in ((["--jobs", "2"], "give --sweep"),
                               (["--sweep", "seed=1,2", "--jobs", "2", "--threads", "2"],
                                "not with --threads")):
            with self.subTest(args=args):
                _, r = self.sweep(args, out="refused", expect=2)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(fragment, r.stderr)


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
