"""Without pandas, every DataFrame a result can give (an evaluation's, a run's,
judgments', a comparison's) is refused the same way: one
:class:`MissingExtraError` (a usage error, exit 1) naming the extra to install.
Judgments and runs once said it as an input error about a file named 'pandas'."""
from __future__ import annotations

import sys

import pytest
from support.paths import EXAMPLES

import trec_eval_py as te
from trec_eval_py.errors import ExitCode, MissingExtraError, UsageError

QRELS, RUN_A, RUN_B = (str(EXAMPLES / n) for n in ("qrels.txt", "run_a.txt", "run_b.txt"))


def _frames():
    from trec_eval_py.tools.compare.comparison import compare_runs

    ev = te.evaluate(QRELS, RUN_A, ["map"])
    yield "evaluation", lambda: ev.to_dataframe()
    run = te.read_run(RUN_A)
    yield "run", run.to_dataframe
    qrels = te.read_qrels(QRELS)
    yield "judgments", qrels.to_dataframe
    comparison = compare_runs(QRELS, [RUN_A, RUN_B], ["map"])
    yield "comparison", comparison.to_dataframe


@pytest.mark.parametrize("what", ["evaluation", "run", "judgments", "comparison"])
def test_every_dataframe_needs_pandas_in_one_way(what, monkeypatch):
    make = dict(_frames())[what]
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    with pytest.raises(MissingExtraError) as e:
        make()
    assert isinstance(e.value, UsageError) and e.value.exit_code is ExitCode.USAGE
    assert str(e.value) == ("DataFrames need pandas, which comes with the 'pandas' extra: "
                            "pip install 'trec_eval_py[pandas]'")
