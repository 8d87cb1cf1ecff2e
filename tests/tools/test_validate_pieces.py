"""validate reads a run in pieces and checks each topic as it completes: its report
(findings, their counts, example lines and order, and what was read) is the one
the file checked whole gives, for random runs full of problems, wherever the
pieces end (inside a topic, a line's CR LF, a header's probe). A run that lists
a topic in two places is read again, its lines regrouped by topic through
temporary files: the same report again, in bounded memory, whatever the order
of the groups, and no temporary file outlives the check."""
from __future__ import annotations

import gzip
import os
import random

import hypothesis
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from trec_eval_py.engine.join.policy import POLICY
from trec_eval_py.tools.grading import validate as v
from trec_eval_py.tools.grading.validate import _reader, _run, _topics
from trec_eval_py.tools.shared.submissions import scan_submissions

WHOLE = 1 << 40  # pieces larger than any file here: the file is checked whole


def _line(rng: random.Random, qid: str, docno: str, rank, score, runid: str) -> str:
    f = [qid, "Q0", docno, str(rank), score, runid]
    x = rng.random()
    if x < 0.004:
        return f"# a comment after {qid}"
    if x < 0.008:
        return "   "
    if x < 0.012:
        return " ".join(f[:4] + f[5:])  # the score left out
    if x < 0.016:
        return ",".join(f)
    if x < 0.020:
        return " ".join(f + ["extra", "fields"])
    if x < 0.024:
        f[4] = f[4].replace(".", ",") if "." in f[4] else f[4] + ",5"
    elif x < 0.028:
        f[3] = "x"
    elif x < 0.031:
        f[2] = f[2] + "\udcff"  # a byte that is not UTF-8
    elif x < 0.033:
        f[4] = "nan"
    sep = "\t" if rng.random() < 0.1 else " "
    return sep.join(f)


def random_case(seed: int) -> tuple[bytes, str, list[str]]:
    """A run (bytes), its qrels (text) and the run's topic ids, from ``seed``."""
    rng = random.Random(seed)
    qids = rng.sample([str(i) for i in range(1, 60)], 20)
    runids = ["sys"] if rng.random() < 0.6 else ["sys", "sys", "sys", "other", "third"]
    reversed_share = rng.choice([0.0, 0.2, 0.8])
    blocks: list[list[str]] = []
    for qid in qids:  # more than the header probe and the first look take, so the pieces are seen
        if sum(map(len, blocks)) > rng.randint(260, 700):
            qids = qids[: len(blocks)]
            break
        n = rng.randint(8, 70)
        pool = rng.randint(n, 3 * n) if rng.random() < 0.7 else max(n // 2, 3)  # a small pool: duplicates
        docs = [f"d{rng.randrange(pool)}" for _ in range(n)]
        if rng.random() < 0.7:
            docs = list(dict.fromkeys(docs))
        score = rng.uniform(5, 50)
        up = rng.random() < reversed_share
        rows = []
        for i, d in enumerate(docs, 1):
            if rng.random() > 0.25:  # else a tie with the document before
                score += rng.uniform(0.01, 2) * (1 if up else -1)
            shown = rng.choice([f"{score:.3f}", f"{score:.3f}", repr(score)])
            rank = i
            y = rng.random()
            if y < 0.03:
                rank = i + 1
            elif y < 0.05:
                rank = max(i - 1, 0)
            rows.append(_line(rng, qid, d, rank, shown, rng.choice(runids)))
        blocks.append(rows)
    lines = [row for rows in blocks for row in rows]
    if rng.random() < 0.3:  # a topic comes back later in the file
        k = rng.randrange(len(blocks[0]))
        lines = blocks[0][:k] + [r for rows in blocks[1:] for r in rows] + blocks[0][k:]
    if rng.random() < 0.2:
        lines.insert(0, "qid iter docno rank score runid")
    eol = "\r\n" if rng.random() < 0.3 else "\n"
    text = eol.join(lines) + (eol if rng.random() < 0.8 else "")
    data = text.encode("utf-8", "surrogateescape")
    if rng.random() < 0.05:
        data = b"\xef\xbb\xbf" + data
    judged = rng.sample(qids, rng.randint(0, len(qids))) + [f"9{i}" for i in range(rng.randint(0, 3))]
    if seed % 6 == 5:  # judgments of other topics only: no topic in common
        judged = ["90", "91"]
    qrels = []
    for qid in judged:
        for d in rng.sample(range(150), rng.randint(1, 60)):
            qrels.append(f"{qid} 0 d{d} {rng.choice([0, 0, 1, 2, -1])}")
    return data, "\n".join(qrels) + "\n", qids


def _report(run, qrels, piece: int, monkeypatch, problem: int = _reader.PROBLEM_BYTES, **kw) -> v.Report:
    """The report with pieces of ``piece`` bytes, and parts of ``problem`` bytes of a
    piece with a line problem (a part with none is split by the fast scanner); a run
    whose topics come back is regrouped in temporary files of about a piece each."""
    monkeypatch.setattr(POLICY, "piece_bytes", piece)
    monkeypatch.setattr(POLICY, "spill_bytes", piece)
    monkeypatch.setattr(_reader, "PROBLEM_BYTES", problem)
    return v.validate_run(run, qrels, **kw)


def _same(a: v.Report, b: v.Report) -> None:
    assert a.to_dict() == b.to_dict()
    assert list(a.unjudged.items()) == list(b.unjudged.items())
    assert a.skipped_header == b.skipped_header


class _Groups:
    """How many groups of topics were checked apart (and the most rows in one), how
    many runs were regrouped through temporary files, and whether a file was read
    whole again."""

    def __init__(self, monkeypatch):
        self.groups = 0
        self.largest = 0
        self.regrouped = 0
        self.again = 0
        topics, whole, regroup = _run._RunChecks.topics, _reader._RunBytes.whole, _run._check_regrouped

        def counted(checks, c, *rest):
            self.groups += not checks.whole
            self.largest = max(self.largest, len(c))
            return topics(checks, c, *rest)

        def again(source):
            self.again += 1
            return whole(source)

        def regrouped(*a, **kw):
            self.regrouped += 1
            return regroup(*a, **kw)

        monkeypatch.setattr(_run._RunChecks, "topics", counted)
        monkeypatch.setattr(_reader._RunBytes, "whole", again)
        monkeypatch.setattr(_run, "_check_regrouped", regrouped)


SETTINGS = [
    {},
    {"max_per_check": 0, "doc_limit": 20},
    {"max_per_check": 2, "skip_header": True, "compat": "10.0", "max_unjudged": 0.2},
    {"ignore": ["tie"], "doc_limit": 0, "cutoffs": (3, 7)},
]


@pytest.mark.parametrize("seed", range(48))
def test_pieces_report_what_the_whole_file_does(tmp_path, monkeypatch, seed):
    data, qrels_text, qids = random_case(seed)
    qrels = tmp_path / "qrels"
    qrels.write_text(qrels_text)
    run = tmp_path / "run.txt"
    run.write_bytes(data)
    rng = random.Random(seed)
    kw = SETTINGS[seed % len(SETTINGS)]
    judgments = [str(qrels), None][seed % 5 == 4]
    if seed % 7 == 3:
        (tmp_path / "topics").write_text("\n".join(rng.sample(qids, 2) + ["77"]) + "\n")
        kw = dict(kw, topics=str(tmp_path / "topics"))
    # the file whole, every line of a file with a line problem read line by line
    whole = _report(str(run), judgments, WHOLE, monkeypatch, WHOLE, **kw)
    _same(_report(str(run), judgments, WHOLE, monkeypatch, rng.randint(100, 1000), **kw), whole)
    seen = _Groups(monkeypatch)
    for piece in (rng.randint(40, 400), rng.randint(400, 3000)):
        _same(_report(str(run), judgments, piece, monkeypatch, **kw), whole)
        _same(_report(str(run), judgments, piece, monkeypatch, rng.randint(50, 300), data=data, **kw), whole)
    assert seen.groups > 2 and not seen.again  # read in pieces (a topic coming back: regrouped)


def test_the_random_runs_hold_the_problems_they_are_for(tmp_path, monkeypatch):
    """The generator above makes what the comparison is about: every check fires in some runs."""
    fired: set[str] = set()
    back = 0
    for seed in range(48):
        data, qrels_text, qids = random_case(seed)
        qrels = tmp_path / "qrels"
        qrels.write_text(qrels_text)
        report = v.validate_run(data, str(qrels), name="run", doc_limit=20)
        fired |= report.codes()
        seen = _Groups(monkeypatch)
        _report(data, str(qrels), 300, monkeypatch, name="run", doc_limit=20)
        back += seen.regrouped
        assert not seen.again
        monkeypatch.undo()
    assert {"comment", "fields", "separator", "extra-fields", "score-type", "rank-type", "encoding", "header",
            "duplicate-docno", "runid", "too-many-docs", "rank-sequence", "tie", "unjudged", "topic-not-in-run",
            "topic-not-in-qrels", "bom"} <= fired, fired
    assert {"score-order", "reversed-scores"} & fired
    assert back >= 5  # runs with a topic that comes back


def _topic_block(qid: str, n: int, runid: str = "r", eol: str = "\n") -> str:
    return "".join(f"{qid} Q0 {qid}-d{i} {i} {100 - i / 7:.4f} {runid}{eol}" for i in range(1, n + 1))


@pytest.mark.parametrize("piece", [64, 97, 1000, 4096])
def test_pieces_ending_inside_topics_and_crlf(tmp_path, monkeypatch, piece):
    """Every piece end falls somewhere inside a topic (some between CR and LF)."""
    text = "".join(_topic_block(str(t), 30 + 7 * t, "r", "\r\n" if t % 2 else "\n") for t in range(1, 12))
    lines = text.splitlines(keepends=True)
    lines[40] = lines[39]  # a duplicate docno
    lines[100] = lines[100].replace("r\n", "r2\n").replace("r\r\n", "r2\r\n")
    f = lines[150].split(" ")
    lines[150] = " ".join(f[:4] + [f[4].replace(".", ",")] + f[5:])  # a decimal comma
    data = "".join(lines).encode()
    (tmp_path / "qrels").write_text("".join(f"{t} 0 {t}-d{i} {i % 3}\n" for t in range(1, 9) for i in range(1, 40, 3)))
    run = tmp_path / "run"
    run.write_bytes(data)
    whole = _report(str(run), str(tmp_path / "qrels"), WHOLE, monkeypatch, doc_limit=60)
    seen = _Groups(monkeypatch)
    _same(_report(str(run), str(tmp_path / "qrels"), piece, monkeypatch, doc_limit=60), whole)
    assert seen.groups > 1 and not seen.again
    assert {"duplicate-docno", "runid", "score-type", "too-many-docs", "unjudged"} <= whole.codes()


def test_a_topic_that_comes_back_is_regrouped_not_read_whole(tmp_path, monkeypatch):
    blocks = [_topic_block(str(t), 40) for t in range(1, 8)]
    back = blocks[2].splitlines(keepends=True)
    data = "".join(blocks[:2] + back[:20] + blocks[3:] + back[20:]).encode()
    run = tmp_path / "run"
    run.write_bytes(data)
    whole = _report(str(run), None, WHOLE, monkeypatch)
    seen = _Groups(monkeypatch)
    _same(_report(str(run), None, 500, monkeypatch), whole)
    assert seen.regrouped == 1 and not seen.again and whole.topics == 7


def test_a_header_settled_across_pieces(tmp_path, monkeypatch):
    """The header question needs 201 content lines: the first pieces are held until then."""
    rows = _topic_block("1", 150) + "# a comment\n" + _topic_block("2", 150)
    # shaped as the header, then blank lines: only the content lines of later pieces tell it apart
    odd = "x y z w v u\n" * 5 + (" " * 20 + "\n") * 300
    for header, skip in (("topic iter doc rank score tag\n", False), ("topic iter doc rank score tag\n", True),
                         ("qid iter docno rank score runid\n" + odd, False), ("1 Q0 first 0 100 r\n", False)):
        run = tmp_path / "run"
        run.write_bytes((header + rows).encode())
        whole = _report(str(run), None, WHOLE, monkeypatch, skip_header=skip)
        for piece in (50, 700, 5000):
            _same(_report(str(run), None, piece, monkeypatch, skip_header=skip), whole)
    assert whole.findings  # the last one: a rank that does not start at 1


def test_short_lines_are_named_from_every_such_line_of_the_file(tmp_path, monkeypatch):
    """The missing column is named from all the short lines, which come in many pieces."""
    text = "".join(f"{t} Q0 d{i} {i} {50 - i / 3:.3f}\n" for t in range(1, 6) for i in range(1, 80))
    run = tmp_path / "run"
    run.write_bytes(text.encode())
    whole = _report(str(run), None, WHOLE, monkeypatch)
    assert "run id column is missing" in whole.findings[0].message and "every one of the" in whole.findings[0].message
    _same(_report(str(run), None, 300, monkeypatch), whole)


def test_not_a_run_at_all_read_in_pieces(tmp_path, monkeypatch):
    """A qrels file given as the run, and a binary file, are told from their first piece."""
    qrels = "".join(f"{t} 0 d{i} {i % 2}\n" for t in range(1, 40) for i in range(30)).encode()
    binary = b"%PDF-1.4\n" + b"1 Q0 d 1 1 r\n" * 2000
    late = b"# a long comment line, before the judgments\n" * 190 + qrels  # the first 200 lines tell
    for data in (qrels, late, binary, b"\n" * 3000 + b"# only comments\n" * 500):
        run = tmp_path / "run"
        run.write_bytes(data)
        whole = _report(str(run), None, WHOLE, monkeypatch)
        _same(_report(str(run), None, 256, monkeypatch), whole)
        assert whole.num_errors == 1 and whole.lines == (0 if data is binary else data.count(b"\n"))
        assert data is not late or "looks-like-qrels" in whole.codes()


def test_a_big_run_is_never_read_whole(tmp_path, monkeypatch):
    """Read in pieces, a file (given by path or found as a submission) is never read
    whole; compressed, it is expanded whole and then checked in pieces."""
    data = "".join(_topic_block(str(t), 200) for t in range(1, 40)).encode()
    (tmp_path / "runs").mkdir()
    run = tmp_path / "runs" / "run"
    run.write_bytes(data)
    whole = _report(str(run), None, WHOLE, monkeypatch)

    def refused(*a, **kw):
        raise AssertionError("read whole")

    for module in (_reader, _topics):  # every reader of a whole file in validate
        monkeypatch.setattr(module, "read_source", refused)
    seen = _Groups(monkeypatch)
    _same(_report(str(run), None, 4096, monkeypatch), whole)
    (sub,) = scan_submissions([str(tmp_path / "runs")]).submissions
    monkeypatch.setattr(type(sub), "read", refused)
    (by_sub,) = v.validate_runs([sub])
    _same(by_sub, whole)
    assert seen.groups > 30 and not seen.again
    monkeypatch.undo()
    (tmp_path / "gz").mkdir()
    (tmp_path / "gz" / "run.gz").write_bytes(gzip.compress(data))
    monkeypatch.setattr(POLICY, "piece_bytes", 4096)
    monkeypatch.setattr(POLICY, "spill_bytes", 4096)
    (zipped,) = v.validate_runs([str(tmp_path / "gz")])
    assert ((zipped.lines, zipped.results, zipped.topics, zipped.findings)
            == (whole.lines, whole.results, whole.topics, []))


def test_ties_without_judgments_in_common(tmp_path, monkeypatch):
    """Judgments that share no topic with the run: ties are told across cutoffs, in
    every group of topics, as when the run has no judgments at all."""
    rows = []
    for t in range(1, 30):
        rows += [f"{t} Q0 d{i} {i} {50 - (i // 2) if i in (10, 11) else 50 - i:.1f} r\n" for i in range(1, 40)]
    run = tmp_path / "run"
    run.write_text("".join(rows))
    (tmp_path / "qrels").write_text("90 0 d1 1\n91 0 d2 1\n")
    whole = _report(str(run), str(tmp_path / "qrels"), WHOLE, monkeypatch)
    tie = [f for f in whole.findings if f.code == "tie"]
    assert tie and "across a cutoff" in tie[0].message and tie[0].count == 29
    assert "no-common-topics" in whole.codes()
    for piece in (300, 5000):
        _same(_report(str(run), str(tmp_path / "qrels"), piece, monkeypatch), whole)


def test_a_pipe_is_read_once(tmp_path, monkeypatch):
    """A run from a pipe cannot be read twice: it is read whole once, and a topic
    that comes back is still checked (regrouped) as for a file."""
    import threading

    data = "".join(_topic_block(t, 150) for t in ("1", "2", "1")).encode()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as f:
            f.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    seen = _Groups(monkeypatch)
    piped = _report(str(fifo), None, 500, monkeypatch)
    writer.join()
    assert seen.regrouped == 1
    assert piped.to_dict() == _report(data, None, WHOLE, monkeypatch, name=str(fifo)).to_dict()
    assert "duplicate-docno" in piped.codes() and piped.topics == 2


# ---- a run whose topics come back: regrouped through temporary files ----

#: topic ids, some alike but for a prefix, zero padding or case
_IDS = [str(i) for i in range(1, 30)] + ["q7", "07", "Q7", "topic-3"]
#: what may be wrong with one line, or with the ones near it
_PROBLEMS = ("comment", "blank", "no-score", "commas", "extra", "too-many-fields", "decimal-comma", "nan",
             "rank-word", "latin1", "nul", "bare-cr", "runid", "duplicate", "tie", "rank-jump", "tab")


@st.composite
def _interleaved_runs(draw):
    """A run (bytes) that lists some topic in two places, every kind of problem the
    checks find in it, and the topics it holds."""
    rng = draw(st.randoms(use_true_random=False))
    ids = draw(st.lists(st.sampled_from(_IDS), min_size=2, max_size=9, unique=True))
    runid = draw(st.sampled_from(["sys", "run-1"]))
    rows: list[list[str]] = []  # per line: qid, Q0, docno, rank, score, runid
    for qid in ids:
        n = draw(st.integers(1, 70))
        pool = draw(st.integers(max(n // 2, 1), 3 * n))  # a small pool: duplicate documents
        tie = draw(st.sampled_from([0.0, 0.1, 0.5]))
        up = draw(st.booleans())  # scores that rise with the rank
        score = rng.uniform(5, 50)
        for i in range(1, n + 1):
            if rng.random() >= tie:
                score += rng.uniform(0.01, 2) * (1 if up else -1)
            shown = rng.choice([f"{score:.3f}", repr(score), f"{score:.1f}"])
            rows.append([qid, "Q0", f"d{rng.randrange(pool)}", str(i), shown, runid])
    while len(rows) < 300:  # more lines than the first look at a file reads (200)
        qid = f"f{len(rows)}"
        rows += [[qid, "Q0", f"d{i}", str(i), f"{100 - i}", runid] for i in range(1, 41)]
    # the order the lines are written in: every topic's lines in a few stretches, shuffled, or by score
    style = draw(st.sampled_from(["stretches", "shuffled", "by-score", "shards"]))
    if style == "stretches":
        cuts = {i for i in range(1, len(rows)) if rng.random() < 0.05}
        parts, start = [], 0
        for i in sorted(cuts) + [len(rows)]:
            parts.append(rows[start:i])
            start = i
        rng.shuffle(parts)
        rows = [r for p in parts for r in p]
    elif style == "shuffled":
        rng.shuffle(rows)
    elif style == "by-score":
        rows.sort(key=lambda r: -float(r[4]))
    else:  # shards: every k-th line of the file, concatenated
        k = rng.randint(2, 4)
        rows = [r for j in range(k) for r in rows[j::k]]
    lines = [" ".join(r) for r in rows]
    for _ in range(draw(st.integers(0, 14))):
        i = rng.randrange(1, len(rows))
        kind = draw(st.sampled_from(_PROBLEMS))
        f = list(rows[i])
        if kind == "comment":
            lines[i] = f"# {lines[i]}"
        elif kind == "blank":
            lines[i] = " \t "
        elif kind == "no-score":
            lines[i] = " ".join(f[:4] + f[5:])
        elif kind == "commas":
            lines[i] = ",".join(f)
        elif kind == "extra":
            lines[i] = " ".join(f + ["x", "y"])
        elif kind == "too-many-fields":
            lines[i] = " ".join(f * 6)
        elif kind == "decimal-comma":
            lines[i] = " ".join(f[:4] + [f[4].replace(".", ",") if "." in f[4] else f[4] + ",5"] + f[5:])
        elif kind == "nan":
            lines[i] = " ".join(f[:4] + ["nan"] + f[5:])
        elif kind == "rank-word":
            lines[i] = " ".join(f[:3] + ["first"] + f[4:])
        elif kind == "latin1":
            lines[i] = " ".join(f[:2] + [f[2] + "\udce9"] + f[3:])
        elif kind == "nul":
            lines[i] = lines[i] + "\0"
        elif kind == "bare-cr":
            lines[i] = lines[i].replace(" ", "\r", 1)
        elif kind == "runid":
            lines[i] = " ".join(f[:5] + ["other"])
        elif kind == "duplicate":  # the document of another line of the topic
            same = [j for j, r in enumerate(rows) if r[0] == f[0] and j != i]
            if same:
                lines[i] = " ".join(f[:2] + [rows[rng.choice(same)][2]] + f[3:])
        elif kind == "tie":  # the score of another line of the topic, or of the line before
            same = [j for j, r in enumerate(rows) if r[0] == f[0] and j != i] or [i - 1]
            lines[i] = " ".join(f[:4] + [rows[rng.choice(same)][4]] + f[5:])
        elif kind == "rank-jump":
            lines[i] = " ".join(f[:3] + [str(int(f[3]) + rng.choice([-1, 1, 5]))] + f[4:])
        else:
            lines[i] = "\t".join(f)
    # a topic surely comes back (the first, after the second), with lines of no problem
    a, b = ids[0], ids[1]
    lines += [f"{a} Q0 back-a {90} 0.25 {runid}", f"{b} Q0 back-b {90} 0.5 {runid}",
              f"{a} Q0 back-c {91} 0.125 {runid}"]
    if draw(st.booleans()):
        lines.insert(0, draw(st.sampled_from(["qid iter docno rank score runid", "topic q0 doc rank sim tag"])))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    data = (eol.join(lines) + (eol if draw(st.booleans()) else "")).encode("utf-8", "surrogateescape")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data, ids


@st.composite
def _judgments(draw, ids):
    """Qrels of some of the run's topics (documents judged or not, levels -1 to 2) and
    of topics it lacks; or the qrels of no topic of the run."""
    rng = draw(st.randoms(use_true_random=False))
    judged = draw(st.lists(st.sampled_from(ids), unique=True)) + draw(st.sampled_from([[], ["90"], ["90", "91"]]))
    if not judged:
        judged = ["90"]
    return "".join(f"{qid} 0 d{d} {rng.choice([0, 0, 1, 2, -1])}\n"
                   for qid in judged for d in rng.sample(range(120), rng.randint(1, 50)))


#: the other settings of validate that change what the topic checks report
_SETTINGS = st.fixed_dictionaries({}, optional={
    "doc_limit": st.sampled_from([0, 5, 30]),
    "max_per_check": st.sampled_from([0, 1, 2, 5]),
    "skip_header": st.booleans(),
    "compat": st.sampled_from(["9.0.8", "10.0"]),
    "max_unjudged": st.sampled_from([0.0, 0.2, 0.5]),
    "cutoffs": st.sampled_from([(3, 7), (1, 2, 5, 10)]),
    "ignore": st.sampled_from([["tie"], ["runid", "rank-sequence"]]),
})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                                   HealthCheck.function_scoped_fixture])
@given(run=_interleaved_runs(), data=st.data(), kw=_SETTINGS, piece=st.integers(40, 3000),
       problem=st.integers(50, 2000), checked=st.sampled_from(["qrels", "topics", "none"]),
       order=st.randoms(use_true_random=False))
def test_a_regrouped_run_reports_what_the_file_checked_whole_does(tmp_path, monkeypatch, run, data, kw, piece,
                                                                  problem, checked, order):
    """Random runs whose topics come back, full of problems: the bounded check (read
    in pieces, then regrouped by topic) gives the report of the file checked whole,
    even with its groups of topics checked in a random order."""
    from trec_eval_py.engine.join import stream

    data_bytes, ids = run
    piece = min(piece, len(data_bytes) // 8)  # the file is more than its first look (200 lines)
    qrels = tmp_path / "qrels"
    qrels.write_text(data.draw(_judgments(ids)))
    path = tmp_path / "run"
    path.write_bytes(data_bytes)
    judgments = None if checked == "none" else str(qrels)
    if checked == "topics":
        (tmp_path / "topics").write_text("\n".join(data.draw(st.lists(st.sampled_from(ids + ["77"]), min_size=1)))
                                         + "\n")
        kw = dict(kw, topics=str(tmp_path / "topics"))
    with monkeypatch.context() as m:
        whole = _report(str(path), judgments, WHOLE, m, WHOLE, **kw)  # the oracle: the file checked whole
    spill = stream.spill_by_topic

    def any_order(pieces, buckets, **kw):
        groups = list(spill(pieces, buckets, **kw))
        order.shuffle(groups)
        yield from groups

    with monkeypatch.context() as m:
        m.setattr(stream, "spill_by_topic", any_order)
        seen = _Groups(m)
        bounded = _report(str(path), judgments, piece, m, problem, **kw)
    _same(bounded, whole)
    assert seen.regrouped == 1 or whole.codes() & {"binary", "looks-like-qrels"}
    assert not seen.again


def test_the_interleaved_runs_hold_the_problems_they_are_for(tmp_path):
    """The runs the property above is tried on hold every problem the checks find,
    their topics coming back."""
    fired: set[str] = set()
    wanted = {"comment", "fields", "separator", "extra-fields", "score-type", "rank-type", "encoding", "nul",
              "line-endings", "header", "duplicate-docno", "runid", "too-many-docs", "rank-sequence", "tie",
              "unjudged", "topic-not-in-run", "topic-not-in-qrels", "no-common-topics", "bom", "score-order",
              "reversed-scores"}

    # a few fixed seeds of 100 examples each, until every problem has fired: which runs
    # one seed draws changed with the tests run before it in the same process
    for s in range(4):
        @hypothesis.seed(s)
        @settings(max_examples=100, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(run=_interleaved_runs(), data=st.data())
        def collect(run, data):
            qrels = tmp_path / "qrels"
            qrels.write_text(data.draw(_judgments(run[1])))
            fired.update(v.validate_run(run[0], str(qrels), name="run", doc_limit=30).codes())

        collect()
        if wanted <= fired:
            break
    assert wanted <= fired, wanted - fired


def _shuffled_run(topics: int, docs: int, seed: int = 1) -> bytes:
    rows = [f"{t} Q0 d{t}-{i} {i} {docs - i / 3:.3f} r\n" for t in range(1, topics + 1) for i in range(1, docs + 1)]
    random.Random(seed).shuffle(rows)
    return "".join(rows).encode()


def test_a_regrouped_run_is_never_read_whole(tmp_path, monkeypatch):
    """A run of shuffled lines is read twice in pieces (the second time regrouped), never
    whole, and no group of topics checked at once holds more than a few pieces' rows."""
    data = _shuffled_run(400, 25)
    run = tmp_path / "run"
    run.write_bytes(data)
    (tmp_path / "qrels").write_text("".join(f"{t} 0 d{t}-{i} {i % 3}\n"
                                            for t in range(1, 300) for i in range(1, 30, 4)))
    qrels = str(tmp_path / "qrels")
    whole = _report(str(run), qrels, WHOLE, monkeypatch, doc_limit=20)

    def refused(*a, **kw):
        raise AssertionError("read whole")

    for module in (_reader, _topics):  # every reader of a whole file in validate
        monkeypatch.setattr(module, "read_source", refused)
    monkeypatch.setattr(_reader._RunBytes, "whole", refused)
    seen = _Groups(monkeypatch)
    piece = 8192
    _same(_report(str(run), qrels, piece, monkeypatch, doc_limit=20), whole)
    rows, per_piece = whole.results, whole.results * piece / len(data)
    assert seen.regrouped == 1 and seen.groups > 20
    assert seen.largest < 3 * per_piece < rows / 10, (seen.largest, per_piece, rows)
    assert whole.topics == 400 and {"too-many-docs", "unjudged", "topic-not-in-qrels"} <= whole.codes()


def _scratch(tmp_path, monkeypatch):
    """Temporary files made in a folder of the test's own."""
    import tempfile

    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _files(folder) -> list:
    return [p for p in folder.rglob("*")]


def test_no_temporary_file_outlives_the_check(tmp_path, monkeypatch):
    """The temporary files of a regrouped run are gone once the report is made, and
    when a check fails while they are written or while they are read back."""
    folder = _scratch(tmp_path, monkeypatch)
    run = tmp_path / "run"
    run.write_bytes(_shuffled_run(60, 30))
    seen = _Groups(monkeypatch)
    held = []
    topics, rows = _run._RunChecks.topics, _run._RunChecks.seen

    def watched(checks, c):
        held.append(len(_files(folder)))  # the files are there while the groups are checked
        return topics(checks, c)

    monkeypatch.setattr(_run._RunChecks, "topics", watched)
    report = _report(str(run), None, 1000, monkeypatch)
    assert seen.regrouped == 1 and report.topics == 60 and max(held) > 1
    assert _files(folder) == []

    def failing_after(n, call, there):
        calls = []

        def check(checks, c):
            calls.append(1)
            if len(calls) > n and checks.regrouped:
                there.append(len(_files(folder)))
                raise RuntimeError("a check failed")
            return call(checks, c)
        return check

    for method, call in (("topics", topics), ("seen", rows)):  # while read back, while written
        there: list = []
        with monkeypatch.context() as m:
            m.setattr(_run._RunChecks, method, failing_after(3, call, there))
            with pytest.raises(RuntimeError, match="a check failed"):
                _report(str(run), None, 1000, m)
        assert there and there[0] > 1, method  # the failure came with the files there
        assert _files(folder) == [], method


def test_no_temporary_file_outlives_a_signal(tmp_path, monkeypatch):
    """SIGTERM while a regrouped run is checked (the command's own signal handling:
    the check unwinds) leaves no temporary file, and no group is checked after it."""
    import signal

    from trec_eval_py import cli

    folder = _scratch(tmp_path, monkeypatch)
    run = tmp_path / "run"
    run.write_bytes(_shuffled_run(60, 30))
    topics = _run._RunChecks.topics
    there = []

    def signalled(checks, c):
        if checks.regrouped:
            there.append(len(_files(folder)))
            os.kill(os.getpid(), signal.SIGTERM)
        return topics(checks, c)

    monkeypatch.setattr(_run._RunChecks, "topics", signalled)
    old = cli._catch_signals()
    try:
        assert signal.SIGTERM in old
        with pytest.raises(cli.Stopped):
            _report(str(run), None, 1000, monkeypatch)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    assert there == [there[0]] and there[0] > 1  # the files were there; no group after the signal
    assert _files(folder) == []
