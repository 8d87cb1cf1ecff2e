"""auc_roc: LingPipe's example, both negative conventions, reference agreement."""
from __future__ import annotations

from hypothesis import given, settings
from support.extra_reference import (
    LINGPIPE,
    batches,
    close,
    one,
    ranks_to_codes,
    ref_auc_roc_pairs,
    ref_croc,
    run_measure,
)

from trec_eval_py.engine.join import EvalContext


def test_lingpipe_ten_cases():
    # rejection recall after each correct case: 5/6, 4/6, 4/6, 1/6
    v = one("auc_roc", LINGPIPE, LINGPIPE)
    assert close(v, (5 / 6 + 4 / 6 + 4 / 6 + 1 / 6) / 4)
    assert round(v, 2) == 0.58


def test_misses_add_nothing():
    # LingPipe's addMisses: a fifth relevant document never retrieved
    v = one("auc_roc", LINGPIPE, LINGPIPE + [1])
    assert close(v, (5 / 6 + 4 / 6 + 4 / 6 + 1 / 6) / 5)


def test_collection_negatives():
    # -N: unretrieved non-relevant documents are ranked below the ranking
    codes = [0, 1, 0, 1]
    judged = [1, 1, 0, 0]
    assert close(one("auc_roc", codes, judged), (1 / 2 + 0) / 2)
    ctx = EvalContext(num_docs_in_coll=10)  # 8 negatives, 2 retrieved
    assert close(one("auc_roc", codes, judged, ctx), ((1 - 1 / 8) + (1 - 2 / 8)) / 2)
    # a collection smaller than the ranking needs is raised to fit
    assert one("auc_roc", codes, judged, EvalContext(num_docs_in_coll=3)) == one("auc_roc", codes, judged)


def test_biocreative_full_collection():
    # BioCreative II.5, 4.5: against the 7,569,677 UniProt accessions the two
    # systems' ROC areas differ by a tiny amount in favour of B: B is ahead by
    # a quarter of recall while 6 false positives go by.
    coll = 7_569_677
    judged = [1, 1, 1, 1] + [0] * 16
    ctx = EvalContext(num_docs_in_coll=coll)
    a = one("auc_roc", ranks_to_codes(10, {1, 10}), judged, ctx)
    b = one("auc_roc", ranks_to_codes(10, {2, 3}), judged, ctx)
    assert b > a
    assert close(b - a, 0.25 * 6 / (coll - 4))


def test_edges():
    assert one("auc_roc", [], [1]) == 0.0
    assert one("auc_roc", [0, 0], [0, 0]) == 0.0
    assert one("auc_roc", [1, 1], [1, 1]) == 1.0  # no negatives at all
    assert one("auc_roc", [1], [1, 1]) == 0.5
    assert one("auc_roc", [0, 1], [1]) == 0.0
    assert one("auc_roc", [1, -1, -2], [1, -1]) == 1.0  # unjudged count as negatives


@settings(max_examples=300, deadline=None)
@given(batches())
def test_matches_references(case):
    tops, ctx = case
    v = run_measure("auc_roc", tops, ctx)
    for i, (codes, judged) in enumerate(tops):
        assert close(v[i, 0], ref_croc(codes, judged, ctx))
        assert close(v[i, 0], ref_auc_roc_pairs(codes, judged, ctx))
