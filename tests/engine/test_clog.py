"""Geometric means take C's log(): the C loop equals math.log bit for bit."""
from __future__ import annotations

import math

import numpy as np
import pytest

from trec_eval_py import _native
from trec_eval_py.engine import aggregate


def values():
    rng = np.random.default_rng(7)
    v = np.concatenate([
        rng.random(20000), rng.random(2000) * 1e-4, rng.random(2000) * 1e6,
        np.array([0.0, -0.0, -1.0, 1e-5, 1e-5 * (1 + 1e-16), 1.0, np.inf, np.nan, -np.nan, 5e-324]),
    ])
    return v


@pytest.mark.parametrize("use_c", [True, False])
def test_logs_are_math_log_bit_for_bit(use_c, monkeypatch):
    if use_c and _native.built("cmath") is None:
        pytest.skip("C extension not built")
    monkeypatch.setattr(_native, "USE_C", use_c)
    v = values()
    got = aggregate.c_logs(v, 1e-5)
    want = np.array([math.log(max(x, 1e-5)) for x in v.tolist()])
    assert got.view(np.uint64).tolist() == want.view(np.uint64).tolist()


def test_row_sums_are_cumsum_bit_for_bit(monkeypatch):
    from trec_eval_py.engine.join.batch import TopicBatch

    if _native.built("cmath") is None:
        pytest.skip("C extension not built")
    rng = np.random.default_rng(11)
    x = rng.random((300, 257)) * rng.choice([1e-9, 1.0, 1e9], (300, 257))
    x[::7, ::5] = -x[::7, ::5]
    want = np.cumsum(x, axis=1)[:, -1]
    for m in (x, x[:, ::2], np.asfortranarray(x), x[:, :1]):
        ref = np.cumsum(m, axis=1)[:, -1]
        assert TopicBatch.seq_sum(m).view(np.uint64).tolist() == ref.view(np.uint64).tolist()
    monkeypatch.setattr(_native, "USE_C", False)
    assert TopicBatch.seq_sum(x).view(np.uint64).tolist() == want.view(np.uint64).tolist()
