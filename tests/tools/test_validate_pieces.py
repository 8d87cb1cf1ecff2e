"""validate reads a run in pieces and checks each topic as it completes: its report
(findings, their counts, example lines and order, and what was read) is the one
the file checked whole gives, for random runs full of problems, wherever the
pieces end (inside a topic, a line's CR LF, a header's probe), and a run that
lists a topic in two places is checked whole."""
from __future__ import annotations

import gzip
import random

import pytest

from trec_eval_py.tools import validate as v
from trec_eval_py.tools.submissions import scan_submissions

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


def _report(run, qrels, piece: int, monkeypatch, problem: int = v.PROBLEM_BYTES, **kw) -> v.Report:
    """The report with pieces of ``piece`` bytes, and parts of ``problem`` bytes of a
    piece with a line problem (a part with none is split by the fast scanner)."""
    monkeypatch.setattr(v, "PIECE_BYTES", piece)
    monkeypatch.setattr(v, "PROBLEM_BYTES", problem)
    return v.validate_run(run, qrels, **kw)


def _same(a: v.Report, b: v.Report) -> None:
    assert a.to_dict() == b.to_dict()
    assert list(a.unjudged.items()) == list(b.unjudged.items())
    assert a.skipped_header == b.skipped_header


class _Groups:
    """How many groups of topics were checked apart, and whether a file was read whole again."""

    def __init__(self, monkeypatch):
        self.groups = 0
        self.again = 0
        topics, whole = v._RunChecks.topics, v._RunBytes.whole

        def counted(checks, c):
            self.groups += not checks.whole
            return topics(checks, c)

        def again(source):
            self.again += 1
            return whole(source)

        monkeypatch.setattr(v._RunChecks, "topics", counted)
        monkeypatch.setattr(v._RunBytes, "whole", again)


SETTINGS = [
    {},
    {"max_per_check": 0, "max_docs": 20},
    {"max_per_check": 2, "skip_header": True, "compat": "10.0", "max_unjudged": 0.2},
    {"ignore": ["tie"], "max_docs": 0, "cutoffs": (3, 7)},
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
    assert seen.groups > 2 or seen.again  # read in pieces (or, a topic coming back, whole again)


def test_the_random_runs_hold_the_problems_they_are_for(tmp_path, monkeypatch):
    """The generator above makes what the comparison is about: every check fires in some runs."""
    fired: set[str] = set()
    back = 0
    for seed in range(48):
        data, qrels_text, qids = random_case(seed)
        qrels = tmp_path / "qrels"
        qrels.write_text(qrels_text)
        report = v.validate_run(data, str(qrels), name="run", max_docs=20)
        fired |= report.codes()
        seen = _Groups(monkeypatch)
        _report(data, str(qrels), 300, monkeypatch, name="run", max_docs=20)
        back += seen.again
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
    whole = _report(str(run), str(tmp_path / "qrels"), WHOLE, monkeypatch, max_docs=60)
    seen = _Groups(monkeypatch)
    _same(_report(str(run), str(tmp_path / "qrels"), piece, monkeypatch, max_docs=60), whole)
    assert seen.groups > 1 and not seen.again
    assert {"duplicate-docno", "runid", "score-type", "too-many-docs", "unjudged"} <= whole.codes()


def test_a_topic_that_comes_back_is_checked_with_the_file_whole(tmp_path, monkeypatch):
    blocks = [_topic_block(str(t), 40) for t in range(1, 8)]
    back = blocks[2].splitlines(keepends=True)
    data = "".join(blocks[:2] + back[:20] + blocks[3:] + back[20:]).encode()
    run = tmp_path / "run"
    run.write_bytes(data)
    whole = _report(str(run), None, WHOLE, monkeypatch)
    seen = _Groups(monkeypatch)
    _same(_report(str(run), None, 500, monkeypatch), whole)
    assert seen.again == 1 and whole.topics == 7


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

    monkeypatch.setattr(v, "read_source", refused)
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
    monkeypatch.setattr(v, "PIECE_BYTES", 4096)
    (zipped,) = v.validate_runs([str(tmp_path / "gz")])
    assert (zipped.lines, zipped.results, zipped.topics, zipped.findings) == (whole.lines, whole.results, whole.topics, [])


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
    that comes back is still checked (whole) as for a file."""
    import os
    import threading

    data = "".join(_topic_block(t, 150) for t in ("1", "2", "1")).encode()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as f:
            f.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    piped = _report(str(fifo), None, 500, monkeypatch)
    writer.join()
    assert piped.to_dict() == _report(data, None, WHOLE, monkeypatch, name=str(fifo)).to_dict()
    assert "duplicate-docno" in piped.codes() and piped.topics == 2
