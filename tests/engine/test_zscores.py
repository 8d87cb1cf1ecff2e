"""-Z: the z-score file reader, the conversion stage, and how results print."""
from __future__ import annotations

import gzip
import math

import numpy as np
import pytest
from support.golden import (
    GOLDEN,
    run_cli,  # noqa: E402
)

from trec_eval_py import InputError, evaluate
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.parse.zscores import read_zscores
from trec_eval_py.engine.standardize import MISSING_ZSCORE, zscores

QRELS = {
    "1": {"a": 1, "b": 0, "c": 2, "d": 1},
    "2": {"x": 1, "y": 0},
    "3": {"p": 1, "q": 1},  # no results: only with -c
}
RUN = {
    "1": {"a": 3.0, "b": 2.0, "e": 1.5, "c": 1.0},
    "2": {"y": 2.0, "z": 1.0, "x": 0.5},
}


def write(tmp_path, text: str, name: str = "z.txt"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


# ---------------------------------------------------------------- reader


def test_reader_skips_blank_and_comment_lines_and_looks_up(tmp_path):
    z = read_zscores(write(tmp_path, "# header\n1 map 0.5 0.25\n\n  2\tmap  .1 2e-1 \n1 P_5 0.2 0\n"))
    assert len(z) == 3
    mean, sd, found = z.lookup("map", np.array([b"2", b"3", b"1"]))
    assert found.tolist() == [True, False, True]
    assert mean.tolist() == [0.1, 0.0, 0.5] and sd.tolist() == [0.2, 0.0, 0.25]
    assert z.lookup("ndcg", np.array([b"1"]))[2].tolist() == [False]
    assert z.to_dict() == {"1": {"map": (0.5, 0.25), "P_5": (0.2, 0.0)}, "2": {"map": (0.1, 0.2)}}


def test_reader_lookup_past_the_last_key_and_before_the_first(tmp_path):
    z = read_zscores(write(tmp_path, "5 map 1 1\n7 map 2 1\n"))
    mean, _, found = z.lookup("map", np.array([b"9", b"0", b"6", b"7"]))
    assert found.tolist() == [False, False, False, True] and mean[3] == 2.0


def test_reader_reads_compressed_and_bytes(tmp_path):
    p = tmp_path / "z.gz"
    p.write_bytes(gzip.compress(b"1 map 0.5 0.25\n"))
    assert read_zscores(str(p)).to_dict() == {"1": {"map": (0.5, 0.25)}}
    assert read_zscores(b"1 map 0.5 0.25").to_dict() == {"1": {"map": (0.5, 0.25)}}


@pytest.mark.parametrize(
    "text,line,words",
    [
        ("1 map 0.5 0.1\n1 P_5 0.5\n", 2, "3 fields"),
        ("1 map 0.5 0.1 extra\n", 1, "5 fields"),
        ("1 map 0.5 0.1\n2 map abc 0.1\n", 2, "mean"),
        ("1 map 0.5 x1\n", 1, "standard deviation"),
        ("1 map nan 0.1\n", 1, "mean"),
        ("1 map 0.5 0.1\n1 P_5 0.5 0.1\n1 map 0.5 0.1\n", 3, "line 1"),
    ],
)
def test_reader_rejects_bad_lines_naming_file_and_line(tmp_path, text, line, words):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as e:
        read_zscores(path)
    assert e.value.path == path and e.value.line == line and e.value.text
    assert words in str(e.value)


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_reader_rejects_empty_files(tmp_path, text):
    with pytest.raises(InputError, match="empty"):
        read_zscores(write(tmp_path, text))


def test_reader_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_zscores(str(tmp_path / "nope"))


# ---------------------------------------------------------------- conversion rule


def test_zscores_rule():
    value = np.array([3.0, 3.0, 2.0, 5.0, 1.0, 4.0])
    mean = np.array([1.0, 3.0, 2.0, 0.0, 0.0, 2.0])
    sd = np.array([0.5, 0.0, 0.0, 1.0, 0.0, -2.0])
    found = np.array([True, False, True, True, True, True])
    out = zscores(value, mean, sd, found)
    # spread: (v - mean) / sd; missing: marker; sd 0: 0 at the mean, else marker
    assert out.tolist() == [4.0, MISSING_ZSCORE, 0.0, 5.0, MISSING_ZSCORE, -1.0]


def test_zscores_of_integers_are_real():
    out = zscores(np.array([7, 2], dtype=np.int64), np.array([4.0, 2.0]), np.array([2.0, 0.0]), np.array([True, True]))
    assert out.dtype == np.float64 and out.tolist() == [1.5, 0.0]


# ---------------------------------------------------------------- through the pipeline

REFERENCE = {  # (qid, measure) -> (mean, sd)
    ("1", "map"): (0.5, 0.25), ("2", "map"): (0.2, 0.4), ("3", "map"): (0.1, 0.2),
    ("1", "num_ret"): (3.0, 2.0), ("2", "num_ret"): (2.5, 0.5), ("3", "num_ret"): (1.0, 1.0),
    ("1", "P_5"): (0.4, 0.0),  # zero spread, value equal to the mean
    ("2", "P_5"): (0.5, 0.0),  # zero spread, value not the mean
    ("1", "gm_map"): (math.log(0.4), 0.5), ("2", "gm_map"): (math.log(0.3), 2.0),
    ("3", "gm_map"): (-3.0, 4.0),
}


def zfile(tmp_path, entries=REFERENCE):
    return write(tmp_path, "".join(f"{q} {m} {mu!r} {sd!r}\n" for (q, m), (mu, sd) in entries.items()))


def z_of(raw, qid, measure, entries=REFERENCE):
    if (qid, measure) not in entries:
        return MISSING_ZSCORE
    mu, sd = entries[qid, measure]
    if sd == 0:
        return 0.0 if raw == mu else MISSING_ZSCORE
    return (raw - mu) / sd


MEASURES = ["num_q", "num_ret", "map", "gm_map", "P.5", "relstring.3", "runid"]


@pytest.fixture
def registered():
    missing = [m for m in ("gm_map", "relstring") if m not in registry()]
    assert not missing, f"measures not registered: {missing}"


@pytest.mark.usefixtures("registered")
def test_values_are_zscores_of_the_raw_values(tmp_path):
    raw = evaluate(QRELS, RUN, MEASURES)
    z = evaluate(QRELS, RUN, MEASURES, zscore_file=zfile(tmp_path))
    assert z.topics == raw.topics == ["1", "2"]
    for name in ("num_ret", "map", "P_5"):
        for t, qid in enumerate(raw.topics):
            assert z.values[name][t] == z_of(float(raw.values[name][t]), qid, name)
    # the P_5 rows exercise both zero-spread rules
    assert z.values["P_5"].tolist() == [0.0, MISSING_ZSCORE]
    assert z.values["relstring_3"].tolist() == raw.values["relstring_3"].tolist()
    per = z.per_topic()
    assert per["1"]["num_ret"] == z_of(4.0, "1", "num_ret") and isinstance(per["1"]["num_ret"], float)


@pytest.mark.usefixtures("registered")
def test_summaries_aggregate_the_zscores(tmp_path):
    raw = evaluate(QRELS, RUN, MEASURES)
    z = evaluate(QRELS, RUN, MEASURES, zscore_file=zfile(tmp_path))
    zr = [z_of(float(v), q, "num_ret") for q, v in zip(raw.topics, raw.values["num_ret"])]
    zm = [z_of(float(v), q, "map") for q, v in zip(raw.topics, raw.values["map"])]
    assert z.summary["num_ret"] == zr[0] + zr[1]  # a sum stays a sum
    assert z.summary["map"] == (zm[0] + zm[1]) / 2
    assert z.summary["num_q"] == raw.summary["num_q"] == 2
    assert z.summary["runid"] == raw.summary["runid"]
    # geometric means convert the floored log of each value, then exponentiate the mean
    logs = [math.log(max(float(v), 1e-5)) for v in raw.values["gm_map"]]
    zg = [z_of(lg, q, "gm_map") for q, lg in zip(raw.topics, logs)]
    assert z.summary["gm_map"] == math.exp((zg[0] + zg[1]) / 2)


@pytest.mark.usefixtures("registered")
def test_gm_map_is_not_floored_after_conversion(tmp_path):
    # a z-score far below log(1e-5) must pull the geometric mean to ~0, not to 1e-5
    entries = {("1", "gm_map"): (0.0, 1e-3), ("2", "gm_map"): (0.0, 1e-3)}
    z = evaluate(QRELS, RUN, ["gm_map"], zscore_file=zfile(tmp_path, entries))
    assert z.summary["gm_map"] == 0.0


@pytest.mark.usefixtures("registered")
def test_printing(tmp_path):
    z = evaluate(QRELS, RUN, MEASURES, zscore_file=zfile(tmp_path))
    lines = z.to_text(query=True).splitlines()
    by_name = {}
    for ln in lines:
        name, qid, val = ln.split("\t")
        by_name.setdefault(name.rstrip(), []).append((name, qid, val))
    # numbers, counts included, print as reals under a Z prefix put before the padding
    assert by_name["Znum_ret"][0] == ("Z" + "num_ret".ljust(22), "1", "%6.4f" % z_of(4.0, "1", "num_ret"))
    assert by_name["Znum_q"] == [("Z" + "num_q".ljust(22), "all", "2.0000")]
    assert by_name["ZP_5"][1] == ("Z" + "P_5".ljust(22), "2", "-1000000.0000")
    # text keeps its name and value
    assert by_name["runid"] == [("runid".ljust(22), "all", z.summary["runid"])]
    assert [r[2] for r in by_name["relstring_3"]] == ["'10-'", "'0-1'"]  # unchanged by -Z
    assert "Zgm_map" in by_name and all(r[1] == "all" for r in by_name["Zgm_map"])


@pytest.mark.usefixtures("registered")
def test_long_names_widen_the_field(tmp_path):
    z = evaluate(QRELS, RUN, ["num_nonrel_judged_ret"], zscore_file=zfile(tmp_path))
    assert z.to_text().startswith("Znum_nonrel_judged_ret \tall\t")


@pytest.mark.usefixtures("registered")
def test_topic_missing_from_the_file_gets_the_marker_everywhere(tmp_path):
    entries = {k: v for k, v in REFERENCE.items() if k[0] != "2"}
    z = evaluate(QRELS, RUN, ["num_ret", "map", "P.5"], zscore_file=zfile(tmp_path, entries))
    for name in ("num_ret", "map", "P_5"):
        assert z.values[name][1] == MISSING_ZSCORE


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_complete_topics(tmp_path, compat):
    raw = evaluate(QRELS, RUN, ["num_ret", "map", "gm_map"], complete=True, compat=compat)
    z = evaluate(QRELS, RUN, ["num_ret", "map", "gm_map"], complete=True, compat=compat, zscore_file=zfile(tmp_path))
    assert z.topics == ["1", "2", "3"] and list(z.filled) == [False, False, True]
    if compat == "10.0":
        # 10.0 evaluates the missing topic as an empty ranking, so it is converted and printed
        assert z.values["map"][2] == z_of(0.0, "3", "map")
        assert z.values["num_ret"][2] == z_of(0.0, "3", "num_ret")
        assert "\t3\t" in z.to_text(query=True)
        zg = [z_of(math.log(max(float(v), 1e-5)), q, "gm_map") for q, v in zip(raw.topics, raw.values["gm_map"])]
        assert z.summary["gm_map"] == math.exp((zg[0] + zg[1] + zg[2]) / 3)
    else:
        # 9.0.8 never evaluates it: nothing is converted for it and it adds 0 to the means
        assert z.values["map"][2] == raw.values["map"][2] == 0.0
        assert "\t3\t" not in z.to_text(query=True)
        zg = [z_of(math.log(max(float(v), 1e-5)), q, "gm_map")
              for q, v in zip(raw.topics[:2], raw.values["gm_map"][:2])]
        assert z.summary["gm_map"] == math.exp((zg[0] + zg[1] + math.log(1e-5)) / 3)
    zm = [z.values["map"][t] for t in range(3)]
    assert z.summary["map"] == (zm[0] + zm[1] + zm[2]) / 3


@pytest.mark.usefixtures("registered")
def test_without_zscores_nothing_changes(tmp_path):
    raw = evaluate(QRELS, RUN, MEASURES)
    assert all(c.prefix == "" for c in raw.columns)
    assert "Z" not in "".join(ln[0] for ln in raw.to_text(query=True).splitlines())


# ---------------------------------------------------------------- command line



def test_cli_bad_zscore_file_is_one_line_naming_file_and_line(tmp_path, capsysbinary):
    path = write(tmp_path, "301 map 0.1 0.2\n301 map zero 0.2\n")
    qrels, run = str(GOLDEN / "inputs" / "qrels.test"), str(GOLDEN / "inputs" / "results.test")
    code, out, err = run_cli(["-Z", path, qrels, run], capsysbinary)
    assert code != 0 and out == ""
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert path in err and "line 2" in err


def _registered(line: str, compat: str) -> bool:
    names = {n for s in registry().resolve(["all_trec"], compat) for n in s.names}
    name = line.split("\t")[0].rstrip()
    return name in names or (name.startswith("Z") and name[1:] in names)


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_golden_te_aqZ_for_the_measures_that_exist(compat, monkeypatch, capsysbinary):
    """te_aqZ line for line, restricted to measures already registered (the full case is in test_golden)."""
    monkeypatch.chdir(GOLDEN)
    args = ["-q", "-m", "all_trec", "-Z", "inputs/zscores_file", "inputs/qrels.test", "inputs/results.test"]
    code, out, err = run_cli((["--compat", compat] if compat != "9.0.8" else []) + args, capsysbinary)
    assert code == 0, err
    want = (GOLDEN / "expected" / compat / "te_aqZ.out").read_text().splitlines()
    want = [ln for ln in want if _registered(ln, compat)]
    assert len(want) > 20  # runid, num_q, counts, map and P at least
    assert out.splitlines() == want


def test_num_rel_summary_sums_zscores(tmp_path):
    qrels = {"1": {"a": 1, "b": 1, "c": 0}, "2": {"x": 1}}
    run = {"1": {"a": 1.0}, "2": {"x": 1.0}}
    entries = {("1", "num_rel"): (1.25, 1.0), ("2", "num_rel"): (1.25, 1.0)}
    z = evaluate(qrels, run, ["num_rel"], zscore_file=zfile(tmp_path, entries))
    assert z.values["num_rel"].tolist() == [0.75, -0.25]
    assert z.summary["num_rel"] == 0.75 + -0.25
