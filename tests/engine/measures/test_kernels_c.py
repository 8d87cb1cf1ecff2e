"""The C rank loops (``_native/_kernels.c``) against their numpy twins, bit for bit.

bpref, infAP, G, Rndcg, ndcg_rel, map and binG, the running dcg of ndcg and
ndcg_cut, the interpolated precisions of iprec_at_recall and 11pt_avg, the
gain tables they read and the batch padding each have a C loop and a numpy
twin in their module; both must give the same bits (NaN signs included) on
any judgments: several relevance levels in one batch, negative levels,
topics judged only with negative levels (which read another topic's
levels), negative ``-l``, gains that are negative, fractional, zero or so
large that sums overflow, empty rankings, ``-c``, ``-M`` and ``-J``.
"""
from __future__ import annotations

import numpy as np
import pytest

import trec_eval_py as te
from trec_eval_py import _native

pytestmark = pytest.mark.skipif(_native.built("kernels") is None, reason="C rank loops not built")

MEASURES = ["bpref", "infAP", "G", "Rndcg", "ndcg_rel", "ndcg", "binG", "map", "ndcg_cut.1,2,5,100",
            "iprec_at_recall", "iprec_at_recall.0,0.05,0.33,0.5,1", "11pt_avg"]
NO_GAINS = ("bpref", "infAP", "map", "binG", "ndcg_cut.1,2,5,100", "iprec_at_recall",
            "iprec_at_recall.0,0.05,0.33,0.5,1", "11pt_avg")
GAINS = ["", "1=3,2=1", "0=2,3=0", "2=-1", "1=0.5,2=0.25", "-1=2", "-2=1,0=-1", "1=0", "2=1e308,3=1e308",
         "1=1e300,2=1e300"]


def random_case(seed: int):
    rng = np.random.default_rng(seed)
    top = int(rng.choice([1, 2, 4, 9]))
    qrels: dict = {}
    run: dict = {}
    for t in range(int(rng.integers(1, 25))):
        qid = f"q{t}"
        docs = [f"d{i}" for i in rng.choice(400, int(rng.integers(0, 80)), replace=False)]
        judged = docs[: int(rng.integers(0, len(docs) + 1))]
        levels = rng.integers(-1, top + 1, len(judged))
        if rng.random() < 0.15:  # a topic judged only with negative levels
            levels = np.full(len(judged), -1)
        if len(judged):
            qrels[qid] = {d: int(lv) for d, lv in zip(judged, levels)}
        if rng.random() < 0.1:  # a judged topic without results (-c fills it in)
            continue
        ranked = docs[: int(rng.integers(0, len(docs) + 1))] + [f"x{i}" for i in range(int(rng.integers(0, 5)))]
        if ranked:
            run[qid] = {d: float(rng.integers(0, 6)) for d in ranked}
    if not qrels:
        qrels["q0"] = {"d0": 1}
    if not run:
        run["q0"] = {"d0": 1.0}
    options = {"relevance_level": int(rng.choice([1, 1, 2, 0, -1])), "complete": bool(rng.random() < 0.3),
               "compat": str(rng.choice(["9.0.8", "10.0"]))}
    if rng.random() < 0.2:
        options["max_docs"] = int(rng.integers(1, 30))
    if rng.random() < 0.2:  # rankings of unjudged documents only become empty
        options["judged_only"] = True
    gains = str(rng.choice(GAINS))
    return qrels, run, options, gains


def values(qrels, run, measures, options, use_c, monkeypatch):
    monkeypatch.setattr(_native, "USE_C", use_c)
    ev = te.evaluate(qrels, run, measures, **options)
    return {name: np.asarray(v, dtype=np.float64).tobytes() for name, v in ev.values.items()}


@pytest.mark.parametrize("seed", range(80))
def test_c_rank_loops_give_the_numpy_bits(seed, monkeypatch):
    qrels, run, options, gains = random_case(seed)
    measures = [m if not gains or m in NO_GAINS else f"{m}.{gains}" for m in MEASURES]
    c = values(qrels, run, measures, options, True, monkeypatch)
    ref = values(qrels, run, measures, options, False, monkeypatch)
    assert c.keys() == ref.keys()
    for name in c:
        assert c[name] == ref[name], (name, np.frombuffer(c[name]), np.frombuffer(ref[name]))


def test_the_c_loops_are_the_ones_measured(monkeypatch):
    # the comparison above means something only if the C loops run when USE_C is on
    called = set()
    kernels = _native.built("kernels")

    class Spy:
        def __getattr__(self, name):
            called.add(name)
            return getattr(kernels, name)

    monkeypatch.setattr(_native, "extension", lambda name: Spy() if name == "kernels" else _native.built(name))
    te.evaluate({"q": {"a": 2, "b": 0, "c": 1}}, {"q": {"a": 1.0, "b": 2.0, "c": 0.5, "z": 3.0}},
                ["bpref", "infAP", "G", "Rndcg", "ndcg_rel", "map", "binG", "ndcg_cut.5", "iprec_at_recall"])
    assert called >= {"pad_rows", "bpref_sums", "infap_sums", "g", "rndcg", "ndcg_rel", "gains_of", "ideal_gains",
                      "ap_sums", "bing_sums", "dcg_at", "iprec_pick"}


@pytest.mark.parametrize("call, args", [
    ("bpref_sums", (np.zeros(3, np.int64), 2, np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64),
                    1, np.zeros(2))),
    ("g", (np.zeros(4), 2, np.zeros(3), 2, np.zeros(2))),
    ("pad_rows", (np.zeros(3, np.int64), np.array([0, 5], np.int64), 0, 1, 5, np.zeros(5, np.int64))),
    ("dcg_at", (np.zeros(4), 2, False, np.array([1], np.int64), np.ones(1), np.zeros(2))),  # discounts too short
    ("dcg_at", (np.zeros(4), 2, False, np.array([2], np.int64), np.ones(2), np.zeros(2))),  # a column past the end
    ("ideal_gains", (np.zeros(2, np.int64), 2, np.array([7], np.int64), np.zeros(2), np.zeros(2),
                     np.zeros(1, np.int64))),
])
def test_buffers_that_do_not_fit_are_refused(call, args):
    # a wrong call is a ValueError, never a read or write past a buffer's end
    with pytest.raises(ValueError):
        getattr(_native.built("kernels"), call)(*args)
