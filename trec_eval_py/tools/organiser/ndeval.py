"""NIST ndeval's report: the TREC Web track's diversity evaluation (2009-2014),
with its risk-sensitive comparison against a baseline run (2013-2014).

:func:`ndeval_report` gives, byte for byte, the CSV that ndeval 4.5 prints
for valid input: a header, a row per topic (``runid,topic,`` then 21 values
``%.6f``) and an ``amean`` row. The values are this package's intent-aware
measures (:mod:`trec_eval_py.engine.measures._diversity`) computed through
the pipeline with ``-R qrels_diversity``: ERR-IA, nERR-IA, alpha-DCG and
alpha-nDCG at 5, 10 and 20, NRBP, nNRBP, MAP-IA, P-IA and strec at 5, 10
and 20. What this module adds is ndeval's view of its inputs and its report:

* **Topics are numbers.** A judgments topic is a whole number; a run topic
  may carry a task prefix ending in ``-`` (``wt09-1`` is topic 1). Topics
  are matched and listed by number, ascending.
* **Ranking.** By the rank column, lowest first (a rank twice in a topic is
  an error), or with ``traditional`` by score (doubles), ties by docno
  descending. ``depth`` (``-M``) keeps each topic's first documents; a docno
  twice among those kept is an error. The run's name is the sixth field of
  its first line.
* **Rows.** Every topic of the run is listed, a topic without judgments with
  zeros. Without a baseline the mean divides by the topics with both
  judgments and results, with ``complete`` (``-c``) by the topics of the
  judgments (the rows are still the run's topics).
* **Risk.** With a baseline each value becomes ``run - baseline`` where the run
  does at least as well, else ``(1 + risk_alpha) (run - baseline)``; a topic
  missing on one side counts 0 there. Rows are the run's topics (with
  ``complete``, the baseline's too); the mean divides by the number of rows
  when that is more than the usual divisor. The run's name becomes
  ``RUN (rel to. BASE; rs=1+a; a=RISK_ALPHA)``, the risk alpha as typed.

NaN prints as C prints the NaN that 0/0 gives (``-nan``): nNRBP of a topic
without relevant documents, and a mean over no topic.

Source: ndeval 4.5 (Mon 29 Apr 2013), NIST; K. Collins-Thompson, P. Bennett,
F. Diaz, C. L. A. Clarke, E. M. Voorhees, "TREC 2013 Web track overview"
(risk-sensitive evaluation).
"""
from __future__ import annotations

import math
import re

import numpy as np

from ..._record import record
from ...errors import InputError, NoTopicsError, UsageError

#: what ndeval 4.5's own version line says, for ``-version``
NDEVAL_VERSION = "4.5 (Mon 29 Apr 2013 20:51:02 EDT)"

CUTOFFS = (5, 10, 20)

#: the report's columns: (header label, measure, output name), in ndeval's order
COLUMNS = tuple(
    [(f"ERR-IA@{k}", "ERR_IA", f"ERR_IA_{k}") for k in CUTOFFS]
    + [(f"nERR-IA@{k}", "nERR_IA", f"nERR_IA_{k}") for k in CUTOFFS]
    + [(f"alpha-DCG@{k}", "alpha_DCG", f"alpha_DCG_{k}") for k in CUTOFFS]
    + [(f"alpha-nDCG@{k}", "alpha_nDCG", f"alpha_nDCG_{k}") for k in CUTOFFS]
    + [("NRBP", "NRBP", "NRBP"), ("nNRBP", "nNRBP", "nNRBP"), ("MAP-IA", "MAP_IA", "MAP_IA")]
    + [(f"P-IA@{k}", "P_IA", f"P_IA_{k}") for k in CUTOFFS]
    + [(f"strec@{k}", "strec", f"strec_{k}") for k in CUTOFFS]
)

#: ndeval reads a number digit by digit and gives up once it has passed 100000
#: before the next digit: the largest it accepts is 1000009
MAX_NUMBER = 1000009


@record
class NdevalSettings:
    """ndeval's options as values.

    alpha, beta : redundancy penalty and patience (``-alpha``, ``-beta``), 0 to 1
    traditional : rank by score, ties by docno descending (``-traditional``), not by rank
    depth : keep each topic's first ``depth`` documents (``-M``); None keeps all
    complete : average over every judged topic (``-c``)
    risk_alpha : weight of losses against the baseline, ``1 + risk_alpha`` (``-riskAlpha``)
    risk_alpha_text : the risk alpha as typed, for the run's name (ndeval prints it so)
    """

    alpha: float = 0.5
    beta: float = 0.5
    traditional: bool = False
    depth: int | None = None
    complete: bool = False
    risk_alpha: float = 0.0
    risk_alpha_text: str | None = None

    def __post_init__(self):
        for flag, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 <= v <= 1.0:
                raise UsageError(f"-{flag} must be from 0 to 1, not {v!r}")
        if not self.risk_alpha >= 0.0:
            raise UsageError(f"-riskAlpha must be 0 or more, not {self.risk_alpha!r}")
        if self.depth is not None and self.depth <= 0:
            raise UsageError(f"-M (documents per topic) must be above 0, not {self.depth!r}")

    @property
    def risk_label(self) -> str:
        return self.risk_alpha_text if self.risk_alpha_text is not None else _number_text(self.risk_alpha)


def _number_text(x: float) -> str:
    return repr(int(x)) if float(x).is_integer() else repr(float(x))


# ---- ndeval's reading of topics and ranks ----

def natural(text: bytes) -> int | None:
    """ndeval's whole number: digits only, at most :data:`MAX_NUMBER`; None otherwise."""
    if not text or not text.isdigit():
        return None
    return int(text) if int(text[:-1] or b"0") <= 100000 else None


def run_topic(text: bytes) -> int | None:
    """The topic number of a run's topic field: a number, or a prefix up to the first
    ``-`` and a number (``wt09-1``); None when it is neither."""
    if text[:1].isdigit():
        return natural(text)
    cut = text.find(b"-")
    return None if cut < 0 else natural(text[cut + 1:])


def _numbered(qid: np.ndarray, lineno: np.ndarray, name: str, read, what: str) -> np.ndarray:
    """Each row's topic as ndeval numbers it, written in decimal (S dtype)."""
    from ...engine.join.keys import codes_in, distinct_sorted

    distinct = distinct_sorted(qid)
    nums = [read(t) for t in distinct.tolist()]
    bad = [t for t, v in zip(distinct.tolist(), nums) if v is None]
    if bad:
        rows = np.flatnonzero(np.isin(qid, np.array(bad, dtype=qid.dtype)))
        i = rows[np.argmin(lineno[rows])]
        raise InputError(name, f"topic {qid[i].decode('utf-8', 'replace')!r} is not {what} "
                         f"(ndeval numbers topics, up to {MAX_NUMBER})", int(lineno[i]))
    canon = np.array([str(v).encode() for v in nums], dtype="S")
    return canon[codes_in(qid, distinct)]


def _check_range(values: np.ndarray, lineno: np.ndarray, name: str, what: str) -> None:
    bad = np.flatnonzero(values > MAX_NUMBER)
    if len(bad):
        i = bad[0]
        raise InputError(name, f"{what} {int(values[i])} is above {MAX_NUMBER}, the largest number ndeval reads",
                         int(lineno[i]))


def read_ndeval_qrels(qrels):
    """Subtopic judgments read by ``-R qrels_diversity``, their topics numbered as ndeval numbers them."""
    from ...engine.pipeline import Options, read_judgments

    q = read_judgments(qrels, Options(rel_format="qrels_diversity"))
    _check_range(q.subtopic, q.lineno, q.name, "subtopic")
    _check_range(q.rel, q.lineno, q.name, "relevance")
    # topics 01 and 1 are one topic: a judgment under both is judged twice (the join says so)
    q = q.with_qids(_numbered(q.qid, q.lineno, q.name, natural, "a whole number"))
    return q


def read_ndeval_run(run, settings: NdevalSettings):
    """A run read by the pipeline's reader with its rank column, topics numbered as ndeval
    numbers them; ranks checked as ndeval checks them."""
    from ...engine.parse.run import Run
    from ...engine.pipeline import Options, read_results

    r = read_results(run, Options(rel_format="qrels_diversity", order="rank"))
    rank = r.rank
    bad = np.flatnonzero((rank != np.floor(rank)) | (rank < 0) | (rank > MAX_NUMBER))
    if len(bad):
        i = bad[np.argmin(r.lineno[bad])]
        raise InputError(r.name, f"rank {float(rank[i])!r} is not a whole number from 0 to {MAX_NUMBER}",
                         int(r.lineno[i]))
    qid = _numbered(r.qid, r.lineno, r.name, run_topic, "a number, with or without a prefix ending in '-'")
    if not settings.traditional:  # ranks are the order: one document per rank
        from ...engine.join.keys import codes_in, distinct_sorted

        key = codes_in(qid, distinct_sorted(qid)) * (MAX_NUMBER + 1) + rank.astype(np.int64)
        # runs are written topic by topic, rank by rank: then the keys only rise
        if len(key) > 1 and not (key[1:] > key[:-1]).all():
            o = np.lexsort((r.lineno, key))
            same = key[o][1:] == key[o][:-1]
            if same.any():
                later = o[1:][same]
                i = later[np.argmin(r.lineno[later])]
                raise InputError(r.name, f"rank {int(rank[i])} is given twice for topic "
                                 f"{qid[i].decode()}", int(r.lineno[i]))
    runid = r.first_runid if r.first_runid is not None else r.runid
    return Run(qid, r.docno, r.score, r.lineno, runid, r.name, rank, runid)


# ---- the values and the report ----

def _specs(settings: NdevalSettings) -> list[str]:
    a, b = repr(float(settings.alpha)), repr(float(settings.beta))
    cut = ",".join(map(str, CUTOFFS))
    return [f"ERR_IA.{cut},alpha={a}", f"nERR_IA.{cut},alpha={a}", f"alpha_DCG.{cut},alpha={a}",
            f"alpha_nDCG.{cut},alpha={a}", f"NRBP.alpha={a},beta={b}", f"nNRBP.alpha={a},beta={b}",
            "MAP_IA", f"P_IA.{cut}", f"strec.{cut}"]


def topic_values(qrels, run, settings: NdevalSettings) -> dict[int, list[float]]:
    """``{topic: [the 21 values]}`` for the topics with judgments and results
    (``qrels`` and ``run`` as :func:`read_ndeval_qrels` and :func:`read_ndeval_run` give them)."""
    from ...engine.pipeline import evaluate

    try:
        ev = evaluate(qrels, run, _specs(settings), rel_format="qrels_diversity",
                      order="score" if settings.traditional else "rank", max_docs=settings.depth)
    except NoTopicsError:
        return {}
    by_name = dict(zip((c.name for c in ev.columns), ev.column_values))
    cols = [by_name[out] for _, _, out in COLUMNS]
    return {int(t): [float(c[i]) for c in cols] for i, t in enumerate(ev.topics)}


@record
class NdevalReport:
    """ndeval's report as values: ``rows`` are ``(topic, [21 values])`` in order,
    ``mean`` the ``amean`` row's values, ``runid`` the name on every row."""

    runid: str
    rows: list
    mean: list


def _risk(r: float, b: float, a: float) -> float:
    # as ndeval's macro: a NaN on either side fails the comparison and stays NaN
    return r - b if r >= b else (a + 1) * (r - b)


def _c_div(total: float, count: int) -> float:
    """``total / count`` with C's results for a count of 0."""
    if count:
        return total / count
    if total != total:
        return total
    if total == 0:
        return -math.nan  # C's 0.0/0.0: the NaN with its sign bit set
    return math.copysign(math.inf, total)


def build_report(qrels, run, baseline=None, settings: NdevalSettings | None = None) -> NdevalReport:
    """The report's values (see the module doc); inputs as paths, ``-``, bytes or file objects."""
    settings = settings or NdevalSettings()
    q = read_ndeval_qrels(qrels)
    r = read_ndeval_run(run, settings)
    b = read_ndeval_run(baseline, settings) if baseline is not None else None
    run_vals = topic_values(q, r, settings)
    evaluated = len(run_vals)
    zero = [0.0] * len(COLUMNS)
    run_topics = sorted({int(t) for t in np.unique(r.qid).tolist()})
    base_topics: list[int] = []
    base_vals: dict[int, list[float]] = {}
    if b is not None:
        base_vals = topic_values(q, b, settings)
        base_topics = sorted({int(t) for t in np.unique(b.qid).tolist()})
    a = settings.risk_alpha
    rows = []
    i = j = 0
    # ndeval's merge of the two topic lists: baseline-only topics are listed with -c only
    while i < len(run_topics) or (j < len(base_topics) and settings.complete):
        has_run, has_base = i < len(run_topics), j < len(base_topics)
        if has_run and has_base and run_topics[i] == base_topics[j]:
            topic, rv, bv = run_topics[i], run_vals.get(run_topics[i], zero), base_vals.get(base_topics[j], zero)
            i, j = i + 1, j + 1
        elif has_run and (not has_base or run_topics[i] < base_topics[j]):
            topic, rv, bv = run_topics[i], run_vals.get(run_topics[i], zero), zero
            i += 1
        else:
            topic, rv, bv = base_topics[j], zero, base_vals.get(base_topics[j], zero)
            j += 1
            if not settings.complete:
                continue
        rows.append((topic, [_risk(x, y, a) for x, y in zip(rv, bv)]))
    divisor = len({int(t) for t in np.unique(q.qid).tolist()}) if settings.complete else evaluated
    if b is not None:
        divisor = max(divisor, len(rows))
    totals = [0.0] * len(COLUMNS)
    for _, vals in rows:
        totals = [t + v for t, v in zip(totals, vals)]
    runid = r.runid if b is None else f"{r.runid} (rel to. {b.runid}; rs=1+a; a={settings.risk_label})"
    return NdevalReport(runid, rows, [_c_div(t, divisor) for t in totals])


def _fixed(x: float) -> str:
    """``%.6f`` as C's printf writes it (NaN as ``-nan`` or ``nan`` by its sign)."""
    if x != x:
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    return "%.6f" % x


def report_text(report: NdevalReport) -> str:
    """ndeval's CSV: a header, a row per topic, the ``amean`` row."""
    lines = [",".join(["runid", "topic"] + [label for label, _, _ in COLUMNS])]
    for topic, vals in report.rows:
        lines.append(",".join([report.runid, str(topic)] + [_fixed(v) for v in vals]))
    lines.append(",".join([report.runid, "amean"] + [_fixed(v) for v in report.mean]))
    return "\n".join(lines) + "\n"


def ndeval_report(qrels, run, baseline=None, **settings) -> str:
    """ndeval's report of ``run`` (against ``baseline``, if given) as text; ``settings``
    are the fields of :class:`NdevalSettings` (``alpha``, ``beta``, ``traditional``,
    ``depth``, ``complete``, ``risk_alpha``)."""
    return report_text(build_report(qrels, run, baseline, NdevalSettings(**settings)))


# ---- ndeval's option values ----

_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)", re.I)


def option_number(flag: str, text: str) -> float:
    """An option's value as a number (decimal, exponent allowed); UsageError otherwise."""
    if not _NUMBER.fullmatch(text.strip()):
        raise UsageError(f"{flag} takes a number, not {text!r}")
    return float(text)

