#!/usr/bin/env python3
"""Draws every figure kind of `netwarp plot` and `netwarp validate` on the library's scenarios
and studies into docs/gallery/, for docs/gallery.md; or checks that the gallery is current.

Each entry of FIGURES names a PNG of docs/gallery/ and the run that makes it. --check draws
them all again in a scratch folder and fails, naming the figure, when one is not drawn, when
a committed PNG is missing or small (under MIN_BYTES), when gallery.md does not show every one,
or when it shows one the generator does not draw. (PNG bytes differ between gnuplot and cairo
builds, so the images themselves are not compared.)

Usage: gen_gallery.py --netwarp BUILD/bin/netwarp [--check]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GALLERY = os.path.join(REPO, "docs", "gallery")
PAGE = os.path.join(REPO, "docs", "gallery.md")
MIN_BYTES = 8000

INCAST = "scenarios/incast.pbtxt"
INCAST_RTO = "scenarios/studies/incast-rto.pbtxt"
HALO = "scenarios/traces/otf2-halo/traces.otf2"

# Runs, in order: (name, netwarp arguments); {out} is the scratch folder.
RUNS = [
    ("incast", ["run", INCAST, "--out", "{out}/incast", "--plot"]),
    ("incast-256k", ["run", INCAST, "--set", "switch.buffer_bytes=256KiB",
                     "--out", "{out}/incast-256k"]),
    ("overlay", ["plot", "{out}/incast", "{out}/incast-256k", "--label", "64 KiB buffers",
                 "--label", "256 KiB buffers", "--out", "{out}/overlay"]),
    ("window", ["plot", "{out}/incast-256k", "--from", "200ms", "--to", "210ms"]),
    ("halo", ["run", "--trace", HALO, "--out", "{out}/halo", "--plot"]),
    ("classes", ["run", "scenarios/datacenter-incast.pbtxt", "--out", "{out}/classes", "--plot"]),
    ("bars", ["validate", "scenarios/pingpong.pbtxt", "--models", "loggps,plogp",
              "--no-sweep", "--set", "mpi.pingpong.sizes=65536", "--out", "{out}/bars"]),
    ("sizes", ["validate", "scenarios/alltoall-ab.pbtxt", "--models", "loggps,plogp",
               "--out", "{out}/sizes"]),
    ("grid", ["validate", INCAST_RTO, "--models", "flow",
              "--sweep", "switch.buffer_bytes=32768,131072,1048576",
              "--sweep", "transport.tcp.min_rto_us=1000,10000,200000", "--out", "{out}/grid"]),
    ("names", ["validate", INCAST_RTO, "--models", "flow",
               "--sweep", "transport.tcp.congestion_control=NEW_RENO,CUBIC",
               "--out", "{out}/names"]),
]

# Gallery file -> the file a run drew, relative to the scratch folder.
FIGURES = {
    "queue_occupancy.png": "incast/plots/queue_occupancy.png",
    "queue_occupancy_busy.png": "incast/plots/queue_occupancy_busy.png",
    "utilisation.png": "incast/plots/utilisation.png",
    "utilisation_busy.png": "incast/plots/utilisation_busy.png",
    "cwnd.png": "incast/plots/cwnd.png",
    "cwnd_busy.png": "incast/plots/cwnd_busy.png",
    "fct_cdf.png": "incast/plots/fct_cdf.png",
    "fct_cdf_classes.png": "classes/plots/fct_cdf.png",
    "slowdown_by_size.png": "classes/plots/slowdown_by_size.png",
    "window_queue_occupancy.png": "incast-256k/plots/queue_occupancy.png",
    "overlay_fct_cdf.png": "overlay/fct_cdf.png",
    "overlay_queue_occupancy.png": "overlay/queue_occupancy.png",
    "rank_breakdown.png": "halo/plots/rank_breakdown.png",
    "validate_bars.png": "bars/report.png",
    "validate_sizes.png": "sizes/report.png",
    "validate_grid_buffer.png": "grid/report-switch-buffer-bytes.png",
    "validate_grid_min_rto.png": "grid/report-transport-tcp-min-rto-us.png",
    "validate_grid_losses_min_rto.png": "grid/report-losses-transport-tcp-min-rto-us.png",
    "validate_categorical.png": "names/report.png",
}


def draw(netwarp, out):
    for name, args in RUNS:
        cmd = [netwarp] + [a.format(out=out) for a in args]
        r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, CI="true"))
        if r.returncode != 0:
            sys.exit(f"gen_gallery: {name}: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr}")


def shown_in_page():
    with open(PAGE) as f:
        return set(re.findall(r"\]\(gallery/([\w.-]+\.png)\)", f.read()))


def check(out):
    problems = []
    for figure, drawn in FIGURES.items():
        path = os.path.join(out, drawn)
        if not os.path.isfile(path) or os.path.getsize(path) < MIN_BYTES:
            problems.append(f"{drawn}: not drawn (or under {MIN_BYTES} B) for {figure}")
        committed = os.path.join(GALLERY, figure)
        if not os.path.isfile(committed) or os.path.getsize(committed) < MIN_BYTES:
            problems.append(f"docs/gallery/{figure}: missing or under {MIN_BYTES} B")
    shown = shown_in_page()
    for figure in sorted(set(FIGURES) - shown):
        problems.append(f"docs/gallery.md does not show gallery/{figure}")
    for figure in sorted(shown - set(FIGURES)):
        problems.append(f"docs/gallery.md shows gallery/{figure}, which nothing draws")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--netwarp", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    netwarp = os.path.abspath(args.netwarp)
    out = tempfile.mkdtemp(prefix="gallery-")
    try:
        draw(netwarp, out)
        if args.check:
            problems = check(out)
            for p in problems:
                print(f"gen_gallery: {p}", file=sys.stderr)
            return 1 if problems else 0
        os.makedirs(GALLERY, exist_ok=True)
        for figure, drawn in FIGURES.items():
            shutil.copyfile(os.path.join(out, drawn), os.path.join(GALLERY, figure))
        problems = check(out)
        for p in problems:
            print(f"gen_gallery: {p}", file=sys.stderr)
        return 1 if problems else 0
    finally:
        shutil.rmtree(out)


if __name__ == "__main__":
    sys.exit(main())
