"""The validator's checks of judged topics read the evaluation's join (the ranking and
the levels of each ranked line); when that join cannot be made (a docno listed twice,
a rank that is no integer) they rank and join on their own. Both ways must give the
same report, line for line, on runs full of what the checks look for: ties judged
differently, ties across cutoffs, unjudged documents at the top, ranks out of order,
topics nobody judged, topics out of order in the file."""
from __future__ import annotations

import numpy as np
import pytest

from trec_eval_py import _native
from trec_eval_py._record import as_dict
from trec_eval_py.tools.grading.validate import _run, validate_run


def random_files(seed: int) -> tuple[bytes, bytes]:
    rng = np.random.default_rng(seed)
    topics = [f"{int(t)}" for t in rng.choice(500, int(rng.integers(1, 12)), replace=False)]
    qrels, run = [], []
    for n, t in enumerate(topics):
        docs = [f"D{int(d)}" for d in rng.choice(300, int(rng.integers(1, 40)), replace=False)]
        if n == 0 or rng.random() < 0.8:  # some topics nobody judged
            for d in docs:
                if rng.random() < 0.6:
                    qrels.append(f"{t} 0 {d} {int(rng.integers(-1, 3))}")
            qrels.append(f"{t} 0 extra{t} 1")
        scores = rng.integers(0, 6, len(docs)).astype(float)  # many ties
        if rng.random() < 0.3:
            scores += rng.random(len(docs)) * 1e-9  # ties in single precision only
        order = np.argsort(-scores, kind="stable")
        if rng.random() < 0.3:
            order = rng.permutation(len(docs))  # scores rising with the rank
        for rank, i in enumerate(order, 1):
            shown = rank if rng.random() < 0.95 else rank + 1  # a rank sequence with gaps
            run.append(f"{t} Q0 {docs[i]} {shown} {float(scores[i])!r} r")
    for lacking in range(int(rng.integers(0, 3))):  # judged topics the run lacks (-c fills them in)
        qrels.append(f"{900 + lacking} 0 D1 1")
    if rng.random() < 0.3:  # topics not together: the lines of a topic come back
        rng.shuffle(run)
    return ("\n".join(qrels) + "\n").encode(), ("\n".join(run) + "\n").encode()


def both_ways(qrels: bytes, run: bytes, monkeypatch, **kw):
    reports = []
    for joined in (True, False):
        with monkeypatch.context() as m:
            if not joined:
                m.setattr(_run, "_join_lines", lambda *a, **k: (None, None))
            reports.append(as_dict(validate_run(run, qrels, name="run", **kw)))
    return reports


@pytest.mark.parametrize("use_c", [True, False])
@pytest.mark.parametrize("seed", range(40))
def test_checks_on_the_join_report_what_their_own_ranking_reports(seed, use_c, monkeypatch):
    monkeypatch.setattr(_native, "USE_C", use_c)
    qrels, run = random_files(seed)
    on_join, on_their_own = both_ways(qrels, run, monkeypatch, max_per_check=0)
    assert on_join == on_their_own


def test_the_join_is_what_the_checks_read(monkeypatch):
    # the judged tie is found through the join: with the join's levels swapped for
    # none, the same file reports no judged tie (so the join is not bypassed)
    qrels = b"1 0 a 1\n1 0 b 0\n"
    run = b"1 Q0 a 1 5 r\n1 Q0 b 2 5 r\n"  # tied: b is evaluated first, the run meant a
    report = validate_run(run, qrels, name="run")
    assert [f.code for f in report.findings if f.code == "tie"] == ["tie"]
    monkeypatch.setattr(_run, "_joined_levels", lambda joined, n: (lambda rows: np.zeros(len(rows))))
    assert not [f for f in validate_run(run, qrels, name="run").findings if f.code == "tie"]


def test_a_docno_listed_twice_is_still_named(monkeypatch):
    qrels = b"1 0 a 1\n1 0 b 0\n"
    run = b"1 Q0 a 1 5 r\n1 Q0 b 2 5 r\n1 Q0 b 3 4 r\n"
    checks = [f.code for f in validate_run(run, qrels, name="run").findings]
    assert "duplicate-docno" in checks and "tie" in checks


@pytest.mark.parametrize("seed", range(24))
def test_the_evaluations_join_gives_the_checks_the_same_report(seed, monkeypatch):
    # batch's way: the checks read the evaluation's own join (-c fills in the judged
    # topics the run lacks; 10.0 ranks a placeholder line there; -M and -J cut the
    # ranking, so the checks make their own join), and the evaluation measures it
    from trec_eval_py import Evaluator
    from trec_eval_py.engine.join.batch import Rankings

    rng = np.random.default_rng(seed)
    qrels, run = random_files(seed)
    settings = dict(complete=bool(rng.random() < 0.6), compat=str(rng.choice(["9.0.8", "10.0"])))
    cut = rng.random()
    if cut < 0.15:
        settings["max_docs"] = 5
    elif cut < 0.3:
        settings["judged_only"] = True
    ev = Evaluator(qrels, ["map", "P.5", "ndcg_cut.10", "num_ret"], **settings)
    rows: list = []
    shared = as_dict(validate_run(run, ev.judgments, name="run", compat=ev.options.compat, rows=rows, join=ev.join,
                                  max_per_check=0))
    alone = as_dict(validate_run(run, ev.judgments, name="run", compat=ev.options.compat, max_per_check=0))
    assert shared == alone
    if rows:  # (a run read whole, every line plain)
        cut = "max_docs" in settings or "judged_only" in settings
        assert isinstance(rows[-1], Rankings) != cut
        assert ev.evaluate(rows[-1]).to_text(query=True) == ev.evaluate(run).to_text(query=True)
