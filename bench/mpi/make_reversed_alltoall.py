#!/usr/bin/env python3
"""Writes a TIT trace of seed 002's all-to-all algorithm A with its receives posted in the
reverse of the order the messages arrive (irecv from r XOR (P-1) down to r XOR 1, then sends to
r XOR 1 .. r XOR (P-1), then waitall): the worst case for a linearly scanned posted queue.
Usage: make_reversed_alltoall.py P OUT.tit   (P a power of two; 8-byte messages)"""
import sys

P, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    for r in range(P):
        f.write(f"{r} init\n")
        for i in range(P - 1, 0, -1):
            f.write(f"{r} irecv {r ^ i} 0 8\n")
        for i in range(1, P):
            f.write(f"{r} send {r ^ i} 0 8\n")
        f.write(f"{r} waitall\n{r} finalize\n")
