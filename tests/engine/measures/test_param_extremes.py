"""Measure parameters at the edges: cutoffs read as trec_eval's ``atol`` reads
them, names as its buffers print them, counts beyond a C ``long``, and no
numpy warning from the edges (test_measure_warnings runs every measure).

The expected lines were printed by trec_eval 9.0.8 on the same files.
"""
from __future__ import annotations

import numpy as np
import pytest
from support.golden import GOLDEN, run_cli

from trec_eval_py import evaluate

IN = GOLDEN / "inputs"
QRELS, RUN = IN / "qrels.test", IN / "results.test"


@pytest.mark.parametrize("spec,lines", [
    # atol: digits before the point, saturating at LONG_MAX, exact beyond 2**53
    ("P.2.5", ["P_2                   \tall\t0.3333"]),
    ("P.9223372036854775808", ["P_9223372036854775807 \tall\t0.0000"]),
    ("P.99999999999999999999", ["P_9223372036854775807 \tall\t0.0000"]),
    ("P.9007199254740993", ["P_9007199254740993    \tall\t0.0000"]),
    ("P. +5", ["P_5                   \tall\t0.2667"]),
    # "%3.2f" into room for 8 characters
    ("iprec_at_recall.-12345.678", ["iprec_at_recall_-12345.6\tall\t0.4665"]),
    ("Rprec_mult.123456.7", ["Rprec_mult_123456.7   \tall\t0.0000"]),
    ("ndcg_cut.9223372036854775807", ["ndcg_cut_9223372036854775807\tall\t0.4021"]),
    ("success.9223372036854775807", ["success_9223372036854775807\tall\t1.0000"]),
])
def test_as_trec_eval_prints_it(spec, lines, capsysbinary):
    code, out, err = run_cli(["-m", spec, QRELS, RUN], capsysbinary)
    assert (code, err) == (0, "")
    assert out.splitlines() == lines


@pytest.mark.parametrize("spec,message", [
    ("P.1e10", "trec_eval_py: measure 'P': cutoff '1e10' has an exponent: write the whole number "
               "(trec_eval would read '1')"),
    ("ndcg_cut.5,2E3", "trec_eval_py: measure 'ndcg_cut': cutoff '2E3' has an exponent: write the whole number "
                       "(trec_eval would read '2')"),
    ("P.-99999999999999999999",
     "trec_eval_py: measure 'P': cutoffs must be whole numbers above 0, not '-99999999999999999999'"),
])
def test_cutoffs_that_are_errors(spec, message, capsysbinary):
    code, out, err = run_cli(["-m", spec, QRELS, RUN], capsysbinary)
    assert code != 0 and out == ""
    assert err.splitlines() == [message]


def per_topic(spec, **opts):
    """(topics, outputs) array of the per-topic values."""
    ev = evaluate(QRELS, RUN, [spec], **opts)
    return np.stack(ev.column_values, axis=1)


def test_counts_beyond_a_long_saturate():
    """trec_eval's cast of such a count is undefined (x86 makes it the smallest
    long: relstring prints '' and a recall level of 1e308 scores like level 0).
    A huge length shows the whole ranking; a level above 1 is never reached."""
    whole = per_topic("relstring.9223372036854775807")
    for spec in ("relstring.1e308", "relstring.1e300", "relstring.99999999999999999999"):
        assert np.array_equal(per_topic(spec), whole)
    assert all(len(s) > 100 for s in whole[:, 0])
    for spec in ("iprec_at_recall.1e300", "iprec_at_recall.1e308", "iprec_at_recall.5"):
        assert not per_topic(spec).any()
    # the other levels of the same measure are not disturbed (they are in trec_eval)
    both = per_topic("iprec_at_recall.1e308,0.5")
    assert np.array_equal(both[:, 0], per_topic("iprec_at_recall.0.5")[:, 0])
    assert per_topic("Rprec_mult.1e308").max() < 1e-15  # relevant retrieved / the largest long
