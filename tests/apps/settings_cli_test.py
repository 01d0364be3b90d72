"""End-to-end: no setting is ignored silently. A link level the topology lacks is an error
naming it; fields of the transport not in use are warnings on stderr, one line each, once, and
only from rank 0 under mpirun; a unit suffix in a file says which plain number to write; a
parameter file used on another platform than the one it was fitted on is said by predict. Size
and time flags take units, `topology` builds no workload, a --set that switches a oneof says so,
and the run summary prints ECN marks."""
import json
import os
import sys
import unittest

import netwarp_cli
from netwarp_cli import run

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
TREE = """name: "t"
topology { tree { leaves: 2 hosts_per_leaf: 2 } }
workload { incast { bytes: 1000 } }
"""


class NoSilentSettings(netwarp_cli.ScratchCase):
    def test_link_level_the_topology_lacks_is_an_error(self):
        path = self.write("t.pbtxt", TREE + "links { levels { level: 2 rate_bps: 250000000 } }\n")
        r = run(["run", path, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr, f"{path}:4:18: links.levels[0].level: a tree has no link level 2 "
                                   "(its levels: 0 host-leaf, 1 leaf-root)\n")

    def test_tcp_fields_of_a_lossless_run_are_warned_once_each_from_rank_0(self):
        path = self.write("t.pbtxt", TREE + "transport { kind: LOSSLESS tcp { min_rto_us: 1000 } }\n")
        expected = (f"netwarp: warning: {path}:4:34: transport.tcp.min_rto_us: ignored: only used "
                    "with transport.kind: TCP (this run is LOSSLESS)\n")
        r = run(["run", path, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, expected)
        r = run(["run", path, "--kernel", "optimistic", "--out", os.path.join(self.dir, "out2")],
                mpi_ranks=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.count("netwarp: warning:"), 1, r.stderr)
        self.assertIn(expected, r.stderr)

    def test_unit_suffix_in_a_file_says_the_plain_number(self):
        path = self.write("t.pbtxt", TREE + "switch { buffer_bytes: 128KiB }\n")
        r = run(["run", path, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr, f"{path}:4:24: '128KiB': write 131072: a scenario file takes "
                                   "plain numbers (protobuf text format has no unit suffixes; "
                                   "--set accepts them)\n")

    def test_predict_says_when_the_parameters_were_fitted_on_another_platform(self):
        params = os.path.join(self.dir, "hockney.json")
        pingpong = os.path.join(LIBRARY, "pingpong.pbtxt")
        r = run(["fit", pingpong, "--model", "hockney", "--out", params])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(params) as f:
            self.assertEqual(json.load(f)["platform"]["scenario"], pingpong)
        same = run(["predict", pingpong, "--model", "hockney", "--params", params])
        self.assertEqual(same.returncode, 0, same.stderr)
        self.assertEqual(same.stderr, "")
        other = run(["predict", pingpong, "--set", "links.latency_ns=2000", "--set",
                     "mpi.host.o_ns=900", "--model", "hockney", "--params", params])
        self.assertEqual(other.returncode, 0, other.stderr)
        self.assertEqual(other.stderr,
                         f"netwarp: warning: {params} was fitted on {pingpong}, and {pingpong} "
                         "differs in links, mpi.host: the prediction uses the fitted platform's "
                         "parameters\n")

    def test_outputs_hold_no_int64_max_sentinels(self):
        # ssthresh before the first loss and a run without end time were written as
        # 9223372036854775807; now an empty CSV field and a JSON null.
        results, out_dir, _ = self.run_scenario([os.path.join(LIBRARY, "two-flows.pbtxt"), "--set",
                                                 "outputs.cwnd_trace=true"])
        self.assertIsNone(results["end_time_ps"])
        for name in os.listdir(out_dir):
            if name.endswith((".csv", ".json")):
                with open(os.path.join(out_dir, name)) as f:
                    text = f.read()
                for sentinel in ("9223372036854775807", "18446744073709551615"):
                    self.assertNotIn(sentinel, text, name)
        with open(os.path.join(out_dir, "cwnd.csv")) as f:
            rows = [line.rstrip("\n").split(",") for line in f][1:]
        self.assertEqual(rows[0][3], "", "no threshold before the first loss")
        self.assertTrue(any(row[3].isdigit() for row in rows), "a loss sets one")


DCTCP_INCAST = """name: "marks"
topology { star { hosts: 5 } }
switch { buffer_bytes: 131072 ecn_threshold_bytes: 20000 }
transport { kind: TCP tcp { congestion_control: DCTCP } }
workload { incast { bytes: 200000 } }
"""


class ConsistentFlags(netwarp_cli.ScratchCase):
    """Issue 32: sizes and times take units in every flag; `topology` builds no workload; a
    --set that switches a oneof says what it replaced; the summary prints ECN marks."""

    def test_size_flags_take_unit_suffixes(self):
        path = self.write("t.pbtxt", TREE)
        out = os.path.join(self.dir, "out")
        self.assertEqual(run(["run", path, "--max-memory", "2GiB", "--out", out]).returncode, 0)
        r = run(["run", path, "--max-memory", "1KiB", "--out", out])
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertIn("more than the 9.54e-07 GiB limit", r.stderr)
        r = run(["run", path, "--max-memory", "2GB!", "--out", out])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("expected a size in bytes such as 1500, 64KiB or 2GiB, got '2GB!'", r.stderr)
        plain = run(["model", "loggps", "--preset", "myrinet", "--size", "65536"])
        suffixed = run(["model", "loggps", "--preset", "myrinet", "--size", "64KiB"])
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertEqual(suffixed.stdout, plain.stdout)

    def test_time_flags_take_units(self):
        plain = run(["model", "loggps", "--preset", "myrinet", "--size", "1000", "--w", "20000"])
        timed = run(["model", "loggps", "--preset", "myrinet", "--size", "1000", "--w", "20us"])
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertEqual(timed.stdout, plain.stdout)
        r = run(["model", "loggps", "--preset", "myrinet", "--size", "1000", "--w", "20 days"])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("unknown time unit ' days'", r.stderr)
        r = run(["bench", "phold", "--lps", "4", "--end", "0.5ms"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("end 500 us", r.stdout)

    def test_topology_builds_the_network_only(self):
        # The workload's CSV file is missing: a run fails reading it, `topology` never does.
        path = self.write("t.pbtxt", 'topology { star { hosts: 3 } }\n'
                                     'workload { flows { csv_file: "absent.csv" } }\n')
        r = run(["topology", path])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("sw0", r.stdout)
        r = run(["run", path, "--out", os.path.join(self.dir, "out")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("absent.csv", r.stderr)

    def test_set_switching_a_oneof_names_what_it_replaced(self):
        path = self.write("t.pbtxt", TREE)
        r = run(["topology", path, "--set", "workload.permutation.bytes=4096"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "netwarp: warning: --set workload.permutation.bytes=4096: "
                                   "workload.permutation replaces workload.incast (one of "
                                   "workload.kind; the settings of incast are dropped)\n")
        r = run(["topology", path, "--set", "workload.incast.bytes=4096"])
        self.assertEqual(r.stderr, "")

    def test_schema_headline_of_tcp_names_every_variant(self):
        with open(os.path.join(LIBRARY, "..", "docs", "reference", "scenario.md")) as f:
            page = f.read()
        headline = page.split("### `transport.tcp` (Tcp)\n\n", 1)[1].split("\n", 1)[0]
        for variant in ("NEW_RENO", "CUBIC", "DCTCP", "SACK", "PRR", "RFC 6298"):
            self.assertIn(variant, headline)

    def test_run_summary_prints_ecn_marks(self):
        results, _, r = self.run_scenario([self.write("m.pbtxt", DCTCP_INCAST)])
        self.assertGreater(results["ecn_marked"], 0)
        self.assertIn(f"marks         {results['ecn_marked']} packets ECN-marked (CE) at switch "
                      "ports above 20000 B", r.stdout)
        _, _, r = self.run_scenario([self.write("t.pbtxt", TREE)])
        self.assertNotIn("ECN", r.stdout)


if __name__ == "__main__":
    netwarp_cli.NETWARP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
