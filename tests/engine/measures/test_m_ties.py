"""``ties=average`` on the ranking areas (auc_roc, croc_*, cac_*, auc_ac,
auc_proc/pac, auc_roc_t/fp, their Z-scores, bedroc, rie, auc_pr): the mean
over every order of each group of documents with equal scores.

Checked three ways: against a slow reference that enumerates every order of
the tied documents and averages trec_eval-order values; against
scikit-learn's roc_auc_score (always) and average_precision_score (where no
relevant document shares its score: scikit-learn gives every relevant
document of a tied group the precision at the group's end, another
definition); and on
a 2,000-document example where trec_eval's docno rule moves auc_roc by naming
alone."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from trec_eval_py import evaluate
from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.join.batch import TopicBatch
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.measures._params import Ties
from trec_eval_py.errors import MeasureError

TIED = sorted(m.name for m in registry() if isinstance(m.params, Ties))


def test_the_family_takes_ties():
    assert set(TIED) >= {"auc_roc", "auc_pr", "croc_exp", "croc_pow", "croc_log", "cac_exp", "cac_pow",
                         "cac_log", "auc_ac", "bedroc", "rie", "auc_proc", "auc_pac", "auc_roc_t",
                         "auc_roc_fp", "auc_roc_z", "croc_exp_z", "cac_exp_z", "auc_ac_z"}


def _values(name, rels, judged, scores, ctx, params):
    m = registry()[name]
    b = TopicBatch.from_lists(rels, judged, ctx, scores=scores)
    return m.compute(b, m.params.parse(name, params))


def _orders(codes, scores):
    """Every distinct order of the relevance codes within each group of equal scores
    (the codes listed with scores descending)."""
    groups = [list(g) for _, g in itertools.groupby(zip(scores, codes), key=lambda x: x[0])]
    per_group = [sorted(set(itertools.permutations([c for _, c in g]))) for g in groups]
    for choice in itertools.product(*per_group):
        yield [c for part in choice for c in part]


@st.composite
def tied_topics(draw):
    """One topic: scores from a few values (so that groups mix), codes, and
    sometimes relevant documents never retrieved; small enough to enumerate."""
    n = draw(st.integers(1, 9))
    scores = sorted(draw(st.lists(st.sampled_from([0.25, 0.5, 0.75, 1.0]), min_size=n, max_size=n)),
                    reverse=True)
    codes = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=n, max_size=n))
    missed = draw(st.integers(0, 2))
    judged = [c for c in codes] + [1] * missed
    return codes, judged, scores


@settings(max_examples=150, deadline=None)
@given(tied_topics(), st.sampled_from(TIED), st.sampled_from([0, 0, 12, 40]), st.sampled_from([1, 2]))
def test_average_is_the_mean_over_every_order_of_the_ties(topic, name, coll, level):
    codes, judged, scores = topic
    orders = list(_orders(codes, scores))
    assume(len(orders) <= 400)
    ctx = EvalContext(num_docs_in_coll=coll, relevance_level=level)
    got = _values(name, [codes], [judged], [scores], ctx, "ties=average")[0]
    each = np.array([_values(name, [o], [judged], [scores], ctx, None)[0] for o in orders])
    want = each.mean(axis=0)
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12), (name, codes, scores, got, want)


@settings(max_examples=100, deadline=None)
@given(tied_topics(), st.sampled_from(TIED))
def test_without_ties_average_is_the_docno_value(topic, name):
    codes, judged, _ = topic
    scores = [float(len(codes) - i) for i in range(len(codes))]  # all distinct
    got = _values(name, [codes], [judged], [scores], EvalContext(), "ties=average")[0]
    want = _values(name, [codes], [judged], [scores], EvalContext(), None)[0]
    assert np.allclose(got, want, rtol=1e-13, atol=1e-15)


@st.composite
def labelled(draw):
    n = draw(st.integers(2, 60))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    assume(any(labels) and not all(labels))
    scores = draw(st.lists(st.integers(0, draw(st.integers(1, 8))), min_size=n, max_size=n))
    return np.array(labels), np.array(scores, dtype=np.float64) / 8.0


def _as_files(labels, scores, names=None):
    names = names or [f"d{i:03d}" for i in range(len(labels))]
    qrels = "".join(f"q 0 {d} {int(r)}\n" for d, r in zip(names, labels)).encode()
    shown = (x if isinstance(x, str) else repr(float(x)) for x in scores)
    run = "".join(f"q Q0 {d} 0 {s} r\n" for d, s in zip(names, shown)).encode()
    return qrels, run


@settings(max_examples=150, deadline=None)
@given(labelled())
def test_auc_roc_average_is_scikit_learns_roc_auc_score(case):
    sklearn = pytest.importorskip("sklearn.metrics")
    labels, scores = case
    qrels, run = _as_files(labels, scores)
    for compat in ("9.0.8", "10.0"):
        got = evaluate(qrels, run, ["auc_roc.ties=average"], compat=compat).summary["auc_roc_ties=average"]
        assert got == pytest.approx(sklearn.roc_auc_score(labels, scores), rel=1e-12, abs=1e-15)


@st.composite
def relevant_untied(draw):
    """Labels and scores where negatives tie in groups and no relevant document
    shares its score with another document."""
    labels, _ = draw(labelled())
    n_rel = int(labels.sum())
    own = draw(st.lists(st.integers(0, 40), min_size=n_rel, max_size=n_rel, unique=True))
    top = draw(st.integers(1, 40))
    scores = np.empty(len(labels))
    scores[labels] = np.array(own) + 0.5
    scores[~labels] = draw(st.lists(st.integers(0, top), min_size=len(labels) - n_rel,
                                    max_size=len(labels) - n_rel))
    return labels, scores


@settings(max_examples=150, deadline=None)
@given(relevant_untied())
def test_auc_pr_average_is_scikit_learns_average_precision_where_they_agree(case):
    # scikit-learn gives a tied group one operating point, every relevant document in
    # it the precision at the group's end: the same as the mean over the orders where
    # no relevant document shares its score (ties among negatives are then harmless)
    sklearn = pytest.importorskip("sklearn.metrics")
    labels, scores = case
    qrels, run = _as_files(labels, scores)
    got = evaluate(qrels, run, ["auc_pr.ties=average"]).summary["auc_pr_ties=average"]
    assert got == pytest.approx(sklearn.average_precision_score(labels, scores), rel=1e-12, abs=1e-15)


def test_where_scikit_learns_average_precision_differs():
    # two relevant documents tied after a negative: every order gives 1/2 and 2/3;
    # scikit-learn gives both the group's end, 2/3
    sklearn = pytest.importorskip("sklearn.metrics")
    labels, scores = np.array([False, True, True]), np.array([0.9, 0.5, 0.5])
    qrels, run = _as_files(labels, scores)
    got = evaluate(qrels, run, ["auc_pr.ties=average"]).summary["auc_pr_ties=average"]
    assert got == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert sklearn.average_precision_score(labels, scores) == pytest.approx(2 / 3)


def test_naming_alone_moves_trec_eval_order_not_the_average():
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(2010)
    n = 2000
    labels = rng.random(n) < 0.3
    scores = np.round(np.clip(rng.normal(0.45 + 0.2 * labels, 0.2), 0.0, 1.0), 2)
    # the same documents named twice: relevant ones first among equal scores (their
    # docnos sort higher, and trec_eval breaks ties by docno descending) or last
    order = np.argsort(labels, kind="stable")
    first = [""] * n
    last = [""] * n
    for k, i in enumerate(order):
        first[i] = f"doc{k:05d}"
        last[i] = f"doc{n - 1 - k:05d}"
    got = {}
    for tag, names in (("first", first), ("last", last)):
        qrels, run = _as_files(labels, [f"{s:.2f}" for s in scores], names)
        # one spec per measure counts (trec_eval's rule): two evaluations
        got[tag] = (evaluate(qrels, run, ["auc_roc"]).summary["auc_roc"],
                    evaluate(qrels, run, ["auc_roc.ties=average"]).summary["auc_roc_ties=average"])
    want = sklearn.roc_auc_score(labels, scores)
    assert got["first"][0] > want + 0.005 and got["last"][0] < want - 0.005
    assert got["first"][1] == pytest.approx(want, rel=1e-12) and got["last"][1] == pytest.approx(want, rel=1e-12)
    # the two trec_eval-order values are the ends of the tie-averaged one's range
    assert got["last"][0] < got["first"][1] < got["first"][0]


def test_parameters_and_names():
    qrels = b"q 0 a 1\nq 0 b 0\nq 0 c 1\n"
    run = b"q Q0 a 0 0.5 r\nq Q0 b 0 0.5 r\nq Q0 c 0 0.1 r\n"
    ev = evaluate(qrels, run, ["auc_roc.ties=average", "croc_exp.7,14,ties=average", "bedroc.ties=docno"])
    names = [c.name for c in ev.columns]
    assert names == ["auc_roc_ties=average", "bedroc_20", "croc_exp_7_ties=average", "croc_exp_14_ties=average"]
    # a and b tie (docno descending puts b first): b, a, c; a and c each have b above
    assert evaluate(qrels, run, ["auc_roc"]).summary["auc_roc"] == 0.0
    assert ev.summary["auc_roc_ties=average"] == 0.25  # a: half of the pair (a, b); c: below b
    # as in trec_eval, the first spec of a measure with parameters wins
    assert [c.name for c in evaluate(qrels, run, ["auc_roc", "auc_roc.ties=average"]).columns] == \
        ["auc_roc_ties=average"]
    assert evaluate(qrels, run, ["bedroc.ties=docno"]).summary["bedroc_20"] == \
        evaluate(qrels, run, ["bedroc"]).summary["bedroc_20"]


@pytest.mark.parametrize("spec, words", [
    ("auc_roc.ties=random", "not a tie rule"),
    ("auc_roc.ties=average,ties=docno", "twice"),
    ("croc_exp.7,ties=", "not a tie rule"),
    ("croc_exp.-1,ties=average", "positive"),
    ("auc_ipr.ties=average", "takes no parameters"),
])
def test_bad_parameters(spec, words):
    with pytest.raises(MeasureError, match=words):
        evaluate(b"q 0 a 1\n", b"q Q0 a 0 1 r\n", [spec])


def test_average_needs_a_ranking_by_score():
    with pytest.raises(MeasureError, match="--order rank"):
        evaluate(b"q 0 a 1\n", b"q Q0 a 1 1 r\n", ["auc_roc.ties=average"], order="rank")


def test_ties_follow_the_rule_s_comparison():
    # 9.0.8 compares scores as C floats: 1.00000001 and 1.0 tie there, not in 10.0
    qrels = b"q 0 a 0\nq 0 b 1\n"
    run = b"q Q0 a 0 1.00000001 r\nq Q0 b 0 1.0 r\n"
    old = evaluate(qrels, run, ["auc_roc.ties=average"]).summary["auc_roc_ties=average"]
    new = evaluate(qrels, run, ["auc_roc.ties=average"], compat="10.0").summary["auc_roc_ties=average"]
    assert (old, new) == (0.5, 0.0)
