#!/usr/bin/env python3
"""The netwarp program keeps the functions of cmake/symbol_order.txt together (lld's symbol order,
cmake/NetwarpSymbolOrder.cmake), and the list still names the program's own functions.

  symbol_order_test.py NETWARP ORDER_FILE
"""
import subprocess
import sys

KEPT_SHARE = 0.8  # of the list's netwarp functions still in the program; less: a stale list
SPAN_SLACK = 2.0  # the listed functions' span over their total size; unordered it is about 5


def main():
    netwarp, order_file = sys.argv[1], sys.argv[2]
    with open(order_file) as f:
        listed = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    text = subprocess.run(["nm", "-S", "--defined-only", netwarp], capture_output=True, text=True,
                          check=True).stdout
    functions = {}
    for parts in (line.split() for line in text.splitlines()):
        if len(parts) == 4 and parts[2] in "tTwW":
            functions[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    ours = [name for name in listed if name.startswith(("_ZN7netwarp", "_ZNK7netwarp"))]
    kept = sum(name in functions for name in ours)
    if not ours or kept < KEPT_SHARE * len(ours):
        sys.exit(f"{order_file}: only {kept} of its {len(ours)} netwarp functions are in {netwarp}; "
                 "regenerate it with bench/symbol_order.py")
    placed = {functions[name] for name in listed if name in functions}  # aliases share a place
    start = min(address for address, _ in placed)
    end = max(address + size for address, size in placed)
    size = sum(size for _, size in placed)
    if end - start > SPAN_SLACK * size:
        sys.exit(f"{netwarp}: the {len(placed)} listed functions ({size} bytes) spread over "
                 f"{end - start} bytes: not linked in the order of {order_file}")
    print(f"{len(placed)} listed functions, {size} bytes in a span of {end - start}; "
          f"{kept} of {len(ours)} netwarp functions kept")


if __name__ == "__main__":
    main()
