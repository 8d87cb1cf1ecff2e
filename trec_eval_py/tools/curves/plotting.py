"""Figures comparing runs: P/R, ROC and CROC curves, per-topic differences.

Every figure is built on a :class:`matplotlib.figure.Figure` (no pyplot, no
global backend), returned so callers can adjust it (a notebook shows it
inline, see :mod:`.figure`), and saved by
:func:`save_plot`. matplotlib comes with the ``plot`` extra and is imported
only here, when a figure is made.

Topics are taken as ``compare`` and ``-c`` take them: every topic of the
qrels, a topic without results counting as an empty ranking.

``pr``
    Interpolated precision at the recall levels 0, 0.1, ..., 1 of each run,
    averaged over topics (``iprec_at_recall``), i.e. the classic TREC
    recall-precision graph. The legend gives each run's MAP. A ranking that
    ``-J`` (or ``-M 0``) leaves empty has no precision at recall 0 (trec_eval:
    0/0, ``-nan``, and so is the mean): such a run is refused with one line
    rather than drawn with a point the evaluation does not print. (A topic
    with no results at all counts 0, as ``-c`` counts it.)
``roc``
    True-positive rate against false-positive rate, vertically averaged over
    topics (for each false-positive rate, the mean of the topics' share of
    relevant documents ranked with at most that rate), as computed by
    :mod:`trec_eval_py.tools.curves.curves`. Negatives are the retrieved non-relevant
    documents, relevant documents not retrieved coming after all of them; with
    ``num_docs_in_coll`` (``-N``) every non-relevant document of the
    collection. The legend gives each run's ``auc_roc``.
``croc``
    The same curve with the false-positive axis magnified by
    ``f(x) = (1 - exp(-alpha x)) / (1 - exp(-alpha))`` (Swamidass et al.,
    Bioinformatics 2010), which stretches the early ranks; alpha defaults
    to 7. The legend gives each run's ``croc_exp``.
``proc``
    The ROC curve with the false-positive rate on Clark and Webster-Clark's
    log10 scale, rescaled onto [0, 1] per topic (see ``curves --curve proc``).
    Legend: ``auc_proc``.
``ac`` / ``cac`` / ``pac``
    Accumulation curves (true-positive rate against the fraction of the list
    ranked: plain, magnified by the exponential CROC function with
    ``--alpha``, or on the rescaled log scale), with the regions above the
    best possible and below the worst possible curve (all relevant documents
    first / last, averaged over topics) shaded, as in the CROC paper's
    Figure 1. Legend: ``auc_ac`` / ``cac_exp`` / ``auc_pac``.
``per-topic``
    For each run after the first, the per-topic difference from the first run
    on one measure, as bars sorted from largest gain to largest loss.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..._record import record
from ...errors import MissingExtraError, UsageError

if TYPE_CHECKING:
    from .curves import CurveSpec

KINDS = ("pr", "roc", "croc", "proc", "ac", "cac", "pac", "per-topic")
FORMATS = ("png", "svg", "pdf")

#: evenly spaced (magnified) false-positive rates at which ROC/CROC curves are averaged
GRID_POINTS = 501


def _matplotlib():
    try:
        # matplotlib itself first: the figure module, once imported, would not
        # notice a matplotlib that has gone since (as in an environment without it)
        import matplotlib.figure  # noqa: F401

        from .figure import Figure  # matplotlib's, displayed inline in notebooks
    except ImportError:
        raise MissingExtraError(
            "plotting needs matplotlib, which comes with the 'plot' extra: "
            "pip install 'trec_eval_py[plot]'"
        ) from None
    return Figure


def require_matplotlib() -> None:
    """Raise :class:`MissingExtraError` now if matplotlib cannot be imported."""
    _matplotlib()


def _figure(width: float = 6.4, height: float = 4.8):
    return _matplotlib()(figsize=(width, height), layout="constrained")


def _labels(evals_or_labels, labels):
    return list(labels) if labels is not None else evals_or_labels


# ---------------------------------------------------------------- the numbers

@record
class Series:
    """One run's line (or bars): ``x`` and ``y`` as drawn, and the number its
    legend gives (``value``: MAP, an area; None for the per-topic bars)."""

    label: str
    x: np.ndarray
    y: np.ndarray
    value: float | None = None


@record
class PlotData:
    """What a figure draws, computed by the pipeline's stages and nothing else:
    per-topic values and summaries from :func:`~trec_eval_py.evaluate` (every
    topic of the qrels, ``-c``), curves from
    :func:`~trec_eval_py.tools.curves.curves.compute_curves`.

    ``measure`` is the printed name of the legend's measure (the per-topic
    figure's measure); ``bounds`` the averaged best and worst accumulation curves
    (level, best tpr, worst tpr); ``spec`` the curve drawn (ROC-family kinds)."""

    kind: str
    series: list
    topics: int
    measure: str
    spec: CurveSpec | None = None
    bounds: np.ndarray | None = None
    baseline: str | None = None


def _mean(v: np.ndarray) -> float:
    # topics added one at a time in topic order, as the summaries are
    return float(np.cumsum(v)[-1] / len(v)) if len(v) else 0.0


def _pr_data(qrels, runs, labels, options) -> PlotData:
    from ...engine.measures import registry
    from ..compare.comparison import per_topic_values
    from .curves import curve_options

    curve_options(options)  # the judgments every curve needs (-R), checked as for the other curves
    topics, names, files, _filled, values = per_topic_values(
        qrels, runs, ["iprec_at_recall", "map", "num_ret"], finite=False, **options)
    # the recall levels are the measure's own parameters, its outputs in their order
    sel = registry().resolve(["iprec_at_recall"])[0]
    levels, outputs = np.array(sel.params.values, dtype=np.float64), sel.names
    for file, vals in zip(files, values.values()):
        _check_pr_defined(file, topics, vals, outputs, options)
    series = [Series(name, levels, np.array([_mean(vals[k]) for k in outputs]), _mean(vals["map"]))
              for name, vals in zip(_labels(names, labels), values.values())]
    return PlotData("pr", series, len(topics), "map")


def _check_pr_defined(file: str, topics, vals: dict, outputs, options: dict) -> None:
    """Refuse, in one line, a run whose mean P/R curve is undefined.

    trec_eval's interpolated precision at a recall level that asks for no
    relevant document (level 0; a small level with few relevant documents) is
    the relevant retrieved over the retrieved: 0/0 for a ranking that ``-J``
    (or ``-M 0``) leaves empty, printed ``-nan``, and the mean over topics is
    ``-nan`` too. Such a point is not drawn as 0: the figure shows the averages
    the evaluation prints, and there is none to show."""
    for k in outputs:
        bad = ~np.isfinite(vals[k])
        if not bad.any():
            continue
        i = int(np.argmax(bad))
        level = k.rpartition("_")[2]
        if vals["num_ret"][i] == 0:
            cause = "-M 0" if options.get("max_docs") == 0 else "-J"
            raise UsageError(f"plot --kind pr: {file}: {cause} leaves topic {topics[i]} no ranked document, so its "
                             f"interpolated precision at recall {level} is 0/0 (trec_eval's -nan) and the mean "
                             f"P/R curve is undefined; draw it without {cause}")
        raise UsageError(f"plot --kind pr: {file}: {k} is undefined (nan) on topic {topics[i]}, so the mean "
                         "P/R curve is undefined")


def _curve_data(qrels, runs, spec, labels, levels, options) -> PlotData:
    from ...engine.parse.source import run_labels, source_label
    from ...engine.pipeline import Evaluator, read_judgments, read_results
    from .curves import compute_curves

    options = dict(options)
    options["complete"] = True
    q = read_judgments(qrels, options)
    parsed = [read_results(r, options, judgments=q) for r in runs]
    base = _CURVE_TEXT[spec.kind][0]
    measure = f"{base}.{float(spec.alpha)!r}" if spec.alpha is not None else base
    evaluator = None  # made once the first curve shows the judgments fit curves
    names = _labels(run_labels([r.runid for r in parsed], [source_label(r, i) for i, r in enumerate(runs)]), labels)
    series, n, bounds, printed = [], 0, None, base
    for name, run in zip(names, parsed):
        curve = compute_curves(q, run, spec, levels=levels, **options)
        average = curve.average
        assert average is not None  # every curve of _CURVE_TEXT is averaged
        if evaluator is None:
            evaluator = Evaluator(q, [measure], **options)  # resolved once for every run
        ev = evaluator.evaluate(run)
        printed, area = next(iter(ev.summary.items()))
        series.append(Series(name, average[:, 0], average[:, 1], float(area)))
        n = len(curve.topics)
        bounds = curve.average_bounds  # the same list for every run: the last run's bounds are everyone's
    return PlotData(spec.kind, series, n, printed, spec, bounds)


def _per_topic_data(qrels, runs, measure, labels, options) -> PlotData:
    from ..compare.comparison import per_topic_values

    topics, names, _files, _filled, values = per_topic_values(qrels, runs, [measure], **options)
    cols = list(values[names[0]])
    if len(cols) != 1:
        raise UsageError(f"the per-topic plot shows one measure; {measure!r} gives {len(cols)}: {' '.join(cols)}")
    col = cols[0]
    if len(names) < 2:
        raise UsageError("the per-topic plot needs a baseline run and at least one other run")
    shown = _labels(names, labels)
    base_vals = values[names[0]][col]
    series = []
    for key, name in zip(names[1:], shown[1:]):
        d = values[key][col] - base_vals
        order = np.argsort(-d, kind="stable")  # largest gain first
        series.append(Series(name, np.array([topics[i] for i in order], dtype=object), d[order]))
    return PlotData("per-topic", series, len(topics), col, baseline=shown[0])


def plot_data(kind: str, qrels, runs: Sequence, *, measure: str = "map", croc_alpha: float = 7.0,
              labels: Sequence[str] | None = None, levels: int = GRID_POINTS, **options) -> PlotData:
    """The numbers the figure of ``kind`` (one of :data:`KINDS`) draws (no matplotlib needed)."""
    from .curves import CurveSpec

    if kind == "pr":
        return _pr_data(qrels, runs, labels, options)
    if kind in ("roc", "proc", "ac", "pac"):
        return _curve_data(qrels, runs, CurveSpec(kind), labels, levels, options)
    if kind in ("croc", "cac"):
        if not croc_alpha > 0:
            name = "CROC" if kind == "croc" else "CAC"
            raise UsageError(f"the {name} magnification alpha must be positive, not {croc_alpha}")
        return _curve_data(qrels, runs, CurveSpec(kind, "exp", float(croc_alpha)), labels, levels, options)
    if kind == "per-topic":
        return _per_topic_data(qrels, runs, measure, labels, options)
    raise UsageError(f"unknown plot kind {kind!r}; choose one of {', '.join(KINDS)}")


# ---------------------------------------------------------------- P/R

def plot_pr(qrels, runs: Sequence, *, labels: Sequence[str] | None = None, **options):
    """Averaged interpolated precision/recall curves of ``runs``."""
    _matplotlib()  # fail before evaluating
    return _draw_pr(_pr_data(qrels, runs, labels, options))


def _draw_pr(data: PlotData):
    fig = _figure()
    ax = fig.add_subplot()
    for s in data.series:
        ax.plot(s.x, s.y, marker="o", markersize=4, label=f"{s.label} (MAP {s.value:.4f})")
    ax.set_xlabel("Recall")
    ax.set_ylabel("Interpolated precision")
    ax.set_title(f"Interpolated precision/recall (iprec_at_recall)\nmean of {data.topics} topics")
    _unit_axes(ax)
    ax.legend(loc="upper right")
    return fig


def _unit_axes(ax) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_axisbelow(True)
    ax.grid(True, color="0.9")


# ---------------------------------------------------------------- ROC / CROC

def plot_roc(qrels, runs: Sequence, *, croc_alpha: float | None = None,
             labels: Sequence[str] | None = None, levels: int = GRID_POINTS, **options):
    """Averaged ROC curves, or CROC curves (exponential magnification) when ``croc_alpha`` is given.

    The points come from :func:`trec_eval_py.tools.curves.curves.compute_curves` (vertical
    averaging at ``levels`` evenly spaced x values); the legend's areas are
    the ``auc_roc`` / ``croc_exp`` measures averaged over the same topics.
    """
    _matplotlib()
    from .curves import CurveSpec

    if croc_alpha is None:
        return plot_curve(qrels, runs, CurveSpec("roc"), labels=labels, levels=levels, **options)
    return plot_curve(qrels, runs, CurveSpec("croc", "exp", float(croc_alpha)), labels=labels,
                      levels=levels, **options)


#: curve kind -> (measure of the legend, x label, title)
_CURVE_TEXT = {
    "roc": ("auc_roc", "False-positive rate", "ROC"),
    "croc": ("croc_exp", "Magnified false-positive rate  f(x) = (1 - exp(-{a}x)) / (1 - exp(-{a}))",
             "CROC, exponential magnification alpha {a}"),
    "proc": ("auc_proc", "log10(max(fpr, 0.5/N)), rescaled to [0, 1] per topic", "pROC"),
    "ac": ("auc_ac", "Fraction of the list ranked (r/N)", "Accumulation curve"),
    "cac": ("cac_exp", "Magnified fraction ranked  f(r/N) = (1 - exp(-{a}r/N)) / (1 - exp(-{a}))",
            "CAC, exponential magnification alpha {a}"),
    "pac": ("auc_pac", "log10(r/N), rescaled to [0, 1] per topic", "pAC"),
}


def plot_curve(qrels, runs: Sequence, spec, *, labels: Sequence[str] | None = None,
               levels: int = GRID_POINTS, **options):
    """Averaged ROC-family or accumulation curves of ``runs`` for the
    :class:`~trec_eval_py.tools.curves.curves.CurveSpec` ``spec``; accumulation curves
    get the unreachable regions (above the best, below the worst ranking) shaded."""
    _matplotlib()
    return _draw_curve(_curve_data(qrels, runs, spec, labels, levels, options), levels)


def _draw_curve(data: PlotData, levels: int = GRID_POINTS):
    spec = data.spec
    assert spec is not None  # the data of a curve figure
    _, xlabel, title = _CURVE_TEXT[spec.kind]
    a = f"{spec.alpha:g}" if spec.alpha is not None else ""
    fig = _figure()
    ax = fig.add_subplot()
    for s in data.series:
        ax.step(s.x, s.y, where="post", label=f"{s.label} (AUC {s.value:.4f})")
    bounds = data.bounds
    if bounds is not None:
        ax.fill_between(bounds[:, 0], bounds[:, 1], 1.0, step="post", color="0.85", linewidth=0,
                        label="above the best ranking")
        ax.fill_between(bounds[:, 0], 0.0, bounds[:, 2], step="post", color="0.7", linewidth=0,
                        label="below the worst ranking")
    if spec.kind not in ("proc", "pac"):
        # the log scales' random curve depends on each topic's N: not drawn
        t = np.linspace(0.0, 1.0, levels)
        ax.plot(spec.magnify(t), t, linestyle="--", color="0.6", label="random ranking")
    ax.set_xlabel(xlabel.format(a=a))
    ax.set_title(f"{title.format(a=a)} (area: {data.measure})\n"
                 f"vertical average of {data.topics} topics")
    ax.set_ylabel("True-positive rate (recall)")
    _unit_axes(ax)
    ax.legend(loc="lower right")
    return fig


# ---------------------------------------------------------------- per topic

def plot_per_topic(qrels, runs: Sequence, measure: str = "map", *,
                   labels: Sequence[str] | None = None, **options):
    """Per-topic differences from the first run on ``measure``, sorted, one panel per run."""
    _matplotlib()
    return _draw_per_topic(_per_topic_data(qrels, runs, measure, labels, options))


def _draw_per_topic(data: PlotData):
    from matplotlib.patches import Patch

    col, base, n = data.measure, data.baseline, data.topics
    panels = len(data.series)
    fig = _figure(max(6.4, min(16.0, 0.12 * n + 3)), 1.0 + 3.2 * panels)
    axes = fig.subplots(panels, 1, squeeze=False, sharey=True)[:, 0]
    for ax, s in zip(axes, data.series):
        ds = s.y
        pos = np.arange(len(ds))
        colors = np.where(ds > 0, "tab:green", np.where(ds < 0, "tab:red", "0.5"))
        ax.bar(pos, ds, color=colors)
        ax.axhline(0, color="0.3", linewidth=0.8)
        ax.use_sticky_edges = False  # leave room above and below the bars
        ax.margins(x=0.01, y=0.08)
        ax.set_axisbelow(True)
        if n <= 60:
            ax.set_xticks(pos, list(s.x), rotation=90, fontsize=7)
        ax.set_xlim(-0.6, len(ds) - 0.4)
        wins, losses = int(np.count_nonzero(ds > 0)), int(np.count_nonzero(ds < 0))
        ax.set_title(f"Per-topic {col}: {s.label} - {base}\n{wins} wins, {len(ds) - wins - losses} ties, "
                     f"{losses} losses")
        ax.set_ylabel(f"Difference in {col}")
        ax.set_xlabel(f"Topics, sorted by difference ({n})")
        ax.grid(True, axis="y", color="0.9")
        ax.legend(handles=[Patch(color="tab:green", label=f"{s.label} better"),
                           Patch(color="tab:red", label=f"{base} better")], loc="best")
    return fig


# ---------------------------------------------------------------- files

def output_format(path: str) -> str:
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise UsageError(f"cannot tell the figure format from {path!r}; end the name in .png, .svg or .pdf")
    return ext


def make_plot(kind: str, qrels, runs: Sequence, *, measure: str = "map", croc_alpha: float = 7.0,
              labels: Sequence[str] | None = None, **options):
    """The figure of ``kind`` (one of :data:`KINDS`), drawn from :func:`plot_data`."""
    if kind not in KINDS:
        raise UsageError(f"unknown plot kind {kind!r}; choose one of {', '.join(KINDS)}")
    _matplotlib()
    data = plot_data(kind, qrels, runs, measure=measure, croc_alpha=croc_alpha, labels=labels, **options)
    if kind == "pr":
        return _draw_pr(data)
    if kind == "per-topic":
        return _draw_per_topic(data)
    return _draw_curve(data)


def save_plot(fig, path: str, dpi: int = 150) -> str:
    """Write ``fig`` to ``path`` in the format its extension names."""
    fmt = output_format(path)
    meta = {"Software": None} if fmt == "png" else ({"Creator": None, "Producer": None, "CreationDate": None}
                                                   if fmt == "pdf" else {"Date": None})
    fig.savefig(path, format=fmt, dpi=dpi, metadata=meta)
    return path


# ---------------------------------------------------------------- two evaluations

def plot_correlation(report, *, max_labels: int = 40, max_swap_lines: int = 300):
    """Scatter plot of a :class:`~trec_eval_py.tools.organiser.correlation.Correlation`:
    one point per run at (value in A, value in B), named when there are at
    most ``max_labels`` runs; each swapped pair (ordered oppositely by A and
    B) is joined by a thin red line (when there are at most ``max_swap_lines``).
    The title gives Kendall's tau-b, tau_AP and Spearman's rho."""
    fig = _figure()
    ax = fig.add_subplot()
    a, b = report.a, report.b
    swapped = report.swapped()
    if len(swapped) <= max_swap_lines:
        for k, (i, j) in enumerate(swapped):
            ax.plot([a[i], a[j]], [b[i], b[j]], color="tab:red", alpha=0.35, linewidth=0.8,
                    label="swapped pair" if k == 0 else None, zorder=1)
    involved = np.zeros(len(a), dtype=bool)
    for i, j in swapped:
        involved[[i, j]] = True
    ax.scatter(a[~involved], b[~involved], color="tab:blue", s=22, zorder=2, label="same order with every run")
    ax.scatter(a[involved], b[involved], color="tab:red", s=22, zorder=2, label="in a swapped pair")
    if len(a) <= max_labels:
        for name, x, y in zip(report.names, a.tolist(), b.tolist()):
            ax.annotate(name, (x, y), xytext=(3, 3), textcoords="offset points", fontsize=7)
    stats = report.statistics()

    def show(v: float) -> str:
        return "undefined" if v != v else f"{v:.3f}"

    ax.set_title(f"{len(a)} runs: Kendall's tau-b {show(stats['kendall_tau'])}, "
                 f"tau_AP {show(stats['tau_ap'])},\nSpearman's rho {show(stats['spearman_rho'])}, "
                 f"{len(swapped)} swapped pair{'s' * (len(swapped) != 1)}", fontsize=10)
    ax.set_xlabel(f"A: {report.label_a}")
    ax.set_ylabel(f"B: {report.label_b}")
    ax.set_axisbelow(True)
    ax.grid(True, color="0.9")
    ax.legend(loc="best", fontsize=8)
    return fig
