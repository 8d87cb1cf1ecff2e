"""A drop-in for ``pytrec_eval.RelevanceEvaluator``.

Scripts written for pytrec_eval switch by changing one import::

    from trec_eval_py import RelevanceEvaluator          # was: from pytrec_eval import ...
    import trec_eval_py.compat.pytrec_eval as pytrec_eval     # or the whole module

The constructor, :meth:`RelevanceEvaluator.evaluate`, the accepted measure
names and the shape of the results are pytrec_eval's (it wraps trec_eval
9.0.8, so values follow 9.0.8's arithmetic):

* measures are names or nicknames (``official``, ``all_trec``, ``set``...);
  a bare family name takes trec_eval's default parameters (``P`` gives
  ``P_5`` ... ``P_1000``), and ``P.5,10``, ``P_5`` or ``ndcg_cut.10`` choose
  them. Parameters given for one measure in several entries are merged (as
  text, so they come out sorted as text) and replace the defaults.
* results are ``{topic: {name: float}}``, topics in the run's order, only
  those with judgments; names are the printed output names for cutoff
  families (``P_5``, ``iprec_at_recall_0.10``) and the bare measure name
  otherwise (``utility``, ``ndcg``). Every value is a float, counts included.
* per topic, ``num_q`` is 1, ``runid`` and ``relstring`` are 0, and the
  geometric-mean measures (``gm_map``, ``gm_bpref``) hold the log of the
  topic's value floored at 0.00001, as trec_eval stores them before taking
  the mean.
* topics whose judgment dict is empty are dropped; run topics without
  judgments are skipped.

Three deliberate differences: a run topic given with no documents is evaluated
as an empty ranking (as trec_eval does under ``-c``), where pytrec_eval's
result is not defined (it varies with the order of topics and can crash);
``runid`` is 0.0, where pytrec_eval returns whatever memory holds; and
``evaluate(None)`` (or anything but a dict) is a ``TypeError``, where
pytrec_eval returns ``{}`` without a word. With no measures, ``evaluate``
gives ``{topic: {}}`` for the topics evaluated, as pytrec_eval does.
Measures this package has beyond trec_eval's can be asked for by name too.
"""
from __future__ import annotations

import math
import numbers
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from .. import __version__ as _package_version
from .._versions import DEFAULT_COMPAT
from ..engine.aggregate import MIN_GEO_MEAN
from ..engine.measures import Agg, FloatCutoffs, IntCutoffs, Kind, registry
from ..engine.parse import Qrels, Run
from ..engine.parse import python as pyin
from ..engine.parse.python import row_numbers
from ..errors import NoTopicsError

#: this package's version; tools that drive pytrec_eval (ir_measures) look for one
__version__ = _package_version

_QRELS_NAME = "<query_relevance>"
_RUN_NAME = "<run dict>"  # (what the engine names a run dict)

COMPAT = DEFAULT_COMPAT
_TREC_NICKNAMES = ("official", "set", "all_trec", "all_prefs", "prefs", "qrels_jg")
#: a measure name followed by '.' or '_' and numeric parameters (``P_5``, ``ndcg_cut.5,10``)
_PARAM_SUFFIX = r"[._](\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?)*)"


def _supported_measures() -> set[str]:
    return {m.name for m in registry().nickname_members("all_trec", COMPAT)}


def _supported_nicknames() -> dict[str, set[str]]:
    reg = registry()
    return {n: {m.name for m in reg.nickname_members(n, COMPAT)} for n in _TREC_NICKNAMES if n in reg.nicknames}


#: trec_eval's measures (its ``all_trec`` list), as pytrec_eval lists them
supported_measures = _supported_measures()
#: nickname -> measure names
supported_nicknames = _supported_nicknames()


def _known_nicknames() -> dict[str, set[str]]:
    reg = registry()
    return {n: {m.name for m in reg.nickname_members(n, COMPAT)} for n in reg.nicknames}


def _measure_specs(measures: Iterable[str]) -> list[str]:
    """pytrec_eval's measure list as ``-m`` specs: nicknames expanded, parameters merged."""
    if isinstance(measures, str):
        measures = [measures]
    reg = registry()
    nicknames = _known_nicknames()
    names: list[str] = []
    for m in measures:
        if not isinstance(m, str):
            raise TypeError(f"measure names must be strings, not {type(m).__name__}")
        names.extend(sorted(nicknames[m]) if m in nicknames and m not in reg else [m])
    params: dict[str, set[str]] = {}
    known = sorted((m.name for m in reg), key=len, reverse=True)
    for m in names:
        if m in reg:
            params.setdefault(m, set())
            continue
        for base in known:
            hit = re.match(re.escape(base) + _PARAM_SUFFIX, m)
            if hit:
                params.setdefault(base, set()).update(hit.group(1).split(","))
                break
        else:
            raise ValueError(f"unsupported measure {m}")
    return [f"{m}.{','.join(sorted(p))}" if p else m for m, p in params.items()]


def _check_str(x, what: str) -> None:
    if not isinstance(x, str):
        raise TypeError(f"expected a string as {what}, got {type(x).__name__} {x!r}")


class RelevanceEvaluator:
    """Evaluates runs against fixed relevance judgments, as pytrec_eval does.

    Parameters
    ----------
    query_relevance : ``{topic: {docno: level}}`` with integer levels.
    measures : measure names and nicknames (see the module documentation).
    relevance_level : lowest level that counts as relevant.
    judged_docs_only_flag : drop unjudged documents from every ranking first.
    """

    def __init__(self, query_relevance: Mapping[str, Mapping[str, int]], measures: Iterable[str],
                 relevance_level: int = 1, judged_docs_only_flag: bool = False):
        if not isinstance(query_relevance, Mapping):
            raise TypeError("query_relevance must be a dict {topic: {docno: level}}")
        # any integer type (numpy's included, as pandas and ir_measures hand them over), not bool
        if isinstance(relevance_level, bool) or not isinstance(relevance_level, numbers.Integral):
            raise TypeError("relevance_level must be an integer")
        self.relevance_level: int = int(relevance_level)
        self.judged_docs_only_flag: bool = bool(judged_docs_only_flag)
        self._specs: list[str] = _measure_specs(measures)
        selected = registry().resolve(self._specs, COMPAT, "qrels")
        self._outputs: list[tuple[str, str, Callable]] = []  # (column name, result key, per-topic transform)
        for s in selected:
            cut = isinstance(s.measure.params, (IntCutoffs, FloatCutoffs)) or len(s.names) > 1
            for name in s.names:
                self._outputs.append((name, name if cut else s.measure.name, _transform(s.measure)))
        self._qrels: Qrels | None = _qrels_from_dict(query_relevance)
        self._judged_topics: set[bytes] = set() if self._qrels is None else set(np.unique(self._qrels.qid).tolist())
        self._options: dict[str, object] = dict(relevance_level=self.relevance_level,
                                                judged_only=self.judged_docs_only_flag, compat=COMPAT)
        self._evaluator: Any = None  # the engine's evaluator of these judgments, made at the first run

    def evaluate(self, scores: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
        """``{topic: {measure: value}}`` for the run ``scores`` (``{topic: {docno: score}}``)."""
        if not isinstance(scores, Mapping):
            # pytrec_eval returns {} for None; a missing run is an error here
            raise TypeError(f"scores must be a dict {{topic: {{docno: score}}}}, not {type(scores).__name__}")
        if not scores:
            return {}
        topics, empty = pyin.run_topics(scores, _RUN_NAME)
        wanted = [t for t in topics if t.encode("utf-8", "surrogateescape") in self._judged_topics]
        if not wanted or self._qrels is None or not self._outputs:
            pyin.run_from_dict(scores, _RUN_NAME)  # nothing to measure, but every value is checked
            # no measure asked for: every evaluated topic, with no values
            return {t: {} for t in wanted} if wanted and self._qrels is not None else {}
        qrels = self._qrels
        # the dict itself is evaluated: a big one is read a piece of topics at a time
        run: Mapping | Run = scores
        if empty & set(wanted):
            # topics without documents: evaluate them as empty rankings (-c), over the run's topics only
            keep = np.isin(qrels.qid, np.array([t.encode() for t in wanted], dtype="S"))
            qrels = Qrels(qrels.qid[keep], qrels.docno[keep], qrels.rel[keep], qrels.lineno[keep], qrels.name)
            if len(empty) == len(topics):  # no documents at all
                qrels, run = _with_placeholder(qrels)
        try:
            if qrels is self._qrels and not empty:  # the usual case: judgments and measures resolved once
                if self._evaluator is None:
                    self._evaluator = _make_evaluator(qrels, self._specs, **self._options)
                ev = self._evaluator.evaluate(run)
            else:
                ev = _make_evaluator(qrels, self._specs, complete=bool(empty), **self._options).evaluate(run)
        except NoTopicsError:
            return {}
        index = {t: i for i, t in enumerate(ev.topics)}
        columns = [(ev.values[name], key, f) for name, key, f in self._outputs]
        out: dict[str, dict[str, float]] = {}
        for t in wanted:
            i = index.get(t)
            if i is not None:
                out[t] = {key: f(vals[i]) for vals, key, f in columns}
        return out


def _make_evaluator(qrels, specs, **options):
    from ..engine.pipeline import Evaluator

    return Evaluator(qrels, specs, **options)


#: a topic id no str can encode to (UTF-8 never has byte 0xff)
_PLACEHOLDER = b"\xff"


def _with_placeholder(qrels: Qrels) -> tuple[Qrels, Run]:
    """Add a one-document topic, so a run of empty topics only is still evaluated."""
    one = np.ones(1, dtype=np.int64)
    q = Qrels(np.concatenate([qrels.qid, [_PLACEHOLDER]]), np.concatenate([qrels.docno, [b"x"]]),
              np.concatenate([qrels.rel, one]), np.concatenate([qrels.lineno, one]), qrels.name)
    r = Run(np.array([_PLACEHOLDER]), np.array([b"x"]), np.ones(1), one, "", _RUN_NAME)
    return q, r


def _transform(measure):
    if measure.aggregate is Agg.NUM_Q:
        return lambda v: 1.0
    if measure.kind is Kind.STR or measure.aggregate is Agg.RUNID:
        return lambda v: 0.0
    if measure.aggregate is Agg.GMEAN:
        return lambda v: math.log(max(float(v), MIN_GEO_MEAN))
    return float


def _qrels_from_dict(qrels: Mapping) -> Qrels | None:
    # the engine's rule for dicts (types, NUL characters, ranges), keeping
    # pytrec_eval's tolerance of topics without judgments
    if not isinstance(qrels, Mapping):
        raise TypeError("query_relevance must be a dict {topic: {docno: level}}")
    q, d, r = pyin.qrels_from_dict(qrels, _QRELS_NAME)
    if not len(r):
        return None
    return Qrels(q, d, r, row_numbers(len(r)), _QRELS_NAME)


def _text(lines: Iterable, name: str):
    """Lines (str or bytes, with or without their newline) as one named text, a line
    each, for the pipeline's readers; None when no line holds anything."""
    import io

    out = []
    for line in lines:
        b = line if isinstance(line, bytes) else str(line).encode("utf-8", "surrogateescape")
        out.append(b[:-1] if b.endswith(b"\n") else b)
    if not any(b.strip() for b in out):
        return None
    text = io.BytesIO(b"\n".join(out) + b"\n")
    text.name = name
    return text


def _empty_qrels() -> Qrels:
    none = np.zeros(0, dtype=np.int64)
    return Qrels(np.zeros(0, "S1"), np.zeros(0, "S1"), none, none, _QRELS_NAME)


def _empty_run() -> Run:
    none = np.zeros(0, dtype=np.int64)
    return Run(np.zeros(0, "S1"), np.zeros(0, "S1"), np.zeros(0), none, "", _RUN_NAME)


def _decode(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def parse_qrel(lines: Iterable[str]) -> defaultdict[str, dict[str, int]]:
    """``{topic: {docno: level}}`` from qrels lines (``topic iter docno level``), read
    by the pipeline's qrels reader; a docno judged twice for a topic is the join's error."""
    from ..engine.inputs import judgment_format
    from ..engine.join import EvalContext
    from ..engine.pipeline import read_judgments

    out: defaultdict[str, dict[str, int]] = defaultdict(dict)  # pytrec_eval's type
    text = _text(lines, "<qrel lines>")
    if text is None:
        return out
    q = read_judgments(text, {"rel_format": "qrels"})
    judgment_format("qrels").join(q, _empty_run(), EvalContext())  # the join's duplicate check
    for topic, docno, level in zip(q.qid.tolist(), q.docno.tolist(), q.rel.tolist()):
        out[_decode(topic)][_decode(docno)] = int(level)
    return out


def parse_run(lines: Iterable[str]) -> defaultdict[str, dict[str, float]]:
    """``{topic: {docno: score}}`` from run lines (``topic iter docno rank score runid``),
    read by the pipeline's run reader; a docno listed twice for a topic is the join's error."""
    from ..engine.inputs import judgment_format
    from ..engine.join import EvalContext
    from ..engine.pipeline import read_results

    out: defaultdict[str, dict[str, float]] = defaultdict(dict)  # pytrec_eval's type
    text = _text(lines, "<run lines>")
    if text is None:
        return out
    r = read_results(text, {"results_format": "trec_results"})
    judgment_format("qrels").join(_empty_qrels(), r, EvalContext())  # the join's duplicate check
    for topic, docno, score in zip(r.qid.tolist(), r.docno.tolist(), r.score.tolist()):
        out[_decode(topic)][_decode(docno)] = float(score)
    return out


def compute_aggregated_measure(measure: str, values: list[float]) -> float:
    """Combine per-topic values of ``measure`` from :meth:`RelevanceEvaluator.evaluate`:
    counts (``num_*``) add up, ``gm_*`` values (logs) give a geometric mean,
    everything else an arithmetic mean."""
    if measure.startswith("num_"):
        return float(np.sum(values))
    if measure.startswith("gm_"):
        return float(np.exp(np.sum(values) / len(values)))
    return float(np.mean(values))
