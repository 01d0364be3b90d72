#!/usr/bin/env python3
"""End-to-end tests of OTF2 input: the example archives in scenarios/traces/ through `netwarp
trace info`, `trace convert`, `run --trace` (the same run as the converted TIT trace;
--compute-scale) and `predict --trace`, and one-line errors with exit status 2."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

NETWARP = None
TRACES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios",
                      "traces")
HALO = os.path.join(TRACES, "otf2-halo", "traces.otf2")
COLLECTIVES = os.path.join(TRACES, "otf2-collectives", "traces.otf2")


def netwarp(*args):
    return subprocess.run([NETWARP, *args], capture_output=True, text=True, timeout=300)


class Otf2Cli(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def out(self, name):
        return os.path.join(self.dir.name, name)

    def run_trace(self, trace, out, *extra):
        r = netwarp("run", "--trace", trace, "--out", self.out(out), *extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.out(out), "results.json")) as f:
            return json.load(f)

    def test_info_counts_the_examples_actions(self):
        r = netwarp("trace", "info", HALO)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("8 ranks, 352 actions", r.stdout)
        self.assertIn("  isend           64", r.stdout)
        self.assertIn("  wait            128", r.stdout)
        r = netwarp("trace", "info", COLLECTIVES)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 ranks, 36 actions", r.stdout)

    def test_archive_and_its_tit_conversion_run_the_same(self):
        r = netwarp("trace", "convert", COLLECTIVES, self.out("c.tit"))
        self.assertEqual(r.returncode, 0, r.stderr)
        a = self.run_trace(COLLECTIVES, "otf2")
        b = self.run_trace(self.out("c.tit"), "tit")
        self.assertTrue(a["finished"])
        self.assertEqual(a["run_time_ps"], b["run_time_ps"])
        self.assertEqual(a["call_kinds"], b["call_kinds"])
        self.assertEqual(a["call_kinds"]["bcast"]["count"], 4)

    def test_compute_scale_stretches_the_measured_compute(self):
        once = self.run_trace(HALO, "x1")
        twice = self.run_trace(HALO, "x2", "--compute-scale", "2")
        self.assertEqual(twice["call_kinds"]["compute"]["time_ps"],
                         2 * once["call_kinds"]["compute"]["time_ps"])
        self.assertGreater(twice["run_time_ps"], once["run_time_ps"])

    def test_compute_scale_needs_a_trace_and_a_sane_value(self):
        r = netwarp("run", "--compute-scale", "2", "--out", self.out("none"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("--compute-scale applies to a --trace replay only", r.stderr)
        r = netwarp("run", "--trace", HALO, "--compute-scale", "-1", "--out", self.out("neg"))
        self.assertEqual(r.returncode, 2)

    def test_predict_reads_the_archive(self):
        r = netwarp("predict", "--trace", COLLECTIVES, "--model", "flow")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("on 4 ranks", r.stdout)

    def test_a_broken_archive_is_one_line_and_exit_2(self):
        path = self.out("traces.otf2")
        with open(path, "w") as f:
            f.write("not an archive\n")
        for command in (["trace", "info", path], ["run", "--trace", path, "--out",
                                                  self.out("bad")]):
            r = netwarp(*command)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn(path + ": not an OTF2 archive", r.stderr)


if __name__ == "__main__":
    NETWARP = sys.argv.pop(1)
    unittest.main()
