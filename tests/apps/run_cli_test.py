#!/usr/bin/env python3
"""End-to-end tests of `netwarp run`: scenario errors as one line starting with the file name,
--set overrides, the results.json fields, the same digest from mpirun with 2 ranks, and pcap files
that tshark reads back with the right packet counts and TCP sequence numbers."""
import csv
import json
import os
import shutil
import subprocess
import sys
import unittest

import netwarp_cli

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
SMALL_INCAST = ["--set", "workload.incast.senders=4", "--set", "workload.incast.bytes=65536",
                "--set", "switch.buffer_bytes=16384"]

TWO_HOSTS = """
name: "pcap-pair"
topology { star { hosts: 2 } }
links { rate_bps: 1000000000 latency_ns: 2000 }
switch { buffer_bytes: 1048576 }
transport { kind: TCP }
workload { flows { flow { src: 0 dst: 1 bytes: 100000 start_ns: 0 } } }
outputs {
  pcap_nodes: "host0" pcap_nodes: "host1"
  pcap_ports { toward_host: "host1" }  # a mirror of the switch port that leads to host1
}
"""


run = netwarp_cli.run


class RunCase(netwarp_cli.ScratchCase):
    def run_ok(self, args, mpi_ranks=0, out="out"):
        return self.run_scenario(args, mpi_ranks=mpi_ranks, out=out)


class ScenarioErrors(RunCase):
    def assert_error_line(self, args, prefix, fragment):
        r = run(["run", *args, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith(prefix), lines[0])
        self.assertIn(fragment, lines[0])
        self.assertEqual(r.stdout, "")

    def test_syntax_error_names_file_line_and_column(self):
        path = self.write("broken.pbtxt", 'name: "x"\ntopology {\n  star { hosts: 4 \n')
        self.assert_error_line([path], path + ":", "")
        r = run(["run", path])
        self.assertRegex(r.stderr, r"^" + path + r":\d+:\d+: ")

    def test_semantic_error_names_the_field_where_it_was_written(self):
        text = TWO_HOSTS.replace("buffer_bytes: 1048576", "buffer_bytes: 100")
        path = self.write("small-buffer.pbtxt", text)
        self.assert_error_line([path], path + ":5:", "switch.buffer_bytes")

    def test_unknown_set_path_is_an_error(self):
        self.assert_error_line(["--set", "switch.bufer_bytes=5"], "<built-in incast>",
                               "bufer_bytes")

    def test_missing_scenario_file(self):
        self.assert_error_line([os.path.join(self.dir, "none.pbtxt")],
                               os.path.join(self.dir, "none.pbtxt"), "cannot open")


class RunResults(RunCase):
    def test_built_in_default_writes_the_documented_fields(self):
        result, out_dir, r = self.run_ok(SMALL_INCAST)
        for field in ["events_committed", "event_rate", "wall_seconds", "digest",
                      "completion_time_ps", "packets_dropped", "retransmission_timeouts",
                      "retransmitted_segments", "fast_retransmits", "flows", "ports"]:
            self.assertIn(field, result)
        self.assertEqual(result["messages"], 4)
        self.assertEqual(result["messages_delivered"], 4)
        self.assertEqual(len(result["flows"]), 4)
        self.assertGreater(result["completion_time_ps"], 4 * 65536 * 8 * 1000)  # >= 4 x 64 KiB at 1 Gbit/s
        self.assertIn(result["digest"], r.stdout)
        self.assertEqual(r.stderr, "")  # quiet without a terminal
        with open(os.path.join(out_dir, "flows.csv")) as f:
            self.assertEqual(len(list(csv.DictReader(f))), 4)
        self.assertTrue(os.path.exists(os.path.join(out_dir, "queues.csv")))

    def test_library_incast_takes_the_documented_overrides(self):
        result, _, _ = self.run_ok([os.path.join(LIBRARY, "incast.pbtxt"), *SMALL_INCAST])
        self.assertEqual(result["messages"], 4)
        self.assertIn("senders: 4", result["effective_scenario"])
        self.assertIn("buffer_bytes: 16384", result["effective_scenario"])

    def test_optimistic_on_two_ranks_gives_the_sequential_digest(self):
        sequential, _, _ = self.run_ok(SMALL_INCAST, out="seq")
        optimistic, _, _ = self.run_ok([*SMALL_INCAST, "--kernel", "optimistic"], mpi_ranks=2,
                                       out="opt")
        self.assertEqual(optimistic["ranks"], 2)
        self.assertEqual(optimistic["digest"], sequential["digest"])
        self.assertEqual(optimistic["completion_time_ps"], sequential["completion_time_ps"])
        self.assertEqual(optimistic["flows"], sequential["flows"])
        # No sentinel numbers: a sequential run has no optimism window (null), nor has a star
        # on two ranks (one rank holds every LP and needs none); spread over both ranks, the
        # default window is in force.
        self.assertIsNone(sequential["window_us"])
        self.assertEqual(optimistic["sole_rank"], 0)
        self.assertIsNone(optimistic["window_us"])
        self.assertEqual(optimistic["events_rolled_back"], 0)
        spread, _, _ = self.run_ok([*SMALL_INCAST, "--kernel", "optimistic", "--set",
                                    "engine.few_groups=SPREAD"], mpi_ranks=2, out="spread")
        self.assertEqual(spread["digest"], sequential["digest"])
        self.assertIsNone(spread["sole_rank"])
        self.assertGreater(spread["window_us"], 0)
        self.assertGreater(spread["remote_events_sent"], 0)

    def test_tight_optimism_caps_from_the_command_line_keep_the_sequential_digest(self):
        sequential, _, _ = self.run_ok(SMALL_INCAST, out="seq")
        capped, _, _ = self.run_ok([*SMALL_INCAST, "--kernel", "optimistic", "--window", "0",
                                    "--max-uncommitted", "4", "--max-uncommitted-bytes", "65536",
                                    "--set", "engine.few_groups=SPREAD"],
                                   mpi_ranks=2, out="capped")
        self.assertEqual(capped["digest"], sequential["digest"])
        self.assertLess(capped["peak_uncommitted"], 16)  # 4, and events at GVT's instant
        self.assertIn("rolled_back_for_memory", capped)


# results.json fields that depend on the kernel, the rank count or the machine.
RUN_DEPENDENT = ("kernel", "sync", "ranks", "events_processed", "events_safe",
                 "events_rolled_back",
                 "rolled_back_primary", "rolled_back_secondary", "rolled_back_for_memory",
                 "rollbacks", "remote_events_sent", "anti_messages_sent", "gvt_rounds", "sole_rank",
                 "efficiency", "event_rate", "wall_seconds", "handling_seconds",
                 "communication_seconds", "gvt_seconds", "fossil_seconds", "peak_rss_bytes",
                 "peak_events_in_memory", "peak_uncommitted", "peak_engine_bytes_in_use",
                 "engine_bytes_at_peak", "engine_bytes_per_event", "event_store_bytes_at_peak",
                 "event_store_bytes_per_event", "window_us")


class StreamedResults(RunCase):
    """Every rank writes its own records and rank 0 merges them into the streamed results.json:
    the file is the same text whatever the kernel and rank count (the run-dependent engine lines
    aside), the CSV tables are byte-identical, and no part file is left behind."""

    def text_without_run_dependent_lines(self, out_dir):
        with open(os.path.join(out_dir, "results.json")) as f:
            lines = f.read().splitlines()
        # rank_memory and partitions: one object per rank, over several lines (partitions: none
        # for the sequential kernel).
        for array in ("rank_memory", "partitions"):
            if '  "%s": [],' % array in lines:
                lines.remove('  "%s": [],' % array)
                continue
            start = lines.index('  "%s": [' % array)
            end = lines.index("  ],", start)
            lines = lines[:start] + lines[end + 1:]
        return [line for line in lines
                if not any(line.strip().startswith('"%s":' % key) for key in RUN_DEPENDENT)]

    def assert_rank_memory(self, result, ranks):
        memory = result["rank_memory"]
        self.assertEqual([m["rank"] for m in memory], list(range(ranks)))
        for m in memory:
            self.assertGreater(m["start_rss_bytes"], 0)
            self.assertLessEqual(m["start_rss_bytes"], m["built_peak_rss_bytes"])
            self.assertLessEqual(m["built_peak_rss_bytes"], m["peak_rss_bytes"])
        self.assertEqual(result["peak_rss_bytes"], max(m["peak_rss_bytes"] for m in memory))

    def assert_partitions(self, result, ranks, sequential):
        """Every rank's share, in rank order: each committed events of its own, and together
        the sequential run's."""
        partitions = result["partitions"]
        self.assertEqual([p["rank"] for p in partitions], list(range(ranks)))
        for p in partitions:
            self.assertGreater(p["events_committed"], 0, p)
        self.assertEqual(sum(p["events_committed"] for p in partitions),
                         sequential["events_committed"])

    def test_sequential_and_optimistic_on_1_2_4_ranks_write_the_same_files(self):
        args = [os.path.join(LIBRARY, "fat-tree-alltoall.pbtxt"),
                "--set", "workload.all_to_all.bytes=3000"]
        sequential, seq_dir, _ = self.run_ok(args, out="seq")
        self.assert_rank_memory(sequential, 1)
        self.assertEqual(sequential["partitions"], [])
        expected = self.text_without_run_dependent_lines(seq_dir)
        self.assertIn('  "flows": [', expected)
        for ranks in (0, 2, 4):
            with self.subTest(ranks=ranks):
                result, out_dir, _ = self.run_ok([*args, "--kernel", "optimistic"],
                                                 mpi_ranks=ranks, out="opt%d" % ranks)
                self.assertEqual(self.text_without_run_dependent_lines(out_dir), expected)
                tables = ["fct_cdf.csv", "flows.csv", "ports.csv", "ports_timeseries.csv"]
                for table in tables:
                    with open(os.path.join(seq_dir, table), "rb") as a, \
                            open(os.path.join(out_dir, table), "rb") as b:
                        self.assertEqual(a.read(), b.read(), table)
                self.assertEqual(sorted(os.listdir(out_dir)), sorted([*tables, "results.json"]))
                self.assert_rank_memory(result, max(ranks, 1))
                self.assert_partitions(result, max(ranks, 1), sequential)

    def test_records_spilled_in_small_runs_give_the_same_files(self):
        # The library incast traces its bottleneck queue and samples time series (about 26 KB of
        # records): with a 512-byte record buffer a rank writes dozens of sorted runs and merges
        # them, 8 at a time and at the end.
        args = [os.path.join(LIBRARY, "incast.pbtxt"), *SMALL_INCAST]
        _, memory_dir, _ = self.run_ok(args, out="memory")
        expected = [line for line in self.text_without_run_dependent_lines(memory_dir)
                    if not line.strip().startswith('"effective_scenario":')]
        tables = sorted(name for name in os.listdir(memory_dir) if name.endswith(".csv"))
        self.assertIn("queues.csv", tables)
        spilled = [*args, "--set", "engine.record_buffer_bytes=512"]
        # MPI ranks write part files; threads hand their runs and buffers over in memory.
        for ranks, threads in ((0, 0), (2, 0), (0, 2), (0, 3)):
            with self.subTest(ranks=ranks, threads=threads):
                kernel = ["--kernel", "optimistic"] if ranks else []
                if threads:
                    kernel = ["--threads", str(threads), "--set", "engine.few_groups=SPREAD"]
                _, out_dir, _ = self.run_ok([*spilled, *kernel], mpi_ranks=ranks,
                                            out="spilled%d-%d" % (ranks, threads))
                text = [line for line in self.text_without_run_dependent_lines(out_dir)
                        if not line.strip().startswith('"effective_scenario":')]
                self.assertEqual(text, expected)
                for table in tables:
                    with open(os.path.join(memory_dir, table), "rb") as a, \
                            open(os.path.join(out_dir, table), "rb") as b:
                        self.assertEqual(a.read(), b.read(), table)
                self.assertEqual(sorted(os.listdir(out_dir)), sorted(os.listdir(memory_dir)))

    def test_outputs_written_side_by_side_are_the_files_one_thread_writes(self):
        # Past 10,000 rows on a helper's side (kSideBySideRows, network_outputs.hpp) the files
        # are shared out over two threads: a torus of 10,648 nodes and 5,324 messages (the
        # tables beside results.json), and the library's incast (a queue trace and time series
        # of 175,000 rows, shared out between results.json's thread and the helper; here with a
        # pcap file, a port mirror and the cwnd trace too). `taskset -c 0` leaves the process
        # one CPU, and so one thread for all of them.
        if len(os.sched_getaffinity(0)) < 2 or not shutil.which("taskset"):
            self.skipTest("needs 2 CPUs and taskset")
        torus = self.write("torus.pbtxt", """name: "torus-permutation"
topology { torus { dims: [22, 22, 11] } }
links { rate_bps: 8000000000 latency_ns: 100 }
switch { buffer_bytes: 65536 flow_control: CREDIT }
transport { kind: LOSSLESS }
workload { permutation { bytes: 4000 } }
""")
        with open(os.path.join(LIBRARY, "incast.pbtxt")) as f:
            incast = self.write("incast.pbtxt", f.read().replace("outputs {", """outputs {
  pcap_nodes: "host1"
  pcap_ports { toward_host: "host1" }
  cwnd_trace: true""", 1))
        runs = {"sequential": [torus], "threads": [torus, "--threads", "2"], "incast": [incast]}
        for name, args in runs.items():
            with self.subTest(run=name):
                one_dir = os.path.join(self.dir, name + "-one-cpu")
                r = subprocess.run(["taskset", "-c", "0", netwarp_cli.NETWARP, "run", *args,
                                    "--out", one_dir], capture_output=True, text=True,
                                   timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr)
                _, two_dir, _ = self.run_ok(args, out=name + "-two-cpus")
                self.assertEqual(self.text_without_run_dependent_lines(two_dir),
                                 self.text_without_run_dependent_lines(one_dir))
                files = sorted(name for name in os.listdir(one_dir) if name != "results.json")
                self.assertIn("ports_timeseries.csv", files)
                if name == "incast":
                    for kind in ("queues.csv", "cwnd.csv", "host1.pcap", "sw0.p1.pcap"):
                        self.assertIn(kind, files)
                self.assertEqual(sorted(os.listdir(two_dir)), sorted(os.listdir(one_dir)))
                for table in files:
                    with open(os.path.join(one_dir, table), "rb") as a, \
                            open(os.path.join(two_dir, table), "rb") as b:
                        self.assertEqual(a.read(), b.read(), table)

    def test_ports_lists_only_ports_that_carried_traffic(self):
        result, _, _ = self.run_ok([os.path.join(LIBRARY, "fat-tree-alltoall.pbtxt"),
                                    "--set", "workload.all_to_all.bytes=3000",
                                    "--set", "workload.all_to_all.ranks=2"])
        self.assertGreater(len(result["ports"]), 0)
        for port in result["ports"]:
            self.assertGreater(port["packets_sent"] + port["packets_dropped"], 0)


CLASSES_SHARING_A_PORT = """
name: "drops-by-class"
topology { star { hosts: 8 } }
links { rate_bps: 1000000000 latency_ns: 2000 }
switch { buffer_bytes: 24000 }
transport { kind: TCP tcp { min_rto_us: 1000 initial_rto_us: 1000 } }
workloads { name: "incast" hosts { range { first: 0 count: 5 } } incast { bytes: 100000 } }
workloads { name: "cross" hosts { list { hosts: [0, 5] } }
            flows { flow { src: 1 dst: 0 bytes: 200000 } } }
"""


class DropsByClass(RunCase):
    """Every dropped packet is attributed to its class (the workloads' and the MPI job's): the
    classes' drops add up to the run's, on any kernel and rank count."""

    def test_the_classes_drops_add_up_to_every_drop(self):
        scenario = self.write("drops.pbtxt", CLASSES_SHARING_A_PORT)
        result, _, r = self.run_ok([scenario])
        drops = {c["name"]: c["packets_dropped"] for c in result["classes"]}
        self.assertGreater(result["packets_dropped"], 0)
        self.assertGreater(drops["incast"], 0)
        self.assertEqual(sum(drops.values()), result["packets_dropped"])
        self.assertIn("%d drops" % drops["incast"], r.stdout)
        optimistic, _, _ = self.run_ok([scenario, "--kernel", "optimistic"], mpi_ranks=2,
                                       out="opt")
        self.assertEqual(optimistic["classes"], result["classes"])

    def test_the_mpi_jobs_drops_are_its_own(self):
        scenario = self.write("job.pbtxt", CLASSES_SHARING_A_PORT + """
mpi { name: "job" hosts { list { hosts: [0, 6, 7] } }
      collective { kind: "allgather" bytes: 65536 iterations: 1 } }
""")
        result, _, _ = self.run_ok([scenario])
        classes = {c["name"]: c for c in result["classes"]}
        self.assertTrue(classes["job"]["mpi"])
        total = sum(c["packets_dropped"] for c in result["classes"])
        self.assertEqual(total, result["network"]["packets_dropped"])
        self.assertGreater(classes["job"]["packets_dropped"], 0)


def transparent_huge_pages_mode():
    """The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled ("" if unknown)."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            text = f.read()
    except OSError:
        return ""
    return text[text.find("[") + 1:text.find("]")] if "[" in text else ""


class HugePages(RunCase):
    """--huge-pages starts netwarp again with glibc's malloc tunables; results.json says so."""

    def run_env(self, args, out, tunables=None):
        env = {k: v for k, v in os.environ.items()
               if k not in ("GLIBC_TUNABLES", "NETWARP_HUGE_PAGES_RESTARTED")}
        if tunables is not None:
            env["GLIBC_TUNABLES"] = tunables
        out_dir = os.path.join(self.dir, out)
        r = subprocess.run([netwarp_cli.NETWARP, "run", *SMALL_INCAST, *args, "--out", out_dir],
                           capture_output=True, text=True, timeout=300, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out_dir, "results.json")) as f:
            return json.load(f), r

    def test_the_run_starts_again_with_the_tunables_and_says_so(self):
        plain, _ = self.run_env([], "plain")
        self.assertIs(plain["huge_pages"], False)
        for args in ([], ["--threads", "2"]):
            huge, r = self.run_env(["--huge-pages", *args], "huge")
            self.assertEqual(huge["digest"], plain["digest"])
            if transparent_huge_pages_mode() == "never":
                self.assertIs(huge["huge_pages"], False)
                self.assertIn("--huge-pages: this machine gives no transparent huge pages",
                              r.stderr)
            else:
                self.assertIs(huge["huge_pages"], True)
                self.assertIn("malloc asks for transparent huge pages", r.stdout)
                self.assertEqual(r.stderr, "")

    def test_a_tunable_the_user_set_is_kept_and_named(self):
        huge, r = self.run_env(["--huge-pages"], "kept", tunables="glibc.malloc.hugetlb=0")
        self.assertIs(huge["huge_pages"], False)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn("--huge-pages: GLIBC_TUNABLES already sets glibc.malloc.hugetlb", lines[0])


class PcapFiles(RunCase):
    def tshark(self, path):
        self.assertIsNotNone(shutil.which("tshark"), "tshark missing: run scripts/install-deps.sh")
        r = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "tcp.seq_raw", "-e",
                            "tcp.len", "-e", "tcp.flags.ack", "-e", "ip.src", "-e", "tcp.flags.syn"],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return [line.split("\t") for line in r.stdout.splitlines() if line]

    def test_tshark_reads_both_ends_of_a_tcp_flow(self):
        _, out_dir, _ = self.run_ok([self.write("pair.pbtxt", TWO_HOSTS)])
        with open(os.path.join(out_dir, "flows.csv")) as f:
            flow = next(csv.DictReader(f))
        sender = self.tshark(os.path.join(out_dir, "host0.pcap"))
        receiver = self.tshark(os.path.join(out_dir, "host1.pcap"))
        data = [p for p in sender if p[2] == "0" and p[4] == "0"]
        acks = [p for p in sender if p[2] == "1" and p[4] == "0"]
        # The handshake: the SYN out, the SYN-ACK back (transport.tcp.handshake, default on).
        self.assertEqual([(p[2], p[4]) for p in sender if p[4] == "1"], [("0", "1"), ("1", "1")])
        self.assertEqual(len(data), int(flow["segments_sent"]))
        self.assertEqual(len(sender), len(receiver))  # nothing lost on the way
        self.assertGreater(len(acks), 0)
        # Data covers the message exactly, MSS by MSS, in order: 0, 1460, ..., 100000.
        seqs = sorted({int(p[0]) for p in data})
        self.assertEqual(seqs[0], 0)
        self.assertEqual(seqs[1], 1460)
        last = max(data, key=lambda p: int(p[0]))
        self.assertEqual(int(last[0]) + int(last[1]), 100000)
        self.assertTrue(all(p[3] == "10.0.0.0" for p in data))
        # The switch port to host1 carried exactly the data packets, in time order.
        # (and the SYN and the handshake's ACK before them).
        mirror = self.tshark(os.path.join(out_dir, "sw0.p1.pcap"))
        self.assertEqual(len(mirror), len(data) + 2)
        self.assertEqual([(p[2], p[4]) for p in mirror[:2]], [("0", "1"), ("1", "0")])
        self.assertTrue(all(p[2] == "0" and p[4] == "0" for p in mirror[2:]))
        times = subprocess.run(["tshark", "-r", os.path.join(out_dir, "sw0.p1.pcap"), "-T",
                                "fields", "-e", "frame.time_epoch"], capture_output=True,
                               text=True, timeout=120).stdout.split()
        self.assertEqual(times, sorted(times, key=float))


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
