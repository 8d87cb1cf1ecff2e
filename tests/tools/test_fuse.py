"""fuse: equal to ranx's fusion on the same runs (property tests), the ranking
rule on ties, the weight search against a brute-force grid, bad input."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.golden import run_cli

from trec_eval_py.errors import UsageError
from trec_eval_py.tools.organiser.fusion import METHODS, NORMS, fuse, grid, optimize_weights

ranx = pytest.importorskip("ranx")

RANX_NORM = {"minmax": "min-max", "max": "max", "sum": "sum", "zscore": "zmuv", "rank": "rank", "none": None}
RANX_METHOD = {"rrf": "rrf", "combsum": "sum", "combmnz": "mnz", "combanz": "anz", "combmax": "max",
               "combmin": "min", "borda": "bordafuse", "wsum": "wsum"}


def write_run(path, run: dict, tag: str) -> str:
    with open(path, "w") as f:
        for q, docs in run.items():
            for d, s in docs.items():
                f.write(f"{q} Q0 {d} 0 {s!r} {tag}\n")
    return str(path)


@st.composite
def run_sets(draw, ties: bool = False):
    """2-4 runs over the same topics; every list has at least one document.
    Its scores are distinct (ranx leaves the order of ties to its sort), or,
    with ``ties``, may all be one score (for methods that do not read ranks).
    Docnos are all one length: ranx 0.3.21 garbles document ids when the runs'
    longest ids differ in length ('D9' fused with 'D19' comes back as
    'D9\\U5c28f5c3' with value 0), see test_docnos_of_different_lengths."""
    n_runs = draw(st.integers(2, 4))
    topics = draw(st.lists(st.sampled_from(["1", "2", "10", "301", "q7"]), min_size=1, max_size=3, unique=True))
    runs = []
    for _ in range(n_runs):
        run = {}
        for q in topics:
            docs = draw(st.lists(st.integers(0, 25), min_size=1, max_size=10, unique=True))
            if ties and draw(st.booleans()):
                scores = [draw(st.integers(-500, 500))] * len(docs)
            else:
                scores = draw(st.lists(st.integers(-500, 500), min_size=len(docs), max_size=len(docs), unique=True))
            scale = draw(st.sampled_from([1.0, 0.01, 0.07, 7.0, 1e7]))
            run[q] = {f"D{d:02d}": s * scale for d, s in zip(docs, scores)}
        runs.append(run)
    return runs


def ranx_fused(runs, method, norm, weights=None):
    params = {"weights": list(weights)} if method == "wsum" else {}
    r = ranx.fuse([ranx.Run(x) for x in runs], norm=RANX_NORM[norm], method=RANX_METHOD[method], params=params)
    return r.to_dict()


def without_scale(scores: dict, norm: str) -> bool:
    """A list our normalisation defines as 0 where ranx divides by 1e-9: under
    ``max`` no positive score, under ``zscore`` equal scores."""
    v = list(scores.values())
    return norm == "max" and max(v) <= 0 or norm == "zscore" and min(v) == max(v)


def ranx_expected(runs, method, norm, weights=None):
    """ranx's fusion, where our definitions part from its conventions in two
    narrow cases, each restated in ranx's terms so the rest is compared exactly:

    * a list ``without_scale`` is given to ranx as zeros (whose normalisation
      is 0 in ranx too): our value for it;
    * ranx's combmax/combmin let a run without the document take part with
      -1e9/+1e9: for such a document ranx's value is ours clipped at that stand-in
      (the caller compares ``max(ours, -1e9)``, ``min(ours, 1e9)``).
    """
    given = [{q: ({d: 0.0 for d in docs} if without_scale(docs, norm) else docs) for q, docs in run.items()}
             for run in runs]
    return ranx_fused(given, method, norm, weights)


def assert_same(ours: dict, theirs: dict, runs=None, method=None):
    assert ours.keys() == theirs.keys()
    for q in theirs:
        assert ours[q].keys() == theirs[q].keys(), q
        for d, v in theirs[q].items():
            mine = ours[q][d]
            if method in ("combmax", "combmin") and any(d not in run[q] for run in runs):
                mine = max(mine, -1e9) if method == "combmax" else min(mine, 1e9)
            assert math.isclose(mine, v, rel_tol=1e-9, abs_tol=1e-9), (q, d, ours[q][d], v)


@pytest.mark.filterwarnings("ignore")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.slow
def test_every_method_and_norm_equals_ranx(tmp_path_factory, data):
    method = data.draw(st.sampled_from(METHODS))
    norm = "none" if method in ("rrf", "borda") else data.draw(st.sampled_from(NORMS))
    # ranks of tied scores are the ranking rule's, not ranx's: no ties where ranks count
    runs = data.draw(run_sets(ties=method not in ("rrf", "borda") and norm != "rank"))
    tmp = tmp_path_factory.mktemp("fuse")
    paths = [write_run(tmp / f"r{i}", r, f"r{i}") for i, r in enumerate(runs)]
    weights = None
    if method == "wsum":
        weights = data.draw(st.lists(st.sampled_from([0.0, 0.2, 0.5, 1.0, 3.0]), min_size=len(runs),
                                     max_size=len(runs)))
    ours = fuse(paths, method, norm=None if method in ("rrf", "borda") else norm, weights=weights, depth=None)
    assert_same(ours.to_dict(), ranx_expected(runs, method, norm, weights), runs, method)
    # the fused run is in the ranking rule's order: score descending, ties by docno descending
    for q in set(ours.topic.tolist()):
        rows = ours.topic == q
        s, d, k = ours.score[rows], ours.docno[rows], ours.rank[rows]
        assert k.tolist() == list(range(1, len(k) + 1))
        rows = list(zip(s.tolist(), d.tolist()))
        want = sorted(sorted(rows, key=lambda x: x[1], reverse=True), key=lambda x: -np.float32(x[0]))
        assert rows == want


def test_max_norm_of_a_list_without_a_positive_score_is_zero(tmp_path):
    """A run whose only document for topic 1 scores -62 (or whose scores are all
    0 or below): ``max`` has nothing positive to divide by, so its values are 0,
    where ranx divides by 1e-9 and gives -6.2e10."""
    a = write_run(tmp_path / "a", {"1": {"D1": 4.0, "D2": 2.0}}, "a")
    b = write_run(tmp_path / "b", {"1": {"D3": -62.0}}, "b")
    c = write_run(tmp_path / "c", {"1": {"D1": 0.0, "D2": -5.0, "D4": -1.0}}, "c")
    assert fuse([a, b, c], "combsum", norm="max", depth=None).to_dict() == {
        "1": {"D1": 1.0, "D2": 0.5, "D3": 0.0, "D4": 0.0}}
    # a positive maximum below 1e-9 still counts as 1e-9, as ranx
    d = write_run(tmp_path / "d", {"1": {"D1": 5e-10, "D2": 2.5e-10}}, "d")
    assert fuse([d, d], "combmax", norm="max", depth=None).to_dict() == {"1": {"D1": 0.5, "D2": 0.25}}


def test_zscore_of_equal_scores_is_zero(tmp_path):
    """Ten documents all scored 0.7: zero spread, every value 0 (ranx's mean
    rounds to 0.7000000000000001 and it divides the difference by 1e-9,
    giving -1.1e-07); one document alone is 0 too."""
    a = write_run(tmp_path / "a", {"1": {f"D{i}": 0.7 for i in range(10)}}, "a")
    b = write_run(tmp_path / "b", {"1": {"D3": 1e7}}, "b")
    f = fuse([a, b], "combsum", norm="zscore", depth=None).to_dict()["1"]
    assert f == {f"D{i}": 0.0 for i in range(10)}


@pytest.mark.parametrize("method, want", [("combmax", -3e9), ("combmin", 3e9)])
def test_combmax_and_combmin_are_over_the_runs_that_retrieved_the_document(tmp_path, method, want):
    """D2 is retrieved by one run of two, with score -3e9 (combmax) or 3e9
    (combmin): its fused score is that value. ranx lets the other run take
    part with -1e9 (+1e9) and gives -1e9 (+1e9)."""
    sign = -1 if method == "combmax" else 1
    a = write_run(tmp_path / "a", {"1": {"D1": 1.0, "D2": sign * 3e9}}, "a")
    b = write_run(tmp_path / "b", {"1": {"D1": 2.0}}, "b")
    f = fuse([a, b], method, norm="none", depth=None).to_dict()["1"]
    assert f == {"D1": 2.0 if method == "combmax" else 1.0, "D2": want}


@pytest.mark.filterwarnings("ignore")
def test_docnos_of_different_lengths(tmp_path):
    """Runs whose longest docnos differ in length (ranx garbles these): every
    document keeps its id and its score, checked against ranx with the ids
    padded to one length."""
    runs = [{"1": {"D19": 0.02, "D1": 3.0}}, {"1": {"D9": -4.94}}, {"1": {"D100": 1.5, "D9": 2.0}}]
    paths = [write_run(tmp_path / f"r{i}", r, f"r{i}") for i, r in enumerate(runs)]
    padded = [{q: {d.ljust(4, "_"): s for d, s in docs.items()} for q, docs in run.items()} for run in runs]
    for method, norm in (("combsum", "minmax"), ("rrf", "none")):
        ours = fuse(paths, method, depth=None).to_dict()
        theirs = ranx_fused(padded, method, norm)
        assert_same(ours, {q: {d.rstrip("_"): v for d, v in docs.items()} for q, docs in theirs.items()})
    assert fuse(paths, "combsum", norm="none", depth=None).to_dict() == {
        "1": {"D1": 3.0, "D19": 0.02, "D9": 2.0 - 4.94, "D100": 1.5}}


def test_tied_scores_are_ranked_by_docno_descending(tmp_path):
    """Two documents with one score: the ranking rule puts the greater docno
    first, so it gets rank 1 in RRF (ranx leaves the order to its sort)."""
    a = write_run(tmp_path / "a", {"1": {"D1": 1.0, "D2": 1.0, "D3": 0.5}}, "a")
    b = write_run(tmp_path / "b", {"1": {"D3": 2.0}}, "b")
    f = fuse([a, b], "rrf", k=0, depth=None).to_dict()["1"]
    # D2 rank 1 in a: 1/1; D1 rank 2: 1/2; D3: 1/3 (a) + 1/1 (b)
    assert f == {"D2": 1.0, "D1": 0.5, "D3": 1 / 3 + 1.0}


def test_a_topic_missing_from_a_run(tmp_path):
    """ranx refuses runs with different topics; here a topic is fused from the
    runs that have it (Borda: a run without it counts as an empty list)."""
    a = write_run(tmp_path / "a", {"1": {"D1": 2.0, "D2": 1.0}, "2": {"D5": 1.0}}, "a")
    b = write_run(tmp_path / "b", {"1": {"D2": 3.0}}, "b")
    f = fuse([a, b], "combsum", norm="none", depth=None).to_dict()
    assert f == {"1": {"D1": 2.0, "D2": 4.0}, "2": {"D5": 1.0}}
    g = fuse([a, b], "borda", depth=None).to_dict()
    # topic 2: one candidate; a gives it 1 point, b (empty list) (1 - 0 + 1) / 2 = 1
    assert g["2"] == {"D5": 2.0}


def test_grid_is_every_simplex_point():
    pts = list(grid(3, 0.25))
    assert len(pts) == math.comb(4 + 2, 2)
    assert all(abs(sum(p) - 1) < 1e-12 for p in pts) and len(set(pts)) == len(pts)
    assert (0.1, 0.2, 0.7) in set(grid(3, 0.1))  # a point ranx's float test drops
    with pytest.raises(UsageError):
        list(grid(2, 0.3))


@pytest.mark.filterwarnings("ignore")
def test_weight_search_finds_the_grid_maximum(tmp_path):
    """The chosen weights score the maximum of a brute-force search that fuses
    with ranx and evaluates with the main command."""
    from trec_eval_py import evaluate

    rng = np.random.default_rng(3)
    runs, qrels = [], {}
    for q in ["1", "2", "3", "4"]:
        qrels[q] = {f"D{d}": int(rng.integers(0, 3)) for d in range(12)}
    for _i in range(3):
        runs.append({q: {f"D{d}": float(s) for d, s in zip(rng.permutation(15)[:10], rng.permutation(100)[:10])}
                     for q in qrels})
    paths = [write_run(tmp_path / f"r{i}", r, f"r{i}") for i, r in enumerate(runs)]
    qpath = tmp_path / "qrels"
    qpath.write_text("".join(f"{q} 0 {d} {r}\n" for q, ds in qrels.items() for d, r in ds.items()))
    weights, best, report = optimize_weights(paths, str(qpath), "map", norm="minmax", step=0.25)
    brute = []
    for w in grid(3, 0.25):
        fused = ranx_fused(runs, "wsum", "minmax", w)
        brute.append(evaluate(str(qpath), fused, "map").summary["map"])
    assert math.isclose(best, max(brute), rel_tol=1e-12)
    assert [v for _, v in report] == pytest.approx(brute, rel=1e-12, abs=1e-12)
    assert report[[w for w, _ in report].index(weights)][1] == best


def test_cli_writes_a_run_the_main_command_reads(tmp_path, capsysbinary):
    a = write_run(tmp_path / "a", {"1": {"D1": 3.0, "D2": 2.0}, "2": {"D4": 1.0}}, "a")
    b = write_run(tmp_path / "b", {"1": {"D2": 5.0, "D3": 1.0}, "2": {"D4": 2.0, "D5": 1.0}}, "b")
    out = tmp_path / "fused"
    code, stdout, err = run_cli(["fuse", a, b, "-o", out, "--method", "rrf", "--k", "1"], capsysbinary)
    assert (code, stdout, err) == (0, "", "")
    lines = out.read_text().splitlines()
    assert [ln.split()[:4] for ln in lines] == [
        ["1", "Q0", "D2", "1"], ["1", "Q0", "D1", "2"], ["1", "Q0", "D3", "3"],
        ["2", "Q0", "D4", "1"], ["2", "Q0", "D5", "2"]]
    # D2: rank 2 in a, rank 1 in b: 1/(1+2) + 1/(1+1)
    assert float(lines[0].split()[4]) == 1 / 3 + 1 / 2 and all(ln.endswith(" fused") for ln in lines)
    qrels = tmp_path / "q"
    qrels.write_text("1 0 D2 1\n2 0 D5 1\n")
    code, stdout, _ = run_cli([qrels, out, "-m", "map"], capsysbinary)
    assert code == 0 and "map                   \tall\t0.7500" in stdout


@pytest.mark.parametrize("args, message, exit_code", [
    (["--method", "bogus"], "unknown fusion method 'bogus'", 1),
    (["--method", "rrf", "--norm", "minmax"], "--method rrf reads ranks only", 1),
    (["--method", "wsum", "--weights", "1"], "--weights gives 1 weights for 2 runs", 1),
    (["--method", "wsum", "--weights", "1,x"], "--weights wants numbers", 1),
    (["--method", "combsum", "--train-qrels", "q"], "--train-qrels searches the weights of --method wsum", 1),
])
def test_bad_options_are_one_line(tmp_path, capsysbinary, args, message, exit_code):
    a = write_run(tmp_path / "a", {"1": {"D1": 1.0}}, "a")
    code, out, err = run_cli(["fuse", a, a, *args], capsysbinary)
    assert code == exit_code and out == "" and message in err and err.count("\n") == 1


def test_bad_run_names_file_and_line(tmp_path, capsysbinary):
    a = write_run(tmp_path / "a", {"1": {"D1": 1.0}}, "a")
    bad = tmp_path / "bad"
    bad.write_text("1 Q0 D1 1 1.0 x\n1 Q0 D2 2 oops x\n")
    code, out, err = run_cli(["fuse", a, bad], capsysbinary)
    assert code == 2 and out == ""
    assert err == f"trec_eval_py: {bad}, line 2: score is not a number ('oops'): '1 Q0 D2 2 oops x'\n"
    dup = tmp_path / "dup"
    dup.write_text("1 Q0 D1 1 1.0 x\n1 Q0 D1 2 0.5 x\n")
    code, out, err = run_cli(["fuse", a, dup, "-o", tmp_path / "o"], capsysbinary)
    assert code == 2
    assert err == f"trec_eval_py: {dup}, line 2: duplicate docno 'D1' in the same topic (first seen on line 1)\n"
    assert not (tmp_path / "o").exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".partial")] == []
