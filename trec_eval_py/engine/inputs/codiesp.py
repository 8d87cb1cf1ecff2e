"""``-R codiesp`` and ``-T codiesp``: the CodiEsp-D and CodiEsp-P ranking
sub-tracks (CLEF eHealth 2020), evaluated by MAP as the campaign did.

Both files are tab-separated, two fields a line: clinical case id, code.
In a predictions file the lines of a case, in file order, *are* its ranking
(first line = rank 1); a gold standard file lists the case's correct codes.

The campaign's script (TeMU-BSC/codiesp-evaluation-script,
``codiespD_P_evaluation.py``, which hands the ranking to trectools 0.0.42's
``get_map(trec_eval=False)``) decides everything below:

* codes are compared in lower case on both sides (see :mod:`._codiesp`);
* a code predicted twice for a case counts at its first position; a gold
  code listed twice (one line per text reference) is one relevant code;
* with ``--valid-codes`` a predicted code that is not listed is dropped
  before ranks are counted (the next code moves up); gold codes are never
  filtered;
* only the first 1000 remaining codes of a case count (trectools' depth),
  unless ``-M`` says otherwise;
* a case's average precision divides by its number of distinct gold codes;
  MAP averages over the gold cases that have at least one valid prediction,
  which is trec_eval's rule without ``-c``. ``-c`` averages over every case
  of the gold standard instead (a case without predictions scores 0).

Where the script differs and we do not follow it: it would count a
predicted case absent from the gold standard in MAP's divisor (with AP 0).
The campaign evaluated the test set only (its page: predictions for the
background set are not evaluated), so such cases are left out, as trec_eval
leaves out topics without judgments.
"""
from __future__ import annotations

import numpy as np

from ..._record import replace
from ..join.keys import distinct_sorted
from ..join.qrels import build_rankings
from ..parse.codiesp import case_positions, check_id, normalise_code, runid_of, tsv_lines, valid_codes
from ..parse.qrels import Qrels
from ..parse.run import Run
from ._base import JudgmentFormat, ResultsFormat

#: trectools' evaluation depth: the codes of a case after the first 1000 do not count
DEPTH = 1000

_FIELDS = ("clinical case", "code")


def _rows(source, name: str | None, what: str):
    name, lines = tsv_lines(source, name, _FIELDS, what)
    seen: set[tuple[bytes, bytes]] = set()
    cases, codes, linenos = [], [], []
    for i, text, (case, code) in lines:
        case = check_id(case, "clinical case id", name, i, text)
        code = normalise_code(code, name, i, text)
        if (case, code) in seen:  # the first line of a repeated code is the one that counts
            continue
        seen.add((case, code))
        cases.append(case)
        codes.append(code)
        linenos.append(i)
    return name, cases, codes, np.array(linenos, dtype=np.int64)


def read_gold(source, *, name: str | None = None) -> Qrels:
    """A CodiEsp-D/P gold standard as judgments: every distinct (case, code) relevant (level 1)."""
    if isinstance(source, Qrels):
        return source
    name, cases, codes, lineno = _rows(source, name, "CodiEsp gold standard")
    return Qrels(np.array(cases, dtype="S"), np.array(codes, dtype="S"),
                 np.ones(len(codes), dtype=np.int64), lineno, name)


def read_predictions(source, *, name: str | None = None, rank_column: bool = False) -> Run:
    """CodiEsp-D/P predictions as a run: each case's codes in file order, duplicates
    dropped. The score of a code is minus its position in its case, so every
    ``--order`` (score, rank, file) ranks the codes as the file lists them."""
    if isinstance(source, Run):
        return source
    name, cases, codes, lineno = _rows(source, name, "CodiEsp predictions")
    pos = np.array(case_positions(cases), dtype=np.float64)
    return Run(np.array(cases, dtype="S"), np.array(codes, dtype="S"), -pos, lineno,
               runid_of(name), name, pos if rank_column else None)


def keep_valid(run: Run, ctx) -> Run:
    """``run`` without the codes that are not in ``--valid-codes`` (when it was given)."""
    codes = valid_codes(ctx.valid_codes)
    if codes is None or len(run) == 0:
        return run
    keep = np.fromiter((c in codes for c in run.docno.tolist()), dtype=bool, count=len(run))
    if keep.all():
        return run
    return replace(run, qid=run.qid[keep], docno=run.docno[keep], score=run.score[keep],
                   lineno=run.lineno[keep], rank=None if run.rank is None else run.rank[keep])


def _join(gold: Qrels, run: Run, ctx):
    run = keep_valid(run, ctx)
    if ctx.max_docs is None:
        ctx = replace(ctx, max_docs=DEPTH)
    return build_rankings(gold, run, ctx)


def _totals(gold: Qrels) -> tuple[int, int]:
    return len(distinct_sorted(gold.qid)), len(gold.rel)


_HELP_COMMON = """\
Codes are compared in lower case; a code listed twice for a case counts
once (in predictions, at its first position). Blank lines are skipped.
"""

CODIESP = JudgmentFormat(
    name="codiesp",
    help="""\
Judgments format 'codiesp' (-R codiesp): a CodiEsp-D or CodiEsp-P gold
standard, two tab-separated fields a line,
    clinical_case  code
every listed code being correct for the case. Use with -T codiesp and
-m map: MAP as the campaign computed it. --valid-codes FILE (the campaign's
list of codes, first tab-separated field) drops predicted codes not in the
list before ranks are counted; gold codes are never filtered. Only the first
1000 codes of a case count unless -M says otherwise. MAP averages over the
gold cases with at least one valid prediction (the campaign's script); -c
averages over every gold case. Predicted cases absent from the gold
standard are not evaluated.
""" + _HELP_COMMON,
    read=read_gold,
    join=_join,
    totals=_totals,
    feeds="qrels",
    options=frozenset({"valid_codes"}),
)

CODIESP_RESULTS = ResultsFormat(
    name="codiesp",
    help="""\
Results format 'codiesp' (-T codiesp): CodiEsp-D or CodiEsp-P predictions,
two tab-separated fields a line,
    clinical_case  code
A case's lines, in file order, are its ranking: the first is rank 1. The
run id printed is the file's name without its extension. Only with
-R codiesp (a TREC run of codes, with scores, is read by -R codiesp with the
default -T trec_results).
""" + _HELP_COMMON,
    read=read_predictions,
    requires="codiesp",
)
