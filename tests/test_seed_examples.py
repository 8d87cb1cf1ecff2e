"""The seed documents' worked examples, end to end through the command line.

Inputs are in fixtures/seeds_examples (see its README). Each expected value
is the seed's own number, compared at the precision the seed prints it.
"""
from __future__ import annotations

import math

import pytest
from support.paths import SEEDS

from trec_eval_py import cli


def evaluate(capsysbinary, qrels, run, *args) -> dict[str, float]:
    try:
        cli.main([*args, str(SEEDS / qrels), str(SEEDS / run)])
    except SystemExit as e:  # pragma: no cover - a failure shows in the assertion
        assert not e.code
    out = capsysbinary.readouterr().out.decode()
    values = {}
    for line in out.splitlines():
        name, topic, value = line.split("\t")
        assert topic == "all"
        values[name.strip()] = float(value)
    return values


def agrees(value: float, printed: float, decimals: int) -> bool:
    """``value`` shows as ``printed`` at the seed's number of decimals."""
    return abs(value - printed) <= 0.5 * 10 ** -decimals + 1e-9


def test_lingpipe_ten_cases(capsysbinary):
    v = evaluate(capsysbinary, "lingpipe.qrels", "lingpipe.run",
                 "-m", "extra", "-m", "map", "-m", "P.5,10", "-m", "rr_cut.1000")
    expected = {"auc_pr": 0.51, "auc_ipr": 0.56, "auc_roc": 0.58, "map": 0.51, "max_F_1": 0.67,
                "bep": 0.6, "P_5": 0.6, "P_10": 0.4, "rr_cut_1000": 0.5}
    for name, printed in expected.items():
        assert agrees(v[name], printed, 2), (name, v[name])


@pytest.mark.parametrize("system,printed", [("A", 0.3), ("B", 0.333)])
def test_biocreative_systems(capsysbinary, system, printed):
    v = evaluate(capsysbinary, "biocreative.qrels", f"biocreative_{system}.run", "-m", "auc_ipr")
    assert agrees(v["auc_ipr"], printed, 3)


def test_lecture_average_precision(capsysbinary):
    v = evaluate(capsysbinary, "lecture6.qrels", "lecture6.run", "-m", "map", "-m", "auc_pr")
    assert agrees(v["map"], 0.41, 2) and agrees(v["auc_pr"], 0.41, 2)


@pytest.mark.parametrize("engine,printed", [("A", 0.6), ("B", 0.49)])
def test_lecture_engines(capsysbinary, engine, printed):
    v = evaluate(capsysbinary, "lecture4.qrels", f"lecture4_{engine}.run", "-m", "map", "-m", "auc_pr")
    assert agrees(v["map"], printed, 2) and agrees(v["auc_pr"], printed, 2)


@pytest.mark.parametrize("flags", [[], ["-N", "10"]])
def test_croc_paper_five_positives(capsysbinary, flags):
    v = evaluate(capsysbinary, "croc.qrels", "croc.run", "-m", "croc_exp.7,14,80", "-m", "auc_roc", *flags)
    fprs = [0, 0, 0.2, 0.2, 0.4]
    for alpha in (7, 14, 80):
        f = [(1 - math.exp(-alpha * x)) / (1 - math.exp(-alpha)) for x in fprs]
        assert agrees(v[f"croc_exp_{alpha}"], sum(1 - y for y in f) / 5, 4)
    assert agrees(v["auc_roc"], sum(1 - x for x in fprs) / 5, 4)


def test_help_documents_both_conventions(capsysbinary):
    try:
        cli.main(["-h", "-m", "extra"])
    except SystemExit as e:  # pragma: no cover
        assert not e.code
    raw = capsysbinary.readouterr().out.decode()
    for name in ("auc_ipr", "auc_pr", "auc_roc", "max_F", "bep", "croc_exp", "croc_pow", "croc_log",
                 "bedroc", "rie", "err", "ndcg_exp_cut", "judged", "rr_cut"):
        assert f"\n{name}\n" in raw, name
    text = " ".join(raw.split())
    assert "by default the retrieved non-relevant documents" in text
    assert "with -N D, every non-relevant document of a collection of D documents" in text


def test_biocreative_roc_difference_against_the_whole_collection():
    # BioCreative II.5's argument against ROC: against 7,569,677 UniProt
    # accessions systems A and B differ in ROC area by almost nothing. The page
    # estimates (1 / 7e6) x 1/4, "about one in 30 million", but B is ahead by
    # a quarter of recall at six negatives (ranks 4-9), not one: the difference
    # is 6 x 1/4 / (7569677 - 4) = 1.98e-7, about 2 in 10 million.
    from trec_eval_py import evaluate as api

    n = 7569677
    a, b = (api(str(SEEDS / "biocreative.qrels"), str(SEEDS / f"biocreative_{s}.run"), ["auc_roc"],
                num_docs_in_coll=n).summary["auc_roc"] for s in "AB")
    assert math.isclose(b - a, 6 * 0.25 / (n - 4), rel_tol=1e-6)
    assert 1.97e-7 < b - a < 1.99e-7
