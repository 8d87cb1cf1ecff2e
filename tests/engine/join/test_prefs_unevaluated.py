"""Preference judgments trec_eval never looks at are not checked.

trec_eval checks a topic's preferences (a document both not relevant and
relevant in one judgment group, a cycle of preferences, a document at two
levels of one sub-group) when it evaluates the topic. 9.0.8 never evaluates a
judged topic without results, even with ``-c``, so such a topic's
inconsistencies pass unseen and the output is that of the other topics.
10.0 with ``-c`` evaluates it (on its placeholder ranking) and stops, as we do.
In ``fixtures/prefs_unevaluated``, topics 1, 5 and 7 (one inconsistency each)
have no results; the expected outputs are trec_eval 9.0.8's.
"""
from __future__ import annotations

import pytest
from support.golden import run_cli
from support.paths import FIXTURES

HERE = FIXTURES / "prefs_unevaluated"


@pytest.mark.parametrize("name,flags", [("complete", ["-c"]), ("plain", [])])
def test_9_0_8_ignores_inconsistent_topics_it_never_evaluates(name, flags, monkeypatch, capsysbinary):
    args = ["-R", "prefs", *flags, "-q", "-m", "all_prefs", "prefs", "run"]
    code, out, err = run_cli(args, capsysbinary, monkeypatch, cwd=HERE, binary=True)
    assert code == 0, err
    assert out == (HERE / "expected" / f"{name}_9.0.8.out").read_bytes()


@pytest.mark.parametrize("topic,message", [
    ("1", "document 'd36' is judged both not relevant (level 0) and relevant"),
    ("5", "contradictory preferences"),
    ("7", "document 'a' has two different levels in one sub-group"),
])
def test_an_evaluated_topic_is_checked(topic, message, tmp_path, monkeypatch, capsysbinary):
    """With results (or 10.0's -c placeholder) the topic is evaluated: an error naming it."""
    prefs = b"".join(line + b"\n" for line in (HERE / "prefs").read_bytes().splitlines()
                     if line.split()[0] in (topic.encode(), b"3"))
    (tmp_path / "prefs").write_bytes(prefs)
    run = (HERE / "run").read_bytes()
    scenarios = [
        (["--compat", "10.0", "-c"], run),  # 10.0 evaluates it on its placeholder ranking
        ([], run + f"{topic} Q0 zz 1 1 r\n".encode()),  # 9.0.8, the topic has a result
    ]
    for flags, run_bytes in scenarios:
        (tmp_path / "run").write_bytes(run_bytes)
        code, out, err = run_cli([*flags, "-R", "prefs", "-m", "all_prefs", "prefs", "run"], capsysbinary,
                                 monkeypatch, cwd=tmp_path)
        assert code == 2 and out == "" and message in err and f"topic {topic}" in err
