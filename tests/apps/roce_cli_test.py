#!/usr/bin/env python3
"""End-to-end tests of the RoCE transport (transport.kind ROCE, issue 29) through `netwarp run`
on the library's scenarios/roce-incast.pbtxt, shrunk to 8 senders x 128 KiB: with PFC nothing
is dropped, the receiver's link stays busy and the pause frames are counted in results.json
(total and per port); without PFC and with a small pool packets are dropped and go-back-N
sends them again (retransmitted packets, NACKs and timeouts in results.json)."""
import os
import re
import sys
import unittest

import netwarp_cli

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
SHRINK = ["--set", "workload.incast.senders=8", "--set", "workload.incast.bytes=131072"]


def library_text():
    with open(os.path.join(LIBRARY, "roce-incast.pbtxt")) as f:
        return f.read()


class RoceIncast(netwarp_cli.ScratchCase):
    def test_pfc_keeps_the_incast_lossless_and_counts_its_pauses(self):
        results, _, _ = self.run_scenario([os.path.join(LIBRARY, "roce-incast.pbtxt"), *SHRINK])
        self.assertTrue(results["completed"])
        self.assertEqual(results["packets_dropped"], 0)
        self.assertEqual(results["retransmitted_segments"], 0)
        self.assertGreater(results["pause_frames"], 0)
        self.assertEqual(sum(p["pause_frames"] for p in results["ports"]),
                         results["pause_frames"])
        receiver = next(p for p in results["ports"] if p["node"] == "sw0" and p["port"] == 32)
        self.assertGreaterEqual(receiver["busy_utilisation"], 0.95)

    def test_without_pfc_a_small_pool_drops_and_go_back_n_resends(self):
        text = re.sub(r"\n  pfc \{[^}]*\}", "", library_text()).replace(" lossless: true", "")
        self.assertNotIn("pfc {", text)
        path = self.write("lossy.pbtxt", text)
        results, _, _ = self.run_scenario(
            [path, *SHRINK, "--set", "switch.shared_buffer.bytes=131072"])
        self.assertTrue(results["completed"])
        self.assertGreater(results["packets_dropped"], 0)
        self.assertNotIn("pause_frames", results)  # no PFC
        self.assertGreaterEqual(results["retransmitted_segments"], results["packets_dropped"])
        self.assertGreater(results["fast_retransmits"], 0)  # NACKs acted on
        self.assertIn("retransmission_timeouts", results)


if __name__ == "__main__":
    netwarp_cli.NETWARP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
