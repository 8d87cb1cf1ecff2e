"""``trec_eval_py validate``: every check fires on a run built to trigger it,
names the right file and line, and stays quiet on a clean run."""
from __future__ import annotations

import pytest

from golden import GOLDEN
from trec_eval_py.tools.validate import ERROR, WARNING, validate_run
from golden import run_cli  # noqa: E402

QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 1\n1 0 d 0\n1 0 e -1\n2 0 a 1\n2 0 x 0\n"



def lines(*rows):
    return "".join(r + "\n" for r in rows)


CLEAN = lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys", "1 Q0 c 3 1.0 sys", "2 Q0 a 1 5.0 sys", "2 Q0 x 2 4.0 sys")


def check(tmp_path, text, qrels=QRELS, **kw):
    run = tmp_path / "run.txt"
    run.write_bytes(text.encode() if isinstance(text, str) else text)
    q = None
    if qrels is not None:
        q = tmp_path / "qrels.txt"
        q.write_text(qrels)
    return validate_run(str(run), None if q is None else str(q), **kw)


def only(report, code):
    found = [f for f in report.findings if f.code == code]
    assert found, f"no {code} finding in {[str(f) for f in report.findings]}"
    return found


def test_clean_run_has_no_findings(tmp_path):
    report = check(tmp_path, CLEAN)
    assert report.findings == [] and report.passed(strict=True)
    assert (report.results, report.topics) == (5, 2)


def test_trec_eval_test_run_is_clean():
    inputs = GOLDEN / "inputs"
    assert validate_run(str(inputs / "results.test"), str(inputs / "qrels.test")).findings == []


# (code, severity, run text, line of the finding)
CASES = [
    # a NUL byte near the start makes it a binary file; further down it is one bad line
    ("binary", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b\0 2 2.0 sys"), None),
    ("nul", ERROR, lines(*(f"1 Q0 d{i} {i} {1000 - i} sys" for i in range(1, 301)), "1 Q0 b\0 301 2.0 sys"), 301),
    ("fields", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0"), 2),
    # the rank column is ignored: its problems are warnings
    ("rank-type", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b two 2.0 sys"), 2),
    ("rank-type", WARNING, lines("1 Q0 a 1.0 3.0 sys"), 1),
    ("score-type", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2,5 sys"), 2),
    ("score-type", ERROR, lines("1 Q0 a 1 nan sys"), 1),
    ("duplicate-docno", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys", "1 Q0 a 3 1.0 sys"), 3),
    ("runid", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys2", "1 Q0 c 3 1.0 sys"), 2),
    ("rank-sequence", WARNING, lines("1 Q0 a 0 3.0 sys", "1 Q0 b 1 2.0 sys"), 1),
    ("rank-sequence", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 1 2.0 sys"), 2),
    ("rank-sequence", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 3 2.0 sys"), 2),
    ("encoding", WARNING, lines("1 Q0 a 1 3.0 sys").encode() + b"1 Q0 \xe9t\xe9 2 2.0 sys\n", 2),
    ("extra-fields", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys extra"), 2),
    ("comment", WARNING, lines("# submitted by team x", "1 Q0 a 1 3.0 sys"), 1),
    ("score-order", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys", "1 Q0 c 3 2.5 sys"), 3),
    # equal scores: trec_eval puts 'b' before 'a' (docno descending), the ranks say otherwise
    ("rank-order", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 3.0 sys"), 2),
    ("topic-not-in-qrels", WARNING, lines("1 Q0 a 1 3.0 sys", "3 Q0 a 1 3.0 sys"), 2),
]


@pytest.mark.parametrize("code,severity,text,line", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_check_fires(tmp_path, code, severity, text, line):
    report = check(tmp_path, text)
    f = only(report, code)[0]
    assert (f.severity, f.line, f.path) == (severity, line, str(tmp_path / "run.txt"))
    where = str(tmp_path / "run.txt") if line is None else f"{tmp_path / 'run.txt'}:{line}"
    assert str(f).startswith(f"{where}: {severity}: ")
    assert report.passed() == (severity == WARNING)


def test_empty_run(tmp_path):
    report = check(tmp_path, "\n# nothing\n")
    assert only(report, "empty")[0].severity == ERROR and not report.passed()


def test_too_many_documents(tmp_path):
    text = lines(*(f"1 Q0 d{i} {i} {100 - i} sys" for i in range(1, 8)))
    report = check(tmp_path, text, max_docs=5)
    f = only(report, "too-many-docs")[0]
    assert f.severity == ERROR and f.line == 6 and "7 documents" in f.message
    assert "too-many-docs" not in check(tmp_path, text, max_docs=7).codes()
    assert "too-many-docs" not in check(tmp_path, text, max_docs=0).codes()


def test_judged_topic_missing_from_run_points_at_the_qrels(tmp_path):
    report = check(tmp_path, lines("1 Q0 a 1 3.0 sys"))
    f = only(report, "topic-not-in-run")[0]
    assert (f.path, f.line, f.severity) == (str(tmp_path / "qrels.txt"), 6, WARNING)
    assert "'2'" in f.message


def test_unjudged_share_of_top_ten(tmp_path):
    # topic 1: 'e' is pooled but unjudged (-1), 'z*' are not in the qrels at all
    text = lines("1 Q0 z1 1 9 sys", "1 Q0 a 2 8 sys", "1 Q0 z2 3 7 sys", "1 Q0 e 4 6 sys",
                 "2 Q0 a 1 5.0 sys", "2 Q0 x 2 4.0 sys")
    report = check(tmp_path, text)
    f = only(report, "unjudged")[0]
    assert f.line == 1 and "3 of the top 4" in f.message and f.severity == WARNING
    assert "unjudged" not in check(tmp_path, text, max_unjudged=0.75).codes()
    assert "unjudged" not in check(tmp_path, text, qrels=None).codes()


def test_ties_straddling_cutoffs(tmp_path):
    # ranks 1..12 with equal scores at 5/6 and 10/11
    scores = [12, 11, 10, 9, 8, 8, 7, 6, 5, 4, 4, 1]
    text = lines(*(f"1 Q0 d{r:02d} {r} {s} sys" for r, s in enumerate(scores, 1)))
    report = check(tmp_path, text, qrels=None)
    f = only(report, "cutoff-tie")[0]
    assert "cutoffs 5, 10" in f.message and f.severity == WARNING
    # the 5th document in trec_eval's order is d06 (docno descending among the tie), line 6
    assert f.line == 6
    assert "cutoff-tie" not in check(tmp_path, text, qrels=None, cutoffs=(20,)).codes()


def test_linter_does_not_stop_at_the_first_error(tmp_path):
    text = lines("1 Q0 a 1 3.0 sys", "1 Q0 b x 2.0 sys", "1 Q0 c 3 y sys", "1 Q0 a 4 1.0 sys", "1 Q0", "1 Q0 d 5 0.5 other")
    report = check(tmp_path, text, qrels=None)
    assert {"rank-type", "score-type", "duplicate-docno", "fields", "runid"} <= report.codes()
    assert [f.line for f in report.findings] == sorted(f.line for f in report.findings)


def test_repeated_findings_are_capped(tmp_path):
    text = lines(*(f"1 Q0 d{i} {i} {100 - i} sys extra" for i in range(1, 30)), "1 Q0 d30 30 70 sys")
    report = check(tmp_path, text, qrels=None, max_per_check=5)
    found = only(report, "extra-fields")
    assert len(found) == 6 and "24 more like this" in found[-1].message and found[-1].line == 6
    assert report.num_warnings == 29  # counts are of all findings, listed or not
    assert len(only(check(tmp_path, text, qrels=None, max_per_check=0), "extra-fields")) == 29


def test_a_check_firing_on_every_line_is_one_finding_first(tmp_path):
    text = lines(*(f"{t} Q0 d{i} {i} {100 - i}" for t in range(1, 50) for i in range(1, 1001)))
    report = check(tmp_path, text, qrels=None)
    assert report.num_errors == 49_000 and report.results == 0
    first = report.findings[0]
    assert (first.code, first.line) == ("fields", 1)
    assert "every one of the 49000 lines: 5 fields" in first.message
    assert "empty" not in report.codes()
    assert report.summary().endswith("49000 errors, 0 warnings (0 results, 0 topics)")


def test_cli_exit_codes_and_strict(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    clean = tmp_path / "clean.txt"
    clean.write_text(CLEAN)
    code, out, _ = run_cli(["validate", clean, "--qrels", tmp_path / "qrels.txt", "--strict"], capsysbinary)
    assert code == 0 and out.strip().endswith(": ok") and "0 errors, 0 warnings" in out

    warn = tmp_path / "warn.txt"
    warn.write_text(CLEAN + "1 Q0 z 4 0.5 sys extra\n")
    code, out, _ = run_cli(["validate", warn], capsysbinary)
    assert code == 0 and f"{warn}:6: warning:" in out
    code, out, _ = run_cli(["validate", warn, "--strict"], capsysbinary)
    assert code == 3 and out.strip().endswith("FAILED")

    bad = tmp_path / "bad.txt"
    bad.write_text(CLEAN + "1 Q0 a 4 0.5 sys\n")
    code, out, _ = run_cli(["validate", bad, "-q"], capsysbinary)
    assert code == 3 and out.count("\n") == 1 and "1 error" in out


def test_cli_bad_inputs(tmp_path, capsysbinary):
    # a file that cannot be read is one failed file among the others, not the end of the check
    run = tmp_path / "r.txt"
    run.write_text(CLEAN)
    code, out, err = run_cli(["validate", tmp_path / "nope.txt", run], capsysbinary)
    assert code == 3 and f"{tmp_path / 'nope.txt'}: error: no such file [unreadable]" in out and "Traceback" not in err
    assert f"{run}: 0 errors" in out and out.endswith("2 files: 1 ok, 1 failed\n")
    run = tmp_path / "r.txt"
    run.write_text(CLEAN)
    bad_qrels = tmp_path / "q.txt"
    bad_qrels.write_text("1 0 a\n")
    code, out, err = run_cli(["validate", run, "--qrels", bad_qrels], capsysbinary)
    assert code == 2 and "q.txt, line 1" in err
    code, out, err = run_cli(["validate", run, "--max-unjudged", "2"], capsysbinary)
    assert code == 1 and "between 0 and 1" in err


@pytest.mark.parametrize("data, line", [
    (b"1 Q0 d1 1 2.0 r\r1 Q0 d2 2 1.0 r\n1 Q0 d3 3 0.5 r\n", 1),
    (b"1 Q0 d1 1 2.0 r\r\n1 Q0 d2 2 1.0 r\r\n1 Q0 d3 3 0.5\rr\r\n", 3),
])
def test_carriage_return_inside_a_line_is_an_error_as_in_evaluation(tmp_path, data, line):
    """validate must not pass what evaluation rejects: a CR that does not end a line."""
    import trec_eval_py as te

    p = tmp_path / "run"
    p.write_bytes(data)
    report = validate_run(str(p))
    first = [f for f in report.findings if f.severity == ERROR]
    assert first and first[0].code == "line-endings" and first[0].line == line
    assert not report.passed(False)
    with pytest.raises(te.InputError) as e:  # the reader stops at the same line
        te.read_run(str(p))
    assert e.value.line == line


def test_crlf_line_endings_stay_clean(tmp_path):
    p = tmp_path / "run"
    p.write_bytes(b"1 Q0 d1 1 2.0 r\r\n1 Q0 d2 2 1.0 r\r\n")
    assert validate_run(str(p)).findings == []


def test_a_docno_judged_twice_is_the_qrels_error_not_the_runs(tmp_path, capsysbinary):
    # found by the join the unjudged check asks: the qrels file and its line are named
    run = tmp_path / "r.txt"
    run.write_text(CLEAN)
    q = tmp_path / "q.txt"
    q.write_text("1 0 a 1\n1 0 a 0\n2 0 x 1\n")
    code, out, err = run_cli(["validate", run, "--qrels", q], capsysbinary)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"trec_eval_py: {q}, line 2: duplicate docno 'a' in the same topic (first seen on line 1)"]


CODIESP = GOLDEN.parent / "codiesp"


def test_runs_in_another_results_format(tmp_path, capsysbinary):
    # -T codiesp: the format's own reading checks (first bad line), then the topic checks
    pred, gold = CODIESP / "toy_pred_D.tsv", CODIESP / "toy_gs_D.tsv"
    code, out, err = run_cli(["validate", "-T", "codiesp", pred], capsysbinary)
    assert code == 0 and out.strip().endswith("0 errors, 0 warnings (14 results, 2 topics): ok"), err
    code, out, _ = run_cli(["validate", "-R", "codiesp", "-T", "codiesp", "--qrels", gold, pred], capsysbinary)
    assert code == 0 and "[topic-not-in-run]" in out and f"{gold}:4: warning" in out

    bad = tmp_path / "bad.tsv"
    bad.write_bytes(b"c1\tA01\nc1\tB02\nc2\n")
    code, out, _ = run_cli(["validate", "-T", "codiesp", bad], capsysbinary)
    assert code == 3
    assert f"{bad}:3: error: expected 2 tab-separated fields (clinical case, code), found 1 [format]" in out
    report = validate_run(bad.read_bytes(), results_format="codiesp", name="bad.tsv")
    assert [(f.line, f.code) for f in report.findings] == [(3, "format")]

    # the TREC checks are not applied to other formats, and a TREC run is not a CodiEsp file
    run = tmp_path / "r.txt"
    run.write_text(CLEAN)
    code, out, _ = run_cli(["validate", "-T", "codiesp", run], capsysbinary)
    assert code == 3 and f"{run}:1: error: expected 2 tab-separated fields" in out


def test_results_format_must_fit_the_judgments(capsysbinary):
    pred, gold = CODIESP / "toy_pred_D.tsv", CODIESP / "toy_gs_D.tsv"
    code, out, err = run_cli(["validate", "-T", "codiesp", "--qrels", gold, pred], capsysbinary)
    assert (code, out) == (1, "")
    assert err == "trec_eval_py: '-T codiesp' results are evaluated with '-R codiesp' judgments, not '-R qrels'\n"
    code, out, err = run_cli(["validate", "-T", "nosuch", pred], capsysbinary)
    assert code != 0 and out == "" and "unknown results format '-T nosuch'" in err
