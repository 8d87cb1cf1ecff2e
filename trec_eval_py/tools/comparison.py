"""Compare runs with a baseline, topic by topic, with significance tests.

:func:`compare_runs` evaluates every run as ``-c`` would (every topic of the
qrels; a topic missing from a run is evaluated as an empty ranking, which
scores 0 on the usual measures), pairs each run's per-topic values with the
baseline's (the first run) for each measure, runs the chosen tests from
:mod:`trec_eval_py.tools.significance`, and corrects the p-values for multiple
comparisons across all (run, measure) pairs of each test.

The :class:`Comparison` it returns prints itself as a text table, CSV, JSON
(a list of records) or a LaTeX table.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from ..engine.aggregate import seq_total
from ..errors import NoTopicsError, UsageError
from ..engine.measures import Kind
from ..engine.pipeline import evaluate, read_judgments
from .significance import (
    CORRECTIONS,
    TEST_NAMES,
    TESTS,
    bootstrap,
    correct,
    run_test,
    wins_ties_losses,
)

FORMATS = ("text", "csv", "json", "latex")


@dataclass(frozen=True)
class Row:
    """One run against the baseline on one measure with one test."""

    run: str
    measure: str
    test: str
    baseline: str
    baseline_mean: float
    mean: float
    delta: float
    relative_delta: float | None
    statistic: float
    p_value: float
    p_value_corrected: float
    correction: str
    alpha: float
    significant: bool
    wins: int
    ties: int
    losses: int
    ci_low: float | None
    ci_high: float | None
    ci_level: float
    ci_method: str | None
    method: str
    resamples: int | None
    topics: int
    filled: int
    filled_baseline: int
    file: str

    def to_dict(self) -> dict:
        return {k: _json_value(v) for k, v in asdict(self).items()}


def _json_value(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


@dataclass
class Comparison:
    """The result of :func:`compare_runs`.

    runs : labels of the runs, baseline first
    files : what each run was read from, as given
    measures : output names of the compared measures (e.g. ``map``, ``P_10``)
    topics : the topics compared (every topic of the qrels)
    filled : per run label, how many topics it had no results for (scored as empty rankings)
    values : per run label and measure, the per-topic values in ``topics`` order
    rows : one :class:`Row` per (test, run, measure), in that order
    """

    runs: list[str]
    files: list[str]
    measures: list[str]
    topics: list[str]
    filled: dict[str, int]
    values: dict[str, dict[str, np.ndarray]]
    rows: list[Row]
    tests: list[str]
    alpha: float
    correction: str
    permutations: int
    seed: int | None
    options: dict = field(default_factory=dict)

    @property
    def baseline(self) -> str:
        return self.runs[0]

    def records(self) -> list[dict]:
        return [r.to_dict() for r in self.rows]

    def to_json(self) -> str:
        return json.dumps(self.records(), indent=2) + "\n"

    def to_csv(self) -> str:
        buf = io.StringIO()
        names = list(Row.__dataclass_fields__)
        w = csv.DictWriter(buf, fieldnames=names, lineterminator="\n")
        w.writeheader()
        for rec in self.records():
            w.writerow({k: ("" if v is None else v) for k, v in rec.items()})
        return buf.getvalue()

    def to_text(self) -> str:
        return _text(self)

    def to_latex(self) -> str:
        return _latex(self)

    def to_dataframe(self):
        """The rows as a pandas DataFrame (one per test, run and measure)."""
        from ..engine.tables import comparison_frame

        return comparison_frame(self)

    def _repr_html_(self) -> str:
        from ..engine.tables import comparison_html

        return comparison_html(self)

    def format(self, fmt: str) -> str:
        if fmt not in FORMATS:
            raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        return getattr(self, f"to_{fmt}")()


def run_labels(runids: Sequence[str], files: Sequence[str]) -> list[str]:
    """Names to show for runs: their run ids when those are distinct, else file names."""
    if all(runids) and len(set(runids)) == len(runids):
        return list(runids)
    base = [os.path.basename(f) for f in files]
    if all(base) and len(set(base)) == len(base):
        return base
    if len(set(files)) == len(files):
        return list(files)
    return [f"{f} ({i + 1})" for i, f in enumerate(files)]


def _describe(src, i: int) -> str:
    if isinstance(src, (str, os.PathLike)):
        return os.fspath(src)
    return f"run{i + 1}"


def per_topic_values(qrels, runs: Sequence, measures: Iterable[str] | str = ("map",), **options):
    """Evaluate every run over every topic of the qrels (``-c``).

    Returns ``(topics, labels, files, filled, values)`` where
    ``values[label][measure]`` is a float array in ``topics`` order and
    ``filled[label]`` counts the topics the run had no results for.
    Measures without per-topic numbers (``runid``, ``num_q``, ``relstring``) are
    left out.
    """
    if isinstance(measures, str):
        measures = [measures]
    measures = list(measures)
    options = dict(options)
    options["complete"] = True
    q = read_judgments(qrels, options)  # parsed once, in the -R format, for every run
    files = [_describe(r, i) for i, r in enumerate(runs)]
    evals = []
    for src, name in zip(runs, files):
        try:
            evals.append(evaluate(q, src, measures, **options))
        except NoTopicsError as e:
            raise NoTopicsError(f"{name}: {e}") from None
    topics = evals[0].topics
    for e, name in zip(evals, files):
        if e.topics != topics:  # cannot happen with -c on one qrels; guard the pairing anyway
            raise UsageError(f"{name}: evaluated topics differ from the baseline's")
    cols = [c for c in evals[0].columns if c.measure.per_topic and c.kind is not Kind.STR]
    if not cols:
        raise UsageError(f"no measure with per-topic numbers among: {' '.join(measures)}")
    for e, name in zip(evals, files):
        for c in cols:
            bad = ~np.isfinite(e.values[c.name].astype(np.float64))
            if np.any(bad):
                raise UsageError(f"{name}: {c.name} is undefined (nan) on topic {e.topics[int(np.argmax(bad))]}; "
                                 "it cannot be compared")
    labels = run_labels([e.runid for e in evals], files)
    values = {lab: {c.name: e.values[c.name].astype(np.float64) for c in cols} for lab, e in zip(labels, evals)}
    filled = {lab: int(np.count_nonzero(e.filled)) for lab, e in zip(labels, evals)}
    return topics, labels, files, filled, values


def compare_runs(qrels, runs: Sequence, measures: Iterable[str] | str = ("map",),
                 tests: Iterable[str] | str = ("t",), *, alpha: float = 0.05, correction: str = "holm",
                 permutations: int = 100_000, seed: int | None = 1, **options) -> Comparison:
    """Compare ``runs[1:]`` with the baseline ``runs[0]`` on every measure.

    ``qrels`` and each run may be anything :func:`~trec_eval_py.evaluate`
    accepts. ``tests`` are keys of :data:`~trec_eval_py.tools.significance.TESTS`
    (or ``all``). ``permutations`` is the number of random sign flips of the
    randomization test and of resamples of the bootstrap. ``options`` are
    evaluation options (``relevance_level``, ``max_docs``, ``judged_only``,
    ``num_docs_in_coll``, ``compat``); ``complete`` is always on.
    """
    if len(runs) < 2:
        raise UsageError("compare needs a baseline run and at least one other run")
    if isinstance(tests, str):
        tests = [tests]
    tests = list(TESTS) if "all" in tests else list(dict.fromkeys(tests))
    for t in tests:
        if t not in TESTS:
            raise UsageError(f"unknown test {t!r}; choose one of {', '.join(TESTS)} or all")
    if correction not in CORRECTIONS:
        raise UsageError(f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}")
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"alpha must be between 0 and 1, not {alpha}")
    if permutations < 1:
        raise UsageError("the number of permutations must be at least 1")

    topics, labels, files, filled, values = per_topic_values(qrels, runs, measures, **options)
    names = list(values[labels[0]])
    base = labels[0]
    rows: list[Row] = []
    intervals: dict = {}

    def interval(lab, m, a, b, res):
        """The test's own interval of the mean difference, or else (for the rank,
        sign and randomization tests, which give none) a paired bootstrap one."""
        if res.ci_low is not None:
            return res.ci_low, res.ci_high, "bootstrap" if res.test == "bootstrap" else "t"
        if (lab, m) not in intervals:
            boot = bootstrap(a, b, resamples=permutations, seed=seed, alpha=alpha)
            intervals[(lab, m)] = (boot.ci_low, boot.ci_high, "bootstrap")
        return intervals[(lab, m)]

    for test in tests:
        pending = []
        for lab, f in zip(labels[1:], files[1:]):
            for m in names:
                a, b = values[base][m], values[lab][m]
                res = run_test(test, a, b, alpha=alpha, permutations=permutations, seed=seed)
                pending.append((lab, f, m, a, b, res))
        adjusted = correct([p[5].p_value for p in pending], correction)
        for (lab, f, m, a, b, res), p_adj in zip(pending, adjusted):
            n = len(a)
            bm = seq_total(a) / n if n else 0.0
            rm = seq_total(b) / n if n else 0.0
            delta = rm - bm
            w, t_, l_ = wins_ties_losses(a, b)
            ci_low, ci_high, ci_method = interval(lab, m, a, b, res)
            rows.append(Row(
                run=lab, measure=m, test=test, baseline=base,
                baseline_mean=bm, mean=rm, delta=delta,
                relative_delta=(delta / bm) if bm != 0 else None,
                statistic=res.statistic, p_value=res.p_value, p_value_corrected=float(p_adj),
                correction=correction, alpha=alpha,
                significant=bool(p_adj <= alpha),
                wins=w, ties=t_, losses=l_,
                ci_low=ci_low, ci_high=ci_high, ci_level=1.0 - alpha, ci_method=ci_method,
                method=res.method, resamples=res.resamples,
                topics=n, filled=filled[lab], filled_baseline=filled[base], file=f,
            ))
    return Comparison(labels, files, names, list(topics), filled, values, rows, tests, alpha,
                      correction, permutations, seed, dict(options))


# ---------------------------------------------------------------- text

def _num(x: float | None, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:+.4f}" if signed else f"{x:.4f}"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f}%"


def _p(p: float) -> str:
    if math.isnan(p):
        return "nan"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def _ci(r: Row) -> str:
    if r.ci_low is None:
        return "-"
    return f"[{r.ci_low:+.4f}, {r.ci_high:+.4f}]"


def _table(header: list[str], body: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(h), *(len(row[i]) for row in body)) if body else len(h) for i, h in enumerate(header)]
    out = []
    for row in [header] + body:
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(row)]
        out.append("  ".join(cells).rstrip())
    return out


def _method_note(test: str, rows: list[Row], c: Comparison) -> str:
    if test == "randomization":
        methods = {r.method for r in rows}
        if methods == {"exact"}:
            return "exact: all sign assignments"
        return f"{c.permutations} random sign assignments, seed {c.seed}" + (
            " (exact where 2^topics <= permutations)" if "exact" in methods else "")
    if test == "bootstrap":
        return f"{c.permutations} resamples, seed {c.seed}; percentile interval"
    if test == "wilcoxon":
        return "zero differences dropped; " + "/".join(sorted({r.method for r in rows})) + " p-value"
    if test == "t":
        return f"{len(c.topics) - 1} degrees of freedom"
    return "ties dropped, exact binomial"


def _text(c: Comparison) -> str:
    lines = []
    base = c.baseline
    lines.append(f"baseline:   {base} ({c.files[0]})")
    others = ", ".join(f"{lab} ({f})" for lab, f in zip(c.runs[1:], c.files[1:]))
    lines.append(f"runs:       {others}")
    lines.append(f"topics:     {len(c.topics)} (every topic of the qrels; a topic missing from a run scores as an empty ranking)")
    lines.append("filled in:  " + ", ".join(f"{lab} {c.filled[lab]}" for lab in c.runs))
    m = (len(c.runs) - 1) * len(c.measures)
    corr = "no correction" if c.correction == "none" else f"{c.correction} correction over {m} comparisons"
    lines.append(f"p-values:   two-sided; {corr}; significant if corrected p <= {c.alpha:g}")
    header = ["run", "measure", "baseline", "mean", "delta", "rel", "p", "p_corr", "sig", "W/T/L",
              f"{100 * (1 - c.alpha):g}% CI"]
    for test in c.tests:
        rows = [r for r in c.rows if r.test == test]
        lines.append("")
        lines.append(f"{TEST_NAMES[test]} ({_method_note(test, rows, c)})")
        body = [[r.run, r.measure, _num(r.baseline_mean), _num(r.mean), _num(r.delta, True),
                 _pct(r.relative_delta), _p(r.p_value), _p(r.p_value_corrected),
                 "yes" if r.significant else "no", f"{r.wins}/{r.ties}/{r.losses}", _ci(r)] for r in rows]
        lines.extend(_table(header, body, right={2, 3, 4, 5, 6, 7}))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- LaTeX

_TEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def tex_escape(s: str) -> str:
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in s)


def _latex(c: Comparison) -> str:
    multi = len(c.tests) > 1
    cols = ("l" if multi else "") + "llrrrrrrc"
    head = (["Test"] if multi else []) + [
        "Run", "Measure", "Baseline", "Mean", r"$\Delta$", r"$\Delta$\%", "$p$",
        r"$p_{\mathrm{" + c.correction + "}}$" if c.correction != "none" else "$p$ (uncorr.)", "W/T/L"]
    out = [
        (f"% {', '.join(TEST_NAMES[t] for t in c.tests)}; baseline {c.baseline}; {len(c.topics)} topics; "
         f"two-sided, {c.correction} correction, alpha {c.alpha:g}; needs \\usepackage{{booktabs}}"),
        r"\begin{tabular}{" + cols + "}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
    ]
    for r in c.rows:
        mark = r"$^{\dagger}$" if r.significant else ""
        rel = "--" if r.relative_delta is None else f"{100 * r.relative_delta:+.1f}\\%"
        cells = ([TEST_NAMES[r.test]] if multi else []) + [
            tex_escape(r.run), tex_escape(r.measure), f"{r.baseline_mean:.4f}", f"{r.mean:.4f}{mark}",
            f"{r.delta:+.4f}", rel, _p(r.p_value), _p(r.p_value_corrected), f"{r.wins}/{r.ties}/{r.losses}"]
        out.append(" & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}",
            rf"% $^{{\dagger}}$: significant at {c.alpha:g} after {c.correction} correction"]
    return "\n".join(out) + "\n"
