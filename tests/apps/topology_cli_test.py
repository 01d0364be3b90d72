"""End-to-end tests of `netwarp topology`: the listing names nodes and ports, the route it prints
is the one a packet takes in a run (checked with pcap port mirrors on every port of the route
and on the ports beside it), errors about unknown nodes list switches first, and the DOT file is
a graph Graphviz reads (dot -Tsvg when Graphviz is installed; its structure otherwise)."""
import os
import re
import shutil
import struct
import subprocess
import sys
import unittest

import netwarp_cli
from netwarp_cli import run

# Two leaves of two hosts, two uplinks each: a packet for host h takes uplink h % 2.
TREE = """name: "tree-route"
topology { tree { leaves: 2 hosts_per_leaf: 2 uplinks: 2 } }
links { levels { level: 1 rate_bps: 250000000 latency_ns: 2000 } }
transport { kind: TCP }
workload { flows { flow { src: 0 dst: 3 bytes: 20000 } } }
"""

HOP = re.compile(r"^  (\S+) port (\d+) -> (\S+) port (\d+)  \(level (\d+), (.+), (.+)\)$")


def pcap_packets(path):
    """Number of packet records in a classic pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    count, at = 0, 24
    while at + 16 <= len(data):
        (length,) = struct.unpack_from("<I", data, at + 8)
        at += 16 + length
        count += 1
    return count


class TopologyCommand(netwarp_cli.ScratchCase):
    def topology(self, *args, expect=0):
        r = run(["topology", *args])
        self.assertEqual(r.returncode, expect, r.stderr)
        return r

    def test_listing_names_every_node_and_port(self):
        scenario = self.write("tree.pbtxt", TREE)
        out = self.topology(scenario).stdout
        self.assertTrue(out.startswith("tree: 4 hosts, 3 switches, 16 ports (8 cables)\n"), out)
        self.assertIn("  link level 1: 4 cables, 250 Mbit/s, 2 us\n", out)
        rows = [line.split() for line in out.splitlines() if line.startswith(("host", "leaf", "root"))]
        self.assertEqual(len(rows), 16)
        self.assertIn(["leaf0", "3", "root", "1", "1", "250", "Mbit/s", "2", "us"], rows)
        self.assertIn(["host2", "0", "leaf1", "0", "0", "1", "Gbit/s", "1", "us"], rows)

    def test_route_is_the_path_packets_take_in_a_run(self):
        scenario = self.write("tree.pbtxt", TREE)
        out = self.topology(scenario, "--route", "host0", "host3").stdout
        lines = out.splitlines()
        self.assertEqual(lines[0], "route host0 -> host3: 4 links")
        hops = [HOP.match(line).groups()[:4] for line in lines[1:]]
        self.assertEqual(hops, [("host0", "0", "leaf0", "0"), ("leaf0", "3", "root", "1"),
                                ("root", "3", "leaf1", "3"), ("leaf1", "1", "host3", "0")])
        # Mirror every switch port of the route and the parallel uplinks it does not take.
        on_route = [(node, int(port)) for node, port, _, _ in hops if node != "host0"]
        beside = [("leaf0", 2), ("root", 2)]
        mirrors = "".join(f'  pcap_ports {{ node: "{n}" port: {p} }}\n' for n, p in on_route + beside)
        traced = self.write("traced.pbtxt", TREE + "outputs {\n" + mirrors + "}\n")
        _, out_dir, _ = self.run_scenario([traced])
        for node, port in on_route:
            packets = pcap_packets(os.path.join(out_dir, f"{node}.p{port}.pcap"))
            self.assertGreaterEqual(packets, 14, f"{node} port {port} is on the route")
        for node, port in beside:
            packets = pcap_packets(os.path.join(out_dir, f"{node}.p{port}.pcap"))
            self.assertEqual(packets, 0, f"{node} port {port} is not on the route")

    def test_unknown_node_lists_switch_names_first(self):
        scenario = self.write("tree.pbtxt", TREE)
        r = self.topology(scenario, "--route", "host0", "sw0", expect=2)
        self.assertEqual(r.stderr,
                         "netwarp: error: --route: unknown node 'sw0' (known: switches: leaf0, "
                         "leaf1, root; hosts: host0, host1, host2, host3)\n")
        r = self.topology(scenario, "--route", "host0", "root", expect=2)
        self.assertIn("'root' is a switch", r.stderr)

    def test_dot_file_is_a_graph_graphviz_reads(self):
        scenario = self.write("tree.pbtxt", TREE)
        dot = os.path.join(self.dir, "tree.dot")
        out = self.topology(scenario, "--dot", dot).stdout
        self.assertIn("dot           " + dot, out)
        with open(dot) as f:
            text = f.read()
        self.assertTrue(text.startswith('graph "tree" {\n') and text.endswith("}\n"), text)
        self.assertEqual(len(re.findall(r'^  "[^"]+" -- "[^"]+" \[.*\];$', text, re.M)), 8)
        self.assertEqual(len(re.findall(r'^  "[^"]+" \[shape=(box|ellipse)\];$', text, re.M)), 7)
        if shutil.which("dot"):
            svg = subprocess.run(["dot", "-Tsvg", dot], capture_output=True, text=True)
            self.assertEqual(svg.returncode, 0, svg.stderr)
            self.assertIn("<svg", svg.stdout)

    def test_large_topology_is_summarised_and_all_lists_every_port(self):
        scenario = self.write("ft.pbtxt", 'topology { fat_tree { k: 8 } }\n'
                                          'workload { incast { bytes: 1000 } }\n')
        summary = self.topology(scenario).stdout
        self.assertIn("--all lists all 768 ports", summary)
        self.assertNotIn("host127", summary)
        every = self.topology(scenario, "--all").stdout
        self.assertIn("host127", every)
        self.assertEqual(len(every.splitlines()), 1 + 3 + 1 + 1 + 768)


if __name__ == "__main__":
    netwarp_cli.NETWARP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
