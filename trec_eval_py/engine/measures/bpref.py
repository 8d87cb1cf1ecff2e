"""Binary preference (trec_eval ``bpref``).

Built only from judged documents: a ranked document that is not in the qrels,
or is in them with a negative level (pooled but not judged), is skipped. For
each judged relevant document retrieved, count the judged non-relevant
documents ranked above it, capped at R (the number of relevant documents);
the document scores ``1 - capped / min(N, R)`` where N is the number of judged
non-relevant documents in the qrels, or 1 when nothing non-relevant is above
it. The topic's bpref is the sum of these scores divided by R; a topic with no
relevant documents scores 0. The summary is the arithmetic mean.

Source: trec_eval ``m_bpref.c``; Buckley and Voorhees, "Retrieval Evaluation
with Incomplete Information", SIGIR 2004.
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ._base import Measure, safe_div
from ._set_counts import judged_nonrel, judged_rel, num_rel


def bpref_values(b) -> np.ndarray:
    """Per-topic bpref, summed over the ranking in rank order."""
    R = num_rel(b)
    num_nonrel = b.num_nonrel
    kernels = _native.extension("kernels")
    if kernels is not None:
        # the same terms summed in one walk of each ranking (_kernels.c)
        sums = np.empty(b.n)
        kernels.bpref_sums(b.rel, b.width, b.num_ret, R, num_nonrel, b.level, sums)
        return safe_div(sums, R)
    rel = judged_rel(b)
    nonrel = judged_nonrel(b)
    nonrel_above = np.cumsum(nonrel, axis=1)  # equals the count above a relevant doc
    capped = np.minimum(nonrel_above, R[:, None]).astype(np.float64)
    denom = np.minimum(num_nonrel, R).astype(np.float64)[:, None]
    # at a relevant document, nonrel_above > 0 implies min(N, R) >= 1
    scored = rel & (nonrel_above > 0)
    frac = np.zeros_like(capped)
    np.divide(capped, np.broadcast_to(denom, capped.shape), out=frac, where=scored)
    terms = np.where(rel, np.where(scored, 1.0 - frac, 1.0), 0.0)
    return safe_div(b.seq_sum(terms), R)


bpref = Measure(
    name="bpref",
    formula=(
        r"\mathrm{bpref} = \frac{1}{R} \sum_{i:\, \mathrm{rel}_i = 1} \Bigl(1 - \frac{\min(\bar "
        r"r_{<i},\ R)}{\min(N,\ R)}\Bigr)\quad (\text{the term is } 1 \text{ when } \bar r_{<i} = 0;\ 0 "
        r"\text{ if } R = 0)"
    ),
    help=(
        "Binary preference over judged documents only (unjudged ones are skipped): for each "
        "relevant document retrieved, one minus the share of judged non-relevant documents "
        "ranked above it (counted up to R, divided by min(R, judged non-relevant)); summed and "
        "divided by R. 0 for topics without relevant documents. Buckley & Voorhees, SIGIR 2004."
    ),
    kernel=lambda b, p: b.memo(bpref_values),
    nicknames=frozenset({"official", "all_trec"}),
)
