"""Ranking curves, ready to plot: precision/recall, interpolated precision/recall,
ROC and concentrated ROC, per topic and averaged over topics.

Both ``trec_eval_py curves`` and Python callers use :func:`compute_curves`::

    from trec_eval_py.tools.curves.curves import compute_curves
    c = compute_curves("qrels.txt", "run.txt", "croc_exp.7")
    c.points["301"]      # (m, 2) array of (x, y) vertices for topic 301
    c.average            # (levels, 2) array, or None for "pr"

Batches come from the pipeline's stages (:func:`~trec_eval_py.engine.pipeline.map_batches`,
as for every measure), so ``-l``, ``-M``, ``-J``, ``-c``, ``-N``, ``--compat``,
``--order`` and ``-T`` mean what they mean for ``evaluate``, and big runs are
read in pieces in bounded memory.

Curves (x, y):

``pr``   (recall, precision) at each retrieved relevant document, in rank
         order: the uninterpolated operating points (LingPipe's
         ``prCurve(false)``). No average: topics reach different recalls.
``ipr``  the points of ``pr`` not dominated by a point of higher recall and
         precision at least as high: the corners of the interpolated step curve
         (LingPipe's ``prCurve(true)``; BioCreative II.5). Averaged: the
         interpolated precision (best precision at recall >= r, 0 if none) at
         recall levels 0, 1/(L-1), ..., 1, averaged over topics.
``roc``  (false-positive rate, true-positive rate): the vertices of the ROC step
         curve from (0, 0) to (1, 1); joined by straight lines they draw it.
         Averaged: the true-positive rate reached at false-positive rate x
         (share of relevant documents with rate <= x) at x = 0, 1/(L-1), ..., 1
         (vertical averaging).
``croc_exp.A`` / ``croc_pow.A`` / ``croc_log.A``  as ``roc`` with x replaced
         by f(false-positive rate), f the CROC magnification with parameter A
         (defaults as for the measures); averaged at levels of f(x).
``proc`` as ``roc`` with x on Clark and Webster-Clark's log scale,
         log10(max(fpr, 0.5/N)), rescaled onto [0, 1] per topic (x = 1 - p/p0,
         p0 = log10(0.5/N), N the full list's length): topics of different N
         share one axis, and the area is ``auc_proc``. The raw log10 value is
         (x - 1) * log10(2N).
``ac``   the accumulation curve (Swamidass et al. 2010): true-positive rate
         against the fraction of the full list ranked, r/N; a relevant
         document at rank r raises the curve at x = r/N. Area ``auc_ac``.
``cac_exp.A`` / ``cac_pow.A`` / ``cac_log.A``  as ``ac`` with x = f(r/N), the
         CROC magnifications (areas ``cac_*``).

``pac``  as ``ac`` with x on the rescaled log scale of ``proc`` (area ``auc_pac``).

The accumulation curves (``ac``, ``cac_*``, ``pac``) also carry, per topic,
the best and worst curves a ranking of that list can have (every relevant
document first, or last): the region outside them, which the CROC paper shades
in its Figure 1, cannot be reached (``Curves.bounds``; averaged in
``Curves.average_bounds``; in JSON as ``bounds`` and ``average_bounds``).

``table`` (:func:`compute_table`, :class:`ThresholdTable`) is LingPipe's
         per-rank table (``ScoredPrecisionRecallEvaluation``): for each retrieved
         document, its rank and score, whether it is relevant, and with the
         acceptance threshold at its score, recall, precision, rejection recall
         (specificity) and F1. Scores travel through the join for it
         (``EvalContext.keep_scores``). No average.

Negatives follow the ROC-family measures (see
:mod:`trec_eval_py.engine.measures.ranked_curves`): by default the retrieved
non-relevant documents, with ``-N`` the collection's non-relevant documents.
Missed relevant documents sit after every negative (rate 1). Topics without
relevant documents have no points and count as 0 in averages (as in
trec_eval's averages).
"""
from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np

from ..._record import record, replace
from ...engine.measures.early_retrieval import log_floor
from ...engine.measures.ranked_curves import MAGNIFIERS, format_param, list_size, num_negatives
from ...errors import NoTopicsError, UsageError


@record
class CurveKind:
    """One entry of the curve registry: what ``--curve NAME`` draws.

    ``alpha``: the name takes an optional ``.alpha`` (a CROC magnification);
    ``points``: (x, y) points computed by :func:`compute_curves` (False for
    ``table``, computed by :func:`compute_table`); ``help``: one line for
    ``curves --help``; ``averaged``: what its average over topics is, or None."""

    name: str
    help: str
    averaged: str | None = None
    alpha: bool = False
    points: bool = True

    @property
    def spelling(self) -> str:
        return f"{self.name}[.A]" if self.alpha else self.name


_MEAN_TPR = "mean tpr at evenly spaced levels of x"

#: The curve registry, in the order help lists it: the one place that says
#: which ``--curve`` names exist (parsing, errors and help all read it).
CURVES: dict[str, CurveKind] = {k.name: k for k in (
    CurveKind("pr", "(recall, precision) at each retrieved relevant document"),
    CurveKind("ipr", "corners of the interpolated precision/recall step curve",
              "interpolated precision at evenly spaced recall levels"),
    CurveKind("roc", "vertices of the ROC step curve (fpr, tpr) from (0,0) to (1,1)",
              "mean tpr at evenly spaced fpr levels"),
    *(CurveKind(f"croc_{m}", f"as roc with x = CROC's {m} magnification of fpr (alpha A)", _MEAN_TPR, alpha=True)
      for m in ("exp", "pow", "log")),
    CurveKind("proc", "as roc with x = log10(max(fpr, 0.5/N)) rescaled onto [0, 1]", _MEAN_TPR),
    CurveKind("ac", "accumulation curve: (r/N, tpr), r the rank in the full list of N", _MEAN_TPR),
    *(CurveKind(f"cac_{m}", f"as ac with x = CROC's {m} magnification of r/N (alpha A)", _MEAN_TPR, alpha=True)
      for m in ("exp", "pow", "log")),
    CurveKind("pac", "as ac with x on proc's rescaled log scale", _MEAN_TPR),
    CurveKind("table", "LingPipe's per-rank table: rank, score, relevant, recall, precision, "
                       "rejection recall, F1", points=False),
)}

#: names of the curves made of (x, y) points (every registered curve but ``table``)
KINDS = tuple(k.name for k in CURVES.values() if k.points)


def curve_names() -> str:
    """The ``--curve`` names as help and errors spell them (``croc_exp[.A]``...)."""
    return ", ".join(k.spelling for k in CURVES.values())


def curve_help() -> str:
    """One line per registered curve, for ``curves --help``."""
    lines = []
    for k in CURVES.values():
        avg = f"; averaged: {k.averaged}" if k.averaged else ("; no average" if k.points else "")
        lines.append(f"{k.spelling}: {k.help}{avg}.")
    return "\n\n".join(lines)
#: curves whose x is (a transform of) the fraction of the list ranked, r/N
RANK_VIEW = ("ac", "cac", "pac")
DEFAULT_LEVELS = 11


@record
class CurveSpec:
    """Which curve: ``kind`` (pr, ipr, roc, croc, proc, ac, cac, pac) and for
    croc/cac the magnification (exp, pow, log) and its alpha."""

    kind: str
    magnifier: str | None = None
    alpha: float | None = None

    def _magnification(self) -> tuple[str, float]:
        """croc's and cac's magnifier and alpha (which :func:`parse_curve` always gives them)."""
        assert self.magnifier is not None and self.alpha is not None, self.kind
        return self.magnifier, self.alpha

    @property
    def name(self) -> str:
        if self.kind in ("croc", "cac"):
            magnifier, alpha = self._magnification()
            return f"{self.kind}_{magnifier}_{format_param(alpha)}"
        return self.kind

    @property
    def rank_view(self) -> bool:
        """x is a transform of r/N (accumulation curves) rather than of the fpr."""
        return self.kind in RANK_VIEW

    @property
    def labels(self) -> tuple[str, str]:
        if self.kind in ("pr", "ipr"):
            return "recall", "precision"
        return {"roc": "fpr", "croc": "f_fpr", "proc": "plog_fpr",
                "ac": "fdp", "cac": "f_fdp", "pac": "plog_fdp"}[self.kind], "tpr"

    def magnify(self, x: np.ndarray, size=None) -> np.ndarray:
        """The curve's x for rates (or r/N) ``x``; ``size`` (the full list's
        length N) is needed by the log scale of proc/pac."""
        if self.kind in ("croc", "cac"):
            magnifier, alpha = self._magnification()
            return MAGNIFIERS[magnifier](x, alpha)
        if self.kind in ("proc", "pac"):
            if size is None:
                raise ValueError("the log scale needs the list length")
            return log_floor(x, None, None, size)
        return np.asarray(x, dtype=np.float64)


def parse_curve(spec: str) -> CurveSpec:
    """``pr``, ``ipr``, ``roc``, ``croc_exp``, ``croc_exp.7``, ``ac``, ``cac_log.80``... to a :class:`CurveSpec`."""
    from ...engine.measures.croc import DEFAULT_ALPHA

    name, dot, text = spec.strip().partition(".")
    kind = CURVES.get(name)
    if kind is None or not kind.points:
        raise UsageError(f"unknown curve {spec!r}; choose one of {curve_names()} (A: the magnification's alpha)")
    if not kind.alpha:
        if dot:
            raise UsageError(f"curve '{name}' takes no parameter (got {spec!r})")
        return CurveSpec(name)
    mag = name.split("_", 1)[1]
    alpha = DEFAULT_ALPHA[mag]
    if dot:
        try:
            alpha = float(text)
        except ValueError:
            raise UsageError(f"curve {spec!r}: alpha {text!r} is not a number") from None
        if not np.isfinite(alpha) or alpha <= 0:
            raise UsageError(f"curve {spec!r}: alpha must be positive")
    return CurveSpec(name.split("_", 1)[0], mag, alpha)


# ---- one topic ----

def _relevant_positions(b, t: int) -> np.ndarray:
    return np.flatnonzero(b.is_rel[t])


def _pr_points(b, t: int) -> np.ndarray:
    num_rel = int(b.num_rel[t])
    pos = _relevant_positions(b, t)
    if num_rel == 0 or len(pos) == 0:
        return np.zeros((0, 2))
    i = np.arange(1, len(pos) + 1, dtype=np.float64)
    return np.column_stack([i / num_rel, i / (pos + 1.0)])


def _ipr_points(b, t: int) -> np.ndarray:
    pts = _pr_points(b, t)
    if len(pts) == 0:
        return pts
    prec = pts[:, 1]
    later_best = np.concatenate([np.maximum.accumulate(prec[::-1])[::-1][1:], [-np.inf]])
    return pts[prec > later_best]


def _positive_rates(b, t: int, neg: int) -> np.ndarray:
    """False-positive rate of each relevant document, in rank order; missed ones 1."""
    num_rel = int(b.num_rel[t])
    pos = _relevant_positions(b, t)
    above = pos - np.arange(len(pos))
    rates = above / float(neg) if neg > 0 else np.zeros(len(pos))
    return np.concatenate([rates, np.ones(num_rel - len(pos))])


def _positive_fdp(b, t: int, size: int) -> np.ndarray:
    """r/N of each relevant document in the full list, in rank order; missed
    ones take the last ranks."""
    num_rel = int(b.num_rel[t])
    pos = _relevant_positions(b, t) + 1.0
    missed = np.arange(size - (num_rel - len(pos)) + 1, size + 1, dtype=np.float64)
    return np.concatenate([pos, missed]) / float(size)


def _positive_x(b, t: int, spec: CurveSpec, neg: int, size: int) -> np.ndarray:
    """The curve's x of each relevant document (transformed rate or r/N)."""
    raw = _positive_fdp(b, t, size) if spec.rank_view else _positive_rates(b, t, neg)
    return spec.magnify(raw, size)


def _roc_points(b, t: int, spec: CurveSpec, neg: int, size: int = 0) -> np.ndarray:
    num_rel = int(b.num_rel[t])
    if num_rel == 0:
        return np.zeros((0, 2))
    return _step_vertices(_positive_x(b, t, spec, neg, size), num_rel)


def _step_vertices(xs: np.ndarray, num_rel: int) -> np.ndarray:
    """Vertices of the step curve from (0, 0) to (1, 1) rising by 1/num_rel at each x."""
    k = np.arange(num_rel, dtype=np.float64)
    steps = np.empty((2 * num_rel, 2))
    steps[0::2, 0] = xs
    steps[0::2, 1] = k / num_rel
    steps[1::2, 0] = xs
    steps[1::2, 1] = (k + 1) / num_rel
    pts = np.vstack([[0.0, 0.0], steps, [1.0, 1.0]])
    return _vertices(pts)


def _vertices(pts: np.ndarray) -> np.ndarray:
    """Drop repeated points and points in the middle of a straight run."""
    keep = np.ones(len(pts), dtype=bool)
    keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
    pts = pts[keep]
    if len(pts) < 3:
        return pts
    prev, cur, nxt = pts[:-2], pts[1:-1], pts[2:]
    mid = (((prev[:, 0] == cur[:, 0]) & (cur[:, 0] == nxt[:, 0]))
           | ((prev[:, 1] == cur[:, 1]) & (cur[:, 1] == nxt[:, 1])))
    keep = np.concatenate([[True], ~mid, [True]])
    return pts[keep]


def _levels(levels: int) -> np.ndarray:
    return np.arange(levels, dtype=np.float64) / (levels - 1)


def _ipr_at_levels(b, t: int, xs: np.ndarray) -> np.ndarray:
    pts = _pr_points(b, t)
    out = np.zeros(len(xs))
    if len(pts) == 0:
        return out
    best_after = np.maximum.accumulate(pts[::-1, 1])[::-1]
    # first operating point with recall >= level
    j = np.searchsorted(pts[:, 0], xs, side="left")
    ok = j < len(pts)
    out[ok] = best_after[j[ok]]
    return out


def _tpr_at_levels(b, t: int, spec: CurveSpec, neg: int, xs: np.ndarray, size: int = 0) -> np.ndarray:
    num_rel = int(b.num_rel[t])
    if num_rel == 0:
        return np.zeros(len(xs))
    fx = np.sort(_positive_x(b, t, spec, neg, size))
    return np.searchsorted(fx, xs, side="right") / float(num_rel)


def _bound_x(spec: CurveSpec, num_rel: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """x of the relevant documents in the best (ranks 1..R) and worst
    (ranks N-R+1..N) rankings of a list of ``size``."""
    best = np.arange(1, num_rel + 1, dtype=np.float64) / size
    worst = np.arange(size - num_rel + 1, size + 1, dtype=np.float64) / size
    return spec.magnify(best, size), spec.magnify(worst, size)


def batch_bounds(b, spec: CurveSpec) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Each topic's (best, worst) accumulation-curve vertices; None for other curves."""
    if not spec.rank_view:
        return None
    size = list_size(b)
    out = []
    for t in range(b.n):
        num_rel = int(b.num_rel[t])
        if num_rel == 0:
            out.append((np.zeros((0, 2)), np.zeros((0, 2))))
            continue
        best, worst = _bound_x(spec, num_rel, int(size[t]))
        out.append((_step_vertices(best, num_rel), _step_vertices(worst, num_rel)))
    return out


def batch_bound_levels(b, spec: CurveSpec, xs: np.ndarray) -> np.ndarray | None:
    """(n, 2, len(xs)): best and worst tpr at the x levels, per topic; None for other curves."""
    if not spec.rank_view:
        return None
    size = list_size(b)
    out = np.zeros((b.n, 2, len(xs)))
    for t in range(b.n):
        num_rel = int(b.num_rel[t])
        if num_rel:
            for j, bx in enumerate(_bound_x(spec, num_rel, int(size[t]))):
                out[t, j] = np.searchsorted(bx, xs, side="right") / float(num_rel)
    return out


def batch_points(b, spec: CurveSpec) -> list[np.ndarray]:
    """Each topic's (x, y) points, for the topics of batch ``b``."""
    if spec.kind == "pr":
        return [_pr_points(b, t) for t in range(b.n)]
    if spec.kind == "ipr":
        return [_ipr_points(b, t) for t in range(b.n)]
    neg = num_negatives(b)
    size = list_size(b)
    return [_roc_points(b, t, spec, int(neg[t]), int(size[t])) for t in range(b.n)]


def batch_levels(b, spec: CurveSpec, xs: np.ndarray) -> np.ndarray | None:
    """(n, len(xs)) y values at the x levels, per topic; None for curves without an average."""
    if spec.kind == "pr":
        return None
    if spec.kind == "ipr":
        rows = [_ipr_at_levels(b, t, xs) for t in range(b.n)]
    else:
        neg = num_negatives(b)
        size = list_size(b)
        rows = [_tpr_at_levels(b, t, spec, int(neg[t]), xs, int(size[t])) for t in range(b.n)]
    return np.array(rows, dtype=np.float64).reshape(b.n, len(xs))


# ---- a whole run ----

@record(frozen=False)
class Curves:
    """A run's curve: ``points[topic]`` is an (m, 2) array of (x, y); ``average``
    an (levels, 2) array of (level, mean y), or None where no average is meaningful."""

    spec: CurveSpec
    topics: list[str]
    points: dict[str, np.ndarray]
    average: np.ndarray | None
    runid: str = ""
    #: accumulation curves only: topic -> (best, worst) vertices
    bounds: dict[str, tuple[np.ndarray, np.ndarray]] | None = None
    #: accumulation curves only: (levels, 3) array of (level, mean best tpr, mean worst tpr)
    average_bounds: np.ndarray | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def labels(self) -> tuple[str, str]:
        return self.spec.labels

    def rows(self, *, per_topic: bool = True, summary: bool = True) -> Iterable[tuple[str, float, float]]:
        if per_topic:
            for qid in self.topics:
                for x, y in self.points[qid]:
                    yield qid, float(x), float(y)
        if summary and self.average is not None:
            for x, y in self.average:
                yield "all", float(x), float(y)

    def table(self, *, per_topic: bool = True, summary: bool = True):
        """The points as a :class:`~trec_eval_py.output.table.Table`: topic ('all' for the average), x, y."""
        from ...output.table import Column, Table

        xl, yl = self.labels
        cols = [Column("topic", "text"), Column(xl, "float", digits=6), Column(yl, "float", digits=6)]
        return Table(cols, [list(r) for r in self.rows(per_topic=per_topic, summary=summary)])

    def to_tsv(self, *, per_topic: bool = True, summary: bool = True) -> str:
        from ...output.table import render

        return render(self.table(per_topic=per_topic, summary=summary), "tsv")

    def to_csv(self, *, per_topic: bool = True, summary: bool = True) -> str:
        from ...output.table import render

        return render(self.table(per_topic=per_topic, summary=summary), "csv")

    def to_dict(self, *, per_topic: bool = True, summary: bool = True) -> dict:
        xl, yl = self.labels
        d: dict = {"curve": self.name, "x": xl, "y": yl, "runid": self.runid}
        if self.spec.kind in ("croc", "cac"):
            d["magnification"] = self.spec.magnifier
            d["alpha"] = self.spec.alpha
        if per_topic:
            d["topics"] = {q: self.points[q].tolist() for q in self.topics}
            if self.bounds is not None:
                d["bounds"] = {q: {"best": self.bounds[q][0].tolist(), "worst": self.bounds[q][1].tolist()}
                               for q in self.topics}
        if summary:
            d["average"] = None if self.average is None else self.average.tolist()
            if self.average_bounds is not None:
                d["average_bounds"] = self.average_bounds.tolist()
        return d

    def to_json(self, *, per_topic: bool = True, summary: bool = True) -> str:
        return json.dumps(self.to_dict(per_topic=per_topic, summary=summary)) + "\n"


# ---- LingPipe's per-rank table ----

#: columns of ``curves --curve table`` after the topic
TABLE_COLUMNS = ("rank", "score", "relevant", "recall", "precision", "rej_recall", "f1")


def batch_table(b) -> list[np.ndarray]:
    """Per topic of batch ``b``: an (n, 7) array of rank, score, relevant (1/0),
    recall, precision, rejection recall and F1 after each rank (see :class:`ThresholdTable`);
    no rows for a topic without relevant documents."""
    neg = num_negatives(b)
    out = []
    for t in range(b.n):
        n = int(b.num_ret[t])
        num_rel = int(b.num_rel[t])
        if num_rel == 0 or n == 0:
            out.append(np.zeros((0, len(TABLE_COLUMNS))))
            continue
        rel = b.is_rel[t, :n]
        tp = np.cumsum(rel, dtype=np.int64).astype(np.float64)
        ranks = np.arange(1, n + 1, dtype=np.float64)
        fp = ranks - tp
        recall = tp / num_rel
        precision = tp / ranks
        negatives = float(neg[t])
        with np.errstate(invalid="ignore", divide="ignore"):
            # no negatives at all: nothing to reject, 0/0 (NaN), as LingPipe's division gives
            rej = (negatives - fp) / negatives if negatives > 0 else np.full(n, np.nan)
            f1 = np.where(tp > 0, 2.0 * precision * recall / (precision + recall), 0.0)
        out.append(np.column_stack([ranks, b.scores[t, :n], rel.astype(np.float64), recall, precision, rej, f1]))
    return out


@record(frozen=False)
class ThresholdTable:
    """LingPipe's per-rank table (``ScoredPrecisionRecallEvaluation``), per topic.

    ``rows[topic]`` is an (n, 7) array, one row per retrieved document in rank
    order: its rank (from 1), its score (the run's, as read), whether it is
    relevant (1/0), and, with the acceptance threshold at that score (this
    document and every one above it accepted), recall, precision, rejection
    recall (the share of negatives still rejected: specificity) and F1.
    """

    topics: list[str]
    rows: dict[str, np.ndarray]
    runid: str = ""
    name = "table"

    def _lines(self):
        for qid in self.topics:
            for r in self.rows[qid]:
                yield qid, r

    def table(self, digits: int = 6):
        """The rows as a :class:`~trec_eval_py.output.table.Table`: the topic, then
        :data:`TABLE_COLUMNS`; scores as read (the shortest text that reads back as the
        same double), the rates with ``digits`` decimals, an undefined rate as ``NaN``."""
        from ...output.table import Column, Table

        cols = [Column("topic", "text"), Column("rank", "int", align="right"),
                Column("score", "shortest", align="right", nan="NaN"), Column("relevant", "int", align="right")]
        cols += [Column(n, "float", digits=digits, align="right", nan="NaN") for n in TABLE_COLUMNS[3:]]
        rows: list = []
        for qid in self.topics:
            r = self.rows[qid]
            if not len(r):
                continue
            whole = [r[:, k].astype(np.int64).tolist() for k in (0, 2)]
            real = [r[:, k].tolist() for k in (1, 3, 4, 5, 6)]
            rows += zip([qid] * len(r), whole[0], real[0], whole[1], *real[1:])
        return Table(cols, rows)

    def _render(self, fmt: str, digits: int) -> str:
        from ...output.table import paused_gc, render

        with paused_gc():  # a row per retrieved document: millions of tuples, no cycle among them
            return render(self.table(digits), fmt)

    def to_tsv(self) -> str:
        return self._render("tsv", 6)

    def to_csv(self) -> str:
        return self._render("csv", 6)

    def to_text(self) -> str:
        return self._render("text", 4)

    def to_dict(self) -> dict:
        def plain(v):
            v = float(v)
            return None if v != v else v

        return {"curve": "table", "runid": self.runid, "columns": list(TABLE_COLUMNS),
                "topics": {q: [[int(r[0]), plain(r[1]), int(r[2])] + [plain(v) for v in r[3:]]
                               for r in self.rows[q]] for q in self.topics}}

    def to_json(self) -> str:
        return json.dumps(self.to_dict()) + "\n"


def curve_options(options: dict):
    """The pipeline options of a curve or table, with the checks they share."""
    from ...engine.pipeline import Options

    opts = Options(**options)
    if opts.measures_for != "qrels":
        raise UsageError(f"curves need judgments of single documents (-R qrels), not '-R {opts.rel_format}'")
    if opts.zscore_file is not None:
        raise UsageError("-Z applies to measures, not to curves")
    return opts


def _shown_topics(res, topics) -> set:
    """The topics to show: all evaluated ones, or ``topics`` (each must be evaluated)."""
    if not np.any(~res.filled):
        raise NoTopicsError("no topic has both judgments and results")
    evaluated = set(res.topics)
    if topics is None:
        return evaluated
    wanted = list(topics)
    unknown = [q for q in wanted if q not in evaluated]
    if unknown:
        raise UsageError(f"topic {unknown[0]!r} was not evaluated (not in both the judgments and the run)")
    return set(wanted)


def compute_table(qrels, run, *, topics: Iterable[str] | None = None, **options) -> ThresholdTable:
    """LingPipe's per-rank table of ``run`` against ``qrels`` (see :class:`ThresholdTable`).

    Arguments as for :func:`compute_curves` (no levels: the table has no average).
    Relevant documents the run never retrieves are LingPipe's *misses*
    (``addMisses``): they count in recall's denominator and have no row.
    Negatives (rejection recall's denominator) are those of the ROC curve: the
    retrieved non-relevant documents, or with ``-N`` the collection's.
    """
    from ...engine.pipeline import map_batches

    opts = curve_options(options)
    ctx = replace(opts.context, keep_scores=True)  # the join carries each document's score
    res = map_batches(lambda b: (list(b.qids), batch_table(b)), qrels, run, opts, ctx)
    shown = _shown_topics(res, topics)
    rows = {q: r for qids, tables in res.results for q, r in zip(qids, tables) if q in shown}
    return ThresholdTable([q for q in res.topics if q in shown], rows, res.runid)


def compute_curves(qrels, run, curve: str | CurveSpec = "pr", *, levels: int = DEFAULT_LEVELS,
                   topics: Iterable[str] | None = None, **options) -> Curves:
    """The ``curve`` of ``run`` against ``qrels``, per topic and averaged.

    ``qrels`` and ``run`` are anything :func:`~trec_eval_py.evaluate` accepts.
    ``curve`` is ``pr``, ``ipr``, ``roc``, ``croc_{exp,pow,log}[.alpha]``, ``proc``,
    ``ac``, ``cac_{exp,pow,log}[.alpha]`` or ``pac``.
    ``levels`` (>= 2) is the number of evenly spaced x levels of the average.
    ``topics`` keeps only these topics' points (the average still covers all).
    Other keywords are :class:`~trec_eval_py.engine.pipeline.Options` fields
    (``relevance_level``, ``num_docs_in_coll``, ``max_docs``, ``judged_only``,
    ``complete``, ``compat``, ``order``, ``results_format``...).
    """
    from ...engine.pipeline import map_batches

    spec = curve if isinstance(curve, CurveSpec) else parse_curve(curve)
    if levels < 2:
        raise UsageError(f"need at least 2 levels for an average (got {levels})")
    opts = curve_options(options)
    xs = _levels(levels)

    def per_batch(b):
        return (list(b.qids), batch_points(b, spec), batch_bounds(b, spec), batch_levels(b, spec, xs),
                batch_bound_levels(b, spec, xs))

    res = map_batches(per_batch, qrels, run, opts)
    _shown_topics(res, topics)  # no topic evaluated, or an unknown --topic: an error
    wanted = None if topics is None else list(topics)
    points: dict[str, np.ndarray] = {}
    bounds: dict[str, tuple[np.ndarray, np.ndarray]] | None = {} if spec.rank_view else None
    level_rows, bound_rows = [], []
    for qids, pts, bb, ys, by in res.results:
        for i, (qid, p) in enumerate(zip(qids, pts)):
            if wanted is None or qid in wanted:
                points[qid] = p
                if bb is not None:
                    assert bounds is not None  # both for the rank views only
                    bounds[qid] = bb[i]
        if ys is not None:
            level_rows.append(ys)
        if by is not None:
            bound_rows.append(by)
    average = None
    if level_rows:
        ys = res.reorder(np.concatenate(level_rows, axis=0))
        # topics added one at a time in topic order, as the measures' summaries are
        mean = np.cumsum(ys, axis=0)[-1] / ys.shape[0]
        average = np.column_stack([xs, mean])
    average_bounds = None
    if bound_rows:
        by = res.reorder(np.concatenate(bound_rows, axis=0))
        mean = np.cumsum(by, axis=0)[-1] / by.shape[0]
        average_bounds = np.column_stack([xs, mean[0], mean[1]])
    shown = [q for q in res.topics if q in points]
    return Curves(spec, shown, points, average, res.runid, bounds, average_bounds)


__all__ = ["CURVES", "CurveKind", "KINDS", "curve_names", "curve_help", "TABLE_COLUMNS", "CurveSpec", "Curves",
           "ThresholdTable", "parse_curve", "compute_curves",
           "compute_table", "batch_table", "batch_points", "batch_levels",
           "batch_bounds", "batch_bound_levels"]
