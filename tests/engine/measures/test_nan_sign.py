"""NaN signs as C prints them: trec_eval's 0/0 and log of a negative number give
a NaN with the sign bit set on x86, which printf shows as "-nan"."""
import math

from trec_eval_py import evaluate
from trec_eval_py.engine.measures import Kind
from trec_eval_py.engine.measures._base import C_NAN, c_log, c_log2
from trec_eval_py.output.evaluation import format_value


def negative_nan(v) -> bool:
    return v != v and math.copysign(1.0, v) < 0


def test_c_log_edge_cases():
    assert c_log(0.0) == -math.inf and c_log2(0.0) == -math.inf
    assert negative_nan(c_log(-1.0)) and negative_nan(c_log2(-6.0))
    assert c_log2(8.0) == 3.0 and c_log(1.0) == 0.0
    # a NaN going in keeps its own sign
    assert not negative_nan(c_log2(math.nan)) and negative_nan(c_log2(C_NAN))


def test_printed_sign():
    assert format_value(Kind.FLOAT, C_NAN) == "  -nan"
    assert format_value(Kind.FLOAT, math.nan) == "   nan"


def test_gain_of_unjudged_document_makes_log2_of_a_negative():
    # G.-1=9: the unjudged document at rank 1 gains 9 while the ideal has spent 1:
    # log2(2 + 1 - 9) is log2(-6), "-nan" in C (golden case fz_nan_sign)
    ev = evaluate(b"85 0 d0 1\n", b"85 Q0 d1 9 1263 runB\n", ["G.-1=9"])
    assert ev.to_text(query=True) == "G_-1=9                \t85\t  -nan\nG_-1=9                \tall\t  -nan\n"
