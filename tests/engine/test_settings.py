"""The evaluation settings are checked once, where they are made (Settings), and
every stage gets the checked value: the Python API names its parameters, the
command line the flags that set them."""
from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from support.paths import ROOT

from trec_eval_py import UsageError, evaluate
from trec_eval_py.engine.join.context import EvalContext, Settings
from trec_eval_py.engine.pipeline import Options, map_batches
from trec_eval_py.errors import OptionError, OptionTypeError

QRELS = b"1 0 a 1\n1 0 b 0\n2 0 c 1\n"
RUN = b"1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n2 Q0 c 1 1.0 r\n"

BAD_TYPES = [
    ("max_docs", "5"), ("max_docs", math.nan), ("max_docs", 2.0), ("max_docs", True),
    ("relevance_level", "1"), ("relevance_level", 1.5), ("num_docs_in_coll", None),
    ("judged_only", 1), ("complete", "yes"), ("compat", 9), ("valid_codes", 3),
]
BAD_VALUES = [
    ("max_docs", -1, "max_docs must be 0 or more, not -1"),
    ("num_docs_in_coll", 10 ** 30, "num_docs_in_coll must be at most 9223372036854775807"),
    ("relevance_level", -(2 ** 64), "relevance_level must be -9223372036854775807 or more"),
    ("compat", "8.0", "unknown compat '8.0'; choose one of 9.0.8, 10.0"),
    ("order", "confidence", "unknown order 'confidence'; choose one of score, rank, file"),
]


@pytest.mark.parametrize("record", [Settings, EvalContext, Options])
@pytest.mark.parametrize("name,value", BAD_TYPES)
def test_wrong_types_are_type_errors_naming_the_parameter(record, name, value):
    with pytest.raises(OptionTypeError) as e:
        record(**{name: value})
    assert isinstance(e.value, TypeError) and isinstance(e.value, UsageError)
    assert str(e.value).startswith(name) or f" {name} " in str(e.value)
    assert len(str(e.value)) < 200


@pytest.mark.parametrize("record", [Settings, EvalContext, Options])
@pytest.mark.parametrize("name,value,message", BAD_VALUES)
def test_bad_values_name_the_parameter(record, name, value, message):
    with pytest.raises(OptionError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        record(**{name: value})


def test_numpy_integers_and_bools_are_taken_as_python_values():
    s = Settings(max_docs=np.int64(3), relevance_level=np.int32(2), judged_only=np.bool_(True))
    assert (s.max_docs, s.relevance_level, s.judged_only) == (3, 2, True)
    assert type(s.max_docs) is int and type(s.judged_only) is bool


def test_every_stage_gets_a_checked_value():
    # a context made by hand is checked too: -M -1 used to rank nothing, silently
    with pytest.raises(OptionError, match="max_docs must be 0 or more"):
        map_batches(lambda b: b, QRELS, RUN, ctx=EvalContext(max_docs=-1))
    with pytest.raises(OptionTypeError, match="max_docs"):
        evaluate(QRELS, RUN, ["map"], max_docs=math.nan)


def test_options_context_is_one_copy_of_the_shared_settings():
    o = Options(max_docs=4, relevance_level=2, judged_only=True, compat="10.0", valid_codes=())
    c = o.context
    for f in ("max_docs", "relevance_level", "judged_only", "compat", "num_docs_in_coll", "valid_codes"):
        assert getattr(c, f) == getattr(o, f)
    assert c.order == "score" and Options(results_format="biocreative_int",
                                          rel_format="biocreative_int").context.order == "rank"
    assert EvalContext().rank_order == "score"


def test_message_template_keeps_user_text_literal():
    e = OptionError("{@max_docs} must be 0 or more, not {value}", value="{@order} {0}")
    assert str(e) == "max_docs must be 0 or more, not {@order} {0}"
    assert e.render({"max_docs": "-M", "order": "--order"}) == "-M must be 0 or more, not {@order} {0}"
    assert e.params == ("max_docs",)


def _cli(*args, cwd):
    # this checkout's package, whatever is installed (the command runs in another folder)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "trec_eval_py", *args], cwd=cwd, capture_output=True, text=True,
                          env=env)


@pytest.mark.parametrize("args,message", [
    (["-M", "-1"], "trec_eval_py: -M must be 0 or more, not -1\n"),
    (["--compat", "8"], "trec_eval_py: unknown --compat '8'; choose one of 9.0.8, 10.0\n"),
    (["--order", "nope"], "trec_eval_py: unknown --order 'nope'; choose one of score, rank, file\n"),
    (["-T", "codiesp"],
     "trec_eval_py: '-T codiesp' results are evaluated with '-R codiesp' judgments, not '-R qrels'\n"),
    (["--valid-codes", "x"],
     "trec_eval_py: --valid-codes applies to judgment formats that read codes, not '-R qrels'\n"),
])
@pytest.mark.parametrize("sub", [[], ["batch"], ["compare"]])
def test_the_command_line_names_the_flags(tmp_path, args, message, sub):
    (tmp_path / "q").write_bytes(QRELS)
    (tmp_path / "r").write_bytes(RUN)
    files = ["q", "r", "r"] if sub == ["compare"] else ["q", "r"]
    res = _cli(*sub, *args, *files, cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr == message
