"""The command line's read-ahead (engine/parse/readahead.py): the judgments and the
run read and scanned on a second thread while numpy is imported, then taken by
their readers. It may change when the work is done, never what comes out."""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading

import pytest
from support.golden import GOLDEN, run_cli
from support.paths import EXAMPLES

from trec_eval_py import _native, cli
from trec_eval_py.engine.inputs import judgment_formats, results_formats
from trec_eval_py.engine.parse import handover, layouts, readahead
from trec_eval_py.engine.parse.qrels import read_qrels
from trec_eval_py.engine.parse.run import read_run

INPUTS = GOLDEN / "inputs"
BIG = 1 << 30


class _Spy:
    """Counts what the readers took from the read-ahead, and the scans of the main thread."""

    def __init__(self, monkeypatch):
        self.taken, self.scanned, self.main_scans = [], [], 0
        take, scanned = readahead.ReadAhead.take, readahead.ReadAhead.scanned

        def spy_take(ra, path):
            data = take(ra, path)
            self.taken.append((os.path.basename(path), data is not None))
            return data

        def spy_scanned(ra, data, args):
            answer = scanned(ra, data, args)
            self.scanned.append(answer is not None)
            return answer

        monkeypatch.setattr(readahead.ReadAhead, "take", spy_take)
        monkeypatch.setattr(readahead.ReadAhead, "scanned", spy_scanned)
        scanner = _native.extension("scan")
        if scanner is not None:
            real = scanner.scan

            class Counting:
                def __getattr__(self, name):
                    return getattr(scanner, name)

                def scan(inner, *args):
                    if threading.current_thread() is threading.main_thread():
                        self.main_scans += 1
                    return real(*args)

            counting = Counting()
            monkeypatch.setattr(_native, "extension", lambda name, _e=_native.extension:
                                counting if name == "scan" and _e(name) is not None else _e(name))


def _without_read_ahead(monkeypatch):
    monkeypatch.setattr(cli, "_read_ahead", lambda *a, **k: contextlib.nullcontext())


@pytest.mark.parametrize("args", [
    ["-q", "-m", "all_trec"], ["-m", "ndcg_cut", "-M", "5", "-J"], ["--order", "rank", "-m", "map"],
    ["-c", "-q", "-m", "P.5"], ["-R", "qrels_jg", "-m", "P_avgjg"],
])
def test_the_output_is_the_same_with_and_without_it(args, capsysbinary, monkeypatch):
    files = [str(INPUTS / "qrels.test"), str(INPUTS / "results.test")]
    with_it = run_cli(args + files, capsysbinary, binary=True)
    _without_read_ahead(monkeypatch)
    assert run_cli(args + files, capsysbinary, binary=True) == with_it


@pytest.mark.skipif(_native.extension("scan") is None, reason="the read-ahead scans with the C scanner only "
                    "(without it the test below checks that the files are still read ahead)")
def test_both_files_are_read_and_scanned_ahead_not_again(capsysbinary, monkeypatch):
    spy = _Spy(monkeypatch)
    code, out, _ = run_cli(["-q", "-m", "all_trec", EXAMPLES / "qrels.txt", EXAMPLES / "run_a.txt"], capsysbinary)
    assert code == 0 and out
    assert spy.taken == [("qrels.txt", True), ("run_a.txt", True)]
    assert spy.scanned == [True, True]
    assert spy.main_scans == 0


def test_without_the_c_scanner_the_files_are_still_read_ahead(capsysbinary, monkeypatch):
    monkeypatch.setattr(_native, "USE_C", False)
    spy = _Spy(monkeypatch)
    code, out, _ = run_cli(["-m", "map", EXAMPLES / "qrels.txt", EXAMPLES / "run_a.txt"], capsysbinary)
    assert code == 0 and "map" in out
    assert spy.taken == [("qrels.txt", True), ("run_a.txt", True)]


def test_a_format_it_has_no_layout_for_is_left_to_its_reader(capsysbinary, monkeypatch):
    spy = _Spy(monkeypatch)
    code, _, _ = run_cli(["-R", "qrels_jg", "-m", "P_avgjg", INPUTS / "qrels.test", INPUTS / "results.test"],
                         capsysbinary)
    assert code == 0
    assert spy.taken == [("qrels.test", False), ("results.test", True)]  # judgments: qrels_jg's reader alone


@pytest.mark.parametrize("bad", ["bad_rel.qrels", "dup.qrels", "empty.qrels"])
def test_a_bad_judgments_file_gives_the_same_error(bad, capsysbinary, monkeypatch):
    files = [INPUTS / bad, INPUTS / "results.test"]
    with_it = run_cli(["-m", "map"] + files, capsysbinary)
    _without_read_ahead(monkeypatch)
    without = run_cli(["-m", "map"] + files, capsysbinary)
    assert with_it == without and with_it[0] != 0


@pytest.mark.parametrize("bad", ["bad_score.run", "dup.run", "empty.run", "crlf.run"])
def test_a_bad_run_gives_the_same_answer(bad, capsysbinary, monkeypatch):
    files = [INPUTS / "qrels.test", INPUTS / bad]
    with_it = run_cli(["-m", "map"] + files, capsysbinary)
    _without_read_ahead(monkeypatch)
    assert run_cli(["-m", "map"] + files, capsysbinary) == with_it


def test_the_layouts_are_the_ones_the_readers_split_by():
    # the read-ahead scans with layout_of(format): a format has a layout exactly when its
    # reader is the one that splits by it (a new format reading qrels lines must say so)
    judgments, results = judgment_formats(), results_formats()
    assert "qrels" in judgments and "trec_results" in results and len(judgments) > 3
    for name, fmt in judgments.items():
        assert (layouts.layout_of(name) is layouts.QRELS) == (fmt.read is read_qrels), name
        assert layouts.layout_of(name) in (None, layouts.QRELS), name
    for name, fmt in results.items():
        assert (layouts.layout_of(name) is layouts.RUN) == (fmt.read is read_run), name
        assert layouts.layout_of(name) in (None, layouts.RUN), name
    assert layouts.layout_of("trec_results", rank_column=True) is layouts.RANKED_RUN
    assert layouts.layout_of("qrels", rank_column=True) is layouts.QRELS


def _taken(files, max_bytes=BIG, *, change=None):
    with readahead.read_ahead(files, max_bytes) as ahead:
        for f in ahead.files:
            assert f.ready.wait(10), "the read-ahead thread never finished"
        if change:
            change()
        return [handover.take(path) for path, _ in files]


def test_a_file_changed_after_it_was_read_ahead_is_read_again(tmp_path):
    run = tmp_path / "run"
    run.write_bytes(b"1 Q0 d1 1 2.0 r\n")
    assert _taken([(str(run), layouts.RUN)]) == [run.read_bytes()]

    def grow():
        with open(run, "ab") as f:
            f.write(b"1 Q0 d2 2 1.0 r\n")
    assert _taken([(str(run), layouts.RUN)], change=grow) == [None]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_never_opened_by_it(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it to read would wait for a writer: the thread must not
    assert _taken([(str(fifo), layouts.RUN)]) == [None]


def test_files_read_in_pieces_are_left_to_their_readers(tmp_path):
    run, qrels = tmp_path / "run", tmp_path / "qrels"
    run.write_bytes(b"1 Q0 d1 1 2.0 r\n" * 100)
    qrels.write_bytes(b"1 0 d1 1\n" * 100)
    # a run from the size the evaluation streams; judgments above their reader's piece
    assert _taken([(str(run), layouts.RUN)], max_bytes=1000) == [None]
    small_pieces = layouts.Layout("qrels", 4, 4, layouts.QRELS.wanted, layouts.QRELS.labels, 500)
    assert _taken([(str(qrels), small_pieces)]) == [None]
    assert _taken([(str(qrels), layouts.QRELS), (str(run), layouts.RUN)]) == [qrels.read_bytes(), run.read_bytes()]


def test_a_missing_file_is_left_to_its_reader(tmp_path):
    assert _taken([(str(tmp_path / "nothing"), layouts.RUN)]) == [None]


def test_a_scan_is_handed_only_for_the_very_bytes_and_arguments_it_was_made_for(tmp_path):
    run = tmp_path / "run"
    run.write_bytes(b"1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n")
    with readahead.read_ahead([(str(run), layouts.RUN)], BIG) as ahead:
        data = handover.take(str(run))
        assert data == run.read_bytes()
        assert handover.take(str(run)) is None  # taken once
        if ahead.files[0].scan is None:
            return  # no C scanner: nothing scanned ahead
        args = layouts.RUN.scan_args(len(data))
        assert handover.scanned(bytes(bytearray(data)), args) is None  # equal bytes, another object
        assert handover.scanned(data, layouts.QRELS.scan_args(len(data))) is None
        assert handover.scanned(memoryview(data)[:-1], args) is None
        answer = handover.scanned(memoryview(data), args)
        assert answer is not None and answer[:2] == ("ok", 2)
        assert handover.scanned(data, args) is None  # handed once, then let go
        assert ahead.files[0].data is None
    assert handover.scanned(data, args) is None  # outside the command: nothing


def test_it_lets_go_of_everything_when_the_command_ends(tmp_path):
    run = tmp_path / "run"
    run.write_bytes(b"1 Q0 d1 1 2.0 r\n")
    with readahead.read_ahead([(str(run), layouts.RUN)], BIG) as ahead:
        pass  # nothing taken (an error before the run was read)
    assert ahead.files == [] and not ahead.thread.is_alive()
    assert handover.take(str(run)) is None


_STARTED_BEFORE_NUMPY = """\
import json, sys
from trec_eval_py.engine.parse import readahead
seen = []
init = readahead.ReadAhead.__init__
def spy(self, *a, **k):
    seen.append("numpy" in sys.modules)
    init(self, *a, **k)
readahead.ReadAhead.__init__ = spy
from trec_eval_py.cli import main
main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write(json.dumps(seen))
"""


def test_the_command_line_starts_it_before_numpy_is_imported():
    p = subprocess.run([sys.executable, "-c", _STARTED_BEFORE_NUMPY, "-m", "map",
                        str(EXAMPLES / "qrels.txt"), str(EXAMPLES / "run_a.txt")], capture_output=True)
    assert p.returncode == 0, p.stderr.decode()
    assert b"map" in p.stdout
    assert json.loads(p.stderr.decode().splitlines()[-1]) == [False]
