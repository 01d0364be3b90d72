#!/usr/bin/env python3
"""End-to-end tests of how netwarp ends (issue 14): the exit-code table (apps/src/exit_codes.hpp)
in --help and in practice, one stderr line per error with no library text (nlohmann, protobuf),
results only from a run that produced them (staged beside --out, moved in when done), and the
progress line under mpirun with a terminal on rank 0's stderr."""
import fcntl
import json
import os
import pty
import re
import resource
import select
import subprocess
import sys
import termios
import unittest

import netwarp_cli

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
INCAST = os.path.join(LIBRARY, "incast.pbtxt")
SMALL_INCAST = ["--set", "workload.incast.senders=4", "--set", "workload.incast.bytes=65536"]

PAIR = """
name: "pair"
topology {{ star {{ hosts: 3 }} }}
links {{ rate_bps: 1000000000 latency_ns: 2000 }}
transport {{ kind: TCP }}
workload {{ flows {{ flow {{ src: 0 dst: 1 bytes: 100000 start_ns: 0 }} }} }}
outputs {{ pcap_nodes: "{pcap}" }}
"""

# 2000 hosts all-to-all, 1 MB per pair: far more than 1 GiB of address space.
TOO_BIG = """
name: "too-big"
topology { star { hosts: 2000 } }
links { rate_bps: 1000000000 latency_ns: 1000 }
transport { kind: TCP }
workload { all_to_all { bytes: 1000000 } }
"""

run = netwarp_cli.run


def limit_address_space():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def is_sanitized(binary):
    """AddressSanitizer reserves terabytes of shadow address space at start, so a binary built
    with it cannot run under an address-space limit at all."""
    with open(binary, "rb") as f:
        return b"__asan_init" in f.read()


def needs_plain_build(test):
    def wrapper(self):
        if is_sanitized(netwarp_cli.NETWARP):
            self.skipTest("an address-space limit cannot apply to a sanitizer build")
        test(self)
    wrapper.__name__ = test.__name__
    wrapper.__doc__ = test.__doc__
    return wrapper


def one_line(test, stderr):
    lines = stderr.strip().splitlines()
    test.assertEqual(len(lines), 1, stderr)
    test.assertNotIn("libprotobuf", stderr)
    test.assertNotIn("json.exception", stderr)
    return lines[0]


class ExitCodeTable(netwarp_cli.ScratchCase):
    def test_help_ends_with_the_exit_code_table(self):
        r = run(["--help"])
        self.assertEqual(r.returncode, 0, r.stderr)
        table = r.stdout[r.stdout.index("Exit codes:"):]
        for line in ["0   success", "2   bad input", "3   deadlock", "4   incomplete",
                     "5   out of memory", "70  internal error"]:
            self.assertIn(line, table)

    def test_bad_flag_is_bad_input(self):
        r = run(["run", "--kernel", "fast"])
        self.assertEqual(r.returncode, 2, r.stderr)
        one_line(self, r.stderr)

    def test_end_time_with_messages_left_is_incomplete_and_says_so(self):
        results, _, r = self.run_scenario([INCAST, *SMALL_INCAST, "--set", "end_time_ns=10000"],
                                          expect=4)
        self.assertFalse(results["completed"])
        self.assertLess(results["messages_delivered"], results["messages"])
        self.assertIn("netwarp: incomplete: 4 of 4 messages undelivered", one_line(self, r.stderr))

    def test_finished_run_is_marked_completed(self):
        results, _, r = self.run_scenario([INCAST, *SMALL_INCAST])
        self.assertTrue(results["completed"])
        self.assertEqual(r.stderr, "")

    @needs_plain_build
    def test_out_of_memory_is_5_with_the_limit_and_what_to_reduce(self):
        path = self.write("big.pbtxt", TOO_BIG)
        out = os.path.join(self.dir, "out")
        r = subprocess.run([netwarp_cli.NETWARP, "run", path, "--out", out],
                           preexec_fn=limit_address_space, capture_output=True, text=True,
                           timeout=300)
        self.assertEqual(r.returncode, 5, r.stderr)
        line = one_line(self, r.stderr)
        self.assertTrue(line.startswith("netwarp: error: out of memory"), line)
        self.assertIn("ulimit -v", line)
        self.assertIn("reduce the scenario", line)
        self.assertNotIn("rank 0", line)
        self.assertFalse(os.path.exists(os.path.join(out, "results.json")))


class NoLibraryText(netwarp_cli.ScratchCase):
    def test_scenario_name_with_invalid_utf8_is_rejected_at_load_naming_the_field(self):
        with open(INCAST, "rb") as f:
            text = f.read().replace(b'name: "incast"', b'name: "in\xffcast"')
        path = os.path.join(self.dir, "bad-name.pbtxt")
        with open(path, "wb") as f:
            f.write(text)
        out = os.path.join(self.dir, "out")
        r = run(["run", path, "--out", out])
        self.assertEqual(r.returncode, 2, r.stderr)
        line = one_line(self, r.stderr)
        self.assertRegex(line, "^" + path + r":\d+:\d+: name: not valid UTF-8 \(byte 0xFF")
        self.assertFalse(os.path.exists(out))

    def test_escaped_invalid_utf8_in_a_set_is_rejected_too(self):
        r = run(["run", INCAST, "--set", b"name=a\xff", "--out", os.path.join(self.dir, "o")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("name: not valid UTF-8", one_line(self, r.stderr))

    def test_binary_trace_with_invalid_utf8_gives_our_line_only(self):
        path = os.path.join(self.dir, "t.pb")
        with open(path, "wb") as f:  # Trace.ranks[0].source_file = "a\xff"
            f.write(bytes([0x0A, 4, 0x0A, 2, 0x61, 0xFF]))
        r = run(["run", "--trace", path, "--out", os.path.join(self.dir, "o")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(one_line(self, r.stderr),
                         path + ": not a netwarp binary trace (protobuf cannot parse it)")


class OnlyCompleteResults(netwarp_cli.ScratchCase):
    def listing(self, folder):
        return sorted(os.listdir(folder))

    def contents(self, folder):
        found = {}
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), "rb") as f:
                found[name] = f.read()
        return found

    @needs_plain_build
    def test_failed_run_leaves_an_earlier_result_and_its_folder_untouched(self):
        results, out, _ = self.run_scenario([INCAST, *SMALL_INCAST])
        before = self.contents(out)
        path = self.write("big.pbtxt", TOO_BIG)
        r = subprocess.run([netwarp_cli.NETWARP, "run", path, "--out", out],
                           preexec_fn=limit_address_space, capture_output=True, text=True,
                           timeout=300)
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertEqual(self.contents(out), before)
        self.assertEqual(self.listing(self.dir), ["big.pbtxt", "out"])  # no staging folder left

    def test_new_out_folder_has_the_usual_permissions(self):
        _, out, _ = self.run_scenario([INCAST, *SMALL_INCAST], out="a/b")
        umask = os.umask(0)
        os.umask(umask)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o777 & ~umask)

    def test_failed_run_into_a_fresh_folder_leaves_no_results_json(self):
        out = os.path.join(self.dir, "fresh")
        r = run(["run", INCAST, "--set", "engine.kernel=FAST", "--out", out])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "results.json")))
        self.assertEqual(self.listing(self.dir), [])

    def test_rerun_into_a_used_folder_leaves_no_stale_pcap(self):
        first = self.write("first.pbtxt", PAIR.format(pcap="host0"))
        _, out, _ = self.run_scenario([first])
        self.assertIn("host0.pcap", self.listing(out))
        mine = os.path.join(out, "notes.txt")  # not a file a run writes: kept
        with open(mine, "w") as f:
            f.write("mine")
        second = self.write("second.pbtxt", PAIR.format(pcap="host1"))
        _, out, _ = self.run_scenario([second])
        self.assertEqual(self.listing(out), ["fct_cdf.csv", "flows.csv", "flows_timeseries.csv",
                                             "host1.pcap", "notes.txt", "ports.csv",
                                             "ports_timeseries.csv", "results.json"])
        self.assertEqual(sorted(os.listdir(self.dir)), ["first.pbtxt", "out", "second.pbtxt"])

    def test_deadlocked_mpi_run_still_writes_its_results(self):
        trace = self.write("deadlock.tit", "0 send 1 0 1000000\n0 recv 1 0 1000000\n"
                                           "1 send 0 0 1000000\n1 recv 0 0 1000000\n")
        results, _, r = self.run_scenario(["--trace", trace], expect=3)
        self.assertFalse(results["completed"])
        self.assertIn("deadlock", r.stderr)


SLOW_LINK = """
topology { star { hosts: 2 } }
links { rate_bps: 1 }
workload { flows { flow { src: 0 dst: 1 bytes: 2000000 } } }
"""

CSV_FLOWS = """
topology { star { hosts: 2 } }
transport { kind: TCP }
workload { flows { csv_file: "flows.csv" } }
"""

TCP_PAIR = """
topology { star { hosts: 2 } }
transport { kind: TCP }
mpi { }
"""

CREDIT_2_63 = """
topology { star { hosts: 2 } }
switch { buffer_bytes: 9223372036854775808 flow_control: CREDIT }
workload { flows { flow { src: 0 dst: 1 bytes: 2000 } } }
"""


MANY_MESSAGES = """
topology { star { hosts: 1000 } }
transport { kind: TCP }
workload { uniform_random { messages_per_host: 4000000000 bytes: 1 } }
"""


class LoadChecks(netwarp_cli.ScratchCase):
    """Issue 14: what used to end in an internal error (a wrapped SimTime, a 32-bit TCP
    offset) or exit 0 with a wrong answer is refused at load, located, or reported as
    incomplete."""

    def refused(self, args):
        r = run(["run", *args, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertNotIn("internal error", r.stderr)
        return r.stderr.strip()

    def test_two_megabytes_at_one_bit_per_second_are_refused_at_the_field(self):
        path = self.write("slow.pbtxt", SLOW_LINK)
        self.assertRegex(self.refused([path]),
                         r"slow\.pbtxt:4:41: workload\.flows\.flow\[0\]\.bytes: 2000000 B "
                         r"through one link of 1 bit/s \(links\.rate_bps")

    def test_credit_of_two_to_the_63_is_out_of_range(self):
        path = self.write("credit.pbtxt", CREDIT_2_63)
        self.assertIn("credit.pbtxt:3:10: switch.buffer_bytes: must be <=", self.refused([path]))

    def test_csv_flow_past_two_to_the_63_names_the_csv_line(self):
        path = self.write("csv.pbtxt", CSV_FLOWS)
        csv = self.write("flows.csv",
                         "src,dst,bytes,start_ns\n0,1,100,0\n0,1,9223372036854775808,0\n")
        # Where the scenario names the file, then the file's own line.
        self.assertEqual(self.refused([path]),
                         path + ":4:20: workload.flows.csv_file: " + csv +
                         ":3: bytes: must be at most 9223372036854775807, got 9223372036854775808")

    def test_csv_flow_past_the_time_budget_names_the_csv_line(self):
        path = self.write("csv.pbtxt", CSV_FLOWS)
        csv = self.write("flows.csv", "src,dst,bytes,start_ns\n0,1,4611686018427387904,0\n")
        self.assertIn(csv + ":2: bytes: 4611686018427387904 B", self.refused([path]))

    def test_csv_rank_out_of_range_names_the_csv_line(self):
        path = self.write("csv.pbtxt", CSV_FLOWS)
        csv = self.write("flows.csv", "src,dst,bytes,start_ns\n0,5,100,0\n")
        self.assertEqual(self.refused([path]),
                         path + ":4:20: workload.flows.csv_file: " + csv +
                         ":2: dst: rank 5 does not exist (2 ranks: 0..1)")

    def test_tit_message_past_the_time_budget_on_tcp_names_the_trace_line(self):
        path = self.write("tcp.pbtxt", TCP_PAIR)
        trace = self.write("big.tit", "0 send 1 0 4611686018427387904\n"
                                      "1 recv 0 0 4611686018427387904\n")
        self.assertIn(trace + ":1: send: rank 0's compute, sleeps and message costs up to here",
                      self.refused([path, "--trace", trace]))

    def test_tit_message_of_five_gibibytes_on_tcp_runs(self):
        """Issue 14: a single message of 4 GiB or more on TCP (was refused, before that exit 70)."""
        path = self.write("tcp.pbtxt", TCP_PAIR)
        trace = self.write("five.tit", "0 send 1 0 5368709120\n1 recv 0 0 5368709120\n")
        out = os.path.join(self.dir, "out")
        r = run(["run", path, "--trace", trace, "--set", "links.rate_bps=1000000000000",
                 "--set", "links.mtu_bytes=65535", "--set", "transport.tcp.mss_bytes=65495",
                 "--out", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            self.assertTrue(json.load(f)["completed"])
        with open(os.path.join(out, "connections.csv")) as f:
            rows = [line.split(",") for line in f.read().splitlines()[1:]]
        self.assertIn(["host0", "host1", str(5368709120 + 64)], [row[:3] for row in rows])

    def test_tit_pair_total_past_four_gibibytes_on_tcp_runs(self):
        """One TCP connection carries a pair's messages past 2^32 bytes (64-bit offsets)."""
        path = self.write("tcp.pbtxt", TCP_PAIR)
        trace = self.write("pair.tit", "0 send 1 0 2200000000\n0 send 1 0 2200000000\n"
                                       "1 recv 0 0 2200000000\n1 recv 0 0 2200000000\n")
        out = os.path.join(self.dir, "out")
        r = run(["run", path, "--trace", trace, "--set", "links.rate_bps=1000000000000",
                 "--set", "links.mtu_bytes=65535", "--set", "transport.tcp.mss_bytes=65495",
                 "--out", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            self.assertTrue(json.load(f)["completed"])
        with open(os.path.join(out, "connections.csv")) as f:
            rows = [line.split(",") for line in f.read().splitlines()[1:]]
        self.assertIn(["host0", "host1", "4400000128"], [row[:3] for row in rows])

    def test_edited_text_trace_names_its_own_line(self):
        """Issue 14: an edited .pbtxt names itself, not the TIT it was converted from."""
        tit = self.write("pair.tit", "0 send 1 0 100\n1 recv 0 0 100\n")
        text = os.path.join(self.dir, "pair.pbtxt")
        self.assertEqual(run(["trace", "convert", tit, text]).returncode, 0)
        with open(text) as f:
            lines = f.read().replace("dst: 1", "dst: 9").splitlines(keepends=True)
        with open(text, "w") as f:
            f.writelines(lines)
        action_line = max(i for i, line in enumerate(lines, 1)
                          if "actions {" in line and i < next(
                              j for j, l in enumerate(lines, 1) if "dst: 9" in l))
        stderr = self.refused(["--trace", text])
        self.assertTrue(stderr.startswith("netwarp: error: %s:%d:" % (text, action_line))
                        or stderr.startswith("%s:%d:" % (text, action_line)), stderr)
        self.assertNotIn("pair.tit", stderr)

    def test_sleeps_adding_up_past_the_budget_are_refused(self):
        trace = self.write("sleepy.tit", "0 sleep 600000\n0 sleep 600000\n1 init\n")
        self.assertIn(trace + ":2: sleep: rank 0's compute, sleeps and message costs",
                      self.refused(["--trace", trace]))

    def test_directory_as_scenario_says_so(self):
        self.assertEqual(self.refused([self.dir]),
                         self.dir + ": is a directory, not a scenario file")

    def test_huge_message_count_is_refused_before_building_with_the_estimate(self):
        path = self.write("many.pbtxt", MANY_MESSAGES)
        r = run(["run", path, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertIn("4000000000000 messages x 128 B", r.stderr)
        self.assertIn("--max-memory", r.stderr)

    def test_huge_csv_and_trace_are_refused_by_max_memory_before_the_run(self):
        """The estimate counts a flows CSV's lines and a trace's actions (issue 14)."""
        path = self.write("csv.pbtxt", CSV_FLOWS)
        self.write("flows.csv", "src,dst,bytes,start_ns\n" + "0,1,1000,0\n" * 200000)
        r = run(["run", path, "--max-memory", "20000000", "--out", os.path.join(self.dir, "o1")])
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertIn("200001 CSV flows x 128 B", r.stderr)
        platform = self.write("tcp.pbtxt", TCP_PAIR)
        trace = self.write("long.tit", "0 compute 1\n" * 100000 + "1 compute 1\n")
        r = run(["run", platform, "--trace", trace, "--max-memory", "20000000",
                 "--out", os.path.join(self.dir, "o2")])
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertIn("100002 trace actions x 256 B", r.stderr)

    def test_max_memory_lowers_the_limit(self):
        r = run(["run", INCAST, *SMALL_INCAST, "--max-memory", "1000",
                 "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertIn("more than the", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out")))

    def test_unmatched_send_is_incomplete_naming_rank_peer_and_tag(self):
        trace = self.write("unmatched.tit", "0 send 1 7 100\n1 compute 10\n")
        r = run(["run", "--trace", trace, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertIn("incomplete: every rank finished, but 1 send was never received: rank 0's "
                      "send to 1 (tag 7, 100 B", r.stderr)
        with open(os.path.join(self.dir, "out", "results.json")) as f:
            self.assertFalse(json.load(f)["completed"])


class ProgressUnderMpirun(netwarp_cli.ScratchCase):
    # Runs netwarp with its stderr on a fresh terminal on rank 0 only (mpirun gives every rank a
    # pipe), relaying what it draws: the progress line must not hang the optimistic kernel.
    WRAPPER = """
import os, pty, subprocess, sys
if os.environ.get("OMPI_COMM_WORLD_RANK", "0") != "0":
    sys.exit(subprocess.call(sys.argv[1:]))
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stderr=slave)
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
code = p.wait()
sys.stderr.write("drawn %d bytes\\n" % len(drawn))
sys.exit(code)
"""

    def test_optimistic_run_on_two_ranks_finishes_with_a_terminal_on_rank_0(self):
        wrapper = self.write("tty_rank0.py", self.WRAPPER)
        env = dict(os.environ)
        env.pop("CI", None)
        out = os.path.join(self.dir, "out")
        root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
        cmd = ["mpirun", "--oversubscribe", *root, "-np", "2", sys.executable, wrapper,
               netwarp_cli.NETWARP, "run", INCAST, "--set", "workload.incast.senders=16",
               "--kernel", "optimistic", "--gvt-interval", "1", "--out", out]
        master, slave = pty.openpty()  # mpirun itself on a terminal, as a person runs it
        p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env)
        os.close(slave)
        output = b""
        while True:
            ready, _, _ = select.select([master], [], [], 300)
            if not ready:
                p.kill()
                self.fail("mpirun hung; output so far: %r" % output[-500:])
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        self.assertEqual(p.wait(timeout=60), 0, output[-2000:])
        with open(os.path.join(out, "results.json")) as f:
            self.assertTrue(json.load(f)["completed"])

    def test_rank_0_draws_percent_and_eta_through_mpirun_on_a_controlling_terminal(self):
        # As a person runs it: mpirun in a session whose controlling terminal is the pty. Rank
        # 0's stderr is mpirun's pipe; the line goes through it to the terminal.
        env = dict(os.environ)
        env.pop("CI", None)
        root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
        cmd = ["mpirun", "--oversubscribe", *root, "-np", "2", netwarp_cli.NETWARP, "run", INCAST,
               "--set", "workload.incast.bytes=4MiB", "--set", "end_time_ns=2000000000",
               "--kernel", "optimistic", "--out", os.path.join(self.dir, "out")]
        master, slave = pty.openpty()

        def take_the_terminal():
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env,
                             start_new_session=True, preexec_fn=take_the_terminal)
        os.close(slave)
        output = b""
        while True:
            ready, _, _ = select.select([master], [], [], 300)
            if not ready:
                p.kill()
                self.fail("mpirun hung; output so far: %r" % output[-500:])
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        p.wait(timeout=60)
        text = output.decode(errors="replace")
        wall = re.search(r"\(([0-9.]+) s wall\)", text)
        self.assertIsNotNone(wall, text[-2000:])
        if float(wall.group(1)) < 1.5:
            self.skipTest("the run was over before the first progress report (0.5 s)")
        lines = re.findall(r"\[netwarp\] t = [^\r\n]*", text)
        self.assertTrue(lines, text[-2000:])
        self.assertRegex(lines[0], r"^\[netwarp\] t = [0-9.]+ m?s of 2 s \(\d+%\)(, ETA .*)?, "
                                   r"[0-9.]+ M events/s\s*$")


if __name__ == "__main__":
    netwarp_cli.NETWARP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
