"""``trec_eval_py agreement``: inter-assessor agreement.

The statistics are checked against independent implementations (scikit-learn's
``cohen_kappa_score``, statsmodels' ``cohens_kappa`` and ``fleiss_kappa``, the
``krippendorff`` package), hand-worked examples and published values
(Krippendorff's reliability data), and properties on random judgments.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.golden import run_cli

from trec_eval_py.errors import InputError, UsageError
from trec_eval_py.tools.organiser.agreement import (
    MISSING,
    agreement,
    category_counts,
    cohen_kappa,
    confusion_matrix,
    fleiss_kappa,
    kappa_from_table,
    krippendorff_alpha,
    render_agreement,
)

krippendorff = pytest.importorskip("krippendorff")
sm = pytest.importorskip("statsmodels.stats.inter_rater")
sk = pytest.importorskip("sklearn.metrics")

REL = 1e-12  # float64 rounding of sums of a few thousand terms


def qrels_text(rows):
    return "".join(f"{t} 0 {d} {r}\n" for t, d, r in rows)


def write(tmp_path, name, rows):
    p = tmp_path / name
    p.write_text(qrels_text(rows))
    return str(p)


# ---------------------------------------------------------------- hand-worked

def test_cohen_kappa_by_hand():
    # 50 documents: both relevant 20, only A 5, only B 10, neither 15.
    # p_o = 35/50 = 0.7; A says relevant 25/50, B 30/50:
    # p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
    a = [1] * 20 + [1] * 5 + [0] * 10 + [0] * 15
    b = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4, rel=REL)
    assert kappa_from_table([[15, 10], [5, 20]]) == pytest.approx(0.4, rel=REL)


def test_weighted_kappa_by_hand():
    # levels 0..2; pairs (0,0) (0,1) (1,1) (2,0): observed linear disagreement 0+1+0+2 = 3
    # rows (A): 0:2 1:1 2:1   columns (B): 0:2 1:2 2:0
    # expected linear disagreement = sum_ij |i-j| r_i c_j / n
    #   = (2*2*1 + 1*2*1 + 1*2*2 + 1*2*1) / 4 = (4 + 2 + 4 + 2) / 4 = 3
    # kappa_linear = 1 - 3/3 = 0; quadratic: observed 0+1+0+4 = 5,
    # expected (2*2*1 + 1*2*1 + 1*2*4 + 1*2*1) / 4 = 16/4 = 4, kappa = 1 - 5/4 = -0.25
    a, b = [0, 0, 1, 2], [0, 1, 1, 0]
    assert cohen_kappa(a, b, "linear") == pytest.approx(0.0, abs=1e-15)
    assert cohen_kappa(a, b, "quadratic") == pytest.approx(-0.25, rel=REL)


def test_weights_are_level_distances():
    # no level 1 used: a 0/2 disagreement still counts two steps (as with labels=range)
    a, b = [0, 2, 2, 0, 2], [2, 2, 0, 0, 2]
    for w in ("linear", "quadratic"):
        assert cohen_kappa(a, b, w) == pytest.approx(
            sk.cohen_kappa_score(a, b, weights=w, labels=[0, 1, 2]), rel=REL)


def test_fleiss_kappa_by_hand():
    # 3 documents, 3 assessors, categories (0, 1):
    #   counts (3,0) (2,1) (0,3): P_i = 1, 1/3, 1 -> mean 7/9
    #   p = (5/9, 4/9): P_e = 25/81 + 16/81 = 41/81
    #   kappa = (7/9 - 41/81) / (1 - 41/81) = (63 - 41) / (81 - 41) = 22/40 = 0.55
    assert fleiss_kappa([[3, 0], [2, 1], [0, 3]]) == pytest.approx(0.55, rel=REL)


def test_fleiss_kappa_wikipedia_example():
    # the worked example of Wikipedia's "Fleiss' kappa" article: 10 subjects,
    # 14 raters, 5 categories; P-bar = 0.378, P_e = 0.213, kappa = 0.210
    table = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
             [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    assert round(fleiss_kappa(table), 3) == 0.210
    assert fleiss_kappa(table) == pytest.approx(sm.fleiss_kappa(np.array(table), method="fleiss"), rel=REL)


#: Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), section C:
#: four observers, twelve units, values 1..5, "." missing
KRIPPENDORFF_2011 = """\
1 2 3 3 2 1 4 1 2 . . .
1 2 3 3 2 2 4 1 2 5 . 3
. 3 3 3 2 3 4 2 2 5 1 .
1 2 3 3 2 4 4 1 2 5 1 .
"""


def _krippendorff_data():
    rows = [[MISSING if v == "." else int(v) for v in line.split()] for line in KRIPPENDORFF_2011.splitlines()]
    return np.array(rows, dtype=np.int64).T  # documents x assessors


@pytest.mark.parametrize("metric, published", [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)])
def test_krippendorff_published_example(metric, published):
    assert round(krippendorff_alpha(_krippendorff_data(), metric), 3) == published


def test_krippendorff_example_through_qrels_jg(tmp_path):
    # the same data as four judgment groups of one topic: a document per unit
    data = _krippendorff_data()
    lines = [f"1 obs{k} u{u:02d} {data[u, k]}\n" for u in range(len(data)) for k in range(4) if data[u, k] != MISSING]
    p = tmp_path / "k.qrels_jg"
    p.write_text("".join(lines))
    rep = agreement([str(p)], rel_format="qrels_jg")
    stats = dict((k, v) for k, v, _ in rep.summary())
    assert round(stats["alpha_nominal"], 3) == 0.743 and round(stats["alpha_interval"], 3) == 0.849
    # units 2-9 have all four values; 1, 10 and 11 two or three; 12 one (unpairable)
    assert stats["num_compared"] == 8 and stats["num_pairable"] == 11 and stats["num_single"] == 1


# ---------------------------------------------------------------- references

ratings = st.integers(min_value=2, max_value=60).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                        st.lists(st.integers(0, 3), min_size=n, max_size=n)))


@settings(max_examples=150, deadline=None)
@given(ratings)
def test_cohen_kappa_matches_sklearn(ab):
    a, b = ab
    levels = list(range(min(a + b), max(a + b) + 1))
    for w in (None, "linear", "quadratic"):
        ours = cohen_kappa(a, b, w)
        with _quiet():
            ref = sk.cohen_kappa_score(a, b, weights=w, labels=levels)
        if math.isnan(ref):
            assert math.isnan(ours)
        else:
            assert ours == pytest.approx(ref, rel=REL, abs=1e-12)


class _quiet:
    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._w.__exit__(*exc)


@settings(max_examples=150, deadline=None)
@given(ratings)
def test_kappa_from_table_matches_statsmodels(ab):
    a, b = ab
    levels = np.arange(min(a + b), max(a + b) + 1)
    table = confusion_matrix(a, b, levels)
    for w, name in ((None, None), ("linear", "linear"), ("quadratic", "quadratic")):
        with _quiet():
            ref = sm.cohens_kappa(table, wt=name).kappa if name else sm.cohens_kappa(table).kappa
        ours = kappa_from_table(table, levels, w)
        if math.isnan(ref):
            assert math.isnan(ours)
        else:
            assert ours == pytest.approx(ref, rel=REL, abs=1e-12)


tables = st.tuples(st.integers(1, 40), st.integers(2, 6), st.integers(2, 5)).flatmap(
    lambda s: st.lists(st.lists(st.integers(0, s[2] - 1), min_size=s[1], max_size=s[1]), min_size=s[0], max_size=s[0]))


@settings(max_examples=150, deadline=None)
@given(tables)
def test_fleiss_kappa_matches_statsmodels(rows):
    r = np.array(rows, dtype=np.int64)
    cats = np.unique(r)
    counts = category_counts(r, cats)
    with _quiet():
        ref = sm.fleiss_kappa(sm.aggregate_raters(r)[0], method="fleiss")
    ours = fleiss_kappa(counts)
    if math.isnan(ref) or math.isinf(ref):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(ref, rel=REL, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(tables, st.lists(st.booleans(), min_size=1, max_size=400))
def test_krippendorff_alpha_matches_package(rows, holes):
    r = np.array(rows, dtype=np.int64)
    flat = r.reshape(-1)
    hole = np.resize(np.array(holes), flat.shape) if holes else np.zeros(flat.shape, bool)
    ours_in = np.where(hole, MISSING, flat).reshape(r.shape)
    ref_in = np.where(hole, np.nan, flat.astype(float)).reshape(r.shape).T
    for metric in ("nominal", "ordinal", "interval"):
        ours = krippendorff_alpha(ours_in, metric)
        try:
            with _quiet():
                ref = krippendorff.alpha(reliability_data=ref_in, level_of_measurement=metric)
        except ValueError:  # the package refuses a domain of one value; alpha is then 0/0
            ref = math.nan
        if math.isnan(ref) or math.isinf(ref):
            assert math.isnan(ours)
        else:
            assert ours == pytest.approx(ref, rel=1e-9, abs=1e-9)


# ---------------------------------------------------------------- judgments files

def test_documents_and_topics_judged_by_one_assessor(tmp_path):
    a = write(tmp_path, "a", [(1, "d1", 1), (1, "d2", 0), (1, "d3", 2), (1, "only_a", 1), (2, "d1", 1), (3, "x", 1)])
    b = write(tmp_path, "b", [(1, "d1", 1), (1, "d2", 1), (1, "d3", 2), (2, "d1", 0), (4, "y", 0)])
    rep = agreement([a, b])
    stats = {k: v for k, v, _ in rep.summary()}
    counts = (stats["num_topics"], stats["num_topics_compared"], stats["num_compared"], stats["num_single"])
    assert counts == (4, 2, 4, 3)
    # the same statistics as the compared documents alone
    alone = agreement([write(tmp_path, "a2", [(1, "d1", 1), (1, "d2", 0), (1, "d3", 2), (2, "d1", 1)]),
                       write(tmp_path, "b2", [(1, "d1", 1), (1, "d2", 1), (1, "d3", 2), (2, "d1", 0)])])
    assert rep.statistics() == pytest.approx(alone.statistics(), nan_ok=True)
    topics = {r["topic"]: r for r in rep.per_topic()}
    assert topics["3"]["compared"] == 0 and topics["3"]["only_A"] == 1 and math.isnan(topics["3"]["kappa"])
    assert topics["4"]["only_B"] == 1 and topics["4"]["assessors"] == 1
    assert topics["1"]["only_A"] == 1 and topics["1"]["compared"] == 3
    text = render_agreement(rep, show=["topics"])
    assert "3      1          0         1       0       0      0      undefined" in text


def test_perfect_agreement_on_one_category_is_undefined(tmp_path):
    rows = [(1, f"d{i}", 0) for i in range(5)]
    rep = agreement([write(tmp_path, "a", rows), write(tmp_path, "b", rows)])
    stats = rep.statistics()
    assert stats["agreement"] == 1.0
    for k in ("kappa", "kappa_levels", "kappa_linear", "kappa_quadratic", "alpha_nominal", "alpha_ordinal",
              "alpha_interval", "positive_agreement"):
        assert math.isnan(stats[k]), k
    with _quiet():
        assert math.isnan(sk.cohen_kappa_score([0] * 5, [0] * 5))  # the reference agrees: 0/0
    doc = json.loads(render_agreement(rep, "json", ["summary"]))
    assert doc["summary"]["kappa"] is None and doc["summary"]["agreement"] == 1.0
    assert "kappa                undefined" in render_agreement(rep, show=["summary"])


def test_perfect_agreement_on_two_categories_is_one(tmp_path):
    rows = [(1, "d1", 0), (1, "d2", 1), (1, "d3", 2)]
    rep = agreement([write(tmp_path, "a", rows), write(tmp_path, "b", rows)])
    assert all(v == 1.0 for k, v in rep.statistics().items())


def test_negative_level_is_no_judgment(tmp_path):
    a = write(tmp_path, "a", [(1, "d1", 1), (1, "d2", -1), (1, "d3", 0)])
    b = write(tmp_path, "b", [(1, "d1", 1), (1, "d2", 1), (1, "d3", 0)])
    stats = {k: v for k, v, _ in agreement([a, b]).summary()}
    assert stats["num_compared"] == 2 and stats["num_single"] == 1 and stats["kappa"] == 1.0


def test_relevance_level(tmp_path):
    a = write(tmp_path, "a", [(1, "d1", 2), (1, "d2", 1), (1, "d3", 0), (1, "d4", 2)])
    b = write(tmp_path, "b", [(1, "d1", 2), (1, "d2", 2), (1, "d3", 0), (1, "d4", 1)])
    assert agreement([a, b]).statistics()["kappa"] == 1.0
    at2 = agreement([a, b], relevance_level=2).statistics()
    assert at2["kappa"] == pytest.approx(cohen_kappa([1, 0, 0, 1], [1, 1, 0, 0]), rel=REL)
    rows = agreement([a, b], relevance_level=2).disagreements(relevance_only=True)
    assert [(r["docno"], r["A"], r["B"], r["relevant"]) for r in rows] == [("d2", 1, 2, "B"), ("d4", 2, 1, "A")]


def test_confusion_matrix_and_disagreements(tmp_path):
    a = write(tmp_path, "a", [(1, "d1", 0), (1, "d2", 0), (1, "d3", 1), (1, "d4", 2), (2, "d5", 1)])
    b = write(tmp_path, "b", [(1, "d1", 0), (1, "d2", 1), (1, "d3", 2), (1, "d4", 2), (2, "d5", 1)])
    rep = agreement([a, b])
    ((ra, rb, levels, counts),) = rep.confusion()
    assert (ra, rb, levels.tolist(), counts.tolist()) == ("A", "B", [0, 1, 2], [[1, 1, 0], [0, 1, 1], [0, 0, 1]])
    assert [(r["topic"], r["docno"]) for r in rep.disagreements()] == [("1", "d2"), ("1", "d3")]
    assert [r["docno"] for r in rep.disagreements(relevance_only=True)] == ["d2"]
    csv = render_agreement(rep, "csv", ["confusion"]).splitlines()
    assert csv[0] == "rows,columns,row_level,column_level,count" and "A,B,1,2,1" in csv


def _random_judgments(rng, n_assessors, n_topics=4, n_docs=30):
    out = []
    for _ in range(n_assessors):
        rows = []
        for t in range(n_topics):
            for d in range(n_docs):
                if rng.random() < 0.8:
                    rows.append((t + 1, f"doc{d}", int(rng.integers(0, 3))))
        out.append(rows)
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_properties_on_random_judgments(seed, n):
    rng = np.random.default_rng(seed)
    sets = _random_judgments(rng, n)
    dicts = [{} for _ in sets]
    for d, rows in zip(dicts, sets):
        for t, doc, r in rows:
            d.setdefault(str(t), {})[doc] = r
    rep = agreement(dicts)
    stats = rep.statistics()
    # the assessors' order does not matter
    back = agreement(dicts[::-1]).statistics()
    assert back == pytest.approx(stats, rel=REL, nan_ok=True)
    # one assessor a file, or one a judgment group of one qrels_jg file: the same
    jg = "".join(f"{t} g{k} {doc} {r}\n" for k, rows in enumerate(sets) for t, doc, r in rows).encode()
    assert agreement([jg], rel_format="qrels_jg").statistics() == pytest.approx(stats, rel=REL, nan_ok=True)
    # the lines' order in the files does not matter
    shuffled = [qrels_text([rows[i] for i in rng.permutation(len(rows))]).encode() for rows in sets]
    assert agreement(shuffled).statistics() == pytest.approx(stats, rel=REL, nan_ok=True)
    # the kappa-style statistics lie in [-1, 1]; alpha can be below -1 only in theory, not above 1
    for _k, v in stats.items():
        assert math.isnan(v) or v <= 1 + 1e-12
    if n == 2:
        lv = rep.levels[rep.compared]
        assert stats["kappa_linear"] == pytest.approx(cohen_kappa(lv[:, 0], lv[:, 1], "linear"), rel=REL, nan_ok=True)
    else:
        lv = rep.levels[rep.compared]
        with _quiet():
            ref = sm.fleiss_kappa(sm.aggregate_raters(lv)[0], method="fleiss") if len(lv) else math.nan
        assert stats["fleiss_kappa_levels"] == pytest.approx(ref, rel=REL, nan_ok=True)


def test_example_collection_cohen_against_sklearn():
    from support.paths import ROOT

    ex = ROOT / "examples" / "agreement"
    rep = agreement([str(ex / "qrels.primary"), str(ex / "qrels.secondary")])
    lv = rep.levels[rep.compared]
    stats = rep.statistics()
    assert stats["kappa"] == pytest.approx(sk.cohen_kappa_score(lv[:, 0] >= 1, lv[:, 1] >= 1), rel=REL)
    assert stats["kappa_quadratic"] == pytest.approx(
        sk.cohen_kappa_score(lv[:, 0], lv[:, 1], weights="quadratic", labels=[0, 1, 2]), rel=REL)
    ref = krippendorff.alpha(reliability_data=lv.T.astype(float), level_of_measurement="ordinal")
    assert stats["alpha_ordinal"] == pytest.approx(ref, rel=1e-9)


# ---------------------------------------------------------------- the command

def test_cli_text_and_json(tmp_path, capsysbinary):
    a = write(tmp_path, "a", [(1, "d1", 1), (1, "d2", 0), (1, "d3", 1), (1, "d4", 0)])
    b = write(tmp_path, "b", [(1, "d1", 1), (1, "d2", 1), (1, "d3", 1), (1, "d4", 0)])
    code, out, err = run_cli(["agreement", a, b], capsysbinary)
    assert code == 0 and err == ""
    assert "kappa                0.5000" in out and "confusion: levels of A (rows) and B (columns)" in out
    code, out, _ = run_cli(["agreement", a, b, "--format", "json", "--show", "summary,disagreements"], capsysbinary)
    doc = json.loads(out)
    assert doc["summary"]["kappa"] == pytest.approx(0.5) and doc["disagreements"] == [
        {"topic": "1", "docno": "d2", "A": 0, "B": 1, "relevant": "B"}]
    assert [x["name"] for x in doc["assessors"]] == [a, b]


def test_cli_three_assessors_show_pairs(capsysbinary):
    from support.paths import ROOT

    code, out, _ = run_cli(["agreement", "-R", "qrels_jg", ROOT / "examples" / "agreement" / "qrels.assessors"],
                           capsysbinary)
    assert code == 0
    assert "fleiss_kappa " in out and "\npairs\n" in out and "A-B" in out and "B-C" in out


@pytest.mark.parametrize("content, message", [
    ("1 0 d1 1\n1 0 d2 x\n", "b.qrels, line 2: relevance is not an integer"),
    ("1 0 d1 1\n1 0 d2\n", "b.qrels, line 2:"),
    ("1 0 d1 1\n1 0 d2 0\n1 0 d1 0\n",
     "b.qrels, line 3: duplicate docno 'd1' in the same topic (first seen on line 1)"),
])
def test_cli_bad_judgments(tmp_path, capsysbinary, content, message):
    a = write(tmp_path, "a.qrels", [(1, "d1", 1)])
    b = tmp_path / "b.qrels"
    b.write_text(content)
    code, out, err = run_cli(["agreement", a, b], capsysbinary)
    assert code != 0 and out == ""
    assert len(err.splitlines()) == 1 and message in err


def test_cli_duplicate_in_a_judgment_group(tmp_path, capsysbinary):
    p = tmp_path / "g"
    p.write_text("1 x d1 1\n1 y d1 1\n1 x d1 0\n")
    code, _, err = run_cli(["agreement", "-R", "qrels_jg", p], capsysbinary)
    assert code != 0 and "g, line 3: duplicate docno 'd1' in the same topic and judgment group" in err


@pytest.mark.parametrize("extra, message", [
    (["-R", "prefs"], "'-R prefs' is not read"),
    (["--format", "csv"], "--format csv writes one table"),
    (["--format", "csv", "--show", "summary,topics"], "--format csv writes one table; --show names 2"),
    (["--show", "everything"], "unknown section 'everything'"),
    (["--format", "xml"], "unknown --format 'xml'"),
])
def test_cli_usage_errors(tmp_path, capsysbinary, extra, message):
    a = write(tmp_path, "a", [(1, "d1", 1)])
    code, out, err = run_cli(["agreement", a, a, *extra], capsysbinary)
    assert code != 0 and message in err and len(err.splitlines()) == 1


def test_cli_one_assessor(tmp_path, capsysbinary):
    a = write(tmp_path, "a", [(1, "d1", 1)])
    code, _, err = run_cli(["agreement", a], capsysbinary)
    assert code != 0 and "needs two assessors or more; found 1" in err
    with pytest.raises(UsageError):
        agreement([a, a], rel_format="codiesp")
    with pytest.raises(InputError):
        agreement([a, str(a) + ".missing"])
