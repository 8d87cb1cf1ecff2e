"""``trec_eval_py ndeval`` prints, byte for byte, what NIST's ndeval printed on
the cases of fixtures/ndeval/ (written by dev/ndeval_golden.py from the
binary); where ndeval refused the input, we refuse it too."""
from __future__ import annotations

import pathlib
import shlex

import pytest
from support.golden import run_cli
from support.paths import FIXTURES

CASES = FIXTURES / "ndeval"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def _argv(case: pathlib.Path) -> list[str]:
    options = shlex.split((case / "args").read_text())
    return ["ndeval"] + [str(case / "baseline") if o == "BASELINE" else o for o in options] + \
        [str(case / "qrels"), str(case / "run")]


def test_the_cases_are_there():
    assert len(NAMES) >= 40
    assert {"default", "traditional", "risk_complete", "ideal_ties", "no_common_topic"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_ndeval_output_is_byte_identical(name, capsysbinary):
    case = CASES / name
    code, out, err = run_cli(_argv(case), capsysbinary, binary=True)
    if int((case / "expected_exit").read_text()) != 0:
        assert code != 0 and out == b"" and err.startswith("trec_eval_py: ") and err.count("\n") == 1, err
        return
    assert code == 0, err
    assert out == (case / "expected").read_bytes()
