"""Judgments and runs given as pandas DataFrames.

A DataFrame is read by its column names, in any order, whatever else it
holds. The names used by trec_eval_py's own output, ir_measures, ranx and
PyTerrier are all recognised:

* topic: ``query_id`` (ir_measures), ``qid`` (PyTerrier), ``q_id`` (ranx), ``topic``
* document: ``doc_id`` (ir_measures, ranx), ``docno`` (PyTerrier), ``docid``
* judgment level: ``relevance`` (ir_measures), ``rel``, ``label``, ``judgment``;
  ``score`` for judgments that have none of those (ranx's qrels)
* retrieval score: ``score``
* run id (optional, one value): ``run_id``, ``runid``, ``run``, ``name``

The rows become the pytrec_eval-style dict that the dict readers take, so the
same checks apply (types, NaN, ranges); a (topic, document) pair given twice
is an error naming the row, as a repeated line of a file is.
"""
from __future__ import annotations

from ...errors import InputError

TOPIC = ("query_id", "qid", "q_id", "topic", "topic_id")
DOCUMENT = ("doc_id", "docno", "docid")
LEVEL = ("relevance", "rel", "label", "judgment", "judgement")
SCORE = ("score",)
RUNID = ("run_id", "runid", "run", "name")


def is_frame(x) -> bool:
    """Whether ``x`` is a pandas DataFrame (pandas is imported only if it is in use)."""
    return type(x).__name__ == "DataFrame" and type(x).__module__.startswith("pandas")


def _column(df, names: tuple, what: str, name: str, required: bool = True):
    for n in names:
        if n in df.columns:
            return n
    if required:
        have = ", ".join(map(str, df.columns))
        raise InputError(name, f"no {what} column: expected one of {', '.join(names)} (columns: {have})")
    return None


def _ids(values) -> list:
    """Topic and document ids as text; whole-number floats (pandas' upcast ints) without '.0'."""
    out = []
    for v in values:
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        elif hasattr(v, "item") and not isinstance(v, (str, bytes)):
            v = v.item()  # numpy scalar
            if isinstance(v, float) and v.is_integer():
                v = int(v)
        out.append(v if isinstance(v, str) else str(v))
    return out


def _values(values) -> list:
    return [v.item() if hasattr(v, "item") else v for v in values]


def _nested(df, value_col: str, name: str, what: str) -> dict:
    qcol = _column(df, TOPIC, "topic", name)
    dcol = _column(df, DOCUMENT, "document", name)
    out: dict = {}
    rows = zip(_ids(df[qcol].tolist()), _ids(df[dcol].tolist()), _values(df[value_col].tolist()))
    for i, (q, d, v) in enumerate(rows):
        inner = out.setdefault(q, {})
        if d in inner:
            raise InputError(name, f"document {d!r} given twice for topic {q!r} ({what})", line=i + 1)
        inner[d] = v
    return out


def qrels_dict(df, name: str) -> dict:
    """``{topic: {docno: level}}`` from a judgments DataFrame."""
    level = _column(df, LEVEL, "relevance", name, required=False) or _column(df, SCORE + LEVEL, "relevance", name)
    return _nested(df, level, name, "judgments")


def run_dict(df, name: str) -> tuple[dict, str]:
    """``({topic: {docno: score}}, runid)`` from a run DataFrame."""
    score = _column(df, SCORE, "score", name)
    runid = ""
    rcol = _column(df, RUNID, "run id", name, required=False)
    if rcol is not None and len(df):
        ids = list(dict.fromkeys(str(v) for v in df[rcol].tolist()))
        if len(ids) > 1:
            raise InputError(name, f"{len(ids)} runs in one DataFrame ({', '.join(ids[:3])}...); "
                                   "evaluate them one at a time (or with batch)")
        runid = ids[0]
    return _nested(df, score, name, "results"), runid
