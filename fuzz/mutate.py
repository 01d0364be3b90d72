#!/usr/bin/env python3
"""Mutation fuzzing of the netwarp program (fuzz/README.md, "mutate.py").

Takes the seed files of each input kind (fuzz/corpus/<target>/), applies byte- and token-level
mutations (numbers replaced by 0, -1, huge values, 1e308, nan; lines duplicated, dropped, swapped
or truncated; bytes flipped, inserted or deleted; invalid UTF-8) and runs the release `netwarp`
on each mutant as a user would (`run`, `trace info`, `flow --pattern`, `predict --params`), with
--out in a scratch folder and a timeout. Each run is classified:
  ok        exit 0 and the command's outputs exist
  rejected  exit 2 with exactly one error line on stderr, the last (warnings about the input,
            "netwarp: warning: ...", may come before it)
  documented  exit 3 or 4 with results written, or 5 (out of memory)
  finding   anything else: a signal, exit 70, a timeout, exit 2 with other than one error line
            (or an empty one, one over 1200 bytes, nlohmann's words, a trace action named
            without its file), 0/3/4 without outputs or with a wrong answer (a negative time in
            the results, a staging folder left, "on 0 ranks", "0 of 0 messages delivered"),
            sanitizer output, any other status
Findings are saved (input, command, stderr) under --findings; the exit status is 1 when there is
at least one.

  fuzz/mutate.py --netwarp build/bin/netwarp --count 10000 -j 2
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
LIBRARY = os.path.join(ROOT, "scenarios")
# Keeps every run short: simulated time stops at 200 us (exit 4 when work is left).
END_TIME = "end_time_ns=200000"
SET_BASES = ["incast.pbtxt", "two-flows.pbtxt", "pingpong.pbtxt", "cluster.pbtxt"]
SANITIZER_MARKS = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:",
                   "LeakSanitizer", "Assertion", "terminate called")

REPLACEMENT_NUMBERS = ["0", "-1", "1", "18446744073709551615", "18446744073709551616",
                       "9223372036854775807", "-9223372036854775808", "4294967296", "1e308",
                       "-1e308", "1e-300", "nan", "inf", "-0", "0.5", "99999999999"]
INVALID_UTF8 = [b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf0\x28\x8c\x28", b"\x80", b"\xc0\xaf"]
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
WARNING = re.compile(r"^netwarp(-\w+)?: warning: ")
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


# ----------------------------------------------------------------------------- mutations
def replace_number(data, rng):
    spots = list(NUMBER.finditer(data))
    if not spots:
        return insert_bytes(data, rng)
    m = rng.choice(spots)
    return data[:m.start()] + rng.choice(REPLACEMENT_NUMBERS).encode() + data[m.end():]


def split_lines(data):
    return data.split(b"\n")


def duplicate_line(data, rng):
    lines = split_lines(data)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return b"\n".join(lines)


def drop_line(data, rng):
    lines = split_lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def swap_lines(data, rng):
    lines = split_lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def truncate_line(data, rng):
    lines = split_lines(data)
    i = rng.randrange(len(lines))
    lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    return b"\n".join(lines)


def truncate_file(data, rng):
    return data[:rng.randrange(len(data) + 1)]


def flip_byte(data, rng):
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]


def insert_bytes(data, rng):
    i = rng.randrange(len(data) + 1)
    piece = rng.choice([bytes([rng.randrange(256)]), b",", b" ", b"\n", b"{", b"}", b":", b"\"",
                        b"#", b"\t", b"\r", b"\x00"])
    return data[:i] + piece + data[i:]


def delete_range(data, rng):
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randrange(1, 16):]


def duplicate_range(data, rng):
    if not data:
        return data
    i = rng.randrange(len(data))
    piece = data[i:i + rng.randrange(1, 64)]
    j = rng.randrange(len(data) + 1)
    return data[:j] + piece + data[j:]


ENUM_VALUE = re.compile(rb"(\b\w+:\s*)([A-Z][A-Z0-9_]+)\b")


def enum_number(data, rng):
    """An enum field's name replaced by a number, defined or not (`order: 9`)."""
    spots = list(ENUM_VALUE.finditer(data))
    if not spots:
        return replace_number(data, rng)
    m = rng.choice(spots)
    return data[:m.start(2)] + str(rng.choice([0, 1, 2, 3, 5, 9, 17, 99, -1])).encode() + \
        data[m.end(2):]


def huge_number(data, rng):
    """A number made huge but in range: sizes, delays, flops and rates near the time budget."""
    spots = list(NUMBER.finditer(data))
    if not spots:
        return insert_bytes(data, rng)
    m = rng.choice(spots)
    big = rng.choice(["1000000000000000000", "100000000000000000", "600000000000000",
                      "9000000000000000000", "1e18", "1e15", "1"])
    return data[:m.start()] + big.encode() + data[m.end():]


def invalid_utf8(data, rng):
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(INVALID_UTF8) + data[i:]


# Token-level mutations weigh more: they keep the input mostly well-formed, so it gets past the
# parser to the checks behind it.
MUTATIONS = ([replace_number] * 6 + [duplicate_line] * 2 + [drop_line] * 2 + [swap_lines] +
             [truncate_line] * 2 + [truncate_file] + [flip_byte] * 2 + [insert_bytes] +
             [delete_range] + [duplicate_range] + [invalid_utf8] + [enum_number] * 2 +
             [huge_number] * 2)


def mutate(seed, rng):
    data = seed
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4])):
        data = rng.choice(MUTATIONS)(data, rng)
    return data


# ----------------------------------------------------------------------------- input kinds
@dataclass
class Case:
    kind: str
    index: int
    data: bytes
    seed_name: str
    folder: str
    argv: list = field(default_factory=list)
    outputs: list = field(default_factory=list)  # files that exit 0, 3 and 4 must have written
    needs_stdout: bool = False


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def scenario_case(c, netwarp):
    path = os.path.join(c.folder, "mutant.pbtxt")
    write(path, c.data)
    out = os.path.join(c.folder, "out")
    c.argv = [netwarp, "run", path, "--out", out, "--set", END_TIME]
    c.outputs = [os.path.join(out, "results.json")]


def set_case(c, netwarp):
    base = SET_BASES[c.data[0] % len(SET_BASES)] if c.data else SET_BASES[0]
    out = os.path.join(c.folder, "out")
    c.argv = [netwarp, "run", os.path.join(LIBRARY, base), "--out", out]
    # A command line cannot hold a NUL byte: each --set value stops at the first one.
    for line in c.data[1:].split(b"\n"):
        c.argv += ["--set", line.split(b"\0")[0].decode("utf-8", "surrogateescape")]
    c.argv += ["--set", END_TIME]
    c.outputs = [os.path.join(out, "results.json")]


def trace_case(name_of):
    def make(c, netwarp):
        name, data = name_of(c)
        path = os.path.join(c.folder, name)
        write(path, data)
        # Every other mutant is replayed on the 16-host cluster; the rest only read.
        if c.index % 2 == 0:
            c.argv = [netwarp, "trace", "info", path]
            c.needs_stdout = True
        else:
            out = os.path.join(c.folder, "out")
            c.argv = [netwarp, "run", "--trace", path, "--out", out, "--set", END_TIME]
            c.outputs = [os.path.join(out, "results.json")]
    return make


def tit_file(c):
    return "mutant.tit", c.data


def proto_file(c):
    name = "mutant.pb" if c.data and c.data[0] % 2 == 0 else "mutant.pbtxt"
    return name, c.data[1:]


def pattern_case(c, netwarp):
    path = os.path.join(c.folder, "pattern.csv")
    write(path, c.data)
    out = os.path.join(c.folder, "out")
    c.argv = [netwarp, "flow", os.path.join(LIBRARY, "torus-alltoall.pbtxt"), "--set",
              "topology.torus.dims=4,4", "--pattern", path, "--out", out]
    c.outputs = [os.path.join(out, "flow.json")]


FLOWS_SCENARIO = b"""name: "fuzz-flows"
topology { star { hosts: 16 } }
links { rate_bps: 1000000000 latency_ns: 1000 }
switch { buffer_bytes: 262144 }
transport { kind: TCP }
workload { flows { csv_file: "flows.csv" } }
end_time_ns: 200000
"""


def flows_case(c, netwarp):
    write(os.path.join(c.folder, "flows.csv"), c.data)
    scenario = os.path.join(c.folder, "flows.pbtxt")
    write(scenario, FLOWS_SCENARIO)
    out = os.path.join(c.folder, "out")
    c.argv = [netwarp, "run", scenario, "--out", out]
    c.outputs = [os.path.join(out, "results.json")]


def kernel_case(c, netwarp):
    """A built-in MPI kernel's scenario (gauss, NPB, pingpong, all-to-all ...): `run`, and every
    other mutant `predict --model flow` too, with the whole kernel checked up front."""
    path = os.path.join(c.folder, "kernel.pbtxt")
    write(path, c.data)
    out = os.path.join(c.folder, "out")
    if c.index % 3 == 2:  # `flow` takes network workloads only: the kernel goes to predict
        c.argv = [netwarp, "predict", path, "--model", "flow"]
        c.needs_stdout = True
        return
    c.argv = [netwarp, "run", path, "--out", out, "--set", END_TIME]
    c.outputs = [os.path.join(out, "results.json")]


def params_case(c, netwarp):
    path = os.path.join(c.folder, "params.json")
    write(path, c.data)
    model = c.seed_name.split("-fit")[0]
    # predict has no logp model: those files go through `model`.
    if model != "logp":
        c.argv = [netwarp, "predict", os.path.join(LIBRARY, "pingpong.pbtxt"), "--model", model,
                  "--params", path]
    else:
        c.argv = [netwarp, "model", model, "--params", path, "--size", "4096"]
    c.needs_stdout = True


KINDS = {
    "scenario": ("scenario_text", scenario_case),
    "set": ("scenario_set", set_case),
    "tit": ("tit_trace", trace_case(tit_file)),
    "proto": ("proto_trace", trace_case(proto_file)),
    "pattern": ("mfs_pattern", pattern_case),
    "flows": ("flows_csv", flows_case),
    "params": ("params_json", params_case),
    "kernel": ("mpi_kernel", kernel_case),
}


# ----------------------------------------------------------------------------- running
def negative_times(value, path=""):
    """Paths of time fields (*_ps, *_ns) below zero anywhere in a results document: a wrapped
    sum or a -1 sentinel (docs/reference/outputs.md: absent values are null)."""
    if isinstance(value, dict):
        for key, v in value.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and \
                    (key.endswith("_ps") or key.endswith("_ns")) and v < 0:
                yield f"{path}.{key}"
            else:
                yield from negative_times(v, f"{path}.{key}")
    elif isinstance(value, list):
        for i, v in enumerate(value[:10000]):
            yield from negative_times(v, f"{path}[{i}]")


def wrong_answer(c, stdout):
    """The wrong-answers-with-exit-0 classes: negative or sentinel times in the results, a
    run's staging folder left behind, "on 0 ranks", "0 of 0 messages delivered"."""
    leftovers = [n for n in os.listdir(c.folder) if ".partial-" in n]
    if leftovers:
        return "staging folder left behind"
    for path in c.outputs:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            return f"{os.path.basename(path)} is not JSON"
        bad = next(negative_times(doc), None)
        if bad:
            return f"negative time {bad} in {os.path.basename(path)}"
    if re.search(r"\bon 0 ranks\b", stdout):
        return "a prediction on 0 ranks"
    if "0 of 0 messages delivered" in stdout:
        return "a run with no messages reported as complete"
    return ""


def classify(c, status, stderr, stdout, timed_out):
    if timed_out:
        return "finding", "timeout"
    if any(mark in stderr for mark in SANITIZER_MARKS):
        return "finding", "sanitizer or abort output"
    if status < 0:
        return "finding", f"signal {-status}"
    lines = stderr.strip("\n").split("\n")
    if status == 2:
        warnings = [line for line in lines[:-1] if WARNING.match(line)]
        if len(warnings) != len(lines) - 1:
            return "finding", f"exit 2 with {len(lines) - len(warnings)} stderr lines besides warnings"
        if any(CONTROL.search(w) or len(w) > 1200 for w in warnings):
            return "finding", "a warning line with a control character or over 1200 bytes"
        lines = lines[-1:]
        if CONTROL.search(lines[0]):
            return "finding", "control character in the error line"
        if not lines[0].strip() or lines[0].strip() in ("netwarp: error:", "netwarp: error: :"):
            return "finding", "empty error line"
        if "json.exception" in lines[0]:
            return "finding", "nlohmann's words in the error line"
        if len(lines[0]) > 1200:
            return "finding", "error line over 1200 bytes (an input echoed whole)"
        if re.match(r"^(netwarp: (error: )?)?rank \d+, action \d+", lines[0]):
            return "finding", "error naming no file or field"
        return "rejected", ""
    if status in (0, 3, 4):
        missing = [p for p in c.outputs if not os.path.exists(p)]
        if missing or (c.needs_stdout and not stdout.strip()):
            return "finding", f"exit {status} without its outputs"
        wrong = wrong_answer(c, stdout)
        if wrong:
            return "finding", wrong
        return ("ok", "") if status == 0 else ("documented", f"exit {status}")
    if status == 5:
        return "documented", "exit 5"
    return "finding", f"exit {status}"


def run_case(c, netwarp, maker, timeout):
    os.makedirs(c.folder)
    maker(c, netwarp)
    env = dict(os.environ, OMPI_MCA_btl="self,vader")
    try:
        r = subprocess.run(c.argv, capture_output=True, timeout=timeout, env=env, cwd=c.folder)
        status, stderr, stdout, timed_out = r.returncode, r.stderr, r.stdout, False
    except subprocess.TimeoutExpired as e:
        status, stderr, stdout, timed_out = None, e.stderr or b"", e.stdout or b"", True
    stderr = stderr.decode("utf-8", "replace")
    verdict, why = classify(c, status, stderr, stdout.decode("utf-8", "replace"), timed_out)
    return verdict, why, status, stderr


def save_finding(findings_dir, c, why, status, stderr):
    folder = os.path.join(findings_dir, f"{c.kind}-{c.index:06d}")
    os.makedirs(folder, exist_ok=True)
    write(os.path.join(folder, "input"), c.data)
    with open(os.path.join(folder, "report.json"), "w") as f:
        json.dump({"kind": c.kind, "seed": c.seed_name, "why": why, "status": status,
                   "argv": c.argv, "stderr": stderr[-4000:]}, f, indent=1)


def fuzz_kind(kind, args, scratch, deadline):
    corpus_name, maker = KINDS[kind]
    seed_dir = os.path.join(CORPUS, corpus_name)
    seeds = [(n, open(os.path.join(seed_dir, n), "rb").read()) for n in sorted(os.listdir(seed_dir))]
    rng = random.Random(f"{args.seed}-{kind}")
    cases = []
    for i in range(args.count):
        name, data = rng.choice(seeds)
        # The first byte of a proto or set seed picks the format or base: kept as it is.
        if kind in ("proto", "set") and data:
            mutant = data[:1] + mutate(data[1:], rng)
        else:
            mutant = mutate(data, rng)
        cases.append(Case(kind, i, mutant, name, os.path.join(scratch, f"{kind}-{i}")))
    counts, reasons, lock = Counter(), Counter(), threading.Lock()

    def one(c):
        if time.monotonic() > deadline:
            return
        verdict, why, status, stderr = run_case(c, args.netwarp, maker, args.timeout)
        with lock:
            counts[verdict] += 1
            if verdict == "finding":
                reasons[why] += 1
                save_finding(args.findings, c, why, status, stderr)
                first = stderr.strip().splitlines()[:1]
                print(f"  finding {kind} #{c.index} ({c.seed_name}): {why}: "
                      f"{first[0][:200] if first else ''}", flush=True)
        shutil.rmtree(c.folder, ignore_errors=True)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, cases))
    return counts, reasons


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--netwarp", default=os.path.join(ROOT, "build", "bin", "netwarp"))
    p.add_argument("--count", type=int, default=10000, help="mutants per kind")
    p.add_argument("--kinds", default=",".join(KINDS), help="comma-separated: " + ", ".join(KINDS))
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
    p.add_argument("--seed", default="1", help="random seed: the same seed, the same mutants")
    p.add_argument("--findings", default="fuzz-findings", help="folder for the findings")
    p.add_argument("--minutes-per-kind", type=float, default=0,
                   help="stop a kind's runs after this long (0: no limit); the counts say how many ran")
    args = p.parse_args()
    args.netwarp = os.path.abspath(args.netwarp)
    args.findings = os.path.abspath(args.findings)
    total = 0
    with tempfile.TemporaryDirectory(prefix="netwarp-mutate-") as scratch:
        for kind in args.kinds.split(","):
            limit = args.minutes_per_kind * 60 if args.minutes_per_kind > 0 else float("inf")
            counts, reasons = fuzz_kind(kind, args, scratch, time.monotonic() + limit)
            summary = ", ".join(f"{k} {counts[k]}" for k in ("ok", "rejected", "documented", "finding"))
            print(f"{kind}: {sum(counts.values())} mutants: {summary}", flush=True)
            for why, n in reasons.most_common():
                print(f"    {n:6d}  {why}")
            total += counts["finding"]
    print(f"findings: {total}" + (f" (saved in {args.findings})" if total else ""))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
