"""Imports under the module paths of the earlier layout reach the same module objects."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from trec_eval_py.compat.moved import MOVED, new_name


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_path_is_the_new_module(old):
    mod = importlib.import_module(old)
    assert mod is importlib.import_module(new_name(old))
    assert mod.__spec__.name == new_name(old)  # the module keeps its own identity


def test_submodules_and_switches_are_shared():
    # scripts set switches through the old names; the engine must see them
    code = (
        "import trec_eval_py.parse.fields as old_f, trec_eval_py.pipeline as old_p\n"
        "import trec_eval_py.engine.parse.fields as f, trec_eval_py.engine.pipeline as p\n"
        "assert old_f is f and old_p is p\n"
        "old_p.STREAM_MIN_BYTES = 123\n"
        "assert p.STREAM_MIN_BYTES == 123\n"
        "from trec_eval_py.compat_pytrec import RelevanceEvaluator\n"
        "from trec_eval_py.compat.pytrec_eval import RelevanceEvaluator as R2\n"
        "assert RelevanceEvaluator is R2\n"
        "import sys\n"
        "assert len({id(m) for m in sys.modules.values() if (getattr(m, '__file__', None) or "
        "'').endswith('fields.py')}) == 1\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_unmoved_and_missing_names():
    assert new_name("trec_eval_py.errors") is None
    assert new_name("trec_eval_py.parse.run") == "trec_eval_py.engine.parse.run"
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("trec_eval_py.parse.no_such_module")
