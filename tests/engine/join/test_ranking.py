"""The one ranking rule (engine/join/order.py) and its three consumers: the
qrels join, the preference join and the run linter all order documents the
same way, single precision included."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trec_eval_py.engine.join import EvalContext, build_rankings
from trec_eval_py.engine.join.order import RankRule
from trec_eval_py.engine.parse import Run, read_qrels, read_run
from trec_eval_py.engine.pipeline import evaluate
from trec_eval_py.errors import UsageError
from trec_eval_py.tools.grading.validate import validate_run


def _run(qids, docnos, scores) -> Run:
    n = len(scores)
    return Run(np.array(qids, dtype="S"), np.array(docnos, dtype="S"), np.array(scores, dtype=np.float64),
               np.arange(1, n + 1, dtype=np.int64))


def _reference(qids, docnos, scores, rule: RankRule) -> list[int]:
    """Slow reference: sort rows by topic, then score as the rule compares it, then docno."""
    def score(s):
        return float(np.float32(s)) if rule.single_precision else s

    rows = list(range(len(scores)))
    # stable sorts, least significant key first
    rows.sort(key=lambda i: docnos[i], reverse=rule.docno_descending)
    rows.sort(key=lambda i: -score(scores[i]))
    rows.sort(key=lambda i: qids[i])
    return rows


_docno = st.sampled_from([b"a", b"b", b"ab", b"b\xff", b"A", b"a0", b"zz", b"doc10", b"doc9"])
# scores close together so that single precision ties are common
_score = st.sampled_from([1.0, 1.00000001, 1.00000003, 0.99999999, 2.0, 0.5, -0.0, 0.0, 1e-40, 1 + 2**-22])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([b"1", b"2", b"10"]), _docno, _score), max_size=25),
       st.booleans(), st.booleans(), st.booleans())
def test_rule_matches_a_slow_reference(rows, single, descending, grouped):
    seen, uniq = set(), []
    for q, d, s in rows:
        if (q, d) not in seen:
            seen.add((q, d))
            uniq.append((q, d, s))
    if grouped:  # topic by topic in rank order: the fast path
        uniq.sort(key=lambda r: (r[0], -(float(np.float32(r[2])) if single else r[2])))
    qids = [r[0] for r in uniq]
    docnos = [r[1] for r in uniq]
    scores = [r[2] for r in uniq]
    rule = RankRule(single_precision=single, docno_descending=descending)
    _, topic = np.unique(np.array(qids, dtype="S"), return_inverse=True) if uniq else (None, np.zeros(0, int))
    got = rule.order_rows(topic.reshape(-1), _run(qids, docnos, scores)) if uniq else np.zeros(0)
    assert list(got) == _reference(qids, docnos, scores, rule)


def test_rules_per_version_and_format():
    assert RankRule.for_compat("9.0.8") == RankRule(single_precision=True, docno_descending=True)
    assert RankRule.for_compat("10.0") == RankRule(single_precision=False, docno_descending=True)
    assert RankRule.of(EvalContext(compat="9.0.8"), prefs=True).docno_descending is False
    with pytest.raises(UsageError, match="unknown compat '8.1'"):
        RankRule.for_compat("8.1")
    with pytest.raises(UsageError, match="ranking order"):
        RankRule(order="bogus")


def test_single_precision_tie_in_the_qrels_join():
    run = _run(["1", "1"], ["a", "b"], [1.00000001, 1.0])
    qrels = read_qrels(b"1 0 a 1\n1 0 b 0\n")
    old = build_rankings(qrels, run, EvalContext(compat="9.0.8"))
    new = build_rankings(qrels, run, EvalContext(compat="10.0"))
    assert old.rel.tolist() == [0, 1]  # tie in float: docno descending, b first
    assert new.rel.tolist() == [1, 0]


# golden case fz_prefs_tie: scores equal in single precision tie in 9.0.8, and
# the preference formats break ties by docno ascending (a before b)
PREFS = b"1 g s a 2\n1 g s b 1\n"
PREFS_RUN = b"1 Q0 a 1 1.000000001 r\n1 Q0 b 2 1.000000003 r\n"


@pytest.mark.parametrize("compat, ful, simp", [("9.0.8", 1, 1.0), ("10.0", 0, 0.0)])
def test_prefs_tie_on_single_precision_equal_scores(compat, ful, simp):
    ev = evaluate(PREFS, PREFS_RUN, ["prefs_num_prefs_ful", "prefs_simp"], rel_format="prefs", compat=compat)
    assert ev.summary["prefs_num_prefs_ful"] == ful
    assert ev.summary["prefs_simp"] == simp


def test_prefs_ties_are_docno_ascending_and_qrels_ties_descending():
    # equal scores in double too: prefs put a first (preference a > b fulfilled) ...
    run = b"1 Q0 a 1 1.0 r\n1 Q0 b 2 1.0 r\n"
    for compat in ("9.0.8", "10.0"):
        ev = evaluate(PREFS, run, ["prefs_num_prefs_ful"], rel_format="prefs", compat=compat)
        assert ev.summary["prefs_num_prefs_ful"] == 1
    # ... qrels put b first
    rk = build_rankings(read_qrels(b"1 0 a 1\n1 0 b 0\n"), read_run(run), EvalContext(compat="10.0"))
    assert rk.rel.tolist() == [0, 1]


def _tie_findings(tmp_path, run_text, compat):
    path = tmp_path / "run.txt"
    path.write_text(run_text)
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 0\n")  # judged differently: the order matters
    return [f for f in validate_run(str(path), str(tmp_path / "qrels"), compat=compat).findings if f.code == "tie"]


def test_validate_sees_ties_that_exist_only_in_single_precision(tmp_path):
    # 9.0.8 evaluates b before a (scores equal as floats, docno descending): the
    # submitted ranks say a first, so validate must warn; 10.0 keeps a first.
    text = "1 Q0 a 1 1.00000001 r\n1 Q0 b 2 1.0 r\n"
    found = _tie_findings(tmp_path, text, "9.0.8")
    assert len(found) == 1 and found[0].line == 2
    assert "'b' (rank 2) is evaluated before 'a' (rank 1)" in found[0].message
    assert "single precision" in found[0].message
    assert _tie_findings(tmp_path, text, "10.0") == []


def test_validate_default_is_the_default_compat(tmp_path):
    _tie_findings(tmp_path, "1 Q0 a 1 1.00000001 r\n1 Q0 b 2 1.0 r\n", "9.0.8")
    path = tmp_path / "run.txt"
    assert "tie" in validate_run(str(path), str(tmp_path / "qrels")).codes()


def test_validate_order_is_the_engines_order(tmp_path):
    """The rows validate takes for trec_eval's order are the join's order: those of
    the join itself (judged topics) and those it ranks on its own (the others)."""
    from trec_eval_py.tools.grading.validate import _checks, _lines, _topics

    rnd = np.random.default_rng(3)
    lines, rows = [], []
    for _i in range(40):
        s = float(rnd.choice([1.0, 1.00000001, 2.0, 0.5]))
        d = f"d{rnd.integers(0, 1000)}"
        if d in rows:
            continue
        rows.append(d)
        lines.append(f"1 Q0 {d} {len(rows)} {s!r} r")
    qrels = "".join(f"1 0 {d} {k}\n" for k, d in enumerate(rows))
    data = "\n".join(lines).encode()
    for compat in ("9.0.8", "10.0"):
        rk = build_rankings(read_qrels(qrels.encode()), read_run(data), EvalContext(compat=compat))
        cols, _ = _lines._fast_columns(data, "r")
        topic, _ = _checks._topic_codes(cols.qid)
        own = RankRule.for_compat(compat).order_rows(topic, cols.as_run())
        joined, _ = _topics._join_lines(cols, read_qrels(qrels.encode()), compat, "r")
        for perm in (own, _topics._in_topic_order(joined, topic)):
            assert [rows.index(d.decode()) for d in cols.docno[perm].tolist()] == rk.rel.tolist()


def test_validate_command_takes_compat(tmp_path, capsysbinary):
    from support.golden import run_cli

    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 1.00000001 r\n1 Q0 b 2 1.0 r\n")
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 0\n")
    code, out, _ = run_cli(["validate", str(path), "--qrels", str(tmp_path / "qrels")], capsysbinary)
    assert code == 0 and "[tie]" in out
    code, out, _ = run_cli(["validate", "--compat", "10.0", str(path), "--qrels", str(tmp_path / "qrels")],
                           capsysbinary)
    assert code == 0 and "[tie]" not in out and "0 warnings" in out
    code, _, err = run_cli(["validate", "--compat", "8", str(path)], capsysbinary)
    assert code != 0 and "--compat" in err


def test_validate_unjudged_check_ranks_with_the_engines_join(tmp_path):
    # a9 and zz tie in single precision: 9.0.8 ranks zz (unjudged) 10th, 10.0 ranks it 11th
    scores = [str(10 - i) for i in range(9)] + ["1.00000001"]
    run = "".join(f"1 Q0 a{i} {i + 1} {s} r\n" for i, s in enumerate(scores)) + "1 Q0 zz 11 1.0 r\n"
    qrels = "".join(f"1 0 a{i} {i % 2}\n" for i in range(10))
    (tmp_path / "run").write_text(run)
    (tmp_path / "qrels").write_text(qrels)

    def unjudged(compat):
        report = validate_run(str(tmp_path / "run"), str(tmp_path / "qrels"), max_unjudged=0.0, compat=compat)
        return [f for f in report.findings if f.code == "unjudged"]

    (f,) = unjudged("9.0.8")
    assert f.line == 11 and "(topic '1': 1 of 10)" in f.message
    assert unjudged("10.0") == []
