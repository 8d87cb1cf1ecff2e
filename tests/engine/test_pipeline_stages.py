"""The pipeline's stage API (engine/pipeline.py): read_judgments, join,
batches, map_batches. Big runs read in pieces (grouped or interleaved) give
what the whole run gives, for evaluate and for curves alike; curves take
--compat and -T like evaluate."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from support.paths import GOLDEN

from trec_eval_py.engine import pipeline
from trec_eval_py.engine.parse import run as run_mod
from trec_eval_py.engine.pipeline import batches, evaluate, join, map_batches, read_judgments
from trec_eval_py.errors import UsageError
from trec_eval_py.tools.curves.curves import compute_curves

IN = GOLDEN / "inputs"


def _interleave(path: Path, out: Path, shards: int = 3) -> Path:
    lines = path.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(b"".join(lines[k::shards]) for k in range(shards)))
    return out


@pytest.mark.parametrize("interleaved", [False, True])
@pytest.mark.parametrize("complete", [False, True])
def test_streamed_evaluate_and_curves_match_whole_reading(tmp_path, monkeypatch, interleaved, complete):
    qrels, run = IN / "mid" / "qrels", IN / "mid" / "run"
    if interleaved:
        run = _interleave(run, tmp_path / "run")
    opts = dict(complete=complete, max_cells=500)
    whole_ev = evaluate(qrels, run.read_bytes(), ["map", "P.5", "num_ret", "relstring"], **opts)
    whole_cv = compute_curves(qrels, run.read_bytes(), "ipr", **opts)
    monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
    monkeypatch.setattr(run_mod, "CHUNK_BYTES", 700)
    from trec_eval_py.engine.join import stream

    pieces = []
    real = stream.build_rankings
    monkeypatch.setattr(stream, "build_rankings", lambda *a, **k: pieces.append(1) or real(*a, **k))
    res = map_batches(lambda b: list(b.qids), qrels, run, opts)
    assert len(pieces) > 2  # really joined piece by piece
    assert res.topics == whole_ev.topics
    ev = evaluate(qrels, run, ["map", "P.5", "num_ret", "relstring"], **opts)
    assert ev.to_text(query=True) == whole_ev.to_text(query=True)
    cv = compute_curves(qrels, run, "ipr", **opts)
    assert cv.to_tsv() == whole_cv.to_tsv()


def test_stages_compose(tmp_path):
    q = read_judgments(IN / "qrels.test")
    joined = join(q, IN / "results.test")
    assert joined.qids == sorted(joined.qids, key=str.encode)
    assert [t for b in batches(q, IN / "results.test", {"max_cells": 50}) for t in b.qids] == joined.qids
    res = map_batches(lambda b: b.num_ret.copy(), q, IN / "results.test")
    assert np.concatenate(res.results).tolist() == joined.num_ret.tolist()


def test_curves_follow_compat():
    qrels = b"1 0 a 1\n1 0 b 0\n"
    run = b"1 Q0 a 1 1.00000001 r\n1 Q0 b 2 1.0 r\n"
    # 9.0.8: the scores tie in single precision and b (not relevant) comes first
    assert compute_curves(qrels, run, "pr").points["1"].tolist() == [[1.0, 0.5]]
    assert compute_curves(qrels, run, "pr", compat="10.0").points["1"].tolist() == [[1.0, 1.0]]


def test_curves_reject_what_does_not_apply():
    with pytest.raises(UsageError, match="-R qrels"):
        compute_curves(b"1 g s a 1\n", b"1 Q0 a 1 1 r\n", "pr", rel_format="prefs")
    with pytest.raises(UsageError, match="-Z"):
        compute_curves(b"1 0 a 1\n", b"1 Q0 a 1 1 r\n", "pr", zscore_file="z")
    with pytest.raises(UsageError, match="-T bogus"):
        compute_curves(b"1 0 a 1\n", b"1 Q0 a 1 1 r\n", "pr", results_format="bogus")


def test_curves_command_takes_compat(tmp_path, capsysbinary):
    from support.golden import run_cli

    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1.00000001 r\n1 Q0 b 2 1.0 r\n")
    code, out, _ = run_cli(["curves", str(tmp_path / "q"), str(tmp_path / "r")], capsysbinary)
    assert code == 0 and "1\t1.000000\t0.500000" in out
    code, out, _ = run_cli(["curves", "--compat", "10.0", str(tmp_path / "q"), str(tmp_path / "r")], capsysbinary)
    assert code == 0 and "1\t1.000000\t1.000000" in out


def test_compare_reads_judgments_in_the_chosen_format():
    from trec_eval_py.tools.compare.comparison import per_topic_values

    prefs = b"1 g s a 2\n1 g s b 1\n2 g s a 1\n2 g s b 0\n"
    runs = [b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n2 Q0 a 1 2 r\n2 Q0 b 2 1 r\n",
            b"1 Q0 a 1 1 s\n1 Q0 b 2 2 s\n2 Q0 a 1 2 s\n2 Q0 b 2 1 s\n"]
    topics, labels, files, filled, values = per_topic_values(prefs, runs, ["prefs_simp"], rel_format="prefs")
    assert topics == ["1", "2"]
    assert [values[label]["prefs_simp"].tolist() for label in labels] == [[1.0, 1.0], [0.0, 1.0]]
