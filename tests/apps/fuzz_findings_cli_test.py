#!/usr/bin/env python3
"""End-to-end regression tests of what fuzzing found (fuzz/README.md): inputs that once made
netwarp exit 70 (internal error) or crash. Each must now be a bad-input error: exit status 2,
one line on stderr naming the file and the field."""
import json
import os
import sys
import unittest

import netwarp_cli

run = netwarp_cli.run
LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
PINGPONG = os.path.join(LIBRARY, "pingpong.pbtxt")


class FuzzFindings(netwarp_cli.ScratchCase):
    def assert_one_line_error(self, args, fragment):
        r = run(args)
        self.assertEqual(r.returncode, 2, r.stderr)
        # Warnings about settings the run would not read may come first; the error is one line.
        lines = [line for line in r.stderr.strip().splitlines()
                 if not line.startswith("netwarp: warning: ")]
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(fragment, lines[0])

    def test_predict_params_file_whose_model_is_not_a_string(self):
        # Was exit 70: nlohmann's type_error from reading "model" before any check.
        for doc, fragment in [({"model": 5, "params": {}}, "model: must be a string, got number"),
                              ([1, 2], "must be an object, got array"),
                              ({"params": {}}, "model: missing")]:
            path = self.write("params.json", json.dumps(doc))
            self.assert_one_line_error(
                ["predict", PINGPONG, "--model", "hockney", "--params", path],
                f"{path}: {fragment}")

    def test_predict_params_file_with_a_number_out_of_range(self):
        # Was a crash (found by fuzz_params_json in CI): nlohmann's out_of_range escaped.
        path = self.write("params.json", "111E1110000")
        self.assert_one_line_error(["predict", PINGPONG, "--model", "hockney", "--params", path],
                                   f"{path}: not valid JSON: a number is out of range")

    def test_predict_flow_params_with_bad_fields(self):
        # Was exit 70: a flow parameter set's "mode" and "host" were read unchecked.
        host = {"L": 850, "o": 6730, "Oss": 5.02, "Ors": 4.72, "Osl": 4.80, "Orl": 3.86,
                "Gs": 15.17, "Gl": 0.04, "s": 8191, "S": 16383}
        for doc, fragment in [({"model": "flow", "mode": 1, "host": host}, "mode: must be a string"),
                              ({"model": "flow", "mode": "N"}, "host: missing"),
                              ({"model": "flow", "host": host, "hots": 1}, "hots: unknown key")]:
            path = self.write("flow.json", json.dumps(doc))
            self.assert_one_line_error(["predict", PINGPONG, "--model", "flow", "--params", path],
                                       fragment)

    def test_flows_csv_message_past_the_limits(self):
        # Was exit 70 with TCP (an NW_CHECK on the connection's 32-bit sequence numbers): the
        # CSV's sizes skipped the scenario's 4 GiB check. Stream offsets are 64-bit now: a
        # message may hold up to 2^63 - 1 bytes with either transport, as far as the time
        # budget allows.
        csv = self.write("flows.csv", "src,dst,bytes,start_ns\n0,1,9223372036854775808,0\n")
        for transport in ["TCP", "LOSSLESS"]:
            scenario = self.write("flows.pbtxt", f"""name: "f"
topology {{ star {{ hosts: 4 }} }}
transport {{ kind: {transport} }}
workload {{ flows {{ csv_file: "flows.csv" }} }}
""")
            self.assert_one_line_error(["run", scenario, "--out", os.path.join(self.dir, "out")],
                                       f"{csv}:2: bytes: must be at most 9223372036854775807, "
                                       "got 9223372036854775808")
        scenario = os.path.join(LIBRARY, "incast.pbtxt")
        self.assert_one_line_error(["run", scenario, "--set", "transport.kind=LOSSLESS", "--set",
                                    "switch.flow_control=CREDIT", "--set",
                                    "workload.incast.senders=1", "--set",
                                    "workload.incast.bytes=4611686018427387904", "--out",
                                    os.path.join(self.dir, "out")],
                                   "workload.incast.bytes: 4611686018427387904 B")

    def test_control_characters_of_the_input_are_escaped_in_the_error_line(self):
        # Was several lines on a terminal: a CSV field's carriage return, vertical tab or form
        # feed went into the message verbatim. Now every error line escapes them.
        torus = os.path.join(LIBRARY, "torus-alltoall.pbtxt")
        for raw, escaped in [("\r", "\\r"), ("\x0b", "\\x0b"), ("\x0c", "\\x0c"),
                             ("\x1c", "\\x1c")]:
            pattern = self.write("p.csv", f"sender,dest,order,bytes,delay_ns\n0,1,0,5,{raw}7\n")
            r = run(["flow", torus, "--set", "topology.torus.dims=4,4", "--pattern", pattern,
                     "--out", os.path.join(self.dir, "out")])
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(r.stderr.count("\n"), 1, repr(r.stderr))
            self.assertTrue(r.stderr.endswith("\n"))
            self.assertIn(f"{pattern}:2: delay_ns is not a number: '{escaped}7'", r.stderr)
            self.assertNotIn(raw, r.stderr)


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
