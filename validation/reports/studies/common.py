"""What every study uses: running netwarp (validate, run, flow), findings and their verdicts,
collecting errors and run times for the summary, and writing tables and gnuplot plots.

A study module is data first: NAME, TITLE, MODELS, its grid (the sizes of each run, smoke and
full), FINDINGS (a list of Finding) and CI_FINDING (the name of the finding that the CI smoke
test asserts, with CI_WHY saying why that one). Then small functions, ending with
run(ctx) -> Study(markdown, models, results); make_reports.py decides every finding on the
results. ctx.smoke is True for the reduced size that CI runs."""
import json
import os
import shutil
import statistics
import subprocess
import sys
import types

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def scenario(path):
    """A library scenario by its path under scenarios/."""
    return os.path.join(REPO, "scenarios", path)


class StudyFailed(Exception):
    pass


def results(**values):
    """The numbers a study measured, by name: what its findings are decided on."""
    return types.SimpleNamespace(**values)


class Study:
    """What a study's run returns: its markdown body (tables, plots, discussion), the models
    the summary table shows, and the results its findings are decided on."""

    def __init__(self, markdown, models, measured):
        self.markdown = markdown
        self.models = models  # model names compared with the packet simulation, in order
        self.results = measured


# --- findings ------------------------------------------------------------------------------
class Paper:
    """What the paper says about the thing a finding checks. agrees_if_holds: whether the
    paper's claim is the finding holding (True) or the finding failing (False)."""

    def __init__(self, says, agrees_if_holds=True):
        self.says = says
        self.agrees_if_holds = agrees_if_holds


class Finding:
    """A statement checked on every run. checks: what is checked, in plain words. decide:
    results -> (holds, measured), holds True or False (None only when the study could not
    run what the finding needs, e.g. ns-3 not built), measured the values it was decided on.
    why: our reading of the result (optional). paper: the paper's claim about the same thing
    (optional)."""

    def __init__(self, name, checks, decide, paper=None, why=""):
        self.name = name
        self.checks = checks
        self.decide = decide
        self.paper = paper
        self.why = why


class Verdict:
    """A finding decided on one run's results."""

    def __init__(self, finding, holds, measured):
        self.finding = finding
        self.holds = holds
        self.measured = measured

    def word(self):
        return {True: "holds", False: "does not hold", None: "not checked"}[self.holds]

    def paper_text(self):
        """'' without a paper claim; else whether this run agrees with the paper."""
        paper = self.finding.paper
        if paper is None or self.holds is None:
            return ""
        if self.holds == paper.agrees_if_holds:
            return f"agrees with the paper (the paper: {paper.says})"
        return f"differs from the paper (the paper says {paper.says})"


def decide(findings, measured):
    """Every finding decided on the results, in order."""
    verdicts = []
    for f in findings:
        holds, text = f.decide(measured)
        verdicts.append(Verdict(f, None if holds is None else bool(holds), text))
    return verdicts


def findings_markdown(verdicts, ci_name, ci_why):
    """The findings section of a study's report."""
    lines = ["## Findings\n",
             "Each finding states what was checked, whether it holds on this run and the "
             "values it was decided on; where the paper claims something about the same "
             "thing, whether this run agrees with it. The CI smoke test runs the study at a "
             f"reduced size and asserts one finding, **{ci_name}**: {ci_why}\n"]
    for i, v in enumerate(verdicts, 1):
        ci = " (asserted by CI)" if v.finding.name == ci_name else ""
        lines.append(f"{i}. **{v.finding.name}**{ci}: **{v.word()}**.\n"
                     f"   - Checked: {v.finding.checks}.\n"
                     f"   - Measured: {v.measured}.")
        if v.paper_text():
            lines.append(f"   - {v.paper_text()[0].upper()}{v.paper_text()[1:]}.")
        if v.finding.why:
            lines.append(f"   - Why: {v.finding.why.rstrip('.')}.")
        lines.append("")
    return "\n".join(lines)


# --- running netwarp -----------------------------------------------------------------------
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
        self.commands = []  # the netwarp commands run, for the report
        os.makedirs(out_dir, exist_ok=True)

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
            results_json = json.load(f)
        self.packet_seconds += results_json.get("wall_seconds", 0.0)
        return results_json

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

    def add_errors(self, model, errors):
        """Errors computed by the study itself (not from a validate report)."""
        self.errors.setdefault(model, []).extend(errors)


# --- report pieces -------------------------------------------------------------------------
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


def plot_script(name, title, xlabel, ylabel, series, logx, logy, keypos):
    """The gnuplot script of plot(), its data inline, writing NAME.png and NAME.svg."""
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
    return script


def plot(ctx, name, title, xlabel, ylabel, series, logx=False, logy=False, keypos="top left"):
    """series: [(label, [(x, y), ...]), ...]. Writes NAME.png and NAME.svg (and NAME.gp with
    its data inline) into the study folder; returns the markdown image line. Points with y
    None are left out."""
    with open(os.path.join(ctx.out_dir, name + ".gp"), "w") as f:
        f.write(plot_script(name, title, xlabel, ylabel, series, logx, logy, keypos))
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", name + ".gp"], cwd=ctx.out_dir, check=True,
                       capture_output=True)
    return f"![{title}]({name}.svg)\n"
