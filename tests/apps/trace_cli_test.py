#!/usr/bin/env python3
"""End-to-end tests of `netwarp trace convert`, `netwarp trace info` and `netwarp trace
generate`: conversions between SimGrid time-independent traces, binary and text protobuf
traces, the synthetic applications written as TIT and replayed by `netwarp run` (the same run
time as the scenario kernel of the same application), and one-line errors with exit status 2."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

NETWARP = None
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi-emul", "data")


def run(*args):
    return subprocess.run([NETWARP, "trace", *args], capture_output=True, text=True, timeout=120)


def netwarp_run(*args):
    return subprocess.run([NETWARP, "run", *args], capture_output=True, text=True, timeout=120)


# A 4-host lossless star with eager limit S = 16383 (seed 000's Myrinet value), for the
# generated applications.
PLATFORM = """name: "generated"
topology { star { hosts: 4 } }
links { rate_bps: 10000000000 latency_ns: 500 }
mpi {
  host { o_ns: 1500 flops: 2e9 }
  protocol { eager_bytes: 16383 }
  %s
}
"""


def kind_lines(info_stdout):
    """The per-kind counts of `trace info` (indented lines), without the input's name."""
    return [line for line in info_stdout.splitlines() if line.startswith("  ")]


class Convert(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def out(self, name):
        return os.path.join(self.dir.name, name)

    def test_tit_to_binary_to_text_keeps_every_action(self):
        r = run("convert", os.path.join(DATA, "collectives.tit"), self.out("c.pb"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 ranks, 52 actions", r.stdout)
        r = run("convert", self.out("c.pb"), self.out("c.pbtxt"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out("c.pbtxt")) as f:
            text = f.read()
        self.assertIn("reduce_scatter {", text)
        self.assertIn("source_file:", text)
        info = run("info", self.out("c.pbtxt"))
        self.assertEqual(info.returncode, 0, info.stderr)
        self.assertIn("  alltoallv       4", info.stdout)
        self.assertEqual(kind_lines(info.stdout),
                         kind_lines(run("info", os.path.join(DATA, "collectives.tit")).stdout))

    def test_directory_file_and_list_give_the_same_actions(self):
        infos = [run("info", os.path.join(DATA, name)) for name in
                 ["p2p.tit", "p2p_ranks", "p2p_ranks.list"]]
        for info in infos:
            self.assertEqual(info.returncode, 0, info.stderr)
            self.assertIn("3 ranks, 18 actions", info.stdout)
        self.assertEqual(kind_lines(infos[0].stdout), kind_lines(infos[1].stdout))
        self.assertEqual(kind_lines(infos[0].stdout), kind_lines(infos[2].stdout))


class Generate(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def out(self, name):
        return os.path.join(self.dir.name, name)

    def generate(self, *args):
        r = run("generate", *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def results(self, *args):
        out_dir = self.out("run-%d" % len(os.listdir(self.dir.name)))
        r = netwarp_run(*args, "--out", out_dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out_dir, "results.json")) as f:
            return json.load(f)

    def test_gauss_tit_replays_on_the_default_platform(self):
        stdout = self.generate("gauss", "--ranks", "4", "--n", "8", "--out", self.out("g.tit"))
        # n = 8, P = 4: 7 steps of 3 hops; 3 x 16 x (7 + 6 + ... + 1) bytes.
        self.assertEqual(stdout.strip(), "netwarp trace generate: gauss, 4 ranks, 64 actions, "
                         "21 messages, 1344 bytes sent -> " + self.out("g.tit"))
        with open(self.out("g.tit")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[:3], ["0 init", "0 send 1 0 112", "0 compute 16"])
        results = self.results("--trace", self.out("g.tit"))
        self.assertTrue(results["finished"])
        self.assertGreater(results["run_time_ps"], 0)

    def test_scenario_kernel_equals_replay_of_the_generated_trace(self):
        cases = [
            ("gauss { n: 64 }", ["gauss", "--n", "64"]),
            ('gauss { n: 64 fragment_bytes: 200 forward: "isend" }',
             ["gauss", "--n", "64", "--fragment", "200", "--forward", "isend"]),
            ('npb { app: "cg" iterations: 1 }', ["cg", "--iterations", "1"]),
            ('npb { app: "lu" size_class: "W" iterations: 2 }',
             ["lu", "--class", "W", "--iterations", "2"]),
        ]
        for i, (kernel, generate) in enumerate(cases):
            with self.subTest(kernel=kernel):
                scenario = self.out("s%d.pbtxt" % i)
                with open(scenario, "w") as f:
                    f.write(PLATFORM % kernel)
                trace = self.out("t%d.tit" % i)
                self.generate(*generate, "--ranks", "4", "--out", trace)
                kernel_run = self.results(scenario)
                replay = self.results(scenario, "--trace", trace)
                self.assertTrue(kernel_run["finished"])
                self.assertEqual(kernel_run["run_time_ps"], replay["run_time_ps"])

    def test_scenario_kernel_errors_name_file_line_and_field(self):
        cases = [
            ("gauss { n: 2 }", ":7:11: mpi.gauss.n: must be >= ranks (4), got 2"),
            ('gauss { n: 64 forward: "later" }',
             ":7:17: mpi.gauss.forward: must be blocking or isend, got 'later'"),
            ('npb { app: "ft" }', ":7:9: mpi.npb.app: must be cg or lu, got 'ft'"),
            ('npb { app: "cg" size_class: "E" }',
             ":7:19: mpi.npb.size_class: must be S, W, A or B, got 'E'"),
        ]
        for kernel, expected in cases:
            with self.subTest(kernel=kernel):
                scenario = self.out("bad.pbtxt")
                with open(scenario, "w") as f:
                    f.write(PLATFORM % kernel)
                r = netwarp_run(scenario, "--out", self.out("bad"))
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stderr.strip(), scenario + expected)

    def test_protobuf_output_holds_the_same_actions(self):
        self.generate("lu", "--ranks", "4", "--iterations", "1", "--out", self.out("lu.tit"))
        self.generate("lu", "--ranks", "4", "--iterations", "1", "--out", self.out("lu.pb"))
        self.assertEqual(kind_lines(run("info", self.out("lu.tit")).stdout),
                         kind_lines(run("info", self.out("lu.pb")).stdout))


class Errors(unittest.TestCase):
    def assert_one_line_error(self, args, expected):
        r = run(*args)
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith(expected), lines[0])
        self.assertEqual(r.stdout, "")

    def test_malformed_line_names_file_and_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.tit")
            with open(path, "w") as f:
                f.write("0 init\n0 compute many\n")
            self.assert_one_line_error(["convert", path, os.path.join(d, "out.pb")],
                                       path + ":2: compute: FLOPS 'many' is not a number")
            self.assertFalse(os.path.exists(os.path.join(d, "out.pb")))

    def test_missing_input(self):
        self.assert_one_line_error(["info", "/nonexistent/trace.tit"],
                                   "/nonexistent/trace.tit: no such file or directory")

    def test_unknown_output_format(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out.json")
            self.assert_one_line_error(["convert", os.path.join(DATA, "p2p.tit"), out],
                                       out + ": cannot tell the output format")

    def test_generate_bad_options(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "x.tit")
            self.assert_one_line_error(
                ["generate", "cg", "--ranks", "6", "--out", out],
                "netwarp: error: trace generate: cg.ranks: must be a power of two >= 2, got 6")
            self.assert_one_line_error(
                ["generate", "gauss", "--ranks", "16", "--n", "8", "--out", out],
                "netwarp: error: trace generate: gauss.n: must be >= ranks (16), got 8")
            self.assert_one_line_error(
                ["generate", "gauss", "--ranks", "4", "--class", "A", "--out", out],
                "netwarp: error: trace generate gauss: --class applies to cg and lu only")
            self.assert_one_line_error(
                ["generate", "lu", "--ranks", "4", "--fragment", "100", "--out", out],
                "netwarp: error: trace generate lu: --fragment applies to gauss only")
            self.assert_one_line_error(
                ["generate", "gauss", "--ranks", "4", "--forward", "async", "--out", out],
                "netwarp: error: --forward: async not in {blocking,isend}")
            self.assert_one_line_error(["generate", "ft", "--ranks", "4", "--out", out],
                                       "netwarp: error: APP: ft not in {gauss,cg,lu}")
            self.assert_one_line_error(["generate", "gauss", "--out", out],
                                       "netwarp: error: --ranks is required")
            self.assertFalse(os.path.exists(out))

    def test_missing_argument(self):
        self.assert_one_line_error(["convert", os.path.join(DATA, "p2p.tit")],
                                   "netwarp: error: OUT is required")


if __name__ == "__main__":
    NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
