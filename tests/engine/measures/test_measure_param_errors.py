"""Bad -m strings: one line that names the measure, the offending text and
what was expected; a non-zero exit, nothing on standard output, no traceback.

The messages are written out in full: a change of wording is a change of the
command line's behaviour and shows up here.
"""
from __future__ import annotations

import pytest
from support.golden import run_cli
from support.paths import GOLDEN

INPUTS = GOLDEN / "inputs"
QRELS, RUN = INPUTS / "qrels.test", INPUTS / "results.test"

CUTOFFS_P = "expected cutoffs, whole numbers above 0, e.g. P.5,10"
PAIRS_NDCG = "expected name=number pairs, e.g. ndcg.1=3,2=9"
PAIRS_RBP = "expected name=number pairs, e.g. rbp.p=0.8"

TABLE = [
    # ir_measures names
    ("P@x", "measure 'P@x': the cutoff after @ must be a whole number above 0 (e.g. P@10), not 'x'"),
    ("P@0", "measure 'P@0': the cutoff after @ must be a whole number above 0 (e.g. P@10), not '0'"),
    ("P@", "measure 'P@': nothing after '@' (expected a cutoff, e.g. P@10)"),
    ("P(rel=x)@5", "measure 'P(rel=x)@5': rel= must be a whole number, the lowest relevance level "
                   "that counts (e.g. rel=2), not 'x'"),
    ("P(foo=1)@5", "measure 'P(foo=1)@5': P takes no parameter 'foo' (it takes: judged_only, rel)"),
    # trec_eval names: cutoffs
    ("P.x", f"measure 'P': parameter 'x' is not a number ({CUTOFFS_P})"),
    ("P.5,x", f"measure 'P': parameter 'x' in '5,x' is not a number ({CUTOFFS_P})"),
    ("P.0", "measure 'P': cutoffs must be whole numbers above 0, not '0'"),
    ("P.-1", "measure 'P': cutoffs must be whole numbers above 0, not '-1'"),
    ("P.5,,10", f"measure 'P': empty parameter in '5,,10' ({CUTOFFS_P})"),
    ("P.1e999", f"measure 'P': parameter '1e999' is too large ({CUTOFFS_P})"),
    ("P.1e300", "measure 'P': cutoff '1e300' has an exponent: write the whole number (trec_eval would read '1')"),
    ("P.nan", f"measure 'P': parameter 'nan' is not a number ({CUTOFFS_P})"),
    ("P.", "measure 'P.': empty parameter list after '.'"),
    ("map.5", "measure 'map' takes no parameters (got '5')"),
    ("iprec_at_recall.x", "measure 'iprec_at_recall': parameter 'x' is not a number "
                          "(expected cutoffs, numbers such as iprec_at_recall.0.1,0.5)"),
    # name=value pairs
    ("ndcg.1=a", f"measure 'ndcg': parameter 'a' in '1=a' is not a number ({PAIRS_NDCG})"),
    ("ndcg.1=", f"measure 'ndcg': empty parameter in '1=' ({PAIRS_NDCG})"),
    ("ndcg.=3", f"measure 'ndcg': '=3' is not a name=value pair ({PAIRS_NDCG})"),
    ("ndcg.1=1e999", f"measure 'ndcg': parameter '1e999' in '1=1e999' is too large ({PAIRS_NDCG})"),
    ("rbp.0.5", f"measure 'rbp': '0.5' is not a name=value pair ({PAIRS_RBP})"),
    ("rbp.p=x", f"measure 'rbp': parameter 'x' in 'p=x' is not a number ({PAIRS_RBP})"),
    ("rbp.p=2", "measure 'rbp': p= is the persistence, a number from 0 to 1 (e.g. rbp.p=0.8), not 2"),
    ("rbp_resid.p=-1", "measure 'rbp_resid': p= is the persistence, a number from 0 to 1 "
                       "(e.g. rbp_resid.p=0.8), not -1"),
    # numbers
    ("utility.1,x,0,0", "measure 'utility': parameter 'x' in '1,x,0,0' is not a number "
                        "(expected numbers separated by commas)"),
    ("bedroc.1e999", "measure 'bedroc': parameter '1e999' is too large (expected a number)"),
    ("croc_exp.0", "measure 'croc_exp': alpha must be positive (got '0')"),
    ("ndcg_gain_cut.10,1=x", "measure 'ndcg_gain_cut': parameter 'x' is not a number "
                             "(expected level=gain pairs, e.g. ndcg_gain_cut.10,1=3)"),
    # an ir_measures name: its value checks name the spec as typed and the trec_eval
    # spelling they read (the example is in that spelling)
    ("RBP(p=2)", "measure 'RBP(p=2)' (trec_eval's 'rbp.p=2'): p= is the persistence, a number from 0 to 1 "
                 "(e.g. rbp.p=0.8), not 2"),
    ("RBP(rel=2,p=1.5)", "measure 'RBP(rel=2,p=1.5)' (trec_eval's 'rbp_bin.p=1.5'): p= is the persistence, "
                         "a number from 0 to 1 (e.g. rbp_bin.p=0.8), not 1.5"),
]


@pytest.mark.parametrize("spec, message", TABLE, ids=[s for s, _ in TABLE])
def test_bad_measure_parameters(spec, message, capsysbinary):
    code, out, err = run_cli(["-m", spec, QRELS, RUN], capsysbinary)
    assert code != 0
    assert out == ""
    assert err == f"trec_eval_py: {message}\n"


@pytest.mark.parametrize("spec, message", TABLE[:8], ids=[s for s, _ in TABLE[:8]])
def test_the_tools_word_them_alike(spec, message, capsysbinary):
    code, out, err = run_cli(["compare", "-m", spec, QRELS, RUN, RUN], capsysbinary)
    assert code != 0 and out == ""
    assert err == f"trec_eval_py: {message}\n"


def test_the_python_api_raises_the_same_words():
    from trec_eval_py import evaluate
    from trec_eval_py.errors import MeasureError

    for spec, message in TABLE:
        with pytest.raises(MeasureError) as e:
            evaluate(QRELS, RUN, [spec])
        assert str(e.value) == message
