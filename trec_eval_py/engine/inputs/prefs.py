"""``-R prefs`` and ``-R qrels_prefs``: preference judgments (see
:mod:`trec_eval_py.engine.parse.prefs` for the files and
:mod:`trec_eval_py.engine.join.prefs` for the join)."""
from __future__ import annotations

import numpy as np

from ..join.prefs import build_prefs
from ..parse.prefs import Prefs, read_prefs, read_qrels_prefs
from ._base import JudgmentFormat

_USE = "Use with the prefs_* measures (-m all_prefs or -m prefs).\n"


def _totals(p: Prefs) -> tuple[int, int]:
    return len(np.unique(p.qid)), 0


PREFS = JudgmentFormat(
    name="prefs",
    default_measures=('prefs',),
    help="""\
Judgments format 'prefs' (-R prefs): preference judgments, one line per
judged document of a judgment sub-group:
    qid  jg  jsg  docno  level
jg names a judgment group (one assessor, or one sitting of an assessor) and
jsg a sub-group within it. Inside a sub-group a document with a higher level
is preferred to each document with a lower level; equal levels say nothing.
Only the order of the levels matters, except that level 0 means "not
relevant" and a positive level "relevant". The sub-groups of a group are
combined (and preferences implied through a shared document are added), so
a group may give a partial order; it must not contradict itself. Different
groups may disagree with each other. Levels are decimal numbers. Lines whose
first non-blank character is '#' are comments. Equal scores in the run are
ranked by docno in ascending byte order for these measures.
""" + _USE,
    read=read_prefs,
    join=build_prefs,
    totals=_totals,
)

QRELS_PREFS = JudgmentFormat(
    name="qrels_prefs",
    default_measures=('prefs',),
    help="""\
Judgments format 'qrels_prefs' (-R qrels_prefs): an ordinary qrels file
    qid  iter  docno  rel
read as preference judgments: the iter field names the judgment group, the
whole group is one sub-group, and a document with a higher rel is preferred
to each document with a lower rel. rel 0 means "not relevant" and a positive
rel "relevant"; rel may be a decimal number. Lines whose first non-blank
character is '#' are comments. Equal scores in the run are ranked by docno in
ascending byte order for these measures.
""" + _USE,
    read=read_qrels_prefs,
    join=build_prefs,
    totals=_totals,
)
