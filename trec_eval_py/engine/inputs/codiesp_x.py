"""``-R codiesp_x`` and ``-T codiesp_x``: the CodiEsp-X sub-track (CLEF
eHealth 2020, explainable coding), evaluated by precision, recall and F1 of
(case, code) pairs whose text reference matches.

Gold standard: five tab-separated fields a line,
``clinical_case  label  code  reference_text  offsets``, where ``offsets`` is
``start end`` or, for a discontinuous reference, fragments joined by ``;``
(``start end;start end``). Predictions: four fields,
``clinical_case  offsets  label  code``. The label (DIAGNOSTICO,
PROCEDIMIENTO) and the reference text are read and not compared.

The rules, as the campaign's script (TeMU-BSC/codiesp-evaluation-script,
``codiespX_evaluation.py``) applies them:

* codes are compared in lower case (see :mod:`._codiesp`); with
  ``--valid-codes`` (the D and P lists, option given twice) predicted codes
  not listed are ignored;
* a reference spans from the start of its first fragment to the end of its
  last fragment;
* a predicted reference matches a gold one of the same case and code when it
  contains it with at most :data:`TOLERANCE` characters to spare at each end:
  ``0 <= gold start - predicted start <= 10`` and
  ``0 <= predicted end - gold end <= 10``;
* the unit counted is the (case, code) pair: a predicted pair is a true
  positive when one of its references matches one of the gold references of
  that code (a code with several gold references needs only one); a code
  predicted several times for a case is one predicted pair, and a gold code
  with several references one gold pair.

So, per case, true positives = pairs matched, retrieved = distinct predicted
pairs, relevant = distinct gold pairs: trec_eval's ``num_rel_ret``,
``num_ret`` and ``num_rel`` of the joined rankings, from which ``set_P``,
``set_recall`` and ``set_F`` are the per-case values and the ``codiesp_x``
measures (see :mod:`trec_eval_py.engine.measures.codiesp_x`) the campaign's
micro-averages. Every gold case counts (``-c`` is implied): a case without
predictions adds its gold codes to the recall's divisor, and a submission
that predicts nothing valid for any gold case scores 0 (precision, recall
and F1), as the script's counts give, instead of stopping with "no topic".

Where we go beyond the script: a predicted reference may also be
discontinuous (the script accepts only ``start end`` there); predicted cases
absent from the gold standard are not evaluated (the script would count
their codes as false positives; the campaign evaluated the test set only).
"""
from __future__ import annotations

import numpy as np

from ..._record import record
from ...errors import InputError, UsageError
from ..join.keys import distinct_sorted
from ..join.qrels import build_rankings
from ..parse.codiesp import check_id, normalise_code, runid_of, tsv_lines, valid_codes
from ..parse.qrels import Qrels
from ..parse.run import Run
from ._base import JudgmentFormat, ResultsFormat

#: characters a predicted reference may extend beyond the gold one at each end
TOLERANCE = 10

#: appended to the docno of a predicted code whose references match none of
#: the gold ones, so that it ranks as a document the gold standard does not list
#: (a code holds no blank, so the result names no real code)
UNMATCHED = b" (reference not matched)"


@record(eq=False)
class References:
    """Coded text references, one row per line: case, code (normalised), span."""

    case: list
    code: list
    start: list
    end: list
    lineno: list
    name: str
    runid: str = ""

    def __len__(self) -> int:
        return len(self.code)


def parse_offsets(raw: bytes, name: str, lineno: int, text: str) -> tuple[int, int]:
    """``(start, end)`` of ``start end`` or ``start end;start end;...``: the first
    fragment's start and the last fragment's end, whatever lies between (the
    campaign's rule, applied as its script does, without reordering fragments).
    Offsets are whole numbers, 0 or more; no fragment ends before it starts."""
    if not raw.strip():
        raise InputError(name, "empty offsets (expected 'start end')", lineno, text)
    spans = []
    for frag in raw.split(b";"):
        parts = frag.split(b" ")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InputError(name, f"bad offsets {raw.decode('utf-8', 'surrogateescape')!r} (expected "
                             "'start end' or 'start end;start end', whole numbers)", lineno, text)
        start, end = int(parts[0]), int(parts[1])
        if end < start:
            raise InputError(name, f"bad offsets {raw.decode('utf-8', 'surrogateescape')!r}: "
                             "a fragment ends before it starts", lineno, text)
        spans.append((start, end))
    return spans[0][0], spans[-1][1]


def _read(source, name, fields, case_at, code_at, offsets_at, what) -> References:
    name, lines = tsv_lines(source, name, fields, what)
    cases, codes, starts, ends, linenos = [], [], [], [], []
    for i, text, parts in lines:
        cases.append(check_id(parts[case_at], "clinical case id", name, i, text))
        codes.append(normalise_code(parts[code_at], name, i, text))
        s, e = parse_offsets(parts[offsets_at], name, i, text)
        starts.append(s)
        ends.append(e)
        linenos.append(i)
    return References(cases, codes, starts, ends, linenos, name)


def read_gold(source, *, name: str | None = None) -> References:
    """A CodiEsp-X gold standard: ``case  label  code  text  offsets`` lines."""
    if isinstance(source, References):
        return source
    return _read(source, name, ("clinical case", "label", "code", "reference text", "offsets"),
                 0, 2, 4, "CodiEsp-X gold standard")


def read_predictions(source, *, name: str | None = None, rank_column: bool = False) -> References:
    """CodiEsp-X predictions: ``case  offsets  label  code`` lines."""
    if isinstance(source, References):
        return source
    refs = _read(source, name, ("clinical case", "offsets", "label", "code"), 0, 3, 1, "CodiEsp-X predictions")
    return References(refs.case, refs.code, refs.start, refs.end, refs.lineno, refs.name, runid_of(refs.name))


def matches(pred_start: int, pred_end: int, gold_start: int, gold_end: int) -> bool:
    """Whether a predicted span matches a gold one (see the module docstring)."""
    return 0 <= gold_start - pred_start <= TOLERANCE and 0 <= pred_end - gold_end <= TOLERANCE


def pairs(gold: References, pred: References, ctx) -> tuple[Qrels, Run]:
    """The gold (case, code) pairs as judgments and the predicted ones as a run.

    A predicted pair keeps its code as docno when one of its references
    matches, and gets :data:`UNMATCHED` appended otherwise (retrieved, never
    relevant); each case's pairs rank in the order of their first line.
    """
    spans: dict[tuple, list] = {}
    first_line: dict[tuple, int] = {}
    for case, code, s, e, ln in zip(gold.case, gold.code, gold.start, gold.end, gold.lineno):
        spans.setdefault((case, code), []).append((s, e))
        first_line.setdefault((case, code), ln)
    allowed = valid_codes(ctx.valid_codes)
    hit: dict[tuple, bool] = {}
    line_of: dict[tuple, int] = {}
    for case, code, s, e, ln in zip(pred.case, pred.code, pred.start, pred.end, pred.lineno):
        if allowed is not None and code not in allowed:
            continue
        key = (case, code)
        line_of.setdefault(key, ln)
        if not hit.get(key, False):
            hit[key] = any(matches(s, e, gs, ge) for gs, ge in spans.get(key, ()))
    qrels = Qrels(np.array([k[0] for k in spans], dtype="S"), np.array([k[1] for k in spans], dtype="S"),
                  np.ones(len(spans), dtype=np.int64), np.array(list(first_line.values()), dtype=np.int64),
                  gold.name)
    keys = list(hit)
    docnos = [code if hit[(case, code)] else code + UNMATCHED for case, code in keys]
    position: dict[bytes, int] = {}
    score = []
    for case, _ in keys:
        position[case] = position.get(case, 0) + 1
        score.append(-float(position[case]))
    run = Run(np.array([k[0] for k in keys], dtype="S") if keys else np.zeros(0, "S1"),
              np.array(docnos, dtype="S") if keys else np.zeros(0, "S1"),
              np.array(score, dtype=np.float64), np.array([line_of[k] for k in keys], dtype=np.int64),
              pred.runid, pred.name, np.array([-x for x in score], dtype=np.float64))
    return qrels, run


def _join(gold: References, pred, ctx):
    if not isinstance(pred, References):
        raise UsageError("'-R codiesp_x' judgments are evaluated with '-T codiesp_x' predictions")
    qrels, run = pairs(gold, pred, ctx)
    return build_rankings(qrels, run, ctx)


def _totals(gold: References) -> tuple[int, int]:
    distinct = set(zip(gold.case, gold.code))
    return len(distinct_sorted(np.array(gold.case, dtype="S"))), len(distinct)


CODIESP_X = JudgmentFormat(
    name="codiesp_x",
    default_measures=('codiesp_x',),
    help="""\
Judgments format 'codiesp_x' (-R codiesp_x): a CodiEsp-X gold standard,
five tab-separated fields a line,
    clinical_case  label  code  reference_text  offsets
offsets being 'start end', or 'start end;start end' for a discontinuous
reference (it spans from the first start to the last end). Use with
-T codiesp_x and -m codiesp_x: the campaign's micro-averaged precision,
recall and F1 over (case, code) pairs. A predicted code is correct when one
of its references contains one of the gold references of that code with at
most 10 characters to spare at each end; a code with several gold
references needs only one. Codes are compared in lower case. Give the
campaign's D and P code lists with --valid-codes (twice) to ignore
predicted codes in neither. Every gold case counts (-c is implied);
predicted cases absent from the gold standard are not evaluated, and a
submission with no valid prediction for any gold case scores 0.
""",
    read=read_gold,
    join=_join,
    totals=_totals,
    feeds="qrels",
    options=frozenset({"valid_codes"}),
    complete=True,
    # the script divides by every predicted pair: a submission matching no gold
    # case scores 0, not "no topic"
    scores_unmatched=True,
)

CODIESP_X_RESULTS = ResultsFormat(
    name="codiesp_x",
    help="""\
Results format 'codiesp_x' (-T codiesp_x): CodiEsp-X predictions, four
tab-separated fields a line,
    clinical_case  offsets  label  code
offsets as in the gold standard ('start end'; 'start end;start end' for a
discontinuous reference). A code may be predicted with several references;
it counts once. Only with -R codiesp_x. The run id printed is the file's
name without its extension.
""",
    read=read_predictions,
    requires="codiesp_x",
)
