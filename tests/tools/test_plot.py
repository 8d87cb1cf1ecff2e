"""``trec_eval_py plot`` (Agg, no display): every kind is written in every
format, the ROC points agree with a brute-force computation, and a missing
matplotlib gives a message naming the extra."""
from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # never open a window

from support.golden import run_cli
from support.paths import EXAMPLES

from trec_eval_py.errors import UsageError
from trec_eval_py.tools.curves import plotting

QRELS = str(EXAMPLES / "qrels.txt")
RUNS = [str(EXAMPLES / "run_a.txt"), str(EXAMPLES / "run_b.txt")]


@pytest.mark.parametrize("kind", plotting.KINDS)
@pytest.mark.parametrize("ext", plotting.FORMATS)
def test_every_kind_and_format(tmp_path, capsysbinary, kind, ext):
    dest = tmp_path / f"fig.{ext}"
    code, _, err = run_cli(["plot", QRELS, *RUNS, "--kind", kind, "-o", str(dest)], capsysbinary)
    assert code == 0, err
    assert dest.exists() and dest.stat().st_size > 5_000
    head = dest.read_bytes()[:8]
    assert head.startswith({"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}[ext])


def test_png_size_and_content(tmp_path, capsysbinary):
    import matplotlib.image

    dest = tmp_path / "pr.png"
    assert run_cli(["plot", QRELS, *RUNS, "--kind", "pr", "-o", str(dest), "--dpi", "100"], capsysbinary)[0] == 0
    img = matplotlib.image.imread(str(dest))
    assert img.shape[:2] == (480, 640)  # 6.4 x 4.8 inches at 100 dpi
    assert img[..., :3].std() > 0.05  # not a blank canvas


def test_figures_are_labelled():
    fig = plotting.plot_pr(QRELS, RUNS)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "Recall" and "precision" in ax.get_ylabel().lower()
    assert "iprec_at_recall" in ax.get_title()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0].startswith("STANDARD (MAP ") and legend[1].startswith("PERTURBED (MAP ")

    fig = plotting.plot_roc(QRELS, RUNS, croc_alpha=7)
    ax = fig.axes[0]
    assert "CROC" in ax.get_title() and "croc_exp_7" in ax.get_title()
    assert [t.get_text().split()[0] for t in ax.get_legend().get_texts()] == ["STANDARD", "PERTURBED", "random"]

    fig = plotting.plot_per_topic(QRELS, RUNS, "P.10")
    ax = fig.axes[0]
    assert "P_10" in ax.get_title() and "PERTURBED - STANDARD" in ax.get_title()
    heights = [p.get_height() for p in ax.patches]
    assert heights == sorted(heights, reverse=True) and len(heights) == 3


def test_pr_points_are_the_averaged_iprec():
    import trec_eval_py as te

    fig = plotting.plot_pr(QRELS, RUNS)
    line = fig.axes[0].get_lines()[0]
    ev = te.evaluate(QRELS, RUNS[0], ["iprec_at_recall"], complete=True)
    expected = [ev.summary[f"iprec_at_recall_{x:.2f}"] for x in np.arange(11) / 10]
    assert list(line.get_xdata()) == pytest.approx(list(np.arange(11) / 10))
    assert list(line.get_ydata()) == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------- ROC points

def _roc_reference(ranking, num_rel, xs, negatives=None, alpha=None):
    """One topic's best true-positive rate at each (magnified) false-positive
    rate, and its area, by walking the ranking one document at a time."""
    neg = sum(1 for r in ranking if not r) if negatives is None else negatives
    mag = (lambda x: x) if alpha is None else (lambda x: (1 - math.exp(-alpha * x)) / (1 - math.exp(-alpha)))
    points = [(0.0, 0.0)]
    tp = fp = 0
    gains = []
    for r in ranking:
        if r:
            tp += 1
            gains.append(1 - mag(fp / neg if neg else 0.0))
        else:
            fp += 1
        points.append((mag(fp / neg if neg else 0.0) if r else math.inf, tp / num_rel))
    points.append((1.0, 1.0))  # relevant documents not retrieved come after every negative
    return [max(t for f, t in points if f <= x + 1e-12) for x in xs], sum(gains) / num_rel


def _synthetic(tmp_path):
    rng = np.random.default_rng(4)
    q, r, truth = [], [], []
    for t in range(12):
        rels = rng.random(30) < 0.3
        if t == 5:
            rels[:] = False  # a topic without relevant documents counts 0 in the average
        for d in range(30):
            q.append(f"{t} 0 d{d} {int(rels[d])}\n")
        retrieved = rng.permutation(30)[: 5 + t]
        for rank, d in enumerate(retrieved):
            r.append(f"{t} Q0 d{d} {rank} {100 - rank} x\n")
        truth.append(([bool(rels[d]) for d in retrieved], int(rels.sum())))
    (tmp_path / "q").write_text("".join(q))
    (tmp_path / "r").write_text("".join(r))
    return str(tmp_path / "q"), str(tmp_path / "r"), truth


@pytest.mark.parametrize("alpha", [None, 7.0, 20.0])
@pytest.mark.parametrize("coll", [0, 1000])
def test_roc_lines_against_reference(tmp_path, alpha, coll):
    q, r, truth = _synthetic(tmp_path)
    fig = plotting.plot_roc(q, [r], croc_alpha=alpha, levels=41, num_docs_in_coll=coll)
    ax = fig.axes[0]
    line = ax.get_lines()[0]
    xs = np.linspace(0, 1, 41)
    assert list(line.get_xdata()) == pytest.approx(xs.tolist())
    refs = [_roc_reference(rk, nr, xs, negatives=(coll - nr) if coll else None, alpha=alpha) if nr
            else ([0.0] * len(xs), 0.0) for rk, nr in truth]
    expected = np.mean([y for y, _ in refs], axis=0)
    assert list(line.get_ydata()) == pytest.approx(expected.tolist(), rel=1e-12, abs=1e-15)
    area = float(ax.get_legend().get_texts()[0].get_text().split("AUC ")[1].rstrip(")"))
    assert area == round(float(np.mean([a for _, a in refs])), 4)
    assert f"vertical average of {len(truth)} topics" in ax.get_title()


# ---------------------------------------------------------------- errors

def test_missing_matplotlib_names_the_extra(tmp_path, capsysbinary, monkeypatch):
    for name in ("matplotlib", "matplotlib.figure"):
        monkeypatch.setitem(sys.modules, name, None)
    dest = tmp_path / "x.png"
    code, _, err = run_cli(["plot", QRELS, *RUNS, "-o", str(dest)], capsysbinary)
    assert code == 1 and not dest.exists()
    assert err == ("trec_eval_py: plotting needs matplotlib, which comes with the 'plot' extra: "
                   "pip install 'trec_eval_py[plot]'\n")
    with pytest.raises(plotting.MissingExtraError, match=r"'plot' extra"):
        plotting.plot_pr(QRELS, RUNS)


@pytest.mark.parametrize("args,message", [
    (["-o", "fig.gif"], "end the name in .png, .svg or .pdf"),
    (["-o", "fig.png", "--kind", "bars"], "unknown --kind 'bars'"),
    (["-o", "fig.png", "--kind", "per-topic", "-m", "P.5,10"], "shows one measure"),
    (["-o", "fig.png", "--kind", "croc", "--alpha", "0"], "alpha must be positive"),
])
def test_bad_options(tmp_path, capsysbinary, monkeypatch, args, message):
    code, _, err = run_cli(["plot", QRELS, *RUNS, *args], capsysbinary, monkeypatch, cwd=tmp_path)
    assert code == 1 and message in err and "Traceback" not in err


def test_per_topic_needs_two_runs(tmp_path, capsysbinary):
    code, _, err = run_cli(["plot", QRELS, RUNS[0], "--kind", "per-topic", "-o", str(tmp_path / "a.png")], capsysbinary)
    assert code == 1 and "baseline run and at least one other run" in err
    with pytest.raises(UsageError):
        plotting.plot_per_topic(QRELS, RUNS[:1])


# ---------------------------------------------------------------- an emptied ranking

EMPTIED_QRELS = b"q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d4 0\nq3 0 d5 1\n"
# q2 retrieves only an unjudged document (-J empties it); q3 has no results at all (-c: 0)
EMPTIED_RUN = b"q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\nq2 Q0 x9 1 1 r\n"


@pytest.mark.parametrize("flags,cause,topic", [(["-J"], "-J", "q2"), (["-M", "0"], "-M 0", "q1")])
def test_pr_refuses_an_emptied_ranking_in_its_own_words(tmp_path, capsysbinary, flags, cause, topic):
    import trec_eval_py as te

    q, r = tmp_path / "q", tmp_path / "r"
    q.write_bytes(EMPTIED_QRELS)
    r.write_bytes(EMPTIED_RUN)
    options = {"judged_only": True} if cause == "-J" else {"max_docs": 0}
    # the premise: trec_eval's 0/0 at recall 0 for the emptied topic, and so for the mean
    ev = te.evaluate(str(q), str(r), ["iprec_at_recall.0"], complete=True, **options)
    assert math.isnan(ev.per_topic()[topic]["iprec_at_recall_0.00"]) and math.isnan(ev.summary["iprec_at_recall_0.00"])
    dest = tmp_path / "pr.png"
    code, out, err = run_cli(["plot", "--kind", "pr", *flags, "-o", str(dest), str(q), str(r)], capsysbinary)
    assert code == 1 and not dest.exists() and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith(f"trec_eval_py: plot --kind pr: {r}: {cause} leaves topic {topic} no ranked document")
    assert "recall 0.00 is 0/0" in err and "compared" not in err
    with pytest.raises(UsageError, match=f"{cause} leaves topic {topic}"):
        plotting.plot_data("pr", str(q), [str(r)], **options)


def test_pr_draws_a_topic_without_results_as_zero(tmp_path):
    import trec_eval_py as te

    q, r = tmp_path / "q", tmp_path / "r"
    q.write_bytes(EMPTIED_QRELS)
    r.write_bytes(EMPTIED_RUN)
    data = plotting.plot_data("pr", str(q), [str(r)])  # no -J: q2 ranks x9, q3 is filled in
    ev = te.evaluate(str(q), str(r), ["iprec_at_recall"], complete=True)
    assert data.series[0].y.tolist() == [ev.summary[f"iprec_at_recall_{x / 10:.2f}"] for x in range(11)]
    assert data.series[0].y[0] == 1 / 3  # q1 1, q2 0 (nothing relevant retrieved), q3 0 (-c)
