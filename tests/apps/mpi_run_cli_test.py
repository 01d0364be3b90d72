#!/usr/bin/env python3
"""End-to-end tests of `netwarp run` on MPI scenarios: the library's pingpong and alltoall-ab
scenarios, trace replay with --trace on the default cluster platform, the outputs a person
opens (results.json breakdowns, timeline.json for Perfetto, calls.csv), deadlock reporting,
trace errors as one FILE:LINE line with exit status 2, the same digest on 2 MPI ranks, and MPI
loaded only in MPI jobs (a clear error when its module is missing)."""
import csv
import json
import os
import shutil
import subprocess
import sys
import unittest

import netwarp_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBRARY = os.path.join(ROOT, "scenarios")
TRACE_DATA = os.path.join(ROOT, "tests", "mpi-emul", "data")
BREAKDOWN = ["overhead_ps", "send_wait_ps", "recv_wait_ps", "sync_ps"]


run = netwarp_cli.run


class MpiRunCase(netwarp_cli.ScratchCase):
    def run_mpi(self, args, expect=0, mpi_ranks=0, out="out"):
        return self.run_scenario(args, expect, mpi_ranks, out)

    def check_outputs(self, results, out_dir):
        self.assertGreater(results["run_time_ps"], 0)
        self.assertEqual(len(results["ranks"]), results["world_size"])
        with open(os.path.join(out_dir, "calls.csv")) as f:
            calls = list(csv.DictReader(f))
        with open(os.path.join(out_dir, "timeline.json")) as f:
            timeline = json.load(f)
        slices = [e for e in timeline["traceEvents"] if e["ph"] == "X" and e["cat"] == "mpi"]
        self.assertEqual(len(slices), len(calls))
        self.assertEqual({e["tid"] for e in slices}, {int(c["rank"]) for c in calls})
        for c in calls:  # every call's time is exactly the sum of its parts
            parts = sum(int(c[k]) for k in BREAKDOWN + ["compute_ps"])
            self.assertEqual(int(c["duration_ps"]), parts)
        # Per-rank totals in results.json are the sums of the rank's calls.
        for rank in results["ranks"]:
            mine = [c for c in calls if int(c["rank"]) == rank["rank"]]
            for key in BREAKDOWN:
                self.assertEqual(rank[key], sum(int(c[key]) for c in mine), key)
        self.assertEqual(results["run_time_ps"], max(int(c["end_ps"]) for c in calls))
        return calls

    def test_pingpong_reports_rtt_per_size_and_rendezvous_jump(self):
        results, out_dir, _ = self.run_mpi([os.path.join(LIBRARY, "pingpong.pbtxt"), "--set",
                                            "mpi.pingpong.sizes=1024,16384,16385"])
        self.check_outputs(results, out_dir)
        rtt = {row["bytes"]: row["rtt_mean_ps"] for row in results["pingpong"]}
        self.assertEqual(set(rtt), {1024, 16384, 16385})
        # One byte past S switches to rendezvous: the handshake (4 o' and two control trips
        # per direction) outweighs the cheaper per-byte costs of this scenario.
        self.assertGreater(rtt[16385] - rtt[16384], 0)
        self.assertGreater(rtt[16384], rtt[1024])

    def test_pingpong_w_delays_the_round_trip(self):
        base = ["mpi.pingpong.sizes=64", "mpi.pingpong.repetitions=1"]
        fast, _, _ = self.run_mpi([os.path.join(LIBRARY, "pingpong.pbtxt"), "--set", base[0],
                                   "--set", base[1]], out="w0")
        slow, _, _ = self.run_mpi([os.path.join(LIBRARY, "pingpong.pbtxt"), "--set", base[0],
                                   "--set", base[1], "--set", "mpi.pingpong.w_us=100"], out="w100")
        self.assertGreater(slow["pingpong"][0]["rtt_mean_ps"], 100 * 10**6)
        self.assertLess(fast["pingpong"][0]["rtt_mean_ps"], 100 * 10**6)

    def test_alltoall_a_and_b_on_eight_ranks(self):
        times = {}
        for algorithm in ["algorithm_a", "algorithm_b"]:
            results, out_dir, _ = self.run_mpi(
                [os.path.join(LIBRARY, "alltoall-ab.pbtxt"), "--set", "mpi.ranks=8", "--set",
                 f"mpi.alltoall.algorithm={algorithm}", "--set", "mpi.alltoall.bytes=32768"],
                out=algorithm)
            calls = self.check_outputs(results, out_dir)
            self.assertEqual(len(results["ranks"]), 8)
            self.assertEqual({c["kind"] for c in calls}, {"alltoall"})
            times[algorithm] = results["run_time_ps"]
        self.assertNotEqual(times["algorithm_a"], times["algorithm_b"])

    def test_alltoall_b_gives_the_sequential_digest_on_two_mpi_ranks(self):
        args = [os.path.join(LIBRARY, "alltoall-ab.pbtxt"), "--set", "mpi.ranks=8", "--set",
                "mpi.alltoall.algorithm=algorithm_b", "--set", "mpi.alltoall.bytes=20000"]
        seq, _, _ = self.run_mpi(args, out="seq")
        opt, _, _ = self.run_mpi(args + ["--kernel", "optimistic"], mpi_ranks=2, out="opt")
        self.assertEqual(opt["digest"], seq["digest"])
        self.assertEqual(opt["run_time_ps"], seq["run_time_ps"])

    def test_routes_chosen_per_packet_reorder_the_lossless_streams_and_the_job_completes(self):
        # Valiant and UGAL route each packet of a dragonfly, spraying each packet of a fat
        # tree: a stream's packets arrive out of order and wait for the bytes before them.
        dragonfly = ("topology { dragonfly { routers_per_group: 4 hosts_per_router: 2 "
                     "global_per_router: 2 routing: %s } }\n")
        cases = {"valiant": dragonfly % "VALIANT", "ugal": dragonfly % "UGAL",
                 "sprayed": "topology { fat_tree { k: 4 } multipath { mode: SPRAY_RANDOM } }\n"}
        for name, topology in cases.items():
            with self.subTest(name=name):
                path = self.write(f"{name}.pbtxt", f'name: "{name}"\n{topology}'
                                  "links { rate_bps: 10000000000 latency_ns: 500 }\n"
                                  "mpi { ranks: 16 alltoall { bytes: 100000 } }\n")
                seq, _, _ = self.run_mpi([path], out=f"{name}-seq")
                self.assertTrue(seq["finished"])
                self.assertEqual(seq["messages_matched"], 16 * 15)
                threads, _, _ = self.run_mpi([path, "--threads", "2"], out=f"{name}-threads")
                self.assertEqual(threads["digest"], seq["digest"])
                self.assertEqual(threads["run_time_ps"], seq["run_time_ps"])

    def test_trace_replays_on_the_default_cluster(self):
        results, out_dir, r = self.run_mpi(["--trace", os.path.join(TRACE_DATA, "collectives.tit")])
        calls = self.check_outputs(results, out_dir)
        self.assertEqual(len(results["ranks"]), 4)
        self.assertIn("cluster", r.stdout)
        self.assertIn("trace", results["program"])
        kinds = [c["kind"] for c in calls if c["rank"] == "0"]
        self.assertEqual(kinds[:3], ["barrier", "bcast", "reduce"])

    def test_trace_error_is_one_line_with_file_and_line(self):
        bad = self.write("bad.tit", "0 init\n1 init\n0 send 1 0 100\n1 frobnicate 3\n")
        r = run(["run", "--trace", bad, "--out", os.path.join(self.dir, "x")])
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith(bad + ":4:"), lines[0])

    def test_deadlock_names_the_stuck_ranks(self):
        trace = self.write("deadlock.tit", "0 send 1 0 1000000\n0 recv 1 0 1000000\n"
                                           "1 send 0 0 1000000\n1 recv 0 0 1000000\n")
        results, _, r = self.run_mpi(["--trace", trace], expect=3)
        self.assertFalse(results["finished"])
        self.assertIn("deadlock: rank 0 blocked in send to 1", r.stderr)
        self.assertIn("rank 1 blocked in send to 0", r.stderr)

    def test_trace_on_a_scenario_without_mpi_is_a_usage_error(self):
        r = run(["run", os.path.join(LIBRARY, "two-flows.pbtxt"), "--trace",
                 os.path.join(TRACE_DATA, "collectives.tit"), "--out", os.path.join(self.dir, "x")])
        self.assertEqual(r.returncode, 2)
        self.assertIn("no mpi section", r.stderr)


class MpiModuleCase(netwarp_cli.ScratchCase):
    """MPI comes from lib/libnetwarp_mpi.so beside the program's bin/, loaded in MPI jobs only."""

    def run_with_env(self, program, env, out):
        args = [program, "run", os.path.join(LIBRARY, "two-flows.pbtxt"), "--out",
                os.path.join(self.dir, out)]
        return subprocess.run(args, capture_output=True, text=True, timeout=300,
                              env={**os.environ, **env})

    def test_a_single_process_run_does_not_load_mpi(self):
        r = self.run_with_env(netwarp_cli.NETWARP, {"LD_DEBUG": "files"}, "one")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("libc.so", r.stderr)  # the loader's report is there...
        self.assertNotIn("libmpi", r.stderr)  # ...and names no MPI library
        self.assertNotIn("libnetwarp_mpi", r.stderr)

    def test_an_mpi_job_without_the_module_fails_in_one_line(self):
        program = os.path.join(self.dir, "bin", "netwarp")  # no lib/ beside this bin/
        os.makedirs(os.path.dirname(program))
        shutil.copy(netwarp_cli.NETWARP, program)
        launched = {"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "0"}
        r = self.run_with_env(program, launched, "rank0")
        self.assertEqual(r.returncode, 70)
        self.assertEqual(r.stderr.splitlines(), [
            "netwarp: error: cannot load the MPI module, which an MPI job needs: "
            f"{self.dir}/lib/libnetwarp_mpi.so: cannot open shared object file: "
            "No such file or directory"])
        self.assertFalse(os.path.exists(os.path.join(self.dir, "rank0")))
        r = self.run_with_env(program, {**launched, "OMPI_COMM_WORLD_RANK": "1"}, "rank1")
        self.assertEqual((r.returncode, r.stderr), (70, ""))  # rank 0 alone says it


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
