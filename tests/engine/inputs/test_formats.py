"""Judgment (-R) and results (-T) formats by registration: discovery, the one
batching loop over every format's joined topics, shared duplicate errors, and
a format added as nothing but a module."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from trec_eval_py.engine import inputs
from trec_eval_py.engine.inputs import judgment_format, judgment_formats, results_format, results_formats
from trec_eval_py.engine.join import iter_batches
from trec_eval_py.engine.pipeline import Options, batches, evaluate, join, map_batches, read_judgments
from trec_eval_py.errors import InputError, UsageError

QRELS = b"1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 1\n2 0 x 0\n3 0 z 1\n"
RUN = b"1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n1 Q0 d 4 0.5 r\n2 Q0 x 1 1 r\n2 Q0 a 2 0.5 r\n"
PREFS = b"1 g s a 2\n1 g s b 1\n1 g s c 0\n2 g s a 1\n2 g s x 0\n2 h s x 1\n2 h s a 0\n"
QRELS_JG = b"1 g1 a 1\n1 g1 b 0\n1 g2 a 0\n1 g2 c 1\n2 g1 a 1\n2 g1 x 0\n"


def test_registered_formats():
    # campaign formats (tested in their own files) come on top of trec_eval's
    assert set(judgment_formats()) >= {"qrels", "prefs", "qrels_prefs", "qrels_jg"}
    assert set(results_formats()) >= {"trec_results"}
    for table in (judgment_formats(), results_formats()):
        for name, fmt in table.items():
            assert fmt.name == name and fmt.help.strip()
    with pytest.raises(UsageError, match="-R bogus.*qrels, qrels_diversity, qrels_jg, qrels_prefs"):
        judgment_format("bogus")
    with pytest.raises(UsageError, match="-T bogus.*trec_results"):
        results_format("bogus")
    with pytest.raises(UsageError, match="-R bogus"):
        Options(rel_format="bogus")


def test_only_formats_that_take_dicts_take_dicts():
    assert read_judgments({"1": {"a": 1}}).rel.tolist() == [1]
    with pytest.raises(UsageError, match="'-R prefs' judgments must be given as a file"):
        read_judgments({"1": {"a": 1}}, {"rel_format": "prefs"})


@pytest.mark.parametrize("rel_format, judgments", [("qrels", QRELS), ("prefs", PREFS),
                                                   ("qrels_prefs", QRELS), ("qrels_jg", QRELS_JG)])
@pytest.mark.parametrize("max_cells", [1, 3, 7, 40, None])
def test_one_batching_loop_covers_every_topic_once_within_bounds(rel_format, judgments, max_cells):
    opts = Options(rel_format=rel_format, complete=True)
    joined = join(judgments, RUN, opts)
    rows, width = joined.batch_sizes()
    seen = []
    lo = 0
    for b in iter_batches(joined, max_cells):
        k = len(b.qids)
        assert k >= 1
        cost = int(np.maximum(width[lo:lo + k], 1).max()) * int(rows[lo:lo + k].sum())
        assert k == 1 or cost <= (max_cells or 4_000_000)
        seen.extend(b.qids)
        lo += k
    assert seen == joined.qids
    # and the pipeline's batches are the same cut
    assert [q for b in batches(judgments, RUN, Options(rel_format=rel_format, complete=True, max_cells=max_cells))
            for q in b.qids] == joined.qids


@pytest.mark.parametrize("rel_format, judgments, measure", [
    ("qrels", QRELS, "map"), ("prefs", PREFS, "prefs_simp"), ("qrels_jg", QRELS_JG, "map_avgjg")])
def test_batch_size_never_changes_values(rel_format, judgments, measure):
    whole = evaluate(judgments, RUN, [measure], rel_format=rel_format, complete=True)
    for cells in (1, 2, 5):
        cut = evaluate(judgments, RUN, [measure], rel_format=rel_format, complete=True, max_cells=cells)
        assert cut.topics == whole.topics
        assert cut.values[measure].tolist() == whole.values[measure].tolist()
        assert cut.summary == whole.summary


def test_map_batches_gives_topics_in_byte_order_with_totals():
    res = map_batches(lambda b: list(b.qids), QRELS, RUN, {"complete": True, "max_cells": 1})
    assert res.topics == ["1", "2", "3"] and res.filled.tolist() == [False, False, True]
    assert [q for r in res.results for q in r] == res.topics and res.order is None
    assert (res.num_qrels_topics, res.num_positive) == (3, 4)
    assert res.runid == "r"


@pytest.mark.parametrize("rel_format, judgments", [("prefs", PREFS), ("qrels_jg", QRELS_JG)])
def test_run_duplicates_are_one_error_for_every_format(rel_format, judgments):
    run = RUN + b"2 Q0 q 3 0.1 r\n1 Q0 b 9 0.1 r\n2 Q0 q 4 0.1 r\n"
    with pytest.raises(InputError) as e:
        evaluate(judgments, run, rel_format=rel_format, measures=["all_prefs" if "prefs" in rel_format else "qrels_jg"])
    # the pair whose later line comes first: b (lines 2 and 8)
    assert e.value.line == 8 and "duplicate docno 'b' in the same topic (first seen on line 2)" in str(e.value)
    with pytest.raises(InputError) as e:
        evaluate(QRELS, run, ["map"])
    assert e.value.line == 8


def test_qrels_jg_duplicate_names_the_earliest_repeat():
    qj = QRELS_JG + b"2 g1 x 1\n1 g2 c 0\n"
    with pytest.raises(InputError) as e:
        evaluate(qj, RUN, ["map_avgjg"], rel_format="qrels_jg")
    assert e.value.line == 7
    assert "duplicate docno 'x' in the same topic and judgment group (first seen on line 6)" in str(e.value)


# a format added as nothing but a module: comma-separated qrels
_CSV_MODULE = textwrap.dedent('''
    """-R qrels_csv: qrels as comma-separated values (a test format)."""
    from trec_eval_py.engine.inputs._base import JudgmentFormat
    from trec_eval_py.engine.inputs.qrels import QRELS
    from trec_eval_py.engine.parse.qrels import Qrels, read_qrels
    from trec_eval_py.engine.parse.source import read_source


    def _read(source):
        if isinstance(source, Qrels):  # already parsed: passes through
            return source
        return read_qrels(read_source(source).replace(b",", b" "), name="<csv>")


    QRELS_CSV = JudgmentFormat(name="qrels_csv", help="qrels, comma-separated", read=_read,
                               join=QRELS.join, totals=QRELS.totals, feeds="qrels")
''')


@pytest.fixture
def extra_format_dir(tmp_path, monkeypatch):
    (tmp_path / "qrels_csv.py").write_text(_CSV_MODULE)
    monkeypatch.setattr(inputs, "__path__", list(inputs.__path__) + [str(tmp_path)])
    inputs._discover.cache_clear()
    yield
    inputs._discover.cache_clear()
    import sys

    sys.modules.pop("trec_eval_py.engine.inputs.qrels_csv", None)


def test_a_new_format_is_a_module(extra_format_dir, capsysbinary):
    from support.golden import run_cli

    assert "qrels_csv" in judgment_formats()
    csv = QRELS.replace(b" ", b",")
    a = evaluate(csv, RUN, ["map", "P.5"], rel_format="qrels_csv")
    b = evaluate(QRELS, RUN, ["map", "P.5"])
    assert a.to_text() == b.to_text()
    code, out, _ = run_cli(["-h", "-R", "qrels_csv"], capsysbinary)
    assert code == 0 and "qrels, comma-separated" in out
    # the usage names the new format with the others, with nothing added to the CLI
    assert "qrels_csv" in _usage_formats(out, "-R")
    code, _, err = run_cli(["-R", "qrels_cvs", "q", "r"], capsysbinary)
    choices = err.split("choose one of ", 1)[1].strip().split(", ")
    assert code == 1 and choices == sorted(judgment_formats()) and "qrels_csv" in choices


def _usage_formats(help_out: str, flag: str) -> list[str]:
    """The format names the usage text lists after ``flag`` (its wrapped description)."""
    lines = help_out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  {flag}, "))
    text = lines[start][33:]
    for line in lines[start + 1:]:
        if not line.startswith(" " * 33):
            break
        text += " " + line.strip()
    listed = text.split(":", 1)[1].split("(see")[0]
    return [w.strip().replace(" (default)", "") for w in listed.split(",")]


def test_usage_lists_exactly_the_registered_formats(capsysbinary):
    from support.golden import run_cli

    code, out, _ = run_cli(["-h"], capsysbinary)
    assert code == 0
    assert _usage_formats(out, "-R")[0] == "qrels" and sorted(_usage_formats(out, "-R")) == sorted(judgment_formats())
    assert _usage_formats(out, "-T")[0] == "trec_results"
    assert sorted(_usage_formats(out, "-T")) == sorted(results_formats())
    assert "qrels (default)" in out and "trec_results (default)" in out


def test_help_describes_each_judgment_format(capsysbinary):
    from support.golden import run_cli

    for name, fmt in judgment_formats().items():
        code, out, _ = run_cli(["-h", "-R", name], capsysbinary)
        assert code == 0 and fmt.help.splitlines()[0] in out
