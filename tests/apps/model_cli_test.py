#!/usr/bin/env python3
"""End-to-end tests of `netwarp model`: LogGPS times of the Table 5 presets and of parameter
files as `name picoseconds` lines, checked against values worked by hand, and usage errors as
one stderr line with exit status 2."""
import json
import os
import sys
import unittest

import netwarp_cli

run = netwarp_cli.run

MYRINET = {"L": 850, "o": 6730, "Oss": 5.02, "Ors": 4.72, "Osl": 4.80, "Orl": 3.86,
           "Gs": 15.17, "Gl": 0.04, "s": 8191, "S": 16383}


def lines_of(stdout):
    return dict(line.split() for line in stdout.strip().splitlines())


class ModelCliTest(netwarp_cli.ScratchCase):
    def model(self, args, expect=0):
        r = run(["model", *args])
        self.assertEqual(r.returncode, expect, r.stderr)
        return r

    def assert_one_line_error(self, args, text):
        r = self.model(args, expect=2)
        self.assertEqual(r.stdout, "")
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(text, lines[0])

    def test_myrinet_at_the_eager_limit(self):
        # k = S = 16383: T1 = 6730 + 16383*5.02 = 88972.66; T2' = 8191*15.17 + 8192*0.04 + 850
        # = 125435.15; T3 = 6730 + 16383*4.72 = 84057.76. comm_time (2) and recv (8) with
        # ts = tr: 298465.57 ns; rtt (13) at w = 0: twice that.
        r = self.model(["loggps", "--preset", "myrinet", "--size", "16383"])
        self.assertEqual(r.stdout.splitlines(), [
            "comm_time 298465570", "send 88972660", "isend 6730000", "recv 298465570",
            "irecv 6730000", "rtt 596931140"])

    def test_w_hides_the_network_in_the_round_trip(self):
        # w = 5e5 > T1 + 2T2' + T3 = 423900.72: rtt = 5e5 + 88972.66 + 84057.76.
        r = self.model(["loggps", "--preset", "myrinet", "--size", "16383", "--w", "5e5"])
        self.assertEqual(lines_of(r.stdout)["rtt"], "673030420")

    def test_rendezvous_on_fast_ethernet(self):
        # k = 20000: T4 = T5 = 69260, T1' = 216940: send (5) = 355460 ns; comm_time (3)
        # = 2028504.64 ns (loggps_test.cpp works it out).
        out = lines_of(self.model(["loggps", "--preset", "fast-ethernet", "--size", "20000"]).stdout)
        self.assertEqual(out["send"], "355460000")
        self.assertEqual(out["comm_time"], "2028504640")
        self.assertEqual(out["isend"], "22340000")

    def test_parameter_files(self):
        loggps = self.write("myrinet.json", json.dumps(
            {"model": "loggps", "units": {"time": "ns", "per_byte": "ns/byte"},
             "params": MYRINET}))
        r = self.model(["loggps", "--params", loggps, "--size", "16383"])
        self.assertEqual(lines_of(r.stdout)["comm_time"], "298465570")
        # Hockney alpha = 5000, beta = 0.1: T(4096) = 5409.6 ns, rtt twice that.
        hockney = self.write("hockney.json", json.dumps(
            {"model": "hockney", "params": {"alpha": 5000, "beta": 0.1}}))
        out = lines_of(self.model(["hockney", "--params", hockney, "--size", "4096"]).stdout)
        self.assertEqual(out, {"message_time": "5409600", "send": "5409600",
                               "recv": "5409600", "rtt": "10819200"})
        self.assert_one_line_error(["loggp", "--params", hockney, "--size", "1"],
                                   "holds 'hockney' parameters, not 'loggp'")

    def test_bad_parameter_file_names_file_and_field(self):
        params = dict(MYRINET)
        del params["Gl"]
        path = self.write("params.json", json.dumps({"model": "loggps", "params": params}))
        self.assert_one_line_error(["loggps", "--params", path, "--size", "1"],
                                   f"{path}: params.Gl: missing")

    def test_usage_errors_are_one_line_with_exit_2(self):
        self.assert_one_line_error(["loggps", "--preset", "myrinett", "--size", "1"],
                                   "unknown LogGPS preset 'myrinett' (known: cenju4, "
                                   "fast-ethernet, myrinet)")
        path = self.write("p.json", "{}")
        self.assert_one_line_error(["loggps", "--preset", "myrinet", "--params", path, "--size",
                                    "1"], "exactly one of --preset and --params")
        self.assert_one_line_error(["loggps", "--size", "1"], "exactly one of --preset and --params")
        missing = os.path.join(self.dir, "missing.json")
        self.assert_one_line_error(["loggps", "--params", missing, "--size", "1"],
                                   f"{missing}: cannot open")
        self.assert_one_line_error(["loggps", "--preset", "myrinet", "--size", "-3"],
                                   "--size: expected a size in bytes such as 1500, 64KiB or 2GiB, "
                                   "got '-3'")
        self.assert_one_line_error(["loggps", "--preset", "myrinet", "--size", "1", "--w", "-1"],
                                   "--w: must be >= 0 ns")


if __name__ == "__main__":
    netwarp_cli.NETWARP = sys.argv.pop(1)
    unittest.main(verbosity=2)
