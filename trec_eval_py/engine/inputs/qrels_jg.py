"""``-R qrels_jg``: qrels with judgment groups (see
:mod:`trec_eval_py.engine.parse.qrels_jg` and :mod:`trec_eval_py.engine.join.qrels_jg`)."""
from __future__ import annotations

import numpy as np

from ..join.qrels_jg import build_qrels_jg
from ..parse.qrels_jg import QrelsJG, read_qrels_jg
from ._base import JudgmentFormat


def _totals(q: QrelsJG) -> tuple[int, int]:
    return len(np.unique(q.qid)), 0


QRELS_JG = JudgmentFormat(
    name="qrels_jg",
    default_measures=('qrels_jg',),
    help="""\
Judgments format 'qrels_jg' (-R qrels_jg): qrels with judgment groups,
    qid  jg  docno  rel
like an ordinary qrels file except that the second field names a judgment
group (for instance one assessor). Each group is a separate, complete set of
judgments of the topic: rel is an integer level (relevant when at least -l;
negative means pooled but not judged), and a docno may appear once per
group. The *_avgjg measures score the ranking against every group of a topic
and average over its groups. Lines whose first non-blank character is '#'
are comments.
Use with -m qrels_jg (map_avgjg, P_avgjg, Rprec_mult_avgjg).
""",
    read=read_qrels_jg,
    join=build_qrels_jg,
    totals=_totals,
)
