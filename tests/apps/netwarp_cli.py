"""Shared by the end-to-end tests: running the netwarp program (optionally under mpirun) and a
test case with a scratch folder that runs scenarios and reads their results.json."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

NETWARP = None  # set from the command line by each test script


def run(args, mpi_ranks=0, cwd=None):
    cmd = [NETWARP] + args
    if mpi_ranks:
        root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
        cmd = [shutil.which("mpirun") or "mpirun", "--oversubscribe", *root, "-np",
               str(mpi_ranks)] + cmd
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=cwd)


class ScratchCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_scenario(self, args, expect=0, mpi_ranks=0, out="out"):
        """`netwarp run ARGS --out DIR/out`: (results.json, out folder, completed process)."""
        out_dir = os.path.join(self.dir, out)
        r = run(["run", *args, "--out", out_dir], mpi_ranks)
        self.assertEqual(r.returncode, expect, r.stderr)
        with open(os.path.join(out_dir, "results.json")) as f:
            return json.load(f), out_dir, r
