"""What every study uses: running netwarp (validate, run, flow), collecting errors and run
times for the summary, checking findings, and writing tables and gnuplot plots.

A study module defines NAME, TITLE and run(ctx) -> Study. ctx.smoke is True for the reduced
size that CI runs; the findings checked (ctx.check) are the same at both sizes."""
import json
import os
import shutil
import statistics
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def scenario(path):
    """A library scenario by its path under scenarios/."""
    return os.path.join(REPO, "scenarios", path)


class StudyFailed(Exception):
    pass


class Study:
    """What a study returns: its markdown body and what the summary table shows."""

    def __init__(self, markdown, models):
        self.markdown = markdown
        self.models = models  # model names compared with the packet simulation, in order


def scenario_args(sets, trace):
    """--set for each override, --trace when a trace replaces the program."""
    args = []
    for s in sets:
        args += ["--set", s]
    return args + (["--trace", trace] if trace else [])


class Context:
    def __init__(self, netwarp, out_dir, smoke, verbose=True):
        self.netwarp = netwarp
        self.out_dir = out_dir  # this study's report folder
        self.smoke = smoke
        self.verbose = verbose
        self.errors = {}  # model -> [error_pct, ...] over every compared point
        self.packet_seconds = 0.0  # wall time of every packet simulation of the study
        self.findings = []  # (text, holds)
        self.observations = []  # (text, holds): reported, never failing a smoke run
        self.commands = []  # the netwarp commands run, for the report
        os.makedirs(out_dir, exist_ok=True)

    # --- running netwarp ---------------------------------------------------------------
    def _netwarp(self, args, program=None):
        """Runs netwarp (or `program` beside it), listed in the report by its name."""
        program = program or self.netwarp
        shown = " ".join([os.path.basename(program)] + [self._shown(a) for a in args])
        self.commands.append(shown)
        if self.verbose:
            print("  " + shown, file=sys.stderr, flush=True)
        r = subprocess.run([program] + args, capture_output=True, text=True)
        if r.returncode != 0:
            raise StudyFailed(f"{shown}: exit {r.returncode}: {r.stderr.strip()}")
        return r

    def _shown(self, arg):
        """An argument as the report shows it: paths in the repository relative to its root."""
        if arg.startswith(REPO + os.sep):
            return os.path.relpath(arg, REPO)
        return arg

    def work(self, name):
        """A scratch folder for one command's outputs (not part of the report)."""
        path = os.path.join(self.out_dir, ".work", name)
        os.makedirs(path, exist_ok=True)
        return path

    def validate(self, scenario_path, name, sets=(), models=None, trace=None, sweep=None,
                 count=True):
        """`netwarp validate`; returns report.json. Its errors go to the summary unless
        count=False, and its packet run time is added to the study's."""
        out = self.work(name)
        args = ["validate", scenario_path, "--out", out] + scenario_args(sets, trace)
        if models:
            args += ["--models", ",".join(models)]
        if sweep:
            args += ["--sweep", sweep]
        self._netwarp(args)
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        for p in report["points"]:
            self.packet_seconds += p["simulated_wall_seconds"]
        if count:
            for model, rows in report["results"].items():
                for row in rows:
                    if row.get("available"):
                        self.errors.setdefault(model, []).append(row["error_pct"])
        return report

    def run(self, scenario_path, name, sets=(), trace=None):
        """`netwarp run`; returns results.json (its wall time goes to the study's)."""
        out = self.work(name)
        self._netwarp(["run", scenario_path, "--out", out] + scenario_args(sets, trace))
        with open(os.path.join(out, "results.json")) as f:
            results = json.load(f)
        self.packet_seconds += results.get("wall_seconds", 0.0)
        return results

    def ns3_program(self):
        """netwarp-ns3 beside netwarp, or None where it was not built (no libns3-dev)."""
        path = os.path.join(os.path.dirname(self.netwarp), "netwarp-ns3")
        return path if os.access(path, os.X_OK) else None

    def ns3(self, scenario_path, name, sets=()):
        """netwarp-ns3 on the scenario; returns its JSON (same field names as results.json)."""
        out = os.path.join(self.work(name), "ns3.json")
        self._netwarp([scenario_path, "--out", out] + scenario_args(sets, None),
                      program=self.ns3_program())
        with open(out) as f:
            return json.load(f)

    def netwarp_command(self, args):
        """Any other netwarp command; returns the completed process."""
        return self._netwarp(list(args))

    # --- findings ----------------------------------------------------------------------
    def check(self, holds, text):
        """A qualitative finding the study asserts; the report lists every one with whether it
        held, and a smoke run fails when one does not."""
        self.findings.append((text, bool(holds)))

    def observe(self, holds, text):
        """A comparison the report states with whether it held, but that no run asserts: a
        ranking decided by a few per cent, which the order of simultaneous events or the run's
        size can flip."""
        self.observations.append((text, bool(holds)))

    def add_errors(self, model, errors):
        """Errors computed by the study itself (not from a validate report)."""
        self.errors.setdefault(model, []).extend(errors)


# --- report pieces ---------------------------------------------------------------------
def by_model(report, model):
    """{sweep value: row} of one model in a validate report."""
    return {row["value"]: row for row in report["results"][model]}


def simulated_us(report):
    """[(sweep value, packet time in us)] in sweep order."""
    return [(p["value"], p["simulated_ps"] / 1e6) for p in report["points"]]


def predicted_us(report, model):
    """[(sweep value, predicted us or None)] in sweep order."""
    return [(r["value"], r["predicted_ps"] / 1e6 if r.get("available") else None)
            for r in report["results"][model]]


def table(headers, rows):
    """A markdown table; numbers formatted by the caller."""
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def pct(x):
    return "n/a" if x is None else f"{x:+.1f} %"


def worst_and_typical(errors):
    """(the error of largest magnitude, the median magnitude)."""
    worst = max(errors, key=abs)
    return worst, statistics.median(abs(e) for e in errors)


def plot(ctx, name, title, xlabel, ylabel, series, logx=False, logy=False, keypos="top left"):
    """series: [(label, [(x, y), ...]), ...]. Writes NAME.png and NAME.svg (and NAME.gp with
    its data inline) into the study folder; returns the markdown image line. Points with y
    None are left out."""
    blocks, plots = [], []
    for i, (label, points) in enumerate(series):
        rows = "\n".join(f"{x} {y}" for x, y in points if y is not None)
        blocks.append(f"$d{i} << EOD\n{rows}\nEOD\n")
        plots.append(f"$d{i} using 1:2 with linespoints lw 2 title '{label}'")
    script = "".join(blocks)
    script += (f"set title \"{title}\" noenhanced\nset xlabel \"{xlabel}\" noenhanced\n"
               f"set ylabel \"{ylabel}\" noenhanced\nset key {keypos}\nset grid\n")
    if logx:
        script += "set logscale x 2\n"
    if logy:
        script += "set logscale y\n"
    body = ", ".join(plots)
    script += f"set terminal png size 900,560\nset output '{name}.png'\nplot {body}\n"
    script += f"set terminal svg size 900,560\nset output '{name}.svg'\nplot {body}\n"
    with open(os.path.join(ctx.out_dir, name + ".gp"), "w") as f:
        f.write(script)
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", name + ".gp"], cwd=ctx.out_dir, check=True,
                       capture_output=True)
    return f"![{title}]({name}.svg)\n"
