"""Geometric mean of bpref over topics (trec_eval ``gm_bpref``).

The per-topic value is :mod:`bpref`'s; topics are combined with a geometric
mean, each value first floored at 0.00001 so a zero does not swamp the
product. Only the summary line is printed, never per-topic values.

Source: trec_eval ``m_gm_bpref.c``.
"""
from __future__ import annotations

from ._base import Agg, Measure
from .bpref import bpref_values

gm_bpref = Measure(
    name="gm_bpref",
    formula=(
        r"\mathrm{gm\_bpref} = \exp\Bigl(\frac{1}{|Q|} \sum_{q \in Q} \ln "
        r"\max(\mathrm{bpref}_q,\ 10^{-5})\Bigr)"
    ),
    help=(
        "bpref combined over topics with a geometric mean (each topic floored at 0.00001), "
        "which rewards consistency across topics. Summary only."
    ),
    kernel=lambda b, p: b.memo(bpref_values),
    aggregate=Agg.GMEAN,
    per_topic=False,
    nicknames=frozenset({"all_trec"}),
)
