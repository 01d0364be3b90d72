#!/usr/bin/env python3
"""`--threads N`: N partitions as threads of one process give the sequential kernel's results
(digest and every output table), warn once, and refuse what they cannot run in one line."""
import filecmp
import os
import sys
import unittest

import netwarp_cli
from netwarp_cli import run

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
INCAST = [os.path.join(LIBRARY, "incast.pbtxt"), "--set", "workload.incast.senders=6",
          "--set", "workload.incast.bytes=30000", "--set", "switch.buffer_bytes=16384",
          "--set", "engine.few_groups=SPREAD"]
TABLES = ("flows.csv", "ports.csv")


class Threads(netwarp_cli.ScratchCase):
    def test_threads_write_the_sequential_run_s_tables(self):
        sequential, seq_dir, _ = self.run_scenario(INCAST, out="seq")
        self.assertGreater(sequential["packets_dropped"], 0)  # losses: rollbacks likely
        for threads in (2, 3):
            result, out, r = self.run_scenario(
                [*INCAST, "--kernel", "optimistic", "--threads", str(threads)], out=f"t{threads}")
            self.assertEqual(result["digest"], sequential["digest"])
            self.assertEqual(result["ranks"], threads)
            self.assertGreater(result["remote_events_sent"], 0)
            for table in TABLES:
                self.assertTrue(filecmp.cmp(os.path.join(seq_dir, table),
                                            os.path.join(out, table), shallow=False), table)
            self.assertIn(f"thread {threads - 1}:", r.stdout)
            self.assert_balance_line(result, r.stdout)
            self.assertNotIn("peak RSS", r.stdout.split("partition")[1].split("\n")[0])
            self.assertFalse(os.path.exists(os.path.join(out, ".parts")))

    def assert_balance_line(self, result, stdout):
        """The summary's balance line gives the least and most events of any partition."""
        events = [p["events_processed"] for p in result["partitions"]]
        self.assertEqual(len(events), result["ranks"])
        line = next(l for l in stdout.splitlines() if l.startswith("balance "))
        self.assertIn(f"per partition {min(events):,}-{max(events):,} events processed", line)

    def test_more_threads_than_cpus_say_so_on_the_partition_line(self):
        cpus = len(os.sched_getaffinity(0))
        if cpus > 8:
            self.skipTest("more than 8 CPUs: the test keeps to a few threads")
        sequential, _, _ = self.run_scenario(INCAST, out="seq")
        shared, _, r = self.run_scenario([*INCAST, "--threads", str(cpus + 1)], out="shared")
        self.assertEqual(shared["digest"], sequential["digest"])
        line = next(l for l in r.stdout.splitlines() if l.startswith("partition "))
        self.assertIn(f"more partitions than the {cpus} CPUs they may use", line)
        if cpus >= 2:
            _, _, fits = self.run_scenario([*INCAST, "--threads", "2"], out="fits")
            self.assertNotIn("more partitions than", fits.stdout)

    def test_an_mpi_job_s_connections_are_listed_alike_on_threads(self):
        # Beside its workload the job opens a connection per sender and peer host; each peer
        # has several, so their order needs the sender as well as the peer.
        mixed = [os.path.join(LIBRARY, "mixed-leaf-spine.pbtxt")]
        _, seq_dir, _ = self.run_scenario(mixed, out="seq")
        _, out, _ = self.run_scenario([*mixed, "--threads", "2"], out="t")
        for table in ("connections.csv", "flows.csv", "calls.csv"):
            self.assertTrue(filecmp.cmp(os.path.join(seq_dir, table), os.path.join(out, table),
                                        shallow=False), table)

    def test_threads_without_a_kernel_run_the_optimistic_kernel(self):
        sequential, _, _ = self.run_scenario(INCAST, out="seq")
        self.assertEqual(sequential["kernel"], "sequential")
        result, _, _ = self.run_scenario([*INCAST, "--threads", "2"], out="t")
        self.assertEqual(result["kernel"], "optimistic")
        self.assertEqual(result["ranks"], 2)
        self.assertEqual(result["digest"], sequential["digest"])

    def test_bench_phold_on_threads_gives_the_sequential_digest(self):
        # --lps counts LPs per partition: 128 in all both times.
        args = ["bench", "phold", "--end", "100", "--remote", "0.5"]
        digests = []
        for extra in (["--lps", "128"], ["--lps", "64", "--kernel", "optimistic", "--threads", "2"]):
            r = run([*args, *extra])
            self.assertEqual(r.returncode, 0, r.stderr)
            digests.append([l for l in r.stdout.splitlines() if l.startswith("digest")])
        self.assertEqual(digests[0], digests[1])
        self.assertEqual(len(digests[0]), 1)

    def test_a_warning_is_printed_once(self):
        r = run(["run", os.path.join(LIBRARY, "incast.pbtxt"), "--set", "workload.incast.senders=2",
                 "--set", "transport.kind=LOSSLESS", "--set", "switch.flow_control=CREDIT",
                 "--kernel", "optimistic", "--threads", "3", "--out", os.path.join(self.dir, "w")])
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stderr.splitlines()
        self.assertGreater(len(lines), 0)
        self.assertTrue(all("ignored: only used with transport.kind: TCP" in l for l in lines))
        self.assertEqual(len(lines), len(set(lines)), r.stderr)

    def test_refusals_are_one_line(self):
        cases = [
            (["run", "--kernel", "sequential", "--threads", "2"],
             "--kernel: the sequential kernel runs on one partition"),
            (["run", "--set", "engine.kernel=SEQUENTIAL", "--threads", "2"],
             "engine.kernel: the sequential kernel runs on one partition"),
            (["run", "--threads", "0"], "--threads: Value 0 not in range"),
            (["run", "--threads", "two"], "--threads"),
            (["flow", "--threads", "2"], "not expected"),
        ]
        for args, expected in cases:
            with self.subTest(args=args):
                r = run([*args, "--out", os.path.join(self.dir, "x")])
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
                self.assertIn(expected, r.stderr)

    def test_threads_in_every_mpi_process(self):
        sequential, seq_dir, _ = self.run_scenario(INCAST, out="seq")
        result, out, r = self.run_scenario(
            [*INCAST, "--kernel", "optimistic", "--threads", "2"], mpi_ranks=2, out="m")
        self.assertEqual(result["digest"], sequential["digest"])
        self.assertEqual(result["ranks"], 4)
        for table in TABLES:
            self.assertTrue(filecmp.cmp(os.path.join(seq_dir, table), os.path.join(out, table),
                                        shallow=False), table)


if __name__ == "__main__":
    netwarp_cli.NETWARP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
