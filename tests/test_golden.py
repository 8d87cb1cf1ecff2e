"""The golden corpus: trec_eval 9.0.8 and 10.0 outputs, byte for byte.

Each case runs the real command line in-process (``cli.main``) from the
corpus folder, so paths in cases.tsv resolve as they do for trec_eval.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from support.golden import GOLDEN, expectation, load_cases, run_cli

# Cases that belong to the other judgment formats (their own issue).



CASES = load_cases()


@pytest.fixture(params=["fast", "portable", "streaming", "sharded-1", "sharded-2", "sharded-3", "sharded-7",
                        "sharded-each", "folded"])
def code_path(request, monkeypatch):
    """Run every case on these code paths: the default one for small files; the
    portable one (no C at all: numpy field scanner, numpy join and ranking with
    the exact sort-based lookup, math.log and cumsum, batches of a few cells);
    the big-file one (the run read in small pieces, topic groups ranked as they
    complete); the sharded one (topics cut into 1, 2, 3, 7
    ranges or one range per topic, each evaluated alone, the summaries folded
    in order); and the folded one (a big file summarised range by range through
    temporary files, ranges of a few bytes). All must give trec_eval's bytes."""
    if request.param.startswith("sharded-"):
        from trec_eval_py.engine import pipeline

        n = request.param.split("-", 1)[1]
        monkeypatch.setattr(pipeline, "DEFAULT_SHARDS", n if n == "each" else int(n))
    if request.param == "folded":
        from trec_eval_py.engine import pipeline
        from trec_eval_py.engine.parse import run

        monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
        monkeypatch.setattr(pipeline.POLICY, "range_bytes", 200)
        monkeypatch.setattr(run, "CHUNK_BYTES", 700)
    if request.param == "streaming":
        from trec_eval_py.engine import pipeline
        from trec_eval_py.engine.parse import run

        monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
        monkeypatch.setattr(run, "CHUNK_BYTES", 700)
    if request.param == "portable":
        from trec_eval_py import _native
        from trec_eval_py.engine.join import batch
        from trec_eval_py.engine.join import qrels as qrels_join

        monkeypatch.setattr(_native, "USE_C", False)
        monkeypatch.setattr(batch, "DEFAULT_MAX_CELLS", 64)
        monkeypatch.setattr(qrels_join, "row_hash", lambda t, w, *a: np.zeros(len(t), dtype=np.uint64))
    return request.param


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
@pytest.mark.parametrize("name,args", CASES, ids=[c[0] for c in CASES])
def test_golden(name, args, version, code_path, monkeypatch, capsysbinary):
    kind, payload = expectation(version, name)
    if kind == "skip":
        pytest.skip(payload)
    argv = list(args) if version == "9.0.8" else ["--compat", version, *args]
    code, out, err = run_cli(argv, capsysbinary, monkeypatch, cwd=GOLDEN, binary=True)
    assert "Traceback" not in err
    if kind == "output":
        assert code == 0, err
        assert out.decode(errors="replace") == payload.decode(errors="replace")
        assert out == payload
    else:
        assert code != 0
        assert err.strip(), "an error must say why on stderr"
        if kind == "deviation":
            files = [a for a in args if "/" in a]
            assert any(os.path.basename(f) in err for f in files), err
            assert "line" in err.lower(), err
