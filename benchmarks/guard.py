#!/usr/bin/env python3
"""The performance guard: a revision against the working tree, route by route.

usage: python3 benchmarks/guard.py --baseline REV [--head REV2] [--quick | --only ROUTE ...]
                                   [--repeat 3] [--data DIR] [--gen GEN_SYNTH] [--markdown]
       python3 benchmarks/guard.py --list

Run it before resolving any change to engine code; its output belongs in the
change's note. It builds git revision REV (any commit: a hash, a branch, a
tag) and HEAD, the working tree this script lives in (or, with --head REV2,
that revision), and times the routes users take on both sides, one line per
route:

  route, REV's median time, HEAD's, the ratio HEAD/REV, the ratio of CPU
  (user + system) seconds, the peak resident memory of each (MiB), and
  whether the two printed the same output

A ratio above 1.10 is flagged ``<< SLOWER``; so is a route HEAD cannot run
although REV can. The exit status is 1 when any route is flagged (a gate), 2
when a side cannot be built or the arguments are wrong, else 0. A route one
side cannot run (a command an old revision lacks) is "n/a on REV" and not
flagged.

Both sides are installed as users get the package: the revision's files
(``git archive``; the working tree's tracked and untracked files, the ignored
ones left out) installed by pip, not editable, byte-compiled and with the C
extensions built, each into a virtual environment of its own made with
``--system-site-packages`` (numpy, typer, pandas, pyarrow come from this
Python). The build requirements the revision names (setuptools>=74) are put
into that environment first if this Python's are older. The environments are
kept in DATA/builds, keyed by the commit (the working tree: by its commit and
a hash of its changes), and reused by the next run. Before timing, each side's
``trec_eval_py.__file__`` and C extensions are printed: each must be that
side's own install (an editable install elsewhere must not shadow it).

Each route runs once on each side untimed (it warms the file cache and checks
that the route runs there), then --repeat times on each, the sides alternating
(A B, then B A...) so a load change on a shared machine hits both alike. Every
command runs in an empty folder, as a whole process started through
bench.py's launcher (wall time, CPU and peak memory from wait4, the command's
own, whatever the size of this process); the time of a route is the median
wall time, except for dict, pandas and parquet, timed as bench_python.py times
them: the CPU seconds of the evaluation alone (their inputs are read untimed).
"Same output" compares the standard output of the untimed runs (for dict,
pandas and parquet: the mean AP each side computed).

Inputs are built on first use in --data (default benchmarks/data, not in git)
with gen_synth.py (default: ../shared/tools/gen_synth.py beside the checkout),
in the folders bench.py and bench_python.py use. ``--list`` names the routes.
"""
from __future__ import annotations

import argparse
import filecmp
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import ab, ensure, installed_package, measure, shared_tool  # noqa: E402
from bench_python import prepare, program, run_child  # noqa: E402

#: HEAD/REV above this is flagged
FLAG_RATIO = 1.10
MARK = "<< SLOWER"

# name -> (what it runs, in --quick?)
ROUTES: dict[str, tuple[str, bool]] = {
    "dl42k": ("42k lines, TREC DL's size (gen_synth 43 1000 200 1), -m all_trec", True),
    "robust197k": ("197k lines (gen_synth 200 1000 300 1), -m all_trec", True),
    "m500k": ("500k lines (gen_synth 1000 500 200 1), -m all_trec", True),
    "m500k-q": ("the same, -q -m all_trec", True),
    "big": ("6.9M lines (gen_synth 7000 1000 300 1), -m all_trec", True),
    "big-q": ("the same, -q -m all_trec", False),
    "topics200k": ("200,000 topics x 10 docs (gen_synth 200000 10 10 1), -m all_trec", False),
    "dict": ("evaluate() on dicts of dicts, 7,000 x 1,000 (bench_python.py's dict-big), timed: its CPU", False),
    "pandas": ("evaluate() on pandas DataFrames, 7,000 x 1,000 (bench_python.py's), timed: its CPU", False),
    "parquet": ("evaluate() on Parquet files, 7,000 x 1,000 (bench_python.py's), timed: its CPU", False),
    "batch": ("batch QRELS FOLDER: 20 runs of 42k lines (gen_synth 43 1000 200, seeds 1-20)", False),
    "batch-report": ("the same with --report OUT (a fresh OUT each time)", False),
    "validate": ("validate --qrels QRELS RUN on the 500k-line run", False),
}
QUICK = [name for name, (_, quick) in ROUTES.items() if quick]

# gen_synth.py's arguments of the routes' inputs, by folder (bench.py's names where it has them)
SYNTH = {"dl42k": ["43", "1000", "200", "1"], "robust197k": ["200", "1000", "300", "1"],
         "m500k": ["1000", "500", "200", "1"], "big": ["7000", "1000", "300", "1"],
         "topics200k": ["200000", "10", "10", "1"]}
# the input folder of each command-line route
FOLDER = {"dl42k": "dl42k", "robust197k": "robust197k", "m500k": "m500k", "m500k-q": "m500k", "big": "big",
          "big-q": "big", "topics200k": "topics200k", "batch": "dl42k", "batch-report": "dl42k",
          "validate": "m500k"}
# bench_python.py's program of each route run in Python
PROGRAM = {"dict": "trec_eval_py-dict", "pandas": "trec_eval_py-pandas", "parquet": "trec_eval_py-parquet"}
BATCH_RUNS = 20


class GuardError(Exception):
    """Something the guard cannot work around: a revision that does not exist,
    a side that does not build, or installs but is shadowed."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", metavar="REV", help="the git revision to compare against (required)")
    ap.add_argument("--head", metavar="REV2", default=None,
                    help="time this revision where the working tree would be (two revisions compared)")
    pick = ap.add_mutually_exclusive_group()
    pick.add_argument("--only", nargs="+", metavar="ROUTE", default=None, help="these routes only (see --list)")
    pick.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    ap.add_argument("--list", action="store_true", help="list the routes and exit")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each side per route (median; default 3)")
    ap.add_argument("--data", default=os.path.join(HERE, "data"), help="where inputs and builds go")
    ap.add_argument("--gen", default=shared_tool("gen_synth.py"), help="gen_synth.py")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table (for a note) at the end")
    a = ap.parse_args(argv)
    if a.only:
        unknown = [r for r in a.only if r not in ROUTES]
        if unknown:
            ap.error(f"unknown route {', '.join(unknown)} (routes: {', '.join(ROUTES)})")
    if not a.list and not a.baseline:
        ap.error("--baseline REV is required")
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    return a


def selected(a: argparse.Namespace) -> list[str]:
    """The routes to run, in ROUTES' order."""
    if a.only:
        return [r for r in ROUTES if r in a.only]
    return list(QUICK) if a.quick else list(ROUTES)


def route_list() -> str:
    """--list's text: one route a line, those of --quick marked."""
    width = max(map(len, ROUTES))
    return "\n".join(f"{name:{width}}  {'quick' if quick else '     '}  {about}"
                     for name, (about, quick) in ROUTES.items())


def ratio(head: float, rev: float) -> float:
    """HEAD/REV (a REV figure of zero counts as a microsecond)."""
    return head / max(rev, 1e-6)


def flagged(row: dict) -> bool:
    """A route HEAD runs more slowly than 1.10x REV's time, or cannot run although REV can."""
    if row["na"]:
        return row["na"] == "head"
    return ratio(row["head"][0], row["rev"][0]) > FLAG_RATIO


def verdict(row: dict, labels: tuple[str, str]) -> str:
    """The route's outcome after its figures: n/a, or the flag."""
    if row["na"] == "both":
        return f"n/a on {labels[0]} and {labels[1]}: {row['why']}"
    if row["na"] == "rev":
        return f"n/a on {labels[0]}: {row['why']}"
    if row["na"] == "head":
        return f"n/a on {labels[1]} ({labels[0]} runs it): {row['why']}  {MARK}"
    return f"{MARK} (> {FLAG_RATIO:.2f}x)" if flagged(row) else ""


def same_text(same: bool | None) -> str:
    return "-" if same is None else ("yes" if same else "differs")


def line(row: dict, labels: tuple[str, str]) -> str:
    """One route's line of the plain output (the columns of header())."""
    if row["na"]:
        return f"{row['route']:13} {verdict(row, labels)}"
    (tr, cr, mr), (th, ch, mh) = row["rev"], row["head"]
    return (f"{row['route']:13} {tr:9.3f}s {th:9.3f}s {ratio(th, tr):8.2f}x {ratio(ch, cr):8.2f}x "
            f"{mr:9.0f} {mh:9.0f}  {same_text(row['same']):8} {verdict(row, labels)}").rstrip()


def header(labels: tuple[str, str]) -> str:
    """The plain output's column heads: route, time of each side, the ratios, peak MiB of each, same output."""
    a, b = (x[:10] for x in labels)
    return (f"{'route':13} {a:>10} {b:>10} {'HEAD/REV':>9} {'CPU H/R':>9} "
            f"{a[:5] + ' MiB':>9} {b[:5] + ' MiB':>9}  same out")


def markdown_table(rows: list[dict], labels: tuple[str, str]) -> list[str]:
    """The table for a note: every figure, the flag in bold."""
    la, lb = (x.replace("|", "\\|") for x in labels)
    out = [f"| route | input | {la} s | {lb} s | HEAD/REV | CPU HEAD/REV | {la} peak MiB | {lb} peak MiB "
           "| same output | |", "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        about = ROUTES[row["route"]][0]
        if row["na"]:
            out.append(f"| {row['route']} | {about} | | | | | | | | {verdict(row, labels).replace('|', '/')} |")
            continue
        (tr, cr, mr), (th, ch, mh) = row["rev"], row["head"]
        r = f"{ratio(th, tr):.2f}x"
        out.append(f"| {row['route']} | {about} | {tr:.3f} | {th:.3f} | {'**' + r + '**' if flagged(row) else r} "
                   f"| {ratio(ch, cr):.2f}x | {mr:.0f} | {mh:.0f} | {same_text(row['same'])} "
                   f"| {'**SLOWER**' if flagged(row) else ''} |")
    return out


def summary(rows: list[dict]) -> str:
    bad = [r["route"] for r in rows if flagged(r)]
    if not bad:
        return f"no route flagged (every ratio <= {FLAG_RATIO:.2f}x)"
    return f"{len(bad)} route{'s' if len(bad) > 1 else ''} flagged: {', '.join(bad)}"


def exit_status(rows: list[dict]) -> int:
    """1 when any route is flagged (the gate), else 0."""
    return 1 if any(flagged(r) for r in rows) else 0


# -- building a side -------------------------------------------------------------------------------

def git(*args: str, text: bool = True) -> str | bytes:
    done = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=text)
    if done.returncode != 0:
        err = done.stderr if text else done.stderr.decode(errors="replace")
        raise GuardError(f"git {' '.join(args)}: {err.strip()}")
    return done.stdout


def tree_digest() -> str:
    """A hash of the working tree's changes against its commit: the diff of
    tracked files and the untracked (not ignored) files' names and bytes."""
    h = hashlib.sha256(git("diff", "HEAD", "--binary", text=False))
    for path in sorted(p for p in git("ls-files", "-z", "-o", "--exclude-standard").split("\0") if p):
        full = os.path.join(ROOT, path)
        h.update(b"\0" + path.encode())
        if os.path.isfile(full) and not os.path.islink(full):
            with open(full, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def export_tree(dest: str) -> None:
    """Copy the working tree's tracked and untracked files (not the ignored
    ones: no build products, no compiled extensions) into ``dest``."""
    for path in (p for p in git("ls-files", "-z", "-c", "-o", "--exclude-standard").split("\0") if p):
        src = os.path.join(ROOT, path)
        if not os.path.lexists(src):  # deleted, not yet committed
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, path)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, path), follow_symlinks=False)


def export_rev(commit: str, dest: str) -> None:
    archive = subprocess.Popen(["git", "-C", ROOT, "archive", "--format=tar", commit], stdout=subprocess.PIPE)
    untar = subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout, capture_output=True)
    archive.stdout.close()
    if archive.wait() != 0 or untar.returncode != 0:
        raise GuardError(f"git archive {commit}: {untar.stderr.decode(errors='replace').strip()}")


def build_requires(src: str) -> list[str]:
    """What the revision's pyproject.toml says building it needs."""
    try:
        with open(os.path.join(src, "pyproject.toml"), "rb") as f:
            return list(tomllib.load(f).get("build-system", {}).get("requires", ["setuptools"]))
    except FileNotFoundError:
        return ["setuptools"]


def side_key(rev: str | None) -> tuple[str, str, str]:
    """(cache key, commit, description) of a side: a revision, or the working tree (None)."""
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    if rev is None:
        commit = git("rev-parse", "HEAD").strip()
        digest = tree_digest()
        clean = digest == hashlib.sha256(b"").hexdigest()
        return (f"tree-{commit[:12]}-{digest[:12]}-{py}", commit,
                f"the working tree (commit {commit[:12]}{', no changes' if clean else ' and its changes'})")
    commit = git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    return f"rev-{commit[:12]}-{py}", commit, f"commit {commit[:12]}"


def venv_python(venv: str) -> str:
    return os.path.join(venv, "bin", "python")


def build(rev: str | None, cache: str, env: dict) -> dict:
    """The side's environment, built (or found in ``cache``): ``python``,
    ``about``, and installed_package()'s ``file``, ``dir``, ``c``."""
    try:
        key, commit, about = side_key(rev)
    except GuardError:
        raise GuardError(f"{rev}: not a commit of this repository") from None
    venv = os.path.join(cache, key)
    done = os.path.join(venv, "guard-built")
    python = venv_python(venv)
    if not os.path.exists(done):
        if os.path.exists(venv):  # a build of ours that did not finish
            shutil.rmtree(venv)
        if rev is None:  # the working tree's earlier builds: each edit makes a new one
            for old in os.listdir(cache) if os.path.isdir(cache) else []:
                if old.startswith("tree-") and os.path.exists(os.path.join(cache, old, "guard-built")):
                    shutil.rmtree(os.path.join(cache, old))
        print(f"building {about} into {venv} ...", file=sys.stderr, flush=True)
        os.makedirs(cache, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="guard-src-") as src:
            (export_tree(src) if rev is None else export_rev(commit, src))

            def step(what: str, args: list[str]) -> None:
                res = subprocess.run(args, capture_output=True, text=True, env=env)
                if res.returncode != 0:
                    raise GuardError(f"building {about}: {what} failed:\n{(res.stdout + res.stderr)[-3000:]}")

            step("venv", [sys.executable, "-m", "venv", "--system-site-packages", venv])
            # only fetched when the environment's own are older than the revision asks
            step("its build requirements", [python, "-m", "pip", "install", "-q", *build_requires(src)])
            step("pip install", [python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                                 "--no-index", src])
    try:
        info = installed_package(python, env)
    except subprocess.CalledProcessError as e:
        raise GuardError(f"{about}: trec_eval_py does not import:\n{e.stderr[-2000:]}") from None
    if os.path.commonpath([os.path.realpath(info["dir"]), os.path.realpath(venv)]) != os.path.realpath(venv):
        raise GuardError(f"{about}: {python} imports trec_eval_py from {info['dir']}, not from its own install")
    if not os.path.exists(done):
        with open(done, "w") as f:
            f.write(f"{commit} {about}\n")
    return {**info, "python": python, "about": about}


def label_of(rev: str | None, commit_hint: str = "HEAD") -> str:
    """How a side is named in the output: the revision as given when it is
    plain (a hash, a branch), else 'REV'; the working tree is HEAD."""
    if rev is None:
        return commit_hint
    return rev if re.fullmatch(r"[\w./~^@{}-]{1,40}", rev) else "REV"


# -- inputs and commands ---------------------------------------------------------------------------

def ensure_batch(data: str, gen: str) -> str:
    """A folder of BATCH_RUNS runs the size of dl42k's, each from its own seed."""
    runs = os.path.join(data, "batch20", "runs")
    os.makedirs(runs, exist_ok=True)
    for seed in range(1, BATCH_RUNS + 1):
        run = os.path.join(runs, f"run-{seed:02d}")
        if not os.path.exists(run):
            made = ensure(os.path.join(data, "batch20"), f"seed-{seed:02d}", ["43", "1000", "200", str(seed)], gen)
            os.replace(os.path.join(made, "run"), run)
            shutil.rmtree(made)
    return runs


def inputs(routes: list[str], data: str, gen: str) -> dict:
    """The input folders the routes need, built on first use."""
    got = {}
    for r in routes:
        if r in FOLDER and FOLDER[r] not in got:
            got[FOLDER[r]] = ensure(data, FOLDER[r], SYNTH[FOLDER[r]], gen)
    if any(r in PROGRAM for r in routes):
        got["python"] = prepare(data, gen)["big"]
    if any(r.startswith("batch") for r in routes):
        got["batch"] = ensure_batch(data, gen)
    return got


def command(route: str, python: str, paths: dict, scratch: str, side: str) -> list[str]:
    """The route's command line for a side's Python."""
    if route in PROGRAM:
        return [python, "-c", program(PROGRAM[route])]
    d = paths[FOLDER[route]]
    qrels, run = os.path.join(d, "qrels"), os.path.join(d, "run")
    args = {"batch": ["batch", qrels, paths.get("batch", "")],
            "batch-report": ["batch", qrels, paths.get("batch", ""),
                             "--report", os.path.join(scratch, f"report-{side}")],
            "validate": ["validate", "--qrels", qrels, run]}.get(route)
    if args is None:
        args = (["-q"] if route.endswith("-q") else []) + ["-m", "all_trec", qrels, run]
    return [python, "-m", "trec_eval_py", *args]


def runner(route: str, env: dict, scratch: str):
    """``run(argv, stdout_path=None) -> ((time, cpu, peak), output)`` for the route:
    a fresh report folder first for batch-report; the output is the stdout
    file's path, or the mean AP for the routes run in Python."""
    def run(argv: list[str], stdout_path: str | None = None):
        for arg in argv:  # --report OUT: OUT is ours, in the scratch folder
            if arg.startswith(os.path.join(scratch, "report-")):
                shutil.rmtree(arg, ignore_errors=True)
        if route in PROGRAM:
            cpu_eval, peak, check, cpu = run_child(argv, env)
            return (cpu_eval, cpu, peak), round(check, 12)
        return measure(argv, stdout_path, launch=True, env=env), stdout_path
    return run


def time_route(route: str, sides: list[dict], paths: dict, env: dict, scratch: str, repeat: int) -> dict:
    """One route on both sides: the untimed runs, then the alternating timed ones."""
    run = runner(route, env, scratch)
    argv = [command(route, s["python"], paths, scratch, side) for s, side in zip(sides, ("rev", "head"))]
    failed, outputs = [], []
    for cmd, side in zip(argv, ("rev", "head")):
        try:
            outputs.append(run(cmd, os.path.join(scratch, f"out-{side}"))[1])
        except SystemExit as e:
            failed.append((side, str(e).splitlines()))
    row: dict = {"route": route, "na": None, "same": None}
    if failed:
        row["na"] = "both" if len(failed) == 2 else failed[0][0]
        row["why"] = why(failed[0][1])
        return row
    if route in PROGRAM:
        row["same"] = outputs[0] == outputs[1]
    else:
        row["same"] = filecmp.cmp(outputs[0], outputs[1], shallow=False)
    try:
        row["rev"], row["head"] = ab(argv[0], argv[1], repeat, run=lambda cmd: run(cmd)[0])
    except SystemExit as e:
        row["na"], row["why"] = "both", "failed while timed: " + why(str(e).splitlines())
    return row


def why(failure: list[str]) -> str:
    """The reason in a failed command's message (bench.measure's: 'failed (N):
    COMMAND', then its standard error): a traceback's last line, else the
    first line that says error, else the last."""
    # typer draws its errors in a box headed 'Error': the box and its head are left out
    said = [t for t in (x.strip(" \u2502\u256d\u256e\u2570\u256f\u2500") for x in failure[1:]) if t and t != "Error"]
    if not said:
        return failure[0][:160] if failure else "failed"
    if any(t.startswith("Traceback") for t in said):  # the exception is the last line
        return said[-1][:160]
    return next((t for t in said if "rror" in t), said[-1])[:160]


def child_env(cwd: str) -> dict:
    """The commands' environment: this one without PYTHONPATH (a checkout on
    it would be imported instead of the side's install)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["BENCH_ROOT"] = cwd  # bench_python's programs put it first on sys.path: an empty folder
    return env


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    if a.list:
        print(route_list())
        return 0
    # every command runs in an empty folder: `python -m trec_eval_py` then imports the
    # side's install, not a package the current folder happens to hold
    cwd = tempfile.mkdtemp(prefix="guard-cwd-")
    os.chdir(cwd)
    try:
        return compare(a, cwd)
    except GuardError as e:
        print(f"guard: {e}", file=sys.stderr)
        return 2
    finally:
        os.chdir(ROOT)
        shutil.rmtree(cwd, ignore_errors=True)


def compare(a: argparse.Namespace, cwd: str) -> int:
    """Build both sides, time the routes, print; the exit status."""
    routes = selected(a)
    data, gen = os.path.abspath(a.data), os.path.abspath(a.gen)
    env = child_env(cwd)
    rev_side = build(a.baseline, os.path.join(data, "builds"), env)
    head_side = build(a.head, os.path.join(data, "builds"), env)
    labels = (label_of(a.baseline), label_of(a.head))
    if labels[0] == labels[1]:
        labels = (labels[0] + " (REV)", labels[1] + " (HEAD)")
    paths = inputs(routes, data, gen)
    env["BENCH_DATA"] = paths.get("python", "")
    load_before = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    out = sys.stderr if a.markdown else sys.stdout
    print(f"REV  = {labels[0]}: {rev_side['about']}", file=out)
    print(f"HEAD = {labels[1]}: {head_side['about']}", file=out)
    for label, s in zip(labels, (rev_side, head_side)):
        print(f"  {label}: {s['file']} (C extensions: {s['c']})", file=out)
    print(f"median of {a.repeat}, the sides alternating; load average {load_before:.1f}; "
          f"flagged: HEAD/REV > {FLAG_RATIO:.2f}x\n", file=out)
    print(header(labels), file=out, flush=True)
    rows = []
    scratch = tempfile.mkdtemp(prefix="guard-")
    try:
        for route in routes:
            print(f"{route} ...", file=sys.stderr, flush=True)
            rows.append(time_route(route, [rev_side, head_side], paths, env, scratch, a.repeat))
            print(line(rows[-1], labels), file=out, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"\n{summary(rows)}", file=out)
    if a.markdown:
        print(f"guard.py, measured {started}, {os.cpu_count()} CPUs, load average {load_before:.1f} before and "
              f"{os.getloadavg()[0]:.1f} after, median of {a.repeat} runs alternating the sides; REV = "
              f"{labels[0]}: {rev_side['about']} (C extensions: {rev_side['c']}); HEAD = {labels[1]}: "
              f"{head_side['about']} (C extensions: {head_side['c']}). Times are wall seconds of the whole "
              "process (dict, pandas, parquet: CPU seconds of the evaluation alone).\n")
        print("\n".join(markdown_table(rows, labels)))
        print(f"\n{summary(rows)}")
    return exit_status(rows)


if __name__ == "__main__":
    sys.exit(main())
