#!/usr/bin/env python3
"""Every engine.sync mode gives the sequential kernel's digest on every library scenario, on 2
and 4 MPI ranks and on 2 and 4 partitions as threads of one process (--threads) (shrunk by --set
to run in about a second each; stars spread over the ranks with engine.few_groups=SPREAD, so
every packet crosses ranks and safe events meet Time Warp ones). Threads in MPI processes:
threads_cli_test.py and phold_hybrid_mpi_test.cpp. Conservative runs roll nothing back and run every event safe."""
import glob
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps"))
import netwarp_cli  # noqa: E402

LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
SHRINK = {
    "alltoall-ab": ["mpi.ranks=8", "mpi.alltoall.bytes=2048"],
    "cluster": ["mpi.collective.iterations=2"],
    "datacenter-incast": ["topology.tree.leaves=2",
                          "workloads[background].datacenter.distribution=hadoop",
                          "workloads[background].datacenter.flows=6",
                          "workloads[background].datacenter.duration_ns=0",
                          "workloads[incast].hosts.range.count=4",
                          "workloads[incast].hosts.range.stride=1",
                          "workloads[incast].incast.bytes=20000"],
    "fat-tree-alltoall": ["workload.all_to_all.bytes=3000"],
    "incast": ["workload.incast.senders=4", "workload.incast.bytes=65536",
               "switch.buffer_bytes=16384"],
    "leaf-spine-ecmp": ["workload.permutation.bytes=16384"],
    "mixed-leaf-spine": ["topology.leaf_spine.leaves=2", "topology.leaf_spine.hosts_per_leaf=8",
                         "workloads[background].datacenter.distribution=hadoop",
                         "workloads[background].datacenter.flows=6",
                         "workloads[background].datacenter.duration_ns=0",
                         "workloads[incast].hosts.range.first=8",
                         "workloads[incast].hosts.range.count=5",
                         "workloads[incast].hosts.range.stride=1",
                         "workloads[incast].incast.bytes=20000", "mpi.hosts.range.count=4",
                         "mpi.ranks_per_host=2", "mpi.collective.bytes=4096",
                         "mpi.collective.iterations=1"],
    "pingpong": ["mpi.pingpong.repetitions=1"],
    "roce-incast": ["workload.incast.senders=4", "workload.incast.bytes=65536"],
    "torus-alltoall": ["topology.torus.dims=6,6", "workload.all_to_all.bytes=2000"],
    "two-flows": ["workload.flows.flow[0].bytes=200000", "workload.flows.flow[1].bytes=200000",
                  "workload.flows.flow[1].start_ns=20000"],
}
MODES = ("optimistic", "conservative", "hybrid")
# (MPI ranks, threads per process)
LAUNCHES = ((2, 1), (4, 1), (1, 2), (1, 4))


class LibraryDigests(netwarp_cli.ScratchCase):
    def test_every_sync_mode_and_rank_count_gives_the_sequential_digest(self):
        names = sorted(os.path.splitext(os.path.basename(p))[0]
                       for p in glob.glob(os.path.join(LIBRARY, "*.pbtxt")))
        self.assertEqual(names, sorted(SHRINK), "a library scenario without its shrink settings")
        for name in names:
            args = [os.path.join(LIBRARY, name + ".pbtxt"), "--set", "engine.few_groups=SPREAD"]
            for setting in SHRINK[name]:
                args += ["--set", setting]
            sequential, _, _ = self.run_scenario(args, out=name)
            self.assertEqual(sequential["events_safe"], sequential["events_committed"])
            for ranks, threads in LAUNCHES:
                for mode in MODES:
                    with self.subTest(scenario=name, ranks=ranks, threads=threads, sync=mode):
                        extra = ["--threads", str(threads)] if threads > 1 else []
                        result, _, _ = self.run_scenario(
                            [*args, "--kernel", "optimistic", "--sync", mode, *extra],
                            mpi_ranks=ranks if ranks > 1 else 0,
                            out=f"{name}-{mode}{ranks}x{threads}")
                        self.assertEqual(result["digest"], sequential["digest"])
                        partitions = result.get("kernel_ranks", result["ranks"])
                        self.assertEqual(partitions, ranks * threads)
                        self.assertEqual(result["sync"], mode)
                        if mode == "conservative":
                            self.assertEqual(result["events_rolled_back"], 0)
                            self.assertEqual(result["events_safe"], result["events_committed"])
                        elif mode == "optimistic":
                            self.assertEqual(result["events_safe"], 0)


if __name__ == "__main__":
    netwarp_cli.NETWARP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
