"""Inter-assessor agreement: how far two or more sets of relevance judgments agree.

Each *assessor* is one set of judgments: a judgments file (``-R qrels``), or
one judgment group of ``-R qrels_jg`` files (the second field names the
group; with several qrels_jg files a group is named ``file:group``). A group
is taken to be the same assessor on every topic it judges. Every file is read
by :func:`~trec_eval_py.engine.pipeline.read_judgments`, so a bad line is
reported with its file and line as the main command reports it, and a docno
judged twice in one topic (and group) is refused as the join refuses it.

What is compared
----------------
The unit is a (topic, docno) pair. A negative level means "in the pool, not
judged" (as trec_eval reads it) and counts as no judgment.

* documents judged by every assessor are *compared*: Cohen's kappa (two
  assessors), Fleiss' kappa and the confusion matrices are computed on them;
* Krippendorff's alpha, which is made for missing judgments, uses every
  document judged by at least two assessors (with two assessors that is the
  same set);
* documents judged by one assessor only cannot show agreement or
  disagreement: they are counted (``single`` in the summary and per topic)
  and left out of every statistic;
* a topic that only one assessor judged has nothing to compare: it is listed
  in the per-topic table with its counts and undefined statistics, and
  counted in the summary (``num_topics`` against ``num_topics_compared``).

Overall statistics pool every compared document of every topic (one table
for the whole collection); ``mean_topic_kappa`` (``mean_topic_fleiss``)
averages the per-topic values over the topics where they are defined.

The statistics
--------------
``agreement``
    observed proportion of compared documents on whose relevance (level at
    least ``-l``) the assessors agree.
``positive_agreement``
    two assessors: ``2a / (2a + b + c)`` with ``a`` documents both call
    relevant and ``b``, ``c`` those only one does (the specific agreement on
    relevant documents; relevant documents are rare, so ``agreement`` is
    high whatever happens to them).
``kappa``
    Cohen's kappa (Cohen, 1960) on relevance at ``-l``:
    ``(p_o - p_e) / (1 - p_e)`` with ``p_e`` from each assessor's own marginals.
``kappa_levels``, ``kappa_linear``, ``kappa_quadratic``
    Cohen's kappa on the levels themselves: unweighted (every level a
    category), and weighted (Cohen, 1968) with disagreement weights
    ``|x - y|`` and ``(x - y)**2`` between levels ``x`` and ``y``:
    ``1 - sum(w * observed) / sum(w * expected)``. The weights are the
    distances between the level values, so a scale 0, 1, 2 with no 1 used
    still counts a 0/2 disagreement as two steps (as scikit-learn's
    ``cohen_kappa_score`` does when given ``labels=range(lowest, highest + 1)``).
``fleiss_kappa``, ``fleiss_kappa_levels``
    Fleiss' kappa (Fleiss, 1971) for any number of assessors, on relevance at
    ``-l`` and on the levels, over the documents judged by every assessor.
``alpha_nominal``, ``alpha_ordinal``, ``alpha_interval``
    Krippendorff's alpha (Krippendorff, *Content Analysis*, 2004/2013) on the
    levels, from the coincidence matrix of the documents with two judgments
    or more: ``1 - D_o / D_e``. Nominal: levels differ or not; interval:
    squared difference of the levels; ordinal: the squared count of
    judgments between the two levels (``sum of n_g for g from c to k, minus
    (n_c + n_k) / 2``), so the distance depends on how often the levels in
    between are used.

Undefined values
----------------
When every compared judgment falls in one category (both assessors call
everything non-relevant, say), chance agreement is 1 and kappa is ``0 / 0``;
likewise Krippendorff's ``D_e`` is 0 when one value is used throughout. Such
statistics are returned as NaN (printed ``undefined``; JSON ``null``), never
as 1 or 0: agreement is then perfect but uninformative, which ``agreement``
(1.0) still shows. With nothing to compare (no document judged by all) every
statistic is NaN.
"""
from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np

from ..._record import record
from ...engine.parse.source import source_label
from ...errors import UsageError

#: level of a document an assessor did not judge
MISSING = np.iinfo(np.int64).min

#: what kappa-style statistics are weighted by
WEIGHTS = (None, "linear", "quadratic")
#: Krippendorff's alpha metrics
METRICS = ("nominal", "ordinal", "interval")
#: judgment formats whose judgments are levels (others carry preferences or codes)
FORMATS = ("qrels", "qrels_jg")
#: what the report can show
SECTIONS = ("summary", "confusion", "topics", "pairs", "disagreements")
#: formats the report is written in
#: --format (md is markdown's other spelling)
OUTPUT_FORMATS = ("text", "markdown", "csv", "json")


# ---------------------------------------------------------------- statistics

def confusion_matrix(a, b, levels) -> np.ndarray:
    """Counts of (``a[i]``, ``b[i]``) pairs: rows are ``levels`` of ``a``, columns of ``b``."""
    levels = np.asarray(levels)
    ia = np.searchsorted(levels, a)
    ib = np.searchsorted(levels, b)
    k = len(levels)
    return np.bincount(ia * k + ib, minlength=k * k).reshape(k, k)


def _weights(levels: np.ndarray, weights) -> np.ndarray:
    d = levels[:, None].astype(np.float64) - levels[None, :].astype(np.float64)
    if weights is None:
        return (d != 0).astype(np.float64)
    if weights == "linear":
        return np.abs(d)
    if weights == "quadratic":
        return d * d
    raise UsageError(f"unknown kappa weights {weights!r}; choose linear or quadratic")


def kappa_from_table(table, levels=None, weights=None) -> float:
    """Cohen's kappa of a square confusion ``table`` whose rows and columns are
    ``levels`` (needed when weighted): ``1 - sum(w * O) / sum(w * E)`` with
    disagreement weights ``w`` (0 on the diagonal; 1 off it, ``|x - y|`` or
    ``(x - y)**2``) and ``E`` the table expected from the marginals. NaN when
    the table is empty or the expected disagreement is 0 (see the module doc)."""
    t = np.asarray(table, dtype=np.float64)
    n = float(t.sum())
    if n == 0:
        return math.nan
    lv = np.arange(len(t)) if levels is None else np.asarray(levels)
    w = _weights(lv, weights)
    observed = float((w * t).sum())
    # expected disagreement times n: sum(w * rows * cols) / n, kept in counts
    expected = float(t.sum(axis=1) @ w @ t.sum(axis=0)) / n
    if expected == 0:
        return math.nan
    return 1.0 - observed / expected


def cohen_kappa(a, b, weights=None) -> float:
    """Cohen's kappa between the paired integer ratings ``a`` and ``b``:
    unweighted (``weights=None``), ``"linear"`` or ``"quadratic"`` (see
    :func:`kappa_from_table`; weighted levels run from the lowest to the
    highest level used, one step per integer)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    if len(a) != len(b):
        raise UsageError(f"ratings of different lengths ({len(a)} and {len(b)})")
    if len(a) == 0:
        return math.nan
    if weights is None:
        levels = np.union1d(a, b)
    else:
        lo, hi = int(min(a.min(), b.min())), int(max(a.max(), b.max()))
        levels = np.arange(lo, hi + 1)
    return kappa_from_table(confusion_matrix(a, b, levels), levels, weights)


def fleiss_kappa(counts) -> float:
    """Fleiss' kappa of a (documents x categories) table of how many assessors
    put each document in each category; every row must add up to the same
    number of assessors, at least two. NaN without documents or when chance
    agreement is 1."""
    c = np.asarray(counts, dtype=np.float64)
    if c.ndim != 2 or len(c) == 0:
        return math.nan
    m = c.sum(axis=1)
    if not np.all(m == m[0]) or m[0] < 2:
        raise UsageError("Fleiss' kappa needs the same number of assessors (two or more) for every document")
    m = float(m[0])
    n_docs = len(c)
    p = c.sum(axis=0) / (n_docs * m)
    p_doc = ((c * (c - 1)).sum(axis=1)) / (m * (m - 1))
    p_bar = float(p_doc.mean())
    p_e = float((p * p).sum())
    if p_e >= 1.0:
        return math.nan
    return (p_bar - p_e) / (1.0 - p_e)


def _distances(values: np.ndarray, n_c: np.ndarray, metric: str) -> np.ndarray:
    if metric == "nominal":
        return (values[:, None] != values[None, :]).astype(np.float64)
    if metric == "interval":
        d = values[:, None].astype(np.float64) - values[None, :].astype(np.float64)
        return d * d
    if metric == "ordinal":
        cum = np.cumsum(n_c)
        lo = np.minimum.outer(np.arange(len(values)), np.arange(len(values)))
        hi = np.maximum.outer(np.arange(len(values)), np.arange(len(values)))
        # judgments from level c up to level k, both included, less half of the two ends
        between = cum[hi] - cum[lo] + n_c[lo] - (n_c[lo] + n_c[hi]) / 2.0
        return between * between
    raise UsageError(f"unknown alpha metric {metric!r}; choose one of {', '.join(METRICS)}")


def krippendorff_alpha(ratings, metric: str = "nominal", missing=MISSING) -> float:
    """Krippendorff's alpha of a (documents x assessors) table of integer levels,
    ``missing`` where an assessor gave none. Documents with fewer than two
    levels are not pairable and drop out. NaN with fewer than two pairable
    levels or when the expected disagreement is 0 (one level used throughout)."""
    r = np.asarray(ratings, dtype=np.int64)
    if r.ndim != 2:
        raise UsageError("Krippendorff's alpha needs a (documents x assessors) table")
    judged = r != missing
    m = judged.sum(axis=1)
    keep = m >= 2
    r, judged, m = r[keep], judged[keep], m[keep]
    if len(r) == 0:
        return math.nan
    values = np.unique(r[judged])
    # per document, how many of its judgments have each value
    doc = np.repeat(np.arange(len(r)), judged.sum(axis=1))
    counts = np.zeros((len(r), len(values)))
    np.add.at(counts, (doc, np.searchsorted(values, r[judged])), 1.0)
    scaled = counts / (m - 1)[:, None]
    coincidence = scaled.T @ counts - np.diag(scaled.sum(axis=0))
    n_c = counts.sum(axis=0)
    n = float(n_c.sum())
    delta = _distances(values, n_c, metric)
    expected = float(n_c @ delta @ n_c)
    if n < 2 or expected == 0:
        return math.nan
    return 1.0 - (n - 1.0) * float((coincidence * delta).sum()) / expected


def category_counts(ratings, categories, missing=MISSING) -> np.ndarray:
    """(documents x categories) counts of the non-missing ``ratings`` in each category."""
    r = np.asarray(ratings, dtype=np.int64)
    categories = np.asarray(categories)
    out = np.zeros((len(r), len(categories)), dtype=np.int64)
    for j in range(r.shape[1]):
        col = r[:, j]
        ok = col != missing
        np.add.at(out, (np.flatnonzero(ok), np.searchsorted(categories, col[ok])), 1)
    return out


# ---------------------------------------------------------------- judgments

@record
class Assessor:
    """One set of judgments: its short ``label`` (A, B, ...) and where it comes from."""

    label: str
    name: str
    judgments: int  # documents judged (levels >= 0)


def _labels(n: int) -> list[str]:
    out = []
    for i in range(n):
        s, k = "", i
        while True:
            s = chr(ord("A") + k % 26) + s
            k = k // 26 - 1
            if k < 0:
                break
        out.append(s)
    return out


def _assessor_rows(sources, rel_format: str):
    """``[(name, qid, docno, rel)]`` per assessor, each file read by the pipeline's reader
    and checked for a docno judged twice as the join checks it."""
    from ...engine.join.keys import check_duplicates
    from ...engine.pipeline import Options, read_judgments

    if rel_format not in FORMATS:
        raise UsageError(f"agreement compares judgment levels: '-R {rel_format}' is not read; "
                         f"use one of {', '.join('-R ' + f for f in FORMATS)}")
    opts = Options(rel_format=rel_format)
    out = []
    parsed = [read_judgments(s, opts) for s in sources]
    for i, (src, q) in enumerate(zip(sources, parsed)):
        name = source_label(src, i, "judgments")
        if rel_format == "qrels":
            _, t = np.unique(q.qid, return_inverse=True)
            _, d = np.unique(q.docno, return_inverse=True)
            check_duplicates(t.astype(np.int64) * (int(d.max()) + 1) + d, q.lineno, q.docno, q.name)
            out.append((name, q.qid, q.docno, q.rel))
            continue
        _, t = np.unique(q.qid, return_inverse=True)
        groups, g = np.unique(q.jg, return_inverse=True)
        _, d = np.unique(q.docno, return_inverse=True)
        nd, ng = int(d.max()) + 1, len(groups)
        check_duplicates((t.astype(np.int64) * ng + g) * nd + d, q.lineno, q.docno, q.name,
                         "topic and judgment group")
        for k, gname in enumerate(groups.tolist()):
            rows = g == k
            gtext = gname.decode("utf-8", "surrogateescape")
            out.append((gtext if len(parsed) == 1 else f"{name}:{gtext}", q.qid[rows], q.docno[rows], q.rel[rows]))
    if len(out) < 2:
        what = "judgment groups" if rel_format == "qrels_jg" else "judgment files"
        raise UsageError(f"agreement needs two assessors or more; found {len(out)} ({what})")
    return out


def _text(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


@record(frozen=False)
class Agreement:
    """The judgments of several assessors, aligned by document.

    ``levels[u, k]`` is assessor ``k``'s level for unit ``u`` (the topic
    ``topics[unit_topic[u]]`` and docno ``unit_docno[u]``), :data:`MISSING`
    when it did not judge it. Units are in byte order of topic, then docno.
    The statistics are methods (see the module doc for what each means).
    """

    assessors: list[Assessor]
    relevance_level: int
    topics: list[str]
    unit_topic: np.ndarray
    unit_docno: np.ndarray
    levels: np.ndarray

    # ---- which units
    @property
    def judged(self) -> np.ndarray:
        return self.levels != MISSING

    @property
    def num_judges(self) -> np.ndarray:
        """Assessors who judged each unit."""
        return self.judged.sum(axis=1)

    @property
    def compared(self) -> np.ndarray:
        """Units judged by every assessor."""
        return self.num_judges == len(self.assessors)

    @property
    def relevant(self) -> np.ndarray:
        """Judged relevant (level at least ``relevance_level``), per unit and assessor."""
        return self.judged & (self.levels >= self.relevance_level)

    # ---- statistics over a set of units
    def statistics(self, units=None) -> dict[str, float]:
        """The agreement statistics over ``units`` (a slice or boolean mask of the
        units; all by default), by name (see the module doc), as :meth:`summary`
        lists them."""
        ratings = self.levels if units is None else self.levels[units]
        lv = ratings[np.all(ratings != MISSING, axis=1)]  # the compared documents
        rel = (lv >= self.relevance_level).astype(np.int64)
        out: dict[str, float] = {}
        n = len(lv)
        out["agreement"] = float(np.count_nonzero(np.all(rel == rel[:, :1], axis=1))) / n if n else math.nan
        if len(self.assessors) == 2:
            a, b = rel[:, 0], rel[:, 1]
            both = int(np.count_nonzero(a & b))
            one = int(np.count_nonzero(a ^ b))
            out["positive_agreement"] = 2 * both / (2 * both + one) if both + one else math.nan
            out["kappa"] = cohen_kappa(a, b)
            out["kappa_levels"] = cohen_kappa(lv[:, 0], lv[:, 1])
            out["kappa_linear"] = cohen_kappa(lv[:, 0], lv[:, 1], "linear")
            out["kappa_quadratic"] = cohen_kappa(lv[:, 0], lv[:, 1], "quadratic")
        else:
            out["fleiss_kappa"] = fleiss_kappa(category_counts(rel, [0, 1]))
            out["fleiss_kappa_levels"] = fleiss_kappa(category_counts(lv, np.unique(lv)))
        for metric in METRICS:
            out[f"alpha_{metric}"] = krippendorff_alpha(ratings, metric)
        return out

    # ---- tables
    def _topic_slices(self):
        # units are in topic order: each topic's are one slice
        starts = np.searchsorted(self.unit_topic, np.arange(len(self.topics) + 1))
        for t in range(len(self.topics)):
            yield t, slice(int(starts[t]), int(starts[t + 1]))

    def per_topic(self) -> list[dict]:
        """One row per topic: how many documents were compared and left out, and
        the topic's own statistics (``kappa`` and ``kappa_linear`` for two
        assessors; ``fleiss_kappa`` and ``alpha_ordinal`` for more)."""
        labels = [a.label for a in self.assessors]
        rows = []
        judged_all, compared_all, relevant_all = self.judged, self.compared, self.relevant
        for t, mask in self._topic_slices():
            judged = judged_all[mask]
            comp = compared_all[mask]
            row: dict = {"topic": self.topics[t], "assessors": int(np.count_nonzero(judged.any(axis=0)))}
            row["compared"] = int(np.count_nonzero(comp))
            if len(labels) == 2:
                for k, lab in enumerate(labels):
                    row[f"only_{lab}"] = int(np.count_nonzero(judged[:, k] & ~comp))
                rel = relevant_all[mask][comp]
                for k, lab in enumerate(labels):
                    row[f"rel_{lab}"] = int(np.count_nonzero(rel[:, k]))
            else:
                nj = judged.sum(axis=1)
                row["pairable"] = int(np.count_nonzero(nj >= 2))
                row["single"] = int(np.count_nonzero(nj == 1))
            stats = self.statistics(mask)
            keys = ("agreement", "kappa", "kappa_linear") if len(labels) == 2 else \
                ("agreement", "fleiss_kappa", "alpha_ordinal")
            row.update({k: stats[k] for k in keys})
            rows.append(row)
        return rows

    def summary(self) -> list[tuple[str, object, str]]:
        """``(name, value, meaning)`` rows: the counts, then the pooled statistics."""
        labels = [a.label for a in self.assessors]
        nj = self.num_judges
        comp = self.compared
        topic_all = np.zeros(len(self.topics), dtype=bool)
        topic_all[np.unique(self.unit_topic[comp])] = True
        level = self.relevance_level
        many = len(labels) > 2
        rows: list[tuple[str, object, str]] = [
            ("num_topics", len(self.topics), "topics judged by any assessor"),
            ("num_topics_compared", int(topic_all.sum()),
             "topics with a document judged by every assessor"),
            ("num_compared", int(np.count_nonzero(comp)), "documents judged by every assessor (compared)"),
        ]
        if many:
            rows.append(("num_pairable", int(np.count_nonzero(nj >= 2)),
                         "documents judged by two assessors or more (Krippendorff's alpha)"))
        rows.append(("num_single", int(np.count_nonzero(nj == 1)),
                     "documents judged by one assessor only (left out)"))
        rel = self.relevant[comp]
        for k, lab in enumerate(labels):
            rows.append((f"num_rel_{lab}", int(np.count_nonzero(rel[:, k])),
                         f"compared documents {lab} judged relevant (level >= {level})"))
        stats = self.statistics()
        meaning = {
            "agreement": f"observed agreement on relevance (level >= {level})",
            "positive_agreement": "2a / (2a + b + c): agreement on the documents either calls relevant",
            "kappa": f"Cohen's kappa on relevance (level >= {level})",
            "kappa_levels": "Cohen's kappa, every level a category",
            "kappa_linear": "Cohen's weighted kappa, weights |x - y|",
            "kappa_quadratic": "Cohen's weighted kappa, weights (x - y)^2",
            "fleiss_kappa": f"Fleiss' kappa on relevance (level >= {level})",
            "fleiss_kappa_levels": "Fleiss' kappa, every level a category",
            "alpha_nominal": "Krippendorff's alpha, nominal levels",
            "alpha_ordinal": "Krippendorff's alpha, ordinal levels",
            "alpha_interval": "Krippendorff's alpha, interval levels",
        }
        rows += [(k, v, meaning[k]) for k, v in stats.items()]
        key = "fleiss_kappa" if many else "kappa"
        per = [r[key] for r in self.per_topic()]
        defined = [v for v in per if not math.isnan(v)]
        rows.append((f"mean_topic_{'fleiss' if many else 'kappa'}",
                     float(np.mean(defined)) if defined else math.nan,
                     f"mean of the per-topic {key} over the {len(defined)} topics where it is defined"))
        return rows

    def confusion(self) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
        """``(row assessor, column assessor, levels, counts)`` for every pair of
        assessors, over the documents both judged."""
        out = []
        for i in range(len(self.assessors)):
            for j in range(i + 1, len(self.assessors)):
                both = self.judged[:, i] & self.judged[:, j]
                a, b = self.levels[both, i], self.levels[both, j]
                levels = np.union1d(a, b)
                out.append((self.assessors[i].label, self.assessors[j].label, levels,
                            confusion_matrix(a, b, levels)))
        return out

    def pairs(self) -> list[dict]:
        """Cohen's kappa for every pair of assessors, over the documents both judged."""
        rows = []
        level = self.relevance_level
        for i in range(len(self.assessors)):
            for j in range(i + 1, len(self.assessors)):
                both = self.judged[:, i] & self.judged[:, j]
                a, b = self.levels[both, i], self.levels[both, j]
                ra, rb = (a >= level).astype(np.int64), (b >= level).astype(np.int64)
                rows.append({
                    "pair": f"{self.assessors[i].label}-{self.assessors[j].label}",
                    "compared": int(len(a)),
                    "agreement": float(np.mean(ra == rb)) if len(a) else math.nan,
                    "kappa": cohen_kappa(ra, rb),
                    "kappa_linear": cohen_kappa(a, b, "linear"),
                })
        return rows

    def disagreements(self, relevance_only: bool = False) -> list[dict]:
        """Documents judged by two assessors or more whose levels differ (with
        ``relevance_only``, whose relevance at ``-l`` differs): topic, docno,
        each assessor's level (None where not judged) and who judged it relevant."""
        labels = [a.label for a in self.assessors]
        judged = self.judged
        lv = np.where(judged, self.levels, 0)
        hi = np.where(judged, self.levels, np.iinfo(np.int64).min).max(axis=1)
        lo = np.where(judged, self.levels, np.iinfo(np.int64).max).min(axis=1)
        rel = self.relevant
        if relevance_only:
            differ = rel.any(axis=1) & (rel != judged).any(axis=1)
        else:
            differ = hi != lo
        rows = []
        for u in np.flatnonzero(differ & (self.num_judges >= 2)).tolist():
            row: dict = {"topic": self.topics[int(self.unit_topic[u])], "docno": _text(bytes(self.unit_docno[u]))}
            for k, lab in enumerate(labels):
                row[lab] = int(lv[u, k]) if judged[u, k] else None
            row["relevant"] = ",".join(lab for k, lab in enumerate(labels) if rel[u, k]) or "none"
            rows.append(row)
        return rows


def agreement(judgments: Sequence, *, rel_format: str = "qrels", relevance_level: int = 1) -> Agreement:
    """The agreement of the assessors in ``judgments`` (paths, ``-``, file
    objects, bytes, parsed judgments or, for ``-R qrels``, dicts
    ``{topic: {docno: level}}``), each read in ``rel_format`` (``qrels``: one
    assessor a file; ``qrels_jg``: one assessor a judgment group).

    Raises :class:`~trec_eval_py.errors.InputError` naming the file and line of
    a bad judgment, :class:`~trec_eval_py.errors.UsageError` for fewer than two
    assessors or a format without levels."""
    if isinstance(judgments, (str, bytes, os.PathLike)) or not isinstance(judgments, Sequence):
        raise UsageError("agreement takes a list of judgments, one per assessor (or qrels_jg files)")
    rows = _assessor_rows(list(judgments), rel_format)
    qid = np.concatenate([r[1] for r in rows])
    docno = np.concatenate([r[2] for r in rows])
    rel = np.concatenate([r[3] for r in rows])
    who = np.repeat(np.arange(len(rows)), [len(r[3]) for r in rows])
    keep = rel >= 0  # a negative level: pooled, not judged
    qid, docno, rel, who = qid[keep], docno[keep], rel[keep], who[keep]
    topics, t = np.unique(qid, return_inverse=True)
    docs, d = np.unique(docno, return_inverse=True)
    units, u = np.unique(t.astype(np.int64) * max(len(docs), 1) + d, return_inverse=True)
    levels = np.full((len(units), len(rows)), MISSING, dtype=np.int64)
    levels[u.reshape(-1), who] = rel
    labels = _labels(len(rows))
    assessors = [Assessor(lab, r[0], int(np.count_nonzero(who == k))) for k, (lab, r) in enumerate(zip(labels, rows))]
    return Agreement(assessors, int(relevance_level), [_text(x) for x in topics.tolist()],
                     units // max(len(docs), 1), docs[units % max(len(docs), 1)], levels)


# ---------------------------------------------------------------- output

def _json_value(v):
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


def render_agreement(report: Agreement, fmt: str = "text", show: Sequence[str] | None = None,
                     *, relevance_only: bool = False) -> str:
    """``report`` as text, md, csv or json: the sections ``show`` (default:
    summary, confusion, topics, and pairs when there are more than two
    assessors). csv holds one table, so it takes exactly one section."""
    from ...output.table import canonical, check_format, check_sections, json_text

    fmt = canonical(check_format(fmt, OUTPUT_FORMATS))
    many = len(report.assessors) > 2
    show = check_sections(show, SECTIONS, fmt, ["summary", "confusion", "topics"] + (["pairs"] if many else []))

    # every section as (title, header, rows of values)
    tables: list[tuple[str, list[str], list[list]]] = []
    doc: dict = {"assessors": [{"label": a.label, "name": a.name, "judgments": a.judgments} for a in report.assessors],
                 "relevance_level": report.relevance_level}
    if fmt != "csv":
        tables.append(("assessors", ["assessor", "judgments", "source"],
                       [[a.label, a.judgments, a.name] for a in report.assessors]))
    for section in show:
        if section == "summary":
            stats = report.summary()
            doc["summary"] = {k: _json_value(v) for k, v, _ in stats}
            tables.append(("summary", ["statistic", "value", "meaning"], [list(r) for r in stats]))
        elif section == "confusion":
            pairs = report.confusion()
            doc["confusion"] = [{"rows": ra, "columns": rb, "levels": lv.tolist(), "counts": c.tolist()}
                                for ra, rb, lv, c in pairs]
            if fmt == "csv":
                tables.append(("confusion", ["rows", "columns", "row_level", "column_level", "count"],
                               [[ra, rb, int(x), int(y), int(c[i, j])] for ra, rb, lv, c in pairs
                                for i, x in enumerate(lv.tolist()) for j, y in enumerate(lv.tolist())]))
            for ra, rb, lv, c in pairs if fmt != "csv" else ():
                header = [f"{ra} \\ {rb}"] + [str(x) for x in lv.tolist()] + ["total"]
                body = [[str(x)] + c[i].tolist() + [int(c[i].sum())] for i, x in enumerate(lv.tolist())]
                body.append(["total"] + c.sum(axis=0).tolist() + [int(c.sum())])
                tables.append((f"confusion: levels of {ra} (rows) and {rb} (columns)", header, body))
        elif section in ("topics", "pairs", "disagreements"):
            rows = (report.per_topic() if section == "topics" else report.pairs() if section == "pairs"
                    else report.disagreements(relevance_only))
            doc[section] = [{k: _json_value(v) for k, v in r.items()} for r in rows]
            header = list(rows[0]) if rows else (["topic", "docno"] + [a.label for a in report.assessors]
                                                 + ["relevant"] if section == "disagreements" else [])
            tables.append((section, header, [list(r.values()) for r in rows]))
    if fmt == "json":
        return json_text(doc, indent=1)
    from ...output.table import render_sections

    return render_sections(tables, fmt, missing="-", nan="undefined")



__all__ = ["Agreement", "Assessor", "agreement", "category_counts", "cohen_kappa", "confusion_matrix",
           "fleiss_kappa", "kappa_from_table", "krippendorff_alpha", "render_agreement", "MISSING",
           "SECTIONS", "OUTPUT_FORMATS"]
