"""Grading a class end to end: a folder like a teacher's (nested folders, a zip,
every broken kind) through ``batch --report`` and ``validate``.

What must hold: the board's order and coverage, every broken run's reason,
the JSON fields, numbers equal to the main command's, every report page
well-formed with no external reference, and no judged docno anywhere with
``--hide-judgments``.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from support.golden import run_cli
from support.grading_class import EXPECTED, TOPICS, make_class
from support.paths import EXAMPLES


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    return make_class(tmp_path_factory.mktemp("class"))


@contextlib.contextmanager
def in_class(klass):
    """In the submissions folder, which is named '.': submissions are named by their
    path as given, so from there ``alice/run.txt`` (as in EXPECTED)."""
    old = os.getcwd()
    os.chdir(klass / "submissions")
    try:
        yield "."
    finally:
        os.chdir(old)


def board_json(klass, capsysbinary, *extra):
    with in_class(klass) as here:
        code, out, err = run_cli(["batch", klass / "qrels.txt", here, "--format", "json", "-j", "1",
                                  *extra], capsysbinary)
    assert code == 4, err  # the class has broken runs: the board is incomplete
    assert "Traceback" not in err
    return json.loads(out)


def by_run(doc):
    return {r["run"]: r for r in doc["runs"]}


# ---- the board ----

def test_every_submission_is_on_the_board_named_by_its_relative_path(klass, capsysbinary):
    doc = board_json(klass, capsysbinary)
    names = [r["run"] for r in doc["runs"]]
    assert sorted(names) == sorted(EXPECTED)  # hidden files, __MACOSX and swap files left out
    assert len(names) == len(set(names))


def test_broken_runs_are_listed_last_with_their_reason(klass, capsysbinary):
    doc = board_json(klass, capsysbinary)
    runs = by_run(doc)
    for name, (status, phrase) in EXPECTED.items():
        r = runs[name]
        if status == "ok":
            assert r["error"] is None and isinstance(r["rank"], int), (name, r["error"])
        else:
            assert r["rank"] is None and phrase in r["error"], (name, r["error"])
    states = [r["error"] is None for r in doc["runs"]]
    assert states == sorted(states, reverse=True)  # graded first, failed last


def test_every_topic_counts_and_coverage_is_shown(klass, capsysbinary):
    doc = board_json(klass, capsysbinary, "-m", "map", "-m", "P.10")
    assert doc["sort_by"] == "map" and doc["topics_total"] == len(TOPICS) and doc["complete"] is True
    graded = [r for r in doc["runs"] if r["error"] is None]
    maps = [r["summary"]["map"] for r in graded]
    assert maps == sorted(maps, reverse=True)
    for r in doc["runs"]:
        assert set(r) >= {"topics", "topics_total", "warnings"} and isinstance(r["warnings"], list)
        assert r["topics_total"] == len(TOPICS)
    runs = by_run(doc)
    # gwen answers one topic perfectly: without -c she would top the board
    gwen = runs["gwen.txt"]
    assert gwen["topics"] == 1 and gwen["rank"] == len(graded)
    assert any(w.startswith("warning: answers 1 of 10 judged topics") and "each scores 0" in w
               for w in gwen["warnings"])
    assert all(r["topics"] == 10 for r in graded if r["run"] != "gwen.txt")
    assert not any("answers" in w for r in graded if r["run"] != "gwen.txt" for w in r["warnings"])


def test_only_answered_is_trec_evals_averaging(klass, capsysbinary):
    doc = board_json(klass, capsysbinary, "-m", "map", "--only-answered")
    graded = [r for r in doc["runs"] if r["error"] is None]
    assert doc["complete"] is False and graded[0]["run"] == "gwen.txt"
    assert any("left out of the averages otherwise" in w for w in graded[0]["warnings"])


@pytest.mark.parametrize("flag", [[], ["--only-answered"]])
def test_values_are_the_main_commands(klass, capsysbinary, flag):
    doc = board_json(klass, capsysbinary, "-m", "map", "-m", "P.10", "-m", "num_rel_ret", *flag)
    for r in doc["runs"]:
        path = klass / "submissions" / r["run"]
        if r["error"] is not None or not path.is_file():  # zip members are checked through the zip below
            continue
        code, out, err = run_cli(([] if flag else ["-c"]) + ["-m", "map", "-m", "P.10", "-m", "num_rel_ret",
                                  "--format", "json", klass / "qrels.txt", path], capsysbinary)
        assert code == 0, err
        assert r["summary"] == json.loads(out)["summary"], r["run"]


def test_zip_members_are_graded_like_the_files_they_hold(klass, capsysbinary, tmp_path):
    import zipfile

    doc = board_json(klass, capsysbinary, "-m", "map")
    with zipfile.ZipFile(klass / "submissions" / "late.zip") as z:
        (tmp_path / "hal.txt").write_bytes(z.read("hal/run.txt"))
    code, out, _ = run_cli(["-c", "-m", "map", "--format", "json", klass / "qrels.txt", tmp_path / "hal.txt"],
                           capsysbinary)
    assert by_run(doc)["late.zip/hal/run.txt"]["summary"] == json.loads(out)["summary"]


def test_ties_share_a_rank(klass, capsysbinary):
    runs = by_run(board_json(klass, capsysbinary, "-m", "map"))
    # zed handed in alice's run under another run id
    assert runs["zed/run.txt"]["summary"] == runs["alice/run.txt"]["summary"]
    assert runs["zed/run.txt"]["rank"] == runs["alice/run.txt"]["rank"]
    ranks = [r["rank"] for r in board_json(klass, capsysbinary, "-m", "map")["runs"] if r["rank"] is not None]
    nxt = ranks.index(runs["alice/run.txt"]["rank"]) + 2
    assert ranks[nxt] == nxt + 1  # the rank after a two-way tie is skipped


@pytest.mark.parametrize("measures,sort_by", [
    (["-m", "all_trec"], "map"),
    (["-m", "official"], "map"),
    (["-m", "num_ret", "-m", "map"], "map"),
    (["-m", "num_q", "-m", "num_ret", "-m", "P.10"], "P_10"),
    (["-m", "num_q", "-m", "num_rel_ret"], "num_rel_ret"),
    (["-m", "map", "-m", "P.10", "--sort-by", "P.10"], "P_10"),
    (["-m", "map", "-m", "P.10", "--sort-by", "P_10"], "P_10"),
])
def test_default_sort_rule_never_orders_by_num_q(klass, capsysbinary, measures, sort_by):
    doc = board_json(klass, capsysbinary, *measures)
    assert doc["sort_by"] == sort_by
    graded = [r for r in doc["runs"] if r["error"] is None]
    vals = [r["summary"][sort_by] for r in graded]
    assert vals == sorted(vals, reverse=True)
    assert [r["rank"] for r in graded][:1] == [1] and len({r["rank"] for r in graded}) > 1


def test_sort_by_must_be_on_the_board(klass, capsysbinary):
    code, out, err = run_cli(["batch", klass / "qrels.txt", klass / "submissions", "-m", "map",
                              "--sort-by", "ndcg"], capsysbinary)
    assert code == 1 and out == "" and "--sort-by ndcg: not a measure on the board (map)" in err


def test_validators_findings_reach_the_board(klass, capsysbinary):
    runs = by_run(board_json(klass, capsysbinary))
    assert runs["dave.txt"]["rank"] is None and runs["dave.txt"]["counts"] == {"runid": 20}
    assert any("[reversed-scores]" in w for w in runs["frank.txt"]["warnings"])
    assert any("[tie]" in w for w in runs["erin.txt"]["warnings"])
    jon = runs["jon.txt"]  # the rank column is ignored: 0-based ranks are a note, no warning
    assert jon["warnings"] == [] and jon["notes"] == 1 and jon["findings"][0]["code"] == "rank-sequence"
    assert jon["findings"][0]["line"] == 1 and jon["findings"][0]["count"] == 10
    assert runs["alice/run.txt"]["findings"] == []
    # CRLF line endings change nothing: no finding
    assert runs["bob/submission/run.txt"]["findings"] == []


def test_board_and_validate_give_one_verdict(klass, capsysbinary):
    """The same findings, severities and counts from batch and validate, and a run
    fails in one exactly when it fails in the other."""
    doc = board_json(klass, capsysbinary)
    with in_class(klass) as here:
        code, out, err = run_cli(["validate", here, "--qrels", klass / "qrels.txt", "--format", "json"],
                                 capsysbinary)
    files = {f["path"]: f for f in json.loads(out)["files"]}
    for r in doc["runs"]:
        v = files[r["run"]]
        assert r["findings"] == v["findings"], r["run"]
        assert (r["error"] is None) == v["ok"], r["run"]
        assert r["counts"] == v["counts"]


def test_parallel_jobs_give_the_same_board(klass, capsysbinary):
    one = board_json(klass, capsysbinary, "-m", "map", "-m", "P.10")
    two = board_json(klass, capsysbinary, "-m", "map", "-m", "P.10", "-j", "2")
    assert one == two


def test_output_file(klass, capsysbinary, tmp_path):
    out_file = tmp_path / "board.csv"
    with in_class(klass) as here:
        code, out, err = run_cli(["batch", klass / "qrels.txt", here, "--format", "csv",
                                  "-o", out_file, "-j", "1"], capsysbinary)
    # the class's hidden files are counted on standard error, nothing else is said
    assert code == 4 and out == "" and err == "trec_eval_py: pat.docx: skipped: not a run file (a .docx file)\n" \
        "trec_eval_py: skipped 2 hidden files and 2 hidden folders (names starting with '.', and __MACOSX)\n" \
        "trec_eval_py: 9 of 19 runs not graded (the board's rows say why)\n"
    rows = list(csv.DictReader(io.StringIO(out_file.read_text())))
    assert len(rows) == len(EXPECTED)
    assert {r["run"]: (r["topics"], r["topics_total"]) for r in rows}["gwen.txt"] == ("1", "10")


def test_text_board_columns(klass, capsysbinary):
    with in_class(klass) as here:
        code, out, _ = run_cli(["batch", klass / "qrels.txt", here, "-j", "1"], capsysbinary)
    lines = out.splitlines()
    assert lines[0].split() == ["rank", "student", "run", "runid", "topics", "findings", "map", "P_10"]
    gwen = next(ln.split() for ln in lines if ln.split()[1] == "gwen.txt")
    assert gwen[3] == "1/10" and gwen[4] == "topic-not-in-run"
    ned = next(ln for ln in lines if "ned.txt" in ln)
    assert ned.split()[0] == "-" and "remove the prefix 'q'" in ned


# ---- the report ----

class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []
        self.tags: list[str] = []
        self.stack: list[str] = []
        self.text: list[str] = []

    VOID = {"meta", "br", "img", "input", "link", "hr"}

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("href", "src", "srcset", "action", "data", "poster", "background") and v is not None:
                self.refs.append((tag, k, v))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("href", "src") and v is not None:
                self.refs.append((tag, k, v))

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def check_page(path: Path, root: Path) -> _Collect:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    ET.fromstring(text.split("\n", 1)[1])  # well-formed XML as well
    p = _Collect()
    p.feed(text)
    p.close()
    assert p.stack == [], f"{path}: unclosed {p.stack}"
    # self-contained: nothing to fetch; links only to the report's own pages
    assert not {"link", "img", "iframe", "object", "embed", "audio", "video", "source"} & set(p.tags)
    for tag, attr, ref in p.refs:
        assert tag == "a" and attr == "href", (path, tag, attr, ref)
        assert not re.match(r"^[a-z][a-z0-9+.-]*:|^//", ref, re.I), (path, ref)
        target = ref.split("#")[0]
        if target:
            assert (path.parent / target).resolve().is_file(), (path, ref)
            assert root.resolve() in (path.parent / target).resolve().parents
    assert "url(" not in text and "@import" not in text
    assert re.findall(r"https?://[^\s\"'<>]+", text) == ["http://www.w3.org/1999/xhtml"] + \
        ["http://www.w3.org/2000/svg"] * (text.count("<svg "))
    return p


@pytest.fixture(scope="module")
def report(klass, tmp_path_factory):
    from trec_eval_py import cli

    out = tmp_path_factory.mktemp("report")
    with in_class(klass) as here:
        try:
            cli.main(["batch", str(klass / "qrels.txt"), here, "-m", "map", "-m", "P.10",
                      "-m", "ndcg_cut.10", "-m", "num_rel_ret", "--report", str(out), "-o", str(out / "board.txt")])
        except SystemExit as e:
            assert e.code == 4
    return out


def test_report_files(report):
    assert (report / "index.html").is_file()
    pages = sorted(p.name for p in (report / "runs").iterdir())
    feedback = sorted(p.name for p in (report / "feedback").iterdir())
    assert len(pages) == len(feedback) == len(EXPECTED)
    assert all(p.endswith(".html") for p in pages) and all(f.endswith(".txt") for f in feedback)
    rows = list(csv.DictReader(io.StringIO((report / "leaderboard.csv").read_text())))
    assert sorted(r["run"] for r in rows) == sorted(EXPECTED)
    md = (report / "leaderboard.md").read_text().splitlines()
    assert md[0].startswith("| rank | student | run | runid | topics | findings | map |")
    assert len(md) == 2 + len(EXPECTED)
    # numbers as the board shows them, topic counts as numbers
    first = rows[0]
    assert re.fullmatch(r"0\.\d{4}", first["map"]) and first["topics"] == "10" and first["topics_total"] == "10"


def test_every_page_is_well_formed_and_self_contained(report):
    for page in [report / "index.html", *sorted((report / "runs").iterdir())]:
        check_page(page, report)


def test_index_shows_board_coverage_warnings_errors_and_distributions(report):
    text = (report / "index.html").read_text()
    p = check_page(report / "index.html", report)
    body = " ".join(p.text)
    for name, (status, phrase) in EXPECTED.items():
        assert name in body
        if status == "error":
            assert phrase in html_unescape(body), name
    assert "1/10" in body and 'class="sortable"' in text
    heads = re.findall(r"<th[^>]*>([^<]+)</th>", text.split("</thead>")[0])
    assert heads == ["rank", "student", "map", "P_10", "ndcg_cut_10", "num_rel_ret", "findings", "topics", "runid",
                     "error"]
    assert text.count("<h1>") == 1 and "<h2>Leaderboard</h2>" not in text
    # one distribution figure per measure on the board
    assert text.count('aria-label="distribution of ') == 4
    # table rows in board order
    order = re.findall(r'<tr[^>]*><td class="n" data-v="[^"]*">[^<]*</td><td class="name"[^>]*><a href="runs/[^"]+" '
                       r'title="([^"]+)">', text)
    assert order[0] == "late.zip/hal/run.txt" and order.index("gwen.txt") < order.index("kate.txt")


def html_unescape(s: str) -> str:
    import html

    return html.unescape(s)


def test_run_page_starts_with_the_verdict_then_scores_topics_and_curve(report):
    from trec_eval_py.tools.grading.report import slugs

    slug = slugs(sorted(EXPECTED))
    page = (report / "runs" / f"{slug['frank.txt']}.html").read_text()
    assert "run id <code>frank</code>" in page
    # the verdict first (the warnings, collapsed, one per check), then the scores, the topics, the curve
    at = [page.index(s) for s in ('id="verdict"', "Graded, with 1 warning", "<code>reversed-scores</code>",
                                  'id="scores"', "per topic against the class median and best",
                                  "precision/recall curve of frank.txt")]
    assert at == sorted(at)
    assert re.search(r'<details class="finding"><summary><span class="badge warning">warning</span> '
                     r'<code>reversed-scores</code> 10 topics from line 1</summary>', page)
    for t in TOPICS:
        assert f"<td>{t}</td>" in page  # the per-topic table
        assert f">{t}</text>" in page  # the per-topic chart's labels
    assert page.count("<polyline ") == 2  # the run and the class median
    gwen = (report / "runs" / f"{slug['gwen.txt']}.html").read_text()
    assert "(not answered)" in gwen and "answers 1 of 10 judged topics" in gwen
    mia = (report / "runs" / f"{slug['mia.txt']}.html").read_text()
    assert "Not graded: line 6: docno" in mia and "<code>duplicate-docno</code> 1 line from line 6" in mia
    assert mia.index('id="verdict"') < mia.index("<code>duplicate-docno</code>")
    # notes change no value: the verdict says so, and they come last, after the curve
    jon = (report / "runs" / f"{slug['jon.txt']}.html").read_text()
    assert "Graded: no warnings. 1 note at the bottom of the page." in jon
    at = [jon.index(s) for s in ("precision/recall curve of jon.txt", 'id="notes"', "<code>rank-sequence</code>")]
    assert at == sorted(at)
    dave = (report / "runs" / f"{slug['dave.txt']}.html").read_text()
    assert "<code>runid</code> 20 lines from line 181" in dave


def test_feedback_for_a_student(report):
    from trec_eval_py.tools.grading.report import slugs

    slug = slugs(sorted(EXPECTED))
    text = (report / "feedback" / f"{slug['gwen.txt']}.txt").read_text()
    assert text.startswith("Run: gwen.txt\n")
    assert "Rank: 10 of 10 (by map)" in text
    assert "Topics answered: 1 of 10" in text
    assert re.search(r"^  map +0\.\d{4}   \(0\.\d{4}\)$", text, re.M)
    weak = text.split("Weakest topics by map")[1].splitlines()[1:]
    assert len(weak) == 5 and all("not answered" in w for w in weak)
    broken = (report / "feedback" / f"{slug['leo.txt']}.txt").read_text()
    assert "Not graded: line 1: a header line ('qid Q0 docno rank score runid'), unlike every other line" in broken
    assert (report / "feedback" / f"{slug['gwen.txt']}.txt").name == "gwen.txt"  # not gwen.txt.txt


def test_hide_judgments_leaves_no_judged_docno(klass, tmp_path, capsysbinary):
    judged = {ln.split()[2] for ln in (klass / "qrels.txt").read_text().splitlines()}
    assert len(judged) > 10

    def leaked(folder, extra):
        with in_class(klass) as here:
            code, out, _ = run_cli(["batch", klass / "qrels.txt", here, "--format", "json",
                                    "--report", folder, "-j", "1", *extra], capsysbinary)
        texts = [out] + [p.read_text() for p in folder.rglob("*") if p.is_file()]
        return {d for t in texts for d in judged if re.search(rf"\b{re.escape(d)}\b", t)}

    # without the option the report does name documents (so the check below can fail)
    assert leaked(tmp_path / "open", [])
    assert leaked(tmp_path / "hidden", ["--hide-judgments"]) == set()
    text = (tmp_path / "hidden" / "index.html").read_text()
    assert "[hidden]" in text


# ---- validate over the class ----

def test_validate_the_class(klass, capsysbinary):
    with in_class(klass) as here:
        code, out, err = run_cli(["validate", here, "--qrels", klass / "qrels.txt", "--format", "json"],
                                 capsysbinary)
    assert code == 3 and "Traceback" not in err
    doc = json.loads(out)
    files = {f["path"]: f for f in doc["files"]}
    assert sorted(files) == sorted(EXPECTED)
    first = {p: f["findings"][0]["code"] if f["findings"] else None for p, f in files.items()}
    assert first["kate.txt"] == "fields" and files["kate.txt"]["errors"] == 1
    assert files["kate.txt"]["counts"] == {"fields": 200}
    assert first["leo.txt"] == "header"
    assert first["mia.txt"] == "duplicate-docno"
    assert first["ned.txt"] == "no-common-topics"
    assert "remove the prefix 'q'" in files["ned.txt"]["findings"][0]["message"]
    assert first["olga.txt"] == "empty"
    assert first["quinn.txt"] == "line-endings"
    assert first["rita.txt"] == "looks-like-qrels"
    assert first["broken.zip"] == "unreadable"
    assert first["dave.txt"] == "runid"
    # the rank column is ignored: 0-based ranks only warn
    assert files["jon.txt"]["ok"] and files["jon.txt"]["notes"] == 1 and files["jon.txt"]["errors"] == 0
    assert files["jon.txt"]["counts"] == {"rank-sequence": 10}
    assert files["bob/submission/run.txt"]["findings"] == []  # CRLF is fine
    ok = {p for p, f in files.items() if f["ok"]}
    assert ok == {n for n, (s, _) in EXPECTED.items() if s == "ok"}


def test_validate_text_and_csv(klass, capsysbinary):
    code, out, _ = run_cli(["validate", klass / "submissions" / "alice", klass / "submissions" / "ned.txt",
                            "--qrels", klass / "qrels.txt"], capsysbinary)
    assert code == 3
    assert out.splitlines()[-2:] == ["2 files: 1 ok, 1 failed", "files per check: no-common-topics 1"]
    assert "run.txt: ok: 0 errors, 0 warnings (200 results, 10 topics)" in out
    with in_class(klass) as here:
        code, out, _ = run_cli(["validate", here, "--format", "csv"], capsysbinary)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and set(rows[0]) == {"file", "path", "line", "severity", "code", "count", "message"}
    assert any(r["file"] == "leo.txt" and r["line"] == "1" and r["code"] == "header" for r in rows)


def test_validate_against_topic_ids_only(klass, tmp_path, capsysbinary):
    topics = tmp_path / "topics.txt"
    topics.write_text("".join(t + "\n" for t in TOPICS))
    sub = klass / "submissions"
    code, out, _ = run_cli(["validate", sub / "alice", sub / "gwen.txt", sub / "ned.txt", "--topics", topics,
                            "--format", "json"], capsysbinary)
    files = {Path(f["path"]).name: f for f in json.loads(out)["files"]}  # a file given is named as given
    assert code == 3
    assert files["run.txt"]["findings"] == []
    (gwen,) = files["gwen.txt"]["findings"]
    assert gwen["code"] == "topic-not-in-run" and gwen["count"] == 9
    assert files["ned.txt"]["findings"][0]["code"] == "no-common-topics"
    # a qrels file works as a list of topics too, without reading its judgments
    code, out, _ = run_cli(["validate", sub / "ned.txt", "--topics", klass / "qrels.txt"], capsysbinary)
    assert code == 3 and "remove the prefix 'q'" in out


@pytest.mark.parametrize("run_ids,known,hint", [
    (["q1", "q2"], ["1", "2", "3"], "remove the prefix 'q'"),
    (["1", "2"], ["T1", "T2"], "add the prefix 'T'"),
    (["0401", "0402"], ["401", "402"], "remove the leading zeros"),
    (["7", "8"], ["007", "008"], "pad the ids with zeros"),
    (["Q1"], ["q1", "q2"], "upper/lower case"),
    (["x"], ["1", "2"], "expected ids such as '1', '2'"),
])
def test_topic_id_hints(tmp_path, run_ids, known, hint):
    from trec_eval_py.tools.grading.validate import validate_run

    (tmp_path / "run").write_text("".join(f"{q} Q0 d 1 1.0 r\n" for q in run_ids))
    (tmp_path / "qrels").write_text("".join(f"{q} 0 d 1\n" for q in known))
    rep = validate_run(str(tmp_path / "run"), str(tmp_path / "qrels"))
    assert rep.findings[0].code == "no-common-topics" and hint in rep.findings[0].message
    assert rep.num_errors == 1 and rep.num_warnings == 0  # one error, not one per topic


def test_swapped_qrels_and_run(klass, capsysbinary):
    sub = klass / "submissions"
    code, out, err = run_cli(["validate", klass / "qrels.txt", "--qrels", sub / "alice" / "run.txt"], capsysbinary)
    assert code == 1 and "looks like a run" in err and "swapped order" in err
    code, out, err = run_cli(["batch", sub / "alice" / "run.txt", klass / "qrels.txt"], capsysbinary)
    assert code == 1 and "swapped order" in err and out == ""


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bad_setting_is_one_error_before_any_run_is_graded(tmp_path, jobs, capfd):
    """The grader (its evaluator: measures, options, a -Z file) is made once, by the
    board, before any run is graded: a setting it refuses is the board's one error,
    not a broken process pool's traceback on every row."""
    from trec_eval_py.errors import InputError
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard

    runs = [EXAMPLES / "run_a.txt", EXAMPLES / "run_b.txt"]
    with pytest.raises(InputError) as e:
        build_leaderboard(EXAMPLES / "qrels.txt", runs, ["map"], jobs=jobs, zscore_file=str(tmp_path / "nosuch"))
    assert "nosuch" in str(e.value)
    assert "Traceback" not in capfd.readouterr().err


def test_one_evaluation_a_run_gives_the_board_and_the_curve(monkeypatch):
    """batch evaluates each graded run once, for its board's measures and its curve
    alike; the curve is the one a separate evaluation of iprec_at_recall gives."""
    from trec_eval_py.engine import pipeline
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard

    calls = []
    real = pipeline.Evaluator.evaluate

    def counting(self, run, **kw):
        calls.append(run)
        return real(self, run, **kw)

    monkeypatch.setattr(pipeline.Evaluator, "evaluate", counting)
    runs = [EXAMPLES / "run_a.txt", EXAMPLES / "run_b.txt"]
    board = build_leaderboard(EXAMPLES / "qrels.txt", runs, ["map", "P.10"], curves=True, check=False)
    assert len(calls) == len(runs)
    for e in board.entries:
        alone = pipeline.evaluate(EXAMPLES / "qrels.txt", e.path, ["iprec_at_recall"], complete=True)
        assert np.array_equal(e.curve[:, 1], np.array(alone.column_summary, dtype=float))
        assert e.result.to_text() == pipeline.evaluate(EXAMPLES / "qrels.txt", e.path, ["map", "P.10"],
                                                       complete=True).to_text()


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_a_validated_run_is_joined_once(monkeypatch, compat):
    # the validator's checks read the evaluation's own join and the evaluation measures
    # it: one join a run (it was three: the checks' two and the evaluation's), and the
    # board is the one an unchecked grading gives
    from trec_eval_py.engine.join import qrels as join_qrels
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard

    runs = [str(EXAMPLES / "run_a.txt"), str(EXAMPLES / "run_b.txt")]
    joins = []
    real = join_qrels._join_rank_c
    monkeypatch.setattr(join_qrels, "_join_rank_c", lambda *a, **k: joins.append(1) or real(*a, **k))
    checked = build_leaderboard(str(EXAMPLES / "qrels.txt"), runs, ["all_trec"], compat=compat)
    assert len(joins) == len(runs)
    unchecked = build_leaderboard(str(EXAMPLES / "qrels.txt"), runs, ["all_trec"], compat=compat, check=False)
    assert all(e.error is None and e.evaluation is not None for e in checked.entries)
    assert ([e.evaluation.to_text(query=True) for e in checked.entries]
            == [e.evaluation.to_text(query=True) for e in unchecked.entries])
