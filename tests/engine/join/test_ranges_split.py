"""join.ranges.split cuts judgments or a run into ranges of topics: rows sorted by
topic are cut into slices (views, nothing copied), others gathered; both give
every range's rows in file order."""
import numpy as np
import pytest

from trec_eval_py.engine.join.ranges import check_cuts, range_of, split
from trec_eval_py.engine.parse.qrels import Qrels
from trec_eval_py.engine.parse.run import Run


def _qrels(qid):
    n = len(qid)
    return Qrels(qid, np.array([b"d%d" % i for i in range(n)], dtype="S"), np.arange(n, dtype=np.int64) % 3,
                 np.arange(1, n + 1, dtype=np.int64))


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("grouped", [True, False])
def test_each_range_holds_its_rows_in_file_order(seed, grouped):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, 30, int(rng.integers(1, 200)))
    if grouped:
        ids = np.sort(ids)
    qid = np.array([b"t%02d" % i for i in ids], dtype="S")
    cuts = check_cuts(sorted({b"t%02d" % i for i in rng.integers(0, 32, int(rng.integers(0, 5)))}))
    q = _qrels(qid)
    parts = list(split(q, cuts))
    which = range_of(qid, cuts)
    assert len(parts) == len(cuts) + 1
    for i, part in enumerate(parts):
        rows = np.flatnonzero(which == i)
        for name in ("qid", "docno", "rel", "lineno"):
            assert getattr(part, name).tolist() == getattr(q, name)[rows].tolist()
        if grouped and len(rows):  # a slice: the columns are views of the judgments' own
            assert np.shares_memory(part.docno, q.docno)


def test_a_run_sorted_by_topic_is_cut_into_views():
    qid = np.array([b"1", b"1", b"2", b"3", b"3"], dtype="S")
    run = Run(qid, np.array([b"a", b"b", b"c", b"d", b"e"], dtype="S"), np.arange(5.0),
              np.arange(1, 6, dtype=np.int64), "r", "run")
    first, second = split(run, check_cuts([b"2"]))
    assert first.docno.tolist() == [b"a", b"b"] and second.docno.tolist() == [b"c", b"d", b"e"]
    assert second.runid == "r" and np.shares_memory(second.score, run.score)
