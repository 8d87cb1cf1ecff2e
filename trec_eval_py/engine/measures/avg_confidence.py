"""Average confidence (``avg_confidence``): the mean score of the documents a
run returned for a topic, averaged over topics.

    avg_confidence = (1 / num_ret) * sum over the ranked documents of their score

BioCreative II.5 ranked systems by the AUC of the interpolated P/R curve
(``auc_ipr``), computed from the ranks alone; systems that performed equally
well by that measure were then ordered by their average confidence, higher
first: a system whose confidences are high where it ranks well can use them
as cut-offs or compare hits across articles. Reporting the mean beside
``auc_ipr`` lets two equal systems be ordered as the campaign did. With the
BioCreative results formats (``-T biocreative_*``) the score is the
confidence column, in ]0, 1]; for other runs it is the score column, whatever
its scale.

Edge cases: the scores are those of the documents evaluated, so ``-M`` and
``-J`` cut them as they cut the ranking. The sum runs in rank order. A topic
with no documents (``-c`` in 9.0.8, where it is never summed) scores 0; under
``--compat 10.0`` with ``-c`` it is measured on trec_eval 10.0's placeholder
ranking, one document scored 1, like every other measure.

Source: BioCreative II.5, "Result evaluation" (2009), section 3.2.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div


def _avg_confidence(b, p) -> np.ndarray:
    return safe_div(b.seq_sum(np.where(b.valid, b.scores, 0.0)), b.num_ret)


avg_confidence = Measure(
    name="avg_confidence",
    formula=r"\mathrm{avg\_confidence} = \frac{1}{n} \sum_{i=1}^{n} s_i\quad (0 \text{ if } n = 0)",
    help=(
        "Average confidence (BioCreative II.5): the mean score (a BioCreative file's "
        "confidence) of the documents returned for a topic; the campaign ordered systems "
        "with equal auc_ipr by it. Topics without documents score 0."
    ),
    kernel=_avg_confidence,
    nicknames=frozenset({"extra"}),
    since="extra",
    reads_scores=True,
)
