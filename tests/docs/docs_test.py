#!/usr/bin/env python3
"""Runs every shell command of README.md and docs/**/*.md, and checks their relative links.

Conventions (docs/README.md explains them to writers):
  ```sh blocks are run; every other fence (```text, ```cpp, ```proto, plain ```) is not.
  <!-- doc-test: skip REASON --> on the line before a fence: that block is not run
      (install and full-size commands that CI runs anyway, or that take minutes).
  A command line ending in `# doc-test: exit N` must exit with status N (a documented error).
  <!-- doc-test: output-has "TEXT" --> lines right after a closing fence: the block's output
      must contain TEXT (numbers and messages the prose quotes).
  <!-- doc-test: compile --> before a ```cpp fence: the block compiles against the engine.
Scenario fields named in `code spans` (switch.buffer_bytes ...) must exist in scenario.proto,
and netwarp flags in spans and commands must be listed by some `netwarp ... --help`.
Each Markdown file runs in its own scratch copy of the repository (tracked files, no build
folders), its blocks in order in one bash process, with the build's bin folder first on PATH
and build/bin linked to it. A failing command is reported as FILE:LINE with its output.

Usage: docs_test.py --netwarp BUILD/bin/netwarp [--only FILE ...] [--links-only] [-j N]
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import shlex
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FENCE = re.compile(r"^(\s*)```+\s*([\w+-]*)\s*$")
SKIP_MARK = re.compile(r"<!--\s*doc-test:\s*skip\b")
EXIT_MARK = re.compile(r"#\s*doc-test:\s*exit\s+(\d+)\s*$")
OUTPUT_MARK = re.compile(r"^<!--\s*doc-test:\s*output-has\s+\"(.*)\"\s*-->\s*$")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
COMMAND_TIMEOUT_S = 120


def markdown_files():
    """README.md and every .md file under docs/, repository-relative, sorted."""
    files = ["README.md"]
    for root, _, names in os.walk(os.path.join(REPO, "docs")):
        files += [os.path.relpath(os.path.join(root, n), REPO) for n in names if n.endswith(".md")]
    return sorted(files)


def code_blocks(lines):
    """Yields (language, skipped, [(line number, text)], [(line number, expected output)])
    for each fenced block; the expectations are the doc-test: output-has lines after it."""
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        language = match.group(2)
        previous = lines[i - 1] if i > 0 else ""
        skipped = bool(SKIP_MARK.search(previous))
        body = []
        i += 1
        while i < len(lines) and not FENCE.match(lines[i]):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1  # the closing fence
        expected = []
        while i < len(lines) and OUTPUT_MARK.match(lines[i]):
            expected.append((i + 1, OUTPUT_MARK.match(lines[i]).group(1)))
            i += 1
        yield language, skipped, body, expected


def commands(body):
    """Joins backslash continuations: yields (first line number, command text)."""
    current, first = [], None
    for number, text in body:
        stripped = text.rstrip()
        if not current and (not stripped.strip() or stripped.strip().startswith("#")):
            continue
        if first is None:
            first = number
        if stripped.endswith("\\"):
            current.append(stripped[:-1])
            continue
        current.append(stripped)
        yield first, " ".join(part.strip() for part in current)
        current, first = [], None
    if current:
        yield first, " ".join(part.strip() for part in current)


def runnable_blocks(path):
    """[(commands [(line, text)], expectations [(line, text)])] of the ```sh blocks run."""
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    return [(list(commands(body)), expected)
            for language, skipped, body, expected in code_blocks(lines)
            if language == "sh" and not skipped]


def runnable_commands(path):
    return [command for block, _ in runnable_blocks(path) for command in block]


def block_script(index, block, expected):
    """Bash lines that run one block's commands, each with its expected status, then check
    that the block's output holds each expected text."""
    log = f".doc-test/block{index}.log"
    script = ["mkdir -p .doc-test", f": > {log}"]
    for number, command in block:
        want_match = EXIT_MARK.search(command)
        want = int(want_match.group(1)) if want_match else 0
        script.append(f"echo '@@doc-test line {number}' >&2")
        script.append(f"( {command}\n) > .doc-test/last.log 2>&1; status=$?")
        script.append(f"cat .doc-test/last.log >> {log}; cat .doc-test/last.log")
        script.append(f"if [ $status -ne {want} ]; then "
                      f"echo \"@@doc-test FAIL {number} status $status, expected {want}\" >&2; exit 1; fi")
    for number, text in expected:
        script.append(f"grep -qF -- {shlex.quote(text)} {log} || {{ "
                      f"echo \"@@doc-test FAIL {number} the block's output lacks the text\" >&2; exit 1; }}")
    return script


def scratch_copy(netwarp_bin_dir):
    """A temporary copy of the repository's tracked files, with build/bin linked to the build."""
    scratch = tempfile.mkdtemp(prefix="netwarp-docs-")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True)
    if tracked.returncode != 0:  # not a git checkout: everything but build folders and outputs
        shutil.rmtree(scratch)
        shutil.copytree(REPO, scratch, symlinks=True, ignore=lambda d, names: [
            n for n in names if d == REPO and (n.startswith("build") or n in (".git", "out"))])
        os.makedirs(os.path.join(scratch, "build"), exist_ok=True)
        os.symlink(netwarp_bin_dir, os.path.join(scratch, "build", "bin"))
        return scratch
    for rel in tracked.stdout.decode().split("\0"):
        if not rel or not os.path.isfile(os.path.join(REPO, rel)):
            continue
        target = os.path.join(scratch, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(REPO, rel), target)
    os.makedirs(os.path.join(scratch, "build"), exist_ok=True)
    os.symlink(netwarp_bin_dir, os.path.join(scratch, "build", "bin"))
    return scratch


def run_file(path, netwarp_bin_dir):
    """Runs one Markdown file's commands; returns (path, seconds, [failure texts])."""
    blocks = runnable_blocks(path)
    found = [command for block, _ in blocks for command in block]
    if not found:
        return path, 0.0, []
    scratch = scratch_copy(netwarp_bin_dir)
    env = dict(os.environ)
    env["PATH"] = netwarp_bin_dir + os.pathsep + env.get("PATH", "")
    env["CI"] = "true"
    env.setdefault("OMPI_MCA_btl", "self,vader,tcp")
    env.setdefault("OMPI_MCA_btl_tcp_if_include", "lo")
    env.setdefault("OMPI_MCA_oob_tcp_if_include", "lo")
    # The docs write `mpirun -np 2` for readability; a machine with one core needs this.
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    if os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    failures = []
    started = time.monotonic()
    # One bash process per file, so a block may use what an earlier one wrote or exported.
    script = []
    for index, (block, expected) in enumerate(blocks):
        script += block_script(index, block, expected)
    process = subprocess.Popen(["bash", "-c", "\n".join(script)], cwd=scratch, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=COMMAND_TIMEOUT_S * max(1, len(found)))
        result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
        failed = re.search(r"@@doc-test FAIL (\d+) (.*)", result.stderr)
        if failed or result.returncode != 0:
            line = failed.group(1) if failed else "?"
            why = failed.group(2) if failed else f"bash exited {result.returncode}"
            lookup = dict(found)
            lookup.update({n: f'output-has "{t}"' for _, e in blocks for n, t in e})
            command = lookup.get(int(line), "") if line != "?" else ""
            tail = "\n".join((result.stdout + result.stderr).strip().split("\n")[-25:])
            failures.append(f"{path}:{line}: {why}: {command}\n{tail}")
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # bash and every command it started
        process.communicate()
        failures.append(f"{path}: timed out")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return path, time.monotonic() - started, failures


COMPILE_MARK = re.compile(r"<!--\s*doc-test:\s*compile\s*-->")
COMPILE_PRELUDE = """#include <cstdint>
#include <memory>
#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/model.hpp"
namespace netwarp {
"""


def compile_failures(path, cxx):
    """Compiles each ```cpp block marked with doc-test: compile; returns failure texts."""
    failures = []
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    for language, _, body, _ in code_blocks(lines):
        if language != "cpp" or not body:
            continue
        first = body[0][0]
        marker = lines[first - 3] if first >= 3 else ""
        if not COMPILE_MARK.search(marker):
            continue
        source = COMPILE_PRELUDE + "\n".join(text for _, text in body) + "\n}\n"
        with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as out:
            out.write(source)
        result = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                                 "-I", os.path.join(REPO, "engine", "include"), out.name],
                                capture_output=True, text=True)
        os.unlink(out.name)
        if result.returncode != 0:
            failures.append(f"{path}:{first - 1}: the cpp block does not compile:\n"
                            + result.stderr.strip()[-2000:])
    return failures


def exit_code_table_failures(netwarp):
    """README.md's exit-code table lists the statuses `netwarp --help` prints."""
    help_text = subprocess.run([netwarp, "--help"], capture_output=True, text=True).stdout
    wanted = re.findall(r"^\s+(\d+)\s+\S", help_text.split("Exit codes:")[-1], flags=re.M)
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("## Exit codes")[1].split("\n## ")[0] if "## Exit codes" in readme else ""
    listed = re.findall(r"^\| (\d+) \|", section, flags=re.M)
    if not wanted or listed != wanted:
        return [f"README.md: the exit-code table lists {listed}, netwarp --help {wanted}"]
    return []


def link_failures(path):
    """Relative links of PATH that do not resolve to a file or folder inside the repository."""
    failures = []
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    in_code = False
    for number, line in enumerate(lines, start=1):
        if FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                if target.startswith(("http:", "https:")):
                    failures.append(f"{path}:{number}: link outside the repository: {target}")
                continue
            resolved = os.path.normpath(os.path.join(REPO, os.path.dirname(path),
                                                     target.split("#")[0]))
            if not resolved.startswith(REPO + os.sep) and resolved != REPO:
                failures.append(f"{path}:{number}: link leaves the repository: {target}")
            elif not os.path.exists(resolved):
                failures.append(f"{path}:{number}: broken link: {target}")
            elif "#" in target and resolved.endswith(".md"):
                fragment = target.split("#", 1)[1]
                if fragment not in heading_anchors(resolved):
                    failures.append(f"{path}:{number}: no heading for the anchor: {target}")
        for fragment in re.findall(r"\]\(#([^)\s]+)\)", line):
            if fragment not in heading_anchors(os.path.join(REPO, path)):
                failures.append(f"{path}:{number}: no heading for the anchor: #{fragment}")
    return failures


SCENARIO_ROOTS = ("engine", "topology", "links", "switch", "nic", "transport", "placement",
                  "workload", "workloads", "outputs", "mpi", "validation")
FIELD_NAME = re.compile(r"(?<![\w/.-])((?:%s)\.[a-z_]+(?:\.[a-z_]+)*)(\*?)" % "|".join(SCENARIO_ROOTS))


def scenario_field_paths():
    """Every dotted path of scenario.proto (messages and fields), as --set spells them."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_reference  # the schema parser of the generated page
    with open(os.path.join(REPO, gen_reference.PROTO), encoding="utf-8") as f:
        messages, _ = gen_reference.parse_proto(f.read())
    valid = set()
    for name, path in gen_reference.paths_of(messages).items():
        prefix = path.replace("[]", "")
        for _, _, field, _ in messages[name].fields:
            valid.add(f"{prefix}.{field}" if prefix else field)
    return valid


def field_name_failures(path, valid):
    """Scenario fields named in `code spans` of PATH that the schema does not have."""
    failures = []
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            for span in re.findall(r"`([^`]+)`", line):
                for name, star in FIELD_NAME.findall(span):
                    known = (name in valid if not star
                             else any(v.startswith(name) for v in valid))
                    if not known:
                        failures.append(f"{path}:{number}: no scenario field `{name}`")
    return failures


FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)")
OTHER_PROGRAMS_FLAGS = {"--oversubscribe", "--allow-run-as-root"}  # mpirun's


def netwarp_flags(netwarp):
    """Every flag that `netwarp [SUB [SUB]] --help` lists."""
    flags, pending, seen = set(), [[]], set()
    while pending:
        args = pending.pop()
        text = subprocess.run([netwarp] + args + ["--help"], capture_output=True,
                              text=True).stdout
        flags.update(FLAG.findall(text))
        if "Subcommands:" in text:
            part = text.split("Subcommands:")[1].split("\n\n")[0]
            for sub in re.findall(r"^  (\w[\w-]*)\s", part, flags=re.M):
                if tuple(args + [sub]) not in seen:
                    seen.add(tuple(args + [sub]))
                    pending.append(args + [sub])
    return flags


def flag_failures(path, flags):
    """netwarp flags in PATH that no `--help` lists: in code spans that start with `--` or
    `netwarp `, and after the word netwarp in ```sh blocks."""
    failures = []
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    in_code, language = False, ""
    for number, line in enumerate(lines, start=1):
        fence = FENCE.match(line)
        if fence:
            in_code, language = (not in_code), fence.group(2)
            continue
        candidates = []
        if in_code and language == "sh":
            words = line.split()
            if "netwarp" in words:
                candidates = FLAG.findall(" ".join(words[words.index("netwarp"):]))
        elif not in_code:
            for span in re.findall(r"`([^`]+)`", line):
                if span.startswith(("--", "netwarp ")):
                    candidates += FLAG.findall(span)
        for flag in candidates:
            if flag not in flags and flag not in OTHER_PROGRAMS_FLAGS:
                failures.append(f"{path}:{number}: netwarp has no flag {flag}")
    return failures


def heading_anchors(markdown_path):
    """The anchors GitHub gives the headings of a Markdown file."""
    anchors, seen, in_code = set(), {}, False
    with open(markdown_path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                in_code = not in_code
            if in_code or not line.startswith("#"):
                continue
            title = line.lstrip("#").strip().lower()
            anchor = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            anchors.add(anchor if count == 0 else f"{anchor}-{count}")
    return anchors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--netwarp", required=True, help="the built netwarp program")
    parser.add_argument("--only", nargs="*", help="Markdown files to run (repository-relative)")
    parser.add_argument("--links-only", action="store_true")
    parser.add_argument("-j", type=int, default=2, help="files run at once")
    parser.add_argument("--cxx", default="c++", help="C++ compiler for the compile blocks")
    args = parser.parse_args()
    netwarp_bin_dir = os.path.dirname(os.path.abspath(args.netwarp))
    files = args.only or markdown_files()

    failures = []
    for path in files:
        failures += link_failures(path)
    valid_fields = scenario_field_paths()
    flags = netwarp_flags(args.netwarp)
    for path in files:
        if path != "docs/reference/cli.md":
            failures += flag_failures(path, flags)
        failures += compile_failures(path, args.cxx)
        if path != "docs/reference/scenario.md":
            failures += field_name_failures(path, valid_fields)
    if not args.only:
        failures += exit_code_table_failures(args.netwarp)
        generated = subprocess.run([sys.executable, os.path.join(REPO, "tests", "docs",
                                                                 "gen_reference.py"),
                                    "--netwarp", args.netwarp, "--check"],
                                   capture_output=True, text=True)
        if generated.returncode != 0:
            failures.append(generated.stderr.strip())
    if not args.links_only:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
            for path, seconds, failed in pool.map(lambda p: run_file(p, netwarp_bin_dir), files):
                count = len(runnable_commands(path))
                print(f"{path}: {count} commands, {seconds:.1f} s{' FAILED' if failed else ''}")
                failures += failed
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"docs: {len(files)} files, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
