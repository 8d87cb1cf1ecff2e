"""Geometric mean average precision (trec_eval ``gm_map``).

Per topic this is average precision exactly as in :mod:`.map`; the summary
is the geometric mean over topics instead of the arithmetic mean, each value
first floored at 0.00001 so a topic scoring 0 does not make the mean 0. It
rewards runs that do reasonably on every topic over runs that do very well on
some and badly on others. Like trec_eval, only the summary is printed.
Source: trec_eval ``m_gm_map.c``; Robertson, "On GMAP" (CIKM 2006).
"""
from __future__ import annotations

from ._base import Agg, Measure
from .map import average_precision

gm_map = Measure(
    name="gm_map",
    formula=(
        r"\mathrm{gm\_map} = \exp\Bigl(\frac{1}{|Q|} \sum_{q \in Q} \ln "
        r"\max(\mathrm{AP}_q,\ 10^{-5})\Bigr)"
    ),
    help=(
        "Geometric mean of per-topic average precision, each floored at 0.00001 before "
        "averaging. Favours consistency across topics. Summary only."
    ),
    kernel=lambda b, p: b.memo(average_precision),
    aggregate=Agg.GMEAN,
    per_topic=False,
    nicknames=frozenset({"official", "all_trec"}),
)
