"""``-R qrels_diversity``: subtopic judgments, ``topic subtopic docno rel``
(TREC Web track 2009-2014, NIST's ndeval), for the intent-aware measures
(see :mod:`trec_eval_py.engine.parse.qrels_diversity` for the file and
:mod:`trec_eval_py.engine.join.diversity` for the join)."""
from __future__ import annotations

import numpy as np

from ..join.diversity import build_diversity
from ..join.keys import distinct_sorted
from ..parse.qrels_diversity import DiversityQrels, read_qrels_diversity
from ._base import JudgmentFormat


def _totals(q: DiversityQrels) -> tuple[int, int]:
    return len(distinct_sorted(q.qid)), int(np.count_nonzero(q.rel >= 1))


QRELS_DIVERSITY = JudgmentFormat(
    name="qrels_diversity",
    default_measures=('ndeval',),
    help="""\
Judgments format 'qrels_diversity' (-R qrels_diversity): subtopic (intent)
judgments as the TREC Web track's diversity task and NIST's ndeval use them,
one line per document and subtopic:
    topic  subtopic  docno  rel
subtopic is a whole number naming one intent of the topic; rel a whole
number, 0 or more: the document is relevant to that subtopic when rel is at
least -l (default 1). A subtopic counts only if some document is relevant to
it. A (topic, subtopic, docno) may be judged once. Lines whose first
non-blank character is '#' are comments. Equal scores in the run are ranked
by docno in descending byte order, scores compared as doubles; --order rank
ranks by the rank column, as ndeval does by default.
Use with the intent-aware measures (-m ndeval for all of them at ndeval's
cutoffs): alpha_nDCG, alpha_DCG, ERR_IA, nERR_IA, NRBP, nNRBP, MAP_IA, P_IA,
strec. 'trec_eval_py ndeval' prints ndeval's own report.
""",
    read=read_qrels_diversity,
    join=build_diversity,
    totals=_totals,
)
