#!/usr/bin/env python3
"""The performance table: trec_eval_py against trec_eval (C) and the pytrec_eval route.

usage: python benchmarks/bench.py [--data DIR] [--gen GEN_SYNTH] [--route PYTREC_ROUTE]
                                  [--repeat 3] [--only CASE ...] [--scale] [--markdown]

Every command is timed as a whole process; each row is the median of
--repeat runs, the two commands of a row alternating (A B, then B A, ...) so
a load change on a shared machine hits both alike. Peak memory is the
largest resident set of the process (its own maximum, from wait4). CPU is
user + system seconds, steadier than wall time on a busy machine (but
trec_eval_py reads on one core while it measures on the other, so its CPU
time exceeds its wall time on an idle machine).

Inputs are built on first use in --data (default benchmarks/data, not in
git) with gen_synth.py (default: ../shared/tools/gen_synth.py beside the
checkout); TREC_EVAL names a trec_eval binary (9.0.8) for the C rows; the
pytrec_eval route is ../shared/tools/pytrec_route.py (needs pytrec-eval-terrier).

Cases (``--only`` picks some):
  small        trec_eval's results.test, -q -m all_trec, against C and against
               `python -c "import numpy"` (start-up's floor)
  big          6.9M lines (gen_synth 7000 1000 300 1), -m all_trec, against C
  big-q        the same with -q (623k output lines), against C
  topics200k   200,000 topics x 10 docs (gen_synth 200000 10 10 1), -m all_trec,
               against the pytrec_eval route (C is quadratic in topics)
  topics7k     7,000 topics x 10 docs, for the cost per topic (us/topic)
  interleaved  the 6.9M-line run dealt into 4 shards and concatenated (every
               topic in every shard) against the same run grouped: peak memory
  fallback     the 6.9M-line run on the numpy fallback (no C extensions), against C
  gzip         the 6.9M-line run gzipped (level 6), against the same run as text: the
               compressed run is expanded as it is read, in pieces
  scale        (--scale) 69M lines (gen_synth 70000 1000 300 1), against C
Outputs are compared byte for byte wherever two programs print the same thing.

Every command runs in an empty folder, so ``python -m trec_eval_py`` times the
package the running Python has installed (an editable install: the checkout);
--markdown names it and its C extensions. Its modules are compiled to bytecode
first (``compileall``) where they are writable, as an installed package is:
with ``PYTHONDONTWRITEBYTECODE`` set, a checkout would otherwise be compiled
anew at every start.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SMALL = os.path.join(ROOT, "fixtures", "golden", "inputs")
MIB = 1024.0

# trec_eval_py without its C extensions: the portable numpy path
FALLBACK = (
    "import sys\n"
    "from trec_eval_py import _native\n"
    "_native.USE_C = False\n"
    "from trec_eval_py.cli import entry\n"
    "sys.argv[0] = 'trec_eval_py'\n"
    "entry()\n"
)


def shared_tool(name: str) -> str:
    for up in ("..", os.path.join("..", "..")):
        p = os.path.normpath(os.path.join(ROOT, up, "shared", "tools", name))
        if os.path.exists(p):
            return p
    return os.path.normpath(os.path.join(ROOT, "..", "shared", "tools", name))


# Linux keeps a process's peak resident set across exec (a child started with
# vfork even shares its parent's memory until then): a command started straight
# from a process that has grown reports at least that process's peak as its own.
# The launcher, a fresh small process, starts the command and reports the
# command's own wall time, CPU and peak on the last line of standard error.
LAUNCHER = ("import os, subprocess, sys, time\n"
            "t0 = time.perf_counter()\n"
            "p = subprocess.Popen(sys.argv[1:])\n"
            "_, status, u = os.wait4(p.pid, 0)\n"
            "wall = time.perf_counter() - t0\n"
            "sys.stderr.write(f'\\nlaunched {wall!r} {u.ru_utime + u.ru_stime!r} {u.ru_maxrss}\\n')\n"
            "sys.exit(os.waitstatus_to_exitcode(status))\n")


def measure(argv: list[str], stdout_path: str | None = None, *, launch: bool = False,
            env: dict | None = None) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one run of ``argv``.

    ``launch`` starts it through LAUNCHER, so the figures are the command's own
    whatever this process's size (the launcher's start is left out of them);
    ``env`` is the command's environment (default: this process's). A command
    that exits non-zero raises SystemExit naming it, with its standard error.
    """
    with open(stdout_path, "wb") if stdout_path else contextlib.nullcontext(subprocess.DEVNULL) as out:
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-c", LAUNCHER, *argv] if launch else argv, stdout=out,
                             stderr=subprocess.PIPE, env=env)
        err = p.stderr.read().decode(errors="replace")
        _, status, usage = os.wait4(p.pid, 0)
        wall, cpu, peak = time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / MIB
        p.stderr.close()
        p.returncode = os.waitstatus_to_exitcode(status)
    if launch and "\nlaunched " in err:
        err, _, figures = err.rpartition("\nlaunched ")
        w, c, k = figures.split()
        wall, cpu, peak = float(w), float(c), int(k) / MIB
    if p.returncode != 0:
        shown = " ".join(x if len(x) < 80 and "\n" not in x else x[:40].split("\n")[0] + "..." for x in argv)
        raise SystemExit(f"failed ({p.returncode}): {shown}\n{err.strip()}")
    return wall, cpu, peak


def lines_in(path: str) -> int:
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 24), b""))


def ensure(data: str, name: str, args: list[str], gen: str) -> str:
    d = os.path.join(data, name)
    if not (os.path.exists(os.path.join(d, "qrels")) and os.path.exists(os.path.join(d, "run"))):
        print(f"generating {d} (gen_synth.py {' '.join(args)}) ...", file=sys.stderr)
        subprocess.run([sys.executable, gen, d, *args], check=True)
    return d


def ensure_interleaved(data: str, grouped: str, shards: int = 4) -> str:
    """The grouped run's lines dealt round-robin to ``shards`` parts, then the
    parts concatenated, as ``cat part-*`` of a sharded retrieval gives."""
    d = os.path.join(data, "interleaved")
    run = os.path.join(d, "run")
    if not os.path.exists(run):
        os.makedirs(d, exist_ok=True)
        print(f"building {run} ...", file=sys.stderr)
        with tempfile.TemporaryDirectory(dir=d) as tmp:
            with contextlib.ExitStack() as stack:
                parts = [stack.enter_context(open(os.path.join(tmp, f"part-{k}"), "wb")) for k in range(shards)]
                with open(os.path.join(grouped, "run"), "rb") as f:
                    for i, line in enumerate(f):
                        parts[i % shards].write(line)
            with open(run + ".tmp", "wb") as out:
                for k in range(shards):
                    with open(os.path.join(tmp, f"part-{k}"), "rb") as p:
                        shutil.copyfileobj(p, out, 1 << 24)
        os.replace(run + ".tmp", run)
    return d


def ab(a: list[str], b: list[str], repeat: int, run=measure) -> tuple[tuple, tuple]:
    """Median wall, median CPU and max peak of ``a`` and ``b``, run alternately.

    ``run(argv)`` measures one run (default ``measure``); it may return any
    figure in the wall slot (a time the command reports itself, say)."""
    ra, rb = [], []
    for i in range(repeat):
        if i % 2 == 0:
            ra.append(run(a))
            rb.append(run(b))
        else:
            rb.append(run(b))
            ra.append(run(a))

    def summary(rs):
        return statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs), max(r[2] for r in rs)

    return summary(ra), summary(rb)


# Which compiled modules the package holds that import: found by their files, so
# it answers for any revision wherever its extensions sit (``_native/``, or once
# ``engine/parse/``, ``engine/join/``...); without them the numpy fallback runs.
PACKAGE_INFO = ("import importlib, importlib.machinery, json, os, trec_eval_py\n"
                "d = os.path.dirname(trec_eval_py.__file__)\n"
                "c = []\n"
                "for top, _, files in os.walk(d):\n"
                "    for f in files:\n"
                "        for suffix in importlib.machinery.EXTENSION_SUFFIXES:\n"
                "            if f.endswith(suffix):\n"
                "                mod = os.path.relpath(os.path.join(top, f[:-len(suffix)]), os.path.dirname(d))\n"
                "                try:\n"
                "                    importlib.import_module(mod.replace(os.sep, '.'))\n"
                "                except ImportError:\n"
                "                    continue\n"
                "                c.append(os.path.basename(mod).lstrip('_'))\n"
                "                break\n"
                "print(json.dumps({'dir': d, 'file': trec_eval_py.__file__,\n"
                "                  'version': getattr(trec_eval_py, '__version__', '?'),\n"
                "                  'c': ', '.join(sorted(c)) or 'none'}))\n")


def installed_package(python: str = sys.executable, env: dict | None = None) -> dict:
    """Where ``python``'s ``trec_eval_py`` is (``dir``, ``file``), its
    ``version``, and which of its C extensions it has (``c``: 'cmath, joinrank,
    pyin, scan', or 'none': then the numpy fallback runs)."""
    import json

    done = subprocess.run([python, "-c", PACKAGE_INFO], check=True, capture_output=True, text=True, env=env)
    return json.loads(done.stdout)


def same_output(a: list[str], b: list[str], tmp: str) -> bool:
    pa, pb = os.path.join(tmp, "a.out"), os.path.join(tmp, "b.out")
    measure(a, pa)
    measure(b, pb)
    with open(pa, "rb") as fa, open(pb, "rb") as fb:
        while True:
            x, y = fa.read(1 << 22), fb.read(1 << 22)
            if x != y:
                return False
            if not x:
                return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--gen", default=shared_tool("gen_synth.py"))
    ap.add_argument("--route", default=shared_tool("pytrec_route.py"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--scale", action="store_true", help="also the 69M-line case (~2.5 GB of disk, minutes)")
    ap.add_argument("--markdown", action="store_true",
                    help="print only the README's table (every column, CPU too) and the cost per topic")
    a = ap.parse_args()
    a.data, a.gen, a.route = (os.path.abspath(x) for x in (a.data, a.gen, a.route))
    te_c = os.environ.get("TREC_EVAL") or shutil.which("trec_eval")
    if te_c and not os.access(te_c, os.X_OK):
        te_c = None
    te_c = te_c and os.path.abspath(te_c)
    # every command runs in an empty folder: `python -m trec_eval_py` then times the
    # package this Python has installed, not one the current folder happens to hold
    os.chdir(tempfile.mkdtemp(prefix="bench-cwd-"))
    package = installed_package()
    if os.access(package["dir"], os.W_OK):
        import compileall

        compileall.compile_dir(package["dir"], quiet=1)
    py = [sys.executable, "-m", "trec_eval_py"]
    fallback = [sys.executable, "-c", FALLBACK]
    route = [sys.executable, a.route]
    want = set(a.only) if a.only else None

    def wanted(name):
        return (want is None or name in want) and (name != "scale" or a.scale)

    load_before = os.getloadavg()[0]
    rows = []  # (case, lines, A, B, (wall, cpu, peak) A, same for B, same output?, note)
    tmp = tempfile.mkdtemp(prefix="bench-")

    def row(case, n_lines, name_a, cmd_a, name_b, cmd_b, compare=True, note=""):
        print(f"{case}: {name_a} vs {name_b} ...", file=sys.stderr)
        ra, rb = ab(cmd_a, cmd_b, a.repeat)
        same = same_output(cmd_a, cmd_b, tmp) if compare else None
        rows.append((case, n_lines, name_a, name_b, ra, rb, same, note))
        return ra, rb

    small_args = ["-q", "-m", "all_trec", os.path.join(SMALL, "qrels.test"), os.path.join(SMALL, "results.test")]
    if wanted("small") and te_c:
        row("`results.test`, `-q -m all_trec`", lines_in(small_args[-1]),
            "trec_eval_py", py + small_args, "C", [te_c] + small_args)
    if wanted("small"):  # start-up against its floor: python importing numpy
        row("`results.test`, `-q -m all_trec`, against `python -c 'import numpy'`", lines_in(small_args[-1]),
            "trec_eval_py", py + small_args, "numpy import", [sys.executable, "-c", "import numpy"], compare=False)
    big = None
    if any(wanted(c) for c in ("big", "big-q", "interleaved", "fallback", "gzip")):
        big = ensure(a.data, "big", ["7000", "1000", "300", "1"], a.gen)
        n_big = lines_in(os.path.join(big, "run"))
        big_args = [os.path.join(big, "qrels"), os.path.join(big, "run")]
    if wanted("big") and te_c:
        row("6.9M lines (`gen_synth.py D 7000 1000 300 1`), `-m all_trec`", n_big,
            "trec_eval_py", py + ["-m", "all_trec"] + big_args, "C", [te_c, "-m", "all_trec"] + big_args)
    if wanted("big-q") and te_c:
        row("same, `-q -m all_trec` (623k lines out)", n_big, "trec_eval_py", py + ["-q", "-m", "all_trec"] + big_args,
            "C", [te_c, "-q", "-m", "all_trec"] + big_args)
    if wanted("fallback") and te_c:
        row("same, `-m all_trec`, numpy fallback (no C)", n_big, "fallback",
            fallback + ["-m", "all_trec"] + big_args, "C", [te_c, "-m", "all_trec"] + big_args)
    if wanted("gzip"):
        packed = os.path.join(big, "run.gz")
        if not os.path.exists(packed):
            import gzip

            print(f"building {packed} ...", file=sys.stderr)
            with open(big_args[1], "rb") as src, gzip.open(packed + ".part", "wb", compresslevel=6) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            os.replace(packed + ".part", packed)
        row("same, the run gzipped (`gzip -6`) vs as text", n_big, "gzip", py + ["-m", "all_trec", big_args[0], packed],
            "text", py + ["-m", "all_trec"] + big_args, note="B is trec_eval_py on the text file")
    per_topic = {}
    for case, topics in (("topics7k", 7000), ("topics200k", 200000)):
        if not wanted(case):
            continue
        d = ensure(a.data, case, [str(topics), "10", "10", "1"], a.gen)
        args = [os.path.join(d, "qrels"), os.path.join(d, "run")]
        ra, _ = row(f"{topics:,} topics x 10 docs (`gen_synth.py D {topics} 10 10 1`), `-m all_trec`",
                    lines_in(args[1]), "trec_eval_py", py + ["-m", "all_trec"] + args,
                    "pytrec_eval route", route + args, compare=False)
        per_topic[topics] = ra[0] / topics * 1e6
    if wanted("interleaved"):
        il = ensure_interleaved(a.data, big)
        il_args = [os.path.join(big, "qrels"), os.path.join(il, "run")]
        row("6.9M lines, topics interleaved (4 shards concatenated) vs the same run grouped", n_big, "interleaved",
            py + ["-m", "all_trec"] + il_args, "grouped", py + ["-m", "all_trec"] + big_args,
            note="B is trec_eval_py on the grouped run")
    if wanted("scale") and te_c:
        d = ensure(a.data, "scale10", ["70000", "1000", "300", "1"], a.gen)
        args = [os.path.join(d, "qrels"), os.path.join(d, "run")]
        row("69M lines (`gen_synth.py D 70000 1000 300 1`), `-m all_trec`", lines_in(args[1]),
            "trec_eval_py", py + ["-m", "all_trec"] + args, "C", [te_c, "-m", "all_trec"] + args)
    shutil.rmtree(tmp, ignore_errors=True)

    if not a.markdown:
        # the table: the ratio is wall time A / B, peak memory is A's (B's)
        print("| input | trec_eval_py | reference | ratio | peak memory |")
        print("|---|---|---|---|---|")
        for case, _n, _na, nb, (wa, _ca, ma), (wb, _cb, mb), same, _note in rows:
            flag = "" if same is None or same else " (OUTPUT DIFFERS)"
            ref = "C" if nb == "C" else nb
            print(f"| {case}{flag} | {wa:.2f} s | {ref} {wb:.2f} s | {wa / wb:.2f} | {ma:.0f} MiB ({ref} {mb:.0f}) |")
        print()
    if a.markdown:
        print(f"measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
              f"load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after, "
              f"median of {a.repeat} runs alternating A and B")
        print(f"trec_eval_py {package['version']} from {package['dir']} (C extensions: {package['c']}), "
              f"Python {sys.executable}")
        print()
    # the README's table (--markdown prints only this one and the cost per topic)
    head = ["input", "run lines", "A", "A wall s", "A CPU s", "A peak MiB", "B", "B wall s", "B CPU s",
            "B peak MiB", "wall A/B", "CPU A/B", "peak A/B", "same output"]
    out = []
    for case, n, na, nb, (wa, ca, ma), (wb, cb, mb), same, _note in rows:
        out.append([case, f"{n:,}", na, f"{wa:.2f}", f"{ca:.2f}", f"{ma:.0f}", nb, f"{wb:.2f}", f"{cb:.2f}",
                    f"{mb:.0f}", f"{wa / wb:.2f}", f"{ca / cb:.2f}", f"{ma / mb:.2f}",
                    "-" if same is None else ("yes" if same else "NO")])
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for r in out:
        print("| " + " | ".join(r) + " |")
    if per_topic:
        print()
        print("cost per topic (trec_eval_py wall, whole process): "
              + ", ".join(f"{t:,} topics {us:.1f} us/topic" for t, us in sorted(per_topic.items())))
        if len(per_topic) == 2:  # without the fixed start-up cost
            (t1, u1), (t2, u2) = sorted(per_topic.items())
            print(f"marginal cost from {t1:,} to {t2:,} topics: {(u2 * t2 - u1 * t1) / (t2 - t1):.1f} us/topic")
    if not te_c:
        print("\n(no trec_eval binary: set TREC_EVAL to one for the C rows)")


if __name__ == "__main__":
    main()
