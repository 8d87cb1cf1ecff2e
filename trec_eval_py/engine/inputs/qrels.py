"""``-R qrels``: trec_eval's ordinary judgments, ``qid iter docno rel``."""
from __future__ import annotations

import numpy as np

from ..join.keys import distinct_sorted
from ..join.qrels import build_rankings
from ..parse.qrels import Qrels, read_qrels
from ._base import JudgmentFormat


def _totals(q: Qrels) -> tuple[int, int]:
    return len(distinct_sorted(q.qid)), int(np.count_nonzero(q.rel >= 1))


# the piecewise joins (a big run read in pieces, or regrouped by topic) are imported
# when a run is first read so: a run read whole, the common case, never needs them


def _stream(qrels: Qrels, pieces, ctx):
    from ..join.stream import stream_rankings

    return stream_rankings(qrels, pieces, ctx)


def _spill(qrels: Qrels, pieces, ctx, **options):
    from ..join.stream import spill_rankings

    return spill_rankings(qrels, pieces, ctx, **options)


QRELS = JudgmentFormat(
    name="qrels",
    help="""\
Judgments format 'qrels' (-R qrels, the default): one judged document a line,
    qid  iter  docno  rel
rel is an integer level: relevant when at least -l (default 1), judged not
relevant below that, and a negative level marks a document that was pooled
but not judged. iter is read and ignored. A docno may be judged once per
topic. Lines whose first non-blank character is '#' are comments. In Python
the judgments may also be a dict {qid: {docno: rel}}.
""",
    read=read_qrels,
    join=build_rankings,
    totals=_totals,
    stream=_stream,
    spill=_spill,
    dicts=True,
)
