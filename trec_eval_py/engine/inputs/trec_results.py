"""``-T trec_results``: TREC runs, ``qid iter docno rank score runid``."""
from __future__ import annotations

from ..parse.run import iter_run_chunks, read_run
from ._base import ResultsFormat

TREC_RESULTS = ResultsFormat(
    name="trec_results",
    help="""\
Results format 'trec_results' (-T trec_results, the default): one retrieved
document a line,
    qid  iter  docno  rank  score  runid
Documents are ranked by score (see "Ranking" above); iter and rank are read
and ignored, fields after runid too. The run id printed is the last line's.
In Python the run may also be a dict {qid: {docno: score}}.
""",
    read=read_run,
    read_pieces=iter_run_chunks,
)
