"""The studies, in report order; each is a module of this package (dashes become
underscores)."""
STUDIES = [
    "loggps-pingpong",
    "rendezvous-send-wait",
    "plogp-br-alltoall",
    "fat-tree-flow",
    "torus-flow",
    "cascade-contention",
    "incast-rto",
    "ns3-tcp",
]
