"""Without -m, each judgment format computes its own default set (official for
qrels). trec_eval stops on its official set for the formats that cannot feed
it ("Can't calculate measure 'num_ret'"); we print the set the format has."""
from __future__ import annotations

import subprocess
import sys

import pytest
from support.paths import GOLDEN

from trec_eval_py import evaluate
from trec_eval_py.engine.inputs import judgment_format, judgment_formats
from trec_eval_py.engine.measures import registry


@pytest.mark.parametrize("name", sorted(judgment_formats()))
def test_every_format_has_a_default_set_its_judgments_feed(name):
    fmt = judgment_format(name)
    # resolving the default set for the format raises if one of its measures cannot read it
    selected = registry().resolve(list(fmt.default_measures), "9.0.8", fmt.measures_for, given=name)
    assert selected


@pytest.mark.parametrize("rel_format,qrels,nickname", [
    ("prefs", "prefs.test", "prefs"),
    ("qrels_prefs", "qrels.test", "prefs"),
    ("qrels_jg", "qrels.123", "qrels_jg"),
])
def test_no_m_is_the_formats_own_set(rel_format, qrels, nickname):
    results = "prefs.results.test" if rel_format == "prefs" else "results.test"
    q, r = GOLDEN / "inputs" / qrels, GOLDEN / "inputs" / results
    default = evaluate(q, r, rel_format=rel_format)
    asked = evaluate(q, r, [nickname], rel_format=rel_format)
    assert default.to_text(query=True) == asked.to_text(query=True)
    out = subprocess.run([sys.executable, "-m", "trec_eval_py", "-R", rel_format, str(q), str(r)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == asked.to_text()


def test_qrels_default_is_official_and_an_explicit_set_still_checks_the_format():
    q, r = GOLDEN / "inputs" / "qrels.test", GOLDEN / "inputs" / "results.test"
    assert evaluate(q, r).to_text() == evaluate(q, r, ["official"]).to_text()
    with pytest.raises(Exception, match="needs '-R qrels'"):
        evaluate(GOLDEN / "inputs" / "prefs.test", GOLDEN / "inputs" / "prefs.results.test", ["official"],
                 rel_format="prefs")
