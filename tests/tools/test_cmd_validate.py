"""``trec_eval_py validate``: every check fires on a run built to trigger it,
names the right file and line, and stays quiet on a clean run."""
from __future__ import annotations

import pytest
from support.golden import (
    GOLDEN,
    run_cli,  # noqa: E402
)

from trec_eval_py.tools.grading.validate import ERROR, NOTE, WARNING, validate_run

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
    # the rank column is ignored: its problems are notes
    ("rank-type", NOTE, lines("1 Q0 a 1 3.0 sys", "1 Q0 b two 2.0 sys"), 2),
    ("rank-type", NOTE, lines("1 Q0 a 1.0 3.0 sys"), 1),
    ("score-type", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2,5 sys"), 2),
    ("score-type", ERROR, lines("1 Q0 a 1 nan sys"), 1),
    ("duplicate-docno", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys", "1 Q0 a 3 1.0 sys"), 3),
    ("runid", ERROR, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys2", "1 Q0 c 3 1.0 sys"), 2),
    ("rank-sequence", NOTE, lines("1 Q0 a 0 3.0 sys", "1 Q0 b 1 2.0 sys"), 1),
    ("rank-sequence", NOTE, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 1 2.0 sys"), 2),
    ("rank-sequence", NOTE, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 3 2.0 sys"), 2),
    ("encoding", WARNING, lines("1 Q0 a 1 3.0 sys").encode() + b"1 Q0 \xe9t\xe9 2 2.0 sys\n", 2),
    ("extra-fields", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys extra"), 2),
    ("comment", WARNING, lines("# submitted by team x", "1 Q0 a 1 3.0 sys"), 1),
    ("score-order", WARNING, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys", "1 Q0 c 3 2.5 sys"), 3),
    # equal scores, judged differently: trec_eval puts 'b' before 'a' (docno descending), the ranks say
    # otherwise; inside every cutoff (no P@k changes): a note
    ("tie", NOTE, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 3.0 sys"), 2),
    ("topic-not-in-qrels", NOTE, lines("1 Q0 a 1 3.0 sys", "3 Q0 a 1 3.0 sys"), 2),
    # a good ranking whose scores rise with the rank
    ("reversed-scores", WARNING, lines("1 Q0 a 1 1.0 sys", "1 Q0 b 2 2.0 sys", "1 Q0 c 3 3.0 sys"), 1),
    ("separator", ERROR, lines("1,Q0,a,1,3.0,sys", "1,Q0,b,2,2.0,sys"), 1),
    ("header", ERROR, lines("topic iter doc rank score tag", "1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys"), 1),
]


@pytest.mark.parametrize("code,severity,text,line", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_check_fires(tmp_path, code, severity, text, line):
    report = check(tmp_path, text)
    f = only(report, code)[0]
    assert (f.severity, f.line, f.path) == (severity, line, str(tmp_path / "run.txt"))
    where = str(tmp_path / "run.txt") if line is None else f"{tmp_path / 'run.txt'}:{line}"
    assert str(f).startswith(f"{where}: {severity}: ")
    assert report.passed() == (severity != ERROR)


def test_empty_run(tmp_path):
    report = check(tmp_path, "\n# nothing\n")
    assert only(report, "empty")[0].severity == ERROR and not report.passed()


def test_too_many_documents(tmp_path):
    text = lines(*(f"1 Q0 d{i} {i} {100 - i} sys" for i in range(1, 8)))
    report = check(tmp_path, text, doc_limit=5)
    f = only(report, "too-many-docs")[0]
    assert f.severity == ERROR and f.line == 6 and "has 7," in f.message and f.count == 1
    assert "too-many-docs" not in check(tmp_path, text, doc_limit=7).codes()
    assert "too-many-docs" not in check(tmp_path, text, doc_limit=0).codes()


def test_the_document_limit_is_doc_limit_and_max_docs_is_deprecated(tmp_path):
    """``max_docs`` is -M (the evaluation's depth) everywhere else: validate's bound
    is ``doc_limit``; the old keyword still works, with a DeprecationWarning that
    points at the caller, once for a whole folder."""
    from trec_eval_py.tools.grading.validate import validate_runs

    text = lines(*(f"1 Q0 d{i} {i} {100 - i} sys" for i in range(1, 8)))
    (tmp_path / "q").write_text(QRELS)
    run = tmp_path / "run.txt"
    run.write_text(text)
    new = validate_run(str(run), str(tmp_path / "q"), doc_limit=5)
    assert "too-many-docs" in new.codes()
    with pytest.warns(DeprecationWarning, match="doc_limit") as caught:
        old = validate_run(str(run), str(tmp_path / "q"), max_docs=5)
    assert old.codes() == new.codes() and [w.filename for w in caught] == [__file__]
    with pytest.warns(DeprecationWarning, match="doc_limit") as caught:
        (many,) = validate_runs([str(run)], str(tmp_path / "q"), max_docs=5)
    assert many.codes() == new.codes() and [w.filename for w in caught] == [__file__]


def test_judged_topics_missing_from_the_run_are_one_finding(tmp_path):
    report = check(tmp_path, lines("1 Q0 a 1 3.0 sys"))
    f = only(report, "topic-not-in-run")[0]
    assert (f.line, f.severity, f.count) == (None, WARNING, 1)
    assert f.message.startswith("answers 1 of 2 judged topics; missing 2: each scores 0")


def test_unjudged_share_of_top_ten(tmp_path):
    # topic 1: 'e' is pooled but unjudged (-1), 'z*' are not in the qrels at all
    text = lines("1 Q0 z1 1 9 sys", "1 Q0 a 2 8 sys", "1 Q0 z2 3 7 sys", "1 Q0 e 4 6 sys",
                 "2 Q0 a 1 5.0 sys", "2 Q0 x 2 4.0 sys")
    report = check(tmp_path, text)
    f = only(report, "unjudged")[0]
    assert f.line == 1 and "(topic '1': 3 of 4)" in f.message and f.count == 1
    # one of the run's two judged topics: a note, which never fails, not even --strict
    assert f.severity == NOTE and "in 1 of 2 judged topics" in f.message and report.passed(strict=True)
    assert "unjudged" not in check(tmp_path, text, max_unjudged=0.75).codes()
    assert "unjudged" not in check(tmp_path, text, qrels=None).codes()


def test_unjudged_in_most_topics_is_a_warning(tmp_path):
    # both judged topics have a top 10 mostly unjudged: the run's mean is an underestimate
    text = lines("1 Q0 z1 1 9 sys", "1 Q0 a 2 8 sys", "1 Q0 z2 3 7 sys", "2 Q0 y1 1 5.0 sys", "2 Q0 y2 2 4.0 sys")
    report = check(tmp_path, text)
    f = only(report, "unjudged")[0]
    assert f.severity == WARNING and f.count == 2 and "in 2 of 2 judged topics" in f.message
    assert report.passed() and not report.passed(strict=True)


def test_tie_across_a_cutoff_between_documents_judged_differently_is_a_warning(tmp_path):
    # ranks 1..6, d05 (relevant) and d06 (not) tie at ranks 5 and 6: trec_eval puts d06 first, so
    # P@5 counts the wrong one; the tie of d01/d02 (judged differently, within every cutoff) is a note's
    scores = [9, 9, 8, 7, 6, 6]
    text = lines(*(f"1 Q0 d{r:02d} {r} {s} sys" for r, s in enumerate(scores, 1)))
    qrels = "1 0 d01 1\n1 0 d02 0\n1 0 d03 0\n1 0 d04 0\n1 0 d05 1\n1 0 d06 0\n"
    f = only(check(tmp_path, text, qrels=qrels), "tie")[0]
    assert f.severity == WARNING and f.message.startswith("2 groups of tied scores judged differently "
                                                          "(1 of them across a cutoff: 5, 10, 20, 100, 1000)")
    # the same run with d05 and d06 judged alike: only the tie inside the cutoffs is left, a note
    f = only(check(tmp_path, text, qrels=qrels.replace("d05 1", "d05 0")), "tie")[0]
    assert f.severity == NOTE and f.message.startswith("1 group of tied scores judged differently in 1 topic")


def test_ties_straddling_cutoffs_without_judgments(tmp_path):
    # ranks 1..12 with equal scores at 5/6 and 10/11; without judgments a tie matters where it
    # straddles a cutoff and the docno order differs from the ranks given
    scores = [12, 11, 10, 9, 8, 8, 7, 6, 5, 4, 4, 1]
    text = lines(*(f"1 Q0 d{r:02d} {r} {s} sys" for r, s in enumerate(scores, 1)))
    report = check(tmp_path, text, qrels=None)
    f = only(report, "tie")[0]
    assert "2 groups of tied scores across a cutoff" in f.message and f.severity == WARNING and f.count == 1
    # the first document in trec_eval's order of the first tie is d06 (docno descending), line 6
    assert f.line == 6 and "'d06' (rank 6) is evaluated before 'd05' (rank 5)" in f.message
    assert "tie" not in check(tmp_path, text, qrels=None, cutoffs=(20,)).codes()
    # the same ties, ranked as trec_eval orders them: nothing changes, nothing is said
    agreeing = [12, 11, 10, 9, 8, 8, 7, 6, 5, 4, 4, 1]
    names = ["d01", "d02", "d03", "d04", "d06", "d05", "d07", "d08", "d09", "d11", "d10", "d12"]
    text = lines(*(f"1 Q0 {d} {r} {s} sys" for r, (d, s) in enumerate(zip(names, agreeing), 1)))
    assert "tie" not in check(tmp_path, text, qrels=None).codes()


def test_ties_matter_only_between_documents_judged_differently(tmp_path):
    # a, b tie and are ranked against the docno order: a warning only when their judgments differ
    run = lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 3.0 sys", "1 Q0 c 3 1.0 sys")
    assert "tie" in check(tmp_path, run, qrels="1 0 a 1\n1 0 b 0\n1 0 c 0\n").codes()
    assert "tie" not in check(tmp_path, run, qrels="1 0 a 1\n1 0 b 1\n1 0 c 0\n").codes()
    assert "tie" not in check(tmp_path, run, qrels="1 0 a 0\n1 0 c 1\n").codes()  # b unjudged: not relevant either


def test_ties_are_counted_once_per_run(tmp_path):
    qrels = "".join(f"{t} 0 d{i} {i % 2}\n" for t in range(1, 21) for i in range(4))
    run = lines(*(f"{t} Q0 d{i} {i + 1} {5 - i // 2} sys" for t in range(1, 21) for i in range(4)))
    report = check(tmp_path, run, qrels=qrels)
    f = only(report, "tie")
    assert len(f) == 1 and f[0].count == 20 and f[0].message.startswith("40 groups of tied scores")
    assert report.num_notes == 1 and report.num_warnings == 0


def test_linter_does_not_stop_at_the_first_error(tmp_path):
    text = lines("1 Q0 a 1 3.0 sys", "1 Q0 b x 2.0 sys", "1 Q0 c 3 y sys", "1 Q0 a 4 1.0 sys", "1 Q0",
                 "1 Q0 d 5 0.5 other")
    report = check(tmp_path, text, qrels=None)
    assert {"rank-type", "score-type", "duplicate-docno", "fields", "runid"} <= report.codes()
    # errors first, then warnings, then notes; each check once
    sev = [f.severity for f in report.findings]
    assert sev == sorted(sev, key=[ERROR, WARNING, NOTE].index)
    assert len(report.findings) == len(report.codes())


def test_each_check_is_one_finding_with_its_count(tmp_path):
    text = lines(*(f"1 Q0 d{i} {i} {100 - i} sys extra" for i in range(1, 30)), "1 Q0 d30 30 70 sys")
    report = check(tmp_path, text, qrels=None, max_per_check=5)
    (f,) = only(report, "extra-fields")
    assert (f.count, f.line, f.lines) == (29, 1, (1, 2, 3, 4, 5))
    assert str(f).endswith("(29 lines: 1, 2, 3, 4, 5 ...) [extra-fields]")
    assert report.num_warnings == 1 and report.counts() == {"extra-fields": 29}
    assert len(only(check(tmp_path, text, qrels=None, max_per_check=0), "extra-fields")[0].lines) == 29


def test_a_check_firing_on_every_line_is_one_finding_first(tmp_path):
    text = lines(*(f"{t} Q0 d{i} {i} {100 - i}" for t in range(1, 50) for i in range(1, 1001)))
    report = check(tmp_path, text, qrels=None)
    assert report.num_errors == 1 and report.results == 0
    (first,) = report.findings
    assert (first.code, first.line, first.count) == ("fields", 1, 49_000)
    assert first.message.startswith("every one of the 49000 lines: the run id column is missing")
    assert report.summary().endswith("1 error, 0 warnings [fields: 49000 lines] (0 results, 0 topics)")


@pytest.mark.parametrize("shape,missing", [
    ("{t} {d} {r} {s} sys", "the iter ('Q0') column is missing"),
    ("{t} Q0 {d} {r} {s}", "the run id column is missing"),
    ("{t} Q0 {d} {s} sys", "the rank column is missing"),
    ("{t} Q0 {d} {r} sys", "the score column is missing"),
    ("{t} Q0 {r} {s} sys", "the docno column is missing"),
    ("{t} {d} {s} sys", "the iter ('Q0') and rank columns are missing"),
])
def test_the_missing_column_is_named_from_the_other_lines(tmp_path, shape, missing):
    rows = [shape.format(t=t, d=f"D{t}{i:03d}", r=i, s=f"{20 - i * 0.7:.3f}") for t in (1, 2) for i in range(1, 21)]
    report = check(tmp_path, lines(*rows), qrels=None)
    (f,) = report.findings
    assert f.code == "fields" and missing in f.message and f.count == 40


def test_a_header_only_when_the_first_line_differs(tmp_path):
    body = [f"1 Q0 D{i} {i} {10 - i * 0.5} sys" for i in range(1, 11)]
    report = check(tmp_path, lines("qid Q0 docno rank score runid", *body), qrels=None)
    assert [f.code for f in report.findings] == ["header"] and report.findings[0].line == 1
    assert "--skip-header" in report.findings[0].message
    # a five-column file with its own header: the header, and the missing column, each said once
    five = [" ".join(r.split()[:1] + r.split()[2:]) for r in body]
    report = check(tmp_path, lines("qid docno rank score runid", *five), qrels=None)
    assert [f.code for f in report.findings] == ["fields", "header"]
    assert "iter ('Q0') column is missing" in report.findings[0].message and report.findings[0].count == 10
    # a file of 5-field lines without a header: no header is found in it
    report = check(tmp_path, lines(*five), qrels=None)
    assert report.codes() == {"fields"} and report.findings[0].line == 1
    # skipped on request: a warning, and the line to leave out
    report = check(tmp_path, lines("qid Q0 docno rank score runid", *body), qrels=None, skip_header=True)
    assert [(f.code, f.severity) for f in report.findings] == [("header", WARNING)] and report.skipped_header == 1
    assert report.passed() and report.results == 10


def test_tabs_and_crlf_are_no_finding(tmp_path):
    text = "".join(f"1\tQ0\tD{i}\t{i}\t{10 - i}\tsys\r\n" for i in range(1, 8))
    assert check(tmp_path, text, qrels=None).findings == []


def test_decimal_comma_is_named(tmp_path):
    (f,) = check(tmp_path, lines("1 Q0 a 1 2,5 sys", "1 Q0 b 2 1,5 sys"), qrels=None).findings
    assert f.code == "score-type" and "decimal comma: write 2.5" in f.message and f.count == 2


def test_ignore_and_select(tmp_path, capsysbinary):
    from trec_eval_py.errors import UsageError

    text = lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys2")
    assert not check(tmp_path, text, qrels=None).passed()
    assert check(tmp_path, text, qrels=None, ignore=["runid"]).passed()
    found = check(tmp_path, text + "1 Q0 c 3 1.0 sys x\n", qrels=None, select=["extra-fields"])
    assert found.codes() == {"extra-fields"}
    with pytest.raises(UsageError, match="cannot be turned off"):
        check(tmp_path, text, qrels=None, ignore=["fields"])
    with pytest.raises(UsageError, match="no such check"):
        check(tmp_path, text, qrels=None, ignore=["nosuch"])
    run = tmp_path / "run.txt"
    code, out, _ = run_cli(["validate", run, "--ignore", "runid"], capsysbinary)
    assert code == 0 and ": ok: 0 errors, 0 warnings" in out
    code, out, err = run_cli(["validate", run, "--ignore", "header"], capsysbinary)
    assert code == 1 and "--skip-header" in err


def test_cli_exit_codes_and_strict(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    clean = tmp_path / "clean.txt"
    clean.write_text(CLEAN)
    code, out, _ = run_cli(["validate", clean, "--qrels", tmp_path / "qrels.txt", "--strict"], capsysbinary)
    assert code == 0 and ": ok: 0 errors, 0 warnings" in out

    warn = tmp_path / "warn.txt"
    warn.write_text(CLEAN + "1 Q0 z 4 0.5 sys extra\n")
    code, out, _ = run_cli(["validate", warn], capsysbinary)
    assert code == 0 and f"{warn}:6: warning:" in out
    code, out, _ = run_cli(["validate", warn, "--strict"], capsysbinary)
    assert code == 3 and ": FAILED: 0 errors, 1 warning [extra-fields: 1 line]" in out

    # a tie inside every cutoff is a note: it never fails, --strict or not
    tied = tmp_path / "tied.txt"
    tied.write_text(CLEAN.replace("1 Q0 b 2 2.0", "1 Q0 b 2 3.0"))
    code, out, _ = run_cli(["validate", tied, "--qrels", tmp_path / "qrels.txt", "--strict"], capsysbinary)
    assert code == 0 and ": ok: 0 errors, 0 warnings, 1 note [tie: 1 topic]" in out

    bad = tmp_path / "bad.txt"
    bad.write_text(CLEAN + "1 Q0 a 4 0.5 sys\n")
    code, out, _ = run_cli(["validate", bad, "-q"], capsysbinary)
    assert code == 3 and out.count("\n") == 1 and "1 error, 0 warnings [duplicate-docno: 1 line]" in out


def test_cli_bad_inputs(tmp_path, capsysbinary):
    # a file that cannot be read is one failed file among the others, not the end of the check
    run = tmp_path / "r.txt"
    run.write_text(CLEAN)
    code, out, err = run_cli(["validate", tmp_path / "nope.txt", run], capsysbinary)
    assert code == 3 and f"{tmp_path / 'nope.txt'}: error: no such file [unreadable]" in out and "Traceback" not in err
    assert f"{run}: ok: 0 errors" in out and out.endswith("2 files: 1 ok, 1 failed\nfiles per check: unreadable 1\n")
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
    assert err.splitlines() == [
        f"trec_eval_py: {q}, line 2: duplicate docno 'a' in the same topic (first seen on line 1)"]


CODIESP = GOLDEN.parent / "codiesp"


def test_runs_in_another_results_format(tmp_path, capsysbinary):
    # -T codiesp: the format's own reading checks (first bad line), then the topic checks
    pred, gold = CODIESP / "toy_pred_D.tsv", CODIESP / "toy_gs_D.tsv"
    code, out, err = run_cli(["validate", "-T", "codiesp", pred], capsysbinary)
    assert code == 0 and out.strip().endswith("ok: 0 errors, 0 warnings (14 results, 2 topics)"), err
    code, out, _ = run_cli(["validate", "-R", "codiesp", "-T", "codiesp", "--qrels", gold, pred], capsysbinary)
    assert code == 0 and f"{pred}: warning: answers 2 of 3 judged topics; missing S0210" in out

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


def test_a_duplicate_line_keeps_its_rank_in_the_rank_check(tmp_path):
    # line 6 repeats line 3's document with rank 6, and ranks go on 7, 8: the note said
    # "rank 6 of topic 1 is missing" (the duplicate was dropped before the ranks were read)
    rows = [f"1 Q0 d{i} {i} {10 - i} sys" for i in range(1, 6)] + ["1 Q0 d3 6 4.5 sys", "1 Q0 d7 7 3 sys"]
    report = check(tmp_path, lines(*rows), qrels=None)
    assert [f.code for f in report.findings] == ["duplicate-docno"]
    # a duplicate line given the next rank: the duplicate's problem, said once, by its error
    rows = rows[:6] + ["1 Q0 d7 6 3 sys", "1 Q0 d8 7 2 sys"]
    assert [f.code for f in check(tmp_path, lines(*rows), qrels=None).findings] == ["duplicate-docno"]
    # a rank problem of its own beside the duplicate is still said, as the file has it
    rows = rows[:7] + ["1 Q0 d8 9 2 sys"]
    seq = only(check(tmp_path, lines(*rows), qrels=None), "rank-sequence")[0]
    assert seq.line == 8 and seq.message.startswith("rank 7 of topic '1' is missing: ranks jump from 6 to 9")


def test_findings_name_their_escape_hatches(tmp_path):
    text = lines(*(f"1 Q0 d{i} {i} {100 - i} sys" for i in range(1, 8)))
    f = only(check(tmp_path, text, doc_limit=5), "too-many-docs")[0]
    assert "-M does not change this check" in f.message
    assert "--ignore too-many-docs grades every document, which favours this run" in f.message
    f = only(check(tmp_path, lines("1 Q0 a 1 3.0 sys", "1 Q0 b 2 2.0 sys2")), "runid")[0]
    assert f.message.endswith("; --ignore runid grades the file as one run")


def _golden_qrels() -> dict:
    """Each golden run's first qrels in the golden cases (plain qrels and runs only)."""
    from support.golden import GOLDEN

    out: dict = {}
    for line in (GOLDEN / "cases.tsv").read_text().splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        args = line.split("\t", 1)[1].split()
        if len(args) < 2 or any(a.startswith(("-R", "-T")) for a in args):
            continue
        q, r = args[-2], args[-1]
        if q.startswith("inputs/") and r.startswith("inputs/"):
            out.setdefault(r.split("/")[-1], str(GOLDEN / q))
    return out


GOLDEN_QRELS = _golden_qrels()


def _golden_runs():
    from support.golden import GOLDEN

    inputs = GOLDEN / "inputs"
    return sorted(p for p in inputs.rglob("*") if p.is_file() and "qrels" not in p.name and "prefs" not in p.name)


@pytest.mark.parametrize("path", _golden_runs(), ids=lambda p: p.name)
def test_the_rows_validate_gives_are_the_runs_the_evaluation_reads(path):
    """``rows=``: a run checked whole whose every line is a plain result comes back
    as the evaluation's reader reads it (columns, line numbers, run id, name), and
    evaluating those rows prints what evaluating the file prints. Other runs (a
    comment, a bad line, a seventh field...) give no rows: the evaluation reads them."""
    import numpy as np

    from trec_eval_py import InputError, TrecEvalError, evaluate, read_run

    rows: list = []
    validate_run(str(path), name=str(path), rows=rows)
    try:
        want = read_run(str(path))
    except InputError:
        assert rows == []
        return
    if not rows:
        return
    got = rows[0]
    assert got.qid.tolist() == want.qid.tolist() and got.docno.tolist() == want.docno.tolist()
    assert np.array_equal(got.score, want.score) and got.score.dtype == want.score.dtype
    assert got.lineno.tolist() == want.lineno.tolist()
    assert (got.runid, got.name) == (want.runid, want.name)
    qrels = GOLDEN_QRELS.get(path.name)
    if qrels is not None:
        def printed(run):
            try:
                return evaluate(qrels, run, ["all_trec"]).to_text()
            except TrecEvalError as e:  # (a docno twice, no topic in common: the same error)
                return str(e)

        assert printed(got) == printed(str(path))


def test_some_golden_runs_come_back_as_rows():
    """(The test above checks something: most golden runs are plain.)"""
    n = 0
    for path in _golden_runs():
        rows: list = []
        validate_run(str(path), name=str(path), rows=rows)
        n += bool(rows)
    assert n > 20


def test_a_tie_whose_first_document_has_no_integer_rank_is_shown_by_two_ranks(tmp_path):
    # c, b and a tie; c is evaluated first and its rank is no integer: the pair shown is
    # the two ranks that disagree (this stopped validate with an internal error)
    qrels = "1 0 a 1\n1 0 b 0\n1 0 c 0\n"
    report = check(tmp_path, lines("1 Q0 c x 5 r", "1 Q0 b 5 5 r", "1 Q0 a 2 5 r"), qrels=qrels)
    tie = only(report, "tie")[0]
    assert "'b' (rank 5) is evaluated before 'a' (rank 2)" in tie.message
    assert "rank-type" in report.codes()


def test_a_tie_shows_two_ranks_that_disagree(tmp_path):
    # ranks 1, 5, 3 in evaluation order: 5 before 3 is what goes against the run (not 1 before 5);
    # a rank that is no integer between them is passed over (it stopped validate with an internal error)
    qrels = "1 0 a 1\n1 0 b 0\n1 0 c 0\n1 0 d 0\n"
    report = check(tmp_path, lines("1 Q0 d 1 5 r", "1 Q0 c x 5 r", "1 Q0 b 5 5 r", "1 Q0 a 3 5 r"), qrels=qrels)
    assert "'b' (rank 5) is evaluated before 'a' (rank 3)" in only(report, "tie")[0].message
