"""Formatting stage: evaluation results to trec_eval's text layout.

Lines are ``"%-22s\\t%s\\t%6.4f\\n"`` for real values, whole numbers for
counts, and text for strings, exactly as trec_eval prints them.
"""
from __future__ import annotations

import math
from typing import Iterator

from .measures import Kind


def format_value(kind: Kind, value) -> str:
    if kind is Kind.FLOAT:
        if value != value:
            # C's printf keeps a NaN's sign ("-nan", as 0.0/0.0 gives on x86); Python's drops it
            return "%6s" % ("-nan" if math.copysign(1.0, value) < 0 else "nan")
        return "%6.4f" % value
    if kind is Kind.INT:
        return "%d" % int(value)
    return str(value)


def line(name: str, qid: str, kind: Kind, value, prefix: str = "") -> str:
    # a prefix (-Z's "Z") goes before the padded name, so it widens the field
    return "%s%-22s\t%s\t%s\n" % (prefix, name, qid, format_value(kind, value))


def trec_lines(result, *, query: bool, summary: bool) -> Iterator[str]:
    """The lines trec_eval would print for ``result`` (an :class:`Evaluation`)."""
    if query:
        cols = [c for c in result.columns if c.measure.per_topic]
        for t, qid in enumerate(result.topics):
            if not result.printable[t]:
                continue
            for c in cols:
                yield line(c.name, qid, c.kind, result.values[c.name][t], c.prefix)
    if summary:
        for c in result.columns:
            v = result.summary.get(c.name)
            if v is not None:
                yield line(c.name, "all", c.summary_kind, v, c.prefix)
