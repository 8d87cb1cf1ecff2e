"""Every registered measure, with odd parameters, prints no numpy warning.

Kernels divide by empty counts, cast huge cutoffs and take exp of big
parameters on purpose (0, nan and inf are values trec_eval prints); the
measure stage (``pipeline.map_batches``) silences numpy's floating-point
warnings in one place. Each odd -m either evaluates with nothing on standard
error or is refused with one line. Without that one ``np.errstate``,
iprec_at_recall.1e300, Rprec_mult.1e300 and max_F.1e300 warn.
"""
from __future__ import annotations

import warnings

import pytest
from support.golden import run_cli
from support.paths import GOLDEN

from trec_eval_py.engine.measures import registry

INPUTS = GOLDEN / "inputs"
DATA = {
    "qrels": (INPUTS / "qrels.test", INPUTS / "results.test"),
    "prefs": (INPUTS / "prefs.test", INPUTS / "prefs.results.test"),
    "qrels_jg": (INPUTS / "qrels.123", INPUTS / "results.test"),
}
ODD = ["", ".1", ".1000000", ".0.0001", ".1.5", ".0", ".-1", ".1e300", ".1e-300", ".1=0", ".0=5,1=-3",
       ".0=0,1=0,2=0", ".p=0", ".p=1", ".2,-1,0,0", ".0,0,0,0", ".5,0=-1,1=-1"]


def _formats(m) -> list[str]:
    return [f for f in DATA if m.rel_formats is None or f in m.rel_formats] or ["qrels"]


CASES = [(m.name, f) for m in registry() for f in _formats(m)]


@pytest.mark.parametrize("name, fmt", CASES, ids=[f"{n}-{f}" for n, f in CASES])
def test_odd_parameters_print_no_numpy_warning(name, fmt, capsysbinary):
    qrels, run = DATA[fmt]
    for odd in ODD:
        for flags in ([], ["-c", "-N", "100"]):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                code, out, err = run_cli(["-q", "-R", fmt, *flags, "-m", name + odd, qrels, run], capsysbinary)
            assert [str(w.message) for w in caught] == [], name + odd
            if code == 0:
                assert err == "", name + odd
            else:
                assert err.count("\n") == 1 and err.startswith("trec_eval_py: ") and out == "", (name + odd, err)
