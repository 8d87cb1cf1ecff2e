"""A mistyped subcommand is named as one (did you mean ...?), not read as the
judgments file or as extra arguments; a real file of that name is still read."""
from __future__ import annotations

import pytest

from trec_eval_py.cli import main


@pytest.mark.parametrize("typed,meant", [("comapre", "compare"), ("bacth", "batch"), ("validte", "validate"),
                                         ("curvs", "curves")])
def test_mistyped_subcommand(typed, meant, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main([typed, "qrels", "a", "b"])
    assert e.value.code == 1
    assert capsys.readouterr().err == (f"trec_eval_py: unknown command {typed!r}; did you mean {meant!r}? "
                                       "(trec_eval_py -h lists them)\n")


def test_a_file_named_like_a_command_is_read(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "comapre").write_bytes(b"1 0 d1 1\n")
    (tmp_path / "run").write_bytes(b"1 Q0 d1 1 1.0 r\n")
    main(["-m", "num_rel", "comapre", "run"])
    assert capsys.readouterr().out == "num_rel               \tall\t1\n"


def test_a_missing_file_is_still_a_missing_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["qrels.txt", "run.txt"])
    assert "qrels.txt" in capsys.readouterr().err
