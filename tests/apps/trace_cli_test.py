#!/usr/bin/env python3
"""End-to-end tests of `netwarp trace convert` and `netwarp trace info`: conversions between
SimGrid time-independent traces, binary and text protobuf traces, and one-line errors with
exit status 2."""
import os
import subprocess
import sys
import tempfile
import unittest

NETWARP = None
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi-emul", "data")


def run(*args):
    return subprocess.run([NETWARP, "trace", *args], capture_output=True, text=True, timeout=120)


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

    def test_missing_argument(self):
        self.assert_one_line_error(["convert", os.path.join(DATA, "p2p.tit")],
                                   "netwarp: error: OUT is required")


if __name__ == "__main__":
    NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
