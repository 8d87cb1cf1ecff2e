"""The progress bar: drawn on a terminal only, after a delay, throttled, erased at the end."""
from __future__ import annotations

import io

import pytest
from support.paths import EXAMPLES

from trec_eval_py.cli.progress import ENV, Progress, enabled_for, track


class Tty(io.StringIO):
    def isatty(self):
        return True


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)


def test_silent_when_not_a_terminal():
    out = io.StringIO()
    clock = Clock()
    with Progress(10, "runs", stream=out, clock=clock, delay=0) as bar:
        for _ in range(10):
            clock.t += 1
            bar.update()
    assert out.getvalue() == ""
    assert bar.n == 10


def test_waits_for_the_delay_then_draws_and_erases():
    out, clock = Tty(), Clock()
    bar = Progress(4, "runs", stream=out, clock=clock, delay=0.5, interval=0.1)
    clock.t += 0.2
    bar.update()
    assert out.getvalue() == ""  # quick work stays silent
    clock.t += 0.8  # 1.0 s elapsed, 2 of 4 done: 1 s left
    bar.update()
    drawn = out.getvalue()
    assert drawn == "\rruns:  50% |############------------| 2/4 [00:01<00:01]"
    clock.t += 0.05
    bar.update()  # within the interval: not redrawn
    assert out.getvalue() == drawn
    bar.close()
    width = len(drawn) - 1
    assert out.getvalue() == drawn + "\r" + " " * width + "\r"
    bar.close()  # closing twice draws nothing more
    assert out.getvalue().count("\r") == 3


def test_shorter_line_blanks_the_rest_of_the_longer_one():
    out, clock = Tty(), Clock()
    bar = Progress(None, "x", stream=out, clock=clock, delay=0, interval=0)
    bar.update(123456)
    first = out.getvalue()
    assert first == "\rx: 123,456 [00:00]"
    bar.n = 0
    bar.update(1)
    assert out.getvalue() == first + "\rx: 1 [00:00]" + " " * 6


def test_bytes_and_unknown_total():
    bar = Progress(None, stream=io.StringIO(), unit="B", clock=Clock())
    bar.n = 3 * 1024 * 1024
    assert bar.line() == "3.0 MiB [00:00]"
    bar.set_total(6 * 1024 * 1024)
    assert bar.line().startswith(" 50% |")
    assert "3.0 MiB/6.0 MiB" in bar.line()


def test_environment_switch(monkeypatch):
    monkeypatch.setenv(ENV, "0")
    assert not enabled_for(Tty())
    monkeypatch.setenv(ENV, "1")
    assert enabled_for(io.StringIO())
    monkeypatch.delenv(ENV)
    assert enabled_for(Tty()) and not enabled_for(io.StringIO()) and not enabled_for(None)


def test_broken_terminal_stops_drawing_but_not_the_work():
    class Broken(Tty):
        def write(self, s):
            raise OSError("gone")

    bar = Progress(3, stream=Broken(), delay=0, interval=0, clock=Clock())
    bar.update()
    bar.update()
    assert not bar.enabled and bar.n == 2
    bar.close()


def test_track_yields_everything_and_counts():
    out, clock = Tty(), Clock()
    seen = list(track(iter(range(5)), "t", stream=out, clock=clock, delay=0, interval=0))
    assert seen == [0, 1, 2, 3, 4]
    assert "t: 5 [00:00]" in out.getvalue()  # unknown length: count only
    assert out.getvalue().endswith("\r")  # erased at the end
    out2 = Tty()
    list(track([1, 2], "t", stream=out2, clock=clock, delay=0, interval=0))
    assert "2/2" in out2.getvalue()


def test_pipeline_reports_topics_measured_piece_by_piece(tmp_path, monkeypatch):
    import trec_eval_py as te
    from trec_eval_py.engine import pipeline

    qrels = tmp_path / "q"
    run = tmp_path / "r"
    qrels.write_text("".join(f"{t} 0 d{i} {i % 2}\n" for t in range(1, 31) for i in range(4)))
    run.write_text("".join(f"{t} Q0 d{i} {i} {1.0 / (i + 1)} r\n" for t in range(1, 31) for i in range(6)))
    calls = []
    whole = te.evaluate(str(qrels), str(run), ["map"], progress=calls.append)
    assert sum(calls) == len(whole.topics) == 30
    # a run read in pieces reports each piece
    monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 1)
    from trec_eval_py.engine.parse import run as run_mod

    monkeypatch.setattr(run_mod, "CHUNK_BYTES", 256)
    calls.clear()
    streamed = te.evaluate(str(qrels), str(run), ["map"], progress=calls.append)
    assert len(calls) > 1 and sum(calls) == 30
    assert streamed.to_text(query=True) == whole.to_text(query=True)


def test_cli_output_untouched_by_the_bar(tmp_path, monkeypatch):
    import contextlib
    import io

    from trec_eval_py.cli import main

    root = EXAMPLES
    outputs = []
    for setting in ("0", "1"):  # "1": drawing forced on; the bar still waits for its delay, erases itself
        monkeypatch.setenv(ENV, setting)
        out, err = io.BytesIO(), io.StringIO()

        class Stdout:
            buffer = out

            def write(self, s):
                self.buffer.write(s.encode())

            def flush(self):
                pass

        with contextlib.redirect_stdout(Stdout()), contextlib.redirect_stderr(err):
            main(["-q", str(root / "qrels.txt"), str(root / "run_a.txt")])
        assert err.getvalue() == ""
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and b"\r" not in outputs[1] and outputs[1].startswith(b"num_ret")
