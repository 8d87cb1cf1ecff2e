"""CodiEsp formats (-R/-T codiesp, codiesp_x), --valid-codes and the
micro-averaged codiesp_x measures: the campaign's toy examples, hand-worked
cases, every reader rule broken once, and slow literal re-implementations of
the campaign's scripts on random files."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import FIXTURES

from trec_eval_py.engine.inputs import judgment_format, results_format
from trec_eval_py.engine.inputs.codiesp_x import parse_offsets
from trec_eval_py.engine.pipeline import Options, evaluate
from trec_eval_py.errors import InputError, NoTopicsError, UsageError

FIX = FIXTURES / "codiesp"

D = dict(rel_format="codiesp", results_format="codiesp")
X = dict(rel_format="codiesp_x", results_format="codiesp_x")


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8"))
    return str(p)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "trec_eval_py", *args], capture_output=True, text=True)


# ---------------------------------------------------------------- toy data


def test_toy_d_reproduces_the_scripts_readme():
    ev = evaluate(FIX / "toy_gs_D.tsv", FIX / "toy_pred_D.tsv", ["map", "num_q"],
                  valid_codes=str(FIX / "toy_codes_D.tsv"), **D)
    # README: "MAP estimate: 0.444"; cases: (1 + 2/3)/3 and (1 + 2/3)/5, averaged
    # over the two cases with predictions (the third gold case has none)
    assert ev.summary["num_q"] == 2
    assert ev.summary["map"] == pytest.approx(((1 + 2 / 3) / 3 + (1 + 2 / 3) / 5) / 2, abs=1e-15)
    assert f"{ev.summary['map']:.3f}" == "0.444"
    # -c: every gold case, the one without predictions scoring 0
    ev = evaluate(FIX / "toy_gs_D.tsv", FIX / "toy_pred_D.tsv", ["map", "num_q"],
                  valid_codes=str(FIX / "toy_codes_D.tsv"), complete=True, **D)
    assert ev.summary["num_q"] == 3
    assert ev.summary["map"] == pytest.approx(((1 + 2 / 3) / 3 + (1 + 2 / 3) / 5) / 3, abs=1e-15)


def test_toy_x_reproduces_the_scripts_readme():
    codes = (str(FIX / "toy_codes_X_D.tsv"), str(FIX / "toy_codes_X_P.tsv"))
    ev = evaluate(FIX / "toy_gs_X.tsv", FIX / "toy_pred_X.tsv", ["codiesp_x", "num_ret", "num_rel", "num_rel_ret"],
                  valid_codes=codes, **X)
    s = ev.summary
    assert (s["num_ret"], s["num_rel"], s["num_rel_ret"]) == (11, 13, 7)
    assert s["codiesp_x_P"] == 7 / 11 and s["codiesp_x_R"] == 7 / 13
    assert s["codiesp_x_F"] == 2 * (7 / 11) * (7 / 13) / (7 / 11 + 7 / 13)
    assert [f"{s[m]:.3f}" for m in ("codiesp_x_P", "codiesp_x_R", "codiesp_x_F")] == ["0.636", "0.538", "0.583"]
    per = ev.per_topic()["S1889-836X2016000100006-1"]
    assert [round(per[m], 3) for m in ("codiesp_x_P", "codiesp_x_R", "codiesp_x_F")] == [0.7, 0.636, 0.667]


def test_toy_cli_commands_of_the_readme():
    r = _cli("-R", "codiesp", "-T", "codiesp", "--valid-codes", str(FIX / "toy_codes_D.tsv"), "-m", "map",
             str(FIX / "toy_gs_D.tsv"), str(FIX / "toy_pred_D.tsv"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "map                   \tall\t0.4444\n"
    r = _cli("-R", "codiesp_x", "-T", "codiesp_x", "--valid-codes", str(FIX / "toy_codes_X_D.tsv"),
             "--valid-codes", str(FIX / "toy_codes_X_P.tsv"), "-m", "codiesp_x",
             str(FIX / "toy_gs_X.tsv"), str(FIX / "toy_pred_X.tsv"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("codiesp_x_F           \tall\t0.5833\n"
                        "codiesp_x_P           \tall\t0.6364\n"
                        "codiesp_x_R           \tall\t0.5385\n")


# ---------------------------------------------------------------- D/P by hand


def test_ranking_is_the_file_order_with_the_scripts_normalisation(tmp_path):
    gold = "c1\tA01.1\nc1\ta01.1\nc1\tB02\nc2\tz99\nc3\tq1\n"
    # c1: X (invalid, dropped: B02 moves up), a01.1 rank 1, x1 rank 2, b02 rank 3,
    # A01.1 again (a repeat of rank 1, dropped); c9 is no gold case
    pred = "c1\tX\nc1\ta01.1\nc1\tX1\nc2\tk1\nc1\tB02\nc1\tA01.1\nc9\tz99\nc2\tZ99\n"
    codes = _write(tmp_path, "codes.tsv", "a01.1\tdesc\nX1\nb02\nK1\nZ99\n")
    g, p = _write(tmp_path, "g.tsv", gold), _write(tmp_path, "p.tsv", pred)
    ev = evaluate(g, p, ["map", "num_ret", "num_rel", "num_q", "runid"], valid_codes=codes, **D)
    per = ev.per_topic()
    assert per["c1"]["num_ret"] == 3 and per["c1"]["num_rel"] == 2
    assert per["c1"]["map"] == pytest.approx((1 / 1 + 2 / 3) / 2, abs=1e-15)
    assert per["c2"]["map"] == pytest.approx((1 / 2) / 1, abs=1e-15)
    assert ev.topics == ["c1", "c2"] and ev.summary["num_q"] == 2
    assert ev.summary["runid"] == "p"
    # without the list, X counts at rank 1
    ev = evaluate(g, p, ["map"], **D)
    assert ev.per_topic()["c1"]["map"] == pytest.approx((1 / 2 + 2 / 4) / 2, abs=1e-15)
    # every --order gives the file order
    for order in ("rank", "file"):
        assert evaluate(g, p, ["map"], valid_codes=codes, order=order, **D).summary["map"] == \
            evaluate(g, p, ["map"], valid_codes=codes, **D).summary["map"]


def test_only_the_first_1000_codes_count_unless_M_says(tmp_path):
    pred = "".join(f"c\tn{i}\n" for i in range(1000)) + "c\tgold\n"
    g, p = _write(tmp_path, "g.tsv", "c\tgold\n"), _write(tmp_path, "p.tsv", pred)
    assert evaluate(g, p, ["map"], **D).summary["map"] == 0.0
    assert evaluate(g, p, ["map"], max_docs=1001, **D).summary["map"] == 1 / 1001


def test_crlf_and_blank_lines(tmp_path):
    g = _write(tmp_path, "g.tsv", "c\ta\r\n\r\nc\tb\r\n")
    p = _write(tmp_path, "p.tsv", "\nc\tB\r\nc\tx\r\n")
    assert evaluate(g, p, ["map"], **D).summary["map"] == pytest.approx(0.5, abs=1e-15)


# ---------------------------------------------------------------- X by hand


@pytest.mark.parametrize("text, span", [
    (b"10 20", (10, 20)), (b"385 397;405 411", (385, 411)), (b"1 2;5 9;20 31", (1, 31)), (b"7 7", (7, 7)),
])
def test_offsets_span_from_first_start_to_last_end(text, span):
    assert parse_offsets(text, "f", 1, "line") == span


@pytest.mark.parametrize("pred, hit", [
    ("100 200", True), ("90 210", True), ("89 200", False), ("100 211", False),
    ("101 200", False), ("100 199", False), ("95 150;160 205", True),
])
def test_x_match_is_containment_within_ten_characters(tmp_path, pred, hit):
    g = _write(tmp_path, "g.tsv", "c\tDIAGNOSTICO\ta1\ttext\t100 120;150 200\n")
    p = _write(tmp_path, "p.tsv", f"c\t{pred}\tDIAGNOSTICO\tA1\n")
    ev = evaluate(g, p, ["codiesp_x"], **X)
    assert ev.summary["codiesp_x_P"] == (1.0 if hit else 0.0)


def test_x_counts_pairs_one_gold_reference_is_enough(tmp_path):
    gold = ("c1\tD\ta\tt\t10 20\nc1\tD\ta\tt\t50 60\nc1\tD\tb\tt\t0 5\n"
            "c2\tP\tp1\tt\t0 9\nc3\tD\tq\tt\t1 2\n")
    # c1: a predicted twice (second reference matches) -> 1 TP; b wrong place -> FP;
    # c is no gold code -> FP. c2: p1 right. c3: no predictions (recall's divisor only).
    # c9 is no gold case: not evaluated.
    pred = ("c1\t0 5\tD\tA\nc1\t45 62\tD\ta\nc1\t30 40\tD\tb\nc1\t1 2\tD\tc\n"
            "c2\t0 9\tP\tP1\nc9\t1 2\tD\tq\n")
    g, p = _write(tmp_path, "g.tsv", gold), _write(tmp_path, "p.tsv", pred)
    for compat in ("9.0.8", "10.0"):
        ev = evaluate(g, p, ["codiesp_x", "num_q", "num_ret"], compat=compat, **X)
        s = ev.summary
        P, R = 2 / 4, 2 / 4  # gold pairs: c1 a, c1 b, c2 p1, c3 q
        assert (s["codiesp_x_P"], s["codiesp_x_R"]) == (P, R)
        assert s["codiesp_x_F"] == 2 * P * R / (P + R)
        assert s["num_q"] == 3  # every gold case (-c implied)
        per = ev.per_topic()
        assert per["c1"]["codiesp_x_P"] == 1 / 3 and per["c1"]["codiesp_x_R"] == 1 / 2
        assert per["c2"]["codiesp_x_F"] == 1.0
    # the valid list drops c (and matches in lower case)
    codes = _write(tmp_path, "codes.tsv", "A\nB\nP1\n")
    s = evaluate(g, p, ["codiesp_x"], valid_codes=codes, **X).summary
    assert (s["codiesp_x_P"], s["codiesp_x_R"]) == (2 / 3, 2 / 4)


def test_x_measures_on_ordinary_qrels_are_micro_averages(tmp_path):
    qrels = b"1 0 a 1\n1 0 b 1\n2 0 c 1\n2 0 d 1\n2 0 e 1\n3 0 f 1\n"
    run = b"1 Q0 a 1 3 r\n1 Q0 x 2 2 r\n2 Q0 c 1 1 r\n"
    s = evaluate(qrels, run, ["codiesp_x", "set_P"]).summary
    assert s["codiesp_x_P"] == 2 / 3 and s["codiesp_x_R"] == 2 / 5  # topics 1 and 2 only
    assert s["set_P"] == (1 / 2 + 1) / 2  # the macro mean, for contrast
    s = evaluate(qrels, run, ["codiesp_x"], complete=True).summary
    assert s["codiesp_x_R"] == 2 / 6


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_x_submission_matching_no_gold_case_scores_zero(tmp_path, compat):
    # the script divides by every predicted pair, those of cases outside the gold
    # standard included: P = 0/1, R = 0/2 and F is set to 0; never "no topic"
    g = _write(tmp_path, "g.tsv", "c1\tDIAGNOSTICO\ta01\ttext\t0 5\nc2\tDIAGNOSTICO\tb02\ttext\t3 9\n")
    p = _write(tmp_path, "p.tsv", "background\t0 5\tDIAGNOSTICO\ta01\n")
    ev = evaluate(g, p, ["codiesp_x", "num_q", "num_rel"], compat=compat, **X)
    assert (ev.summary["codiesp_x_P"], ev.summary["codiesp_x_R"], ev.summary["codiesp_x_F"]) == (0.0, 0.0, 0.0)
    assert ev.summary["num_q"] == 2 and ev.summary["num_rel"] == 2
    # an empty submission (nothing predicted at all) too, and through the command line
    out = _cli("-R", "codiesp_x", "-T", "codiesp_x", "-m", "codiesp_x", "--compat", compat, g,
               _write(tmp_path, "none.tsv", "c1\t0 5\tDIAGNOSTICO\tzzz\n"), "--valid-codes",
               _write(tmp_path, "codes.tsv", "a01\nb02\n"))
    assert out.returncode == 0, out.stderr
    assert [line.split("\t")[2] for line in out.stdout.splitlines()] == ["0.0000"] * 3
    # ordinary qrels under -c keep trec_eval's rule: no topic is an error
    q = _write(tmp_path, "q", "c1 0 a01 1\n")
    r = _write(tmp_path, "r", "zz Q0 a01 1 1.0 run\n")
    if compat == "9.0.8":
        with pytest.raises(NoTopicsError):
            evaluate(q, r, ["codiesp_x"], complete=True, compat=compat)


def test_x_under_z_is_the_mean_of_the_zscores(tmp_path):
    g = _write(tmp_path, "g.tsv", "c1\tD\ta\tt\t1 2\nc2\tD\tb\tt\t1 2\n")
    p = _write(tmp_path, "p.tsv", "c1\t1 2\tD\ta\nc2\t1 2\tD\tz\n")
    z = _write(tmp_path, "z", "c1 codiesp_x_P 0.5 0.25\nc2 codiesp_x_P 0.5 0.25\n")
    s = evaluate(g, p, ["codiesp_x_P"], zscore_file=z, **X).summary
    assert s["codiesp_x_P"] == ((1 - 0.5) / 0.25 + (0 - 0.5) / 0.25) / 2


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("fmt, text, line, reason", [
    ("gold", "c\ta\nc\n", 2, "expected 2 tab-separated fields"),
    ("gold", "c\ta\tb\n", 1, "expected 2 tab-separated fields"),
    ("gold", "c\t\n", 1, "empty code"),
    ("gold", "\ta\n", 1, "empty clinical case id"),
    ("gold", "c\ta b\n", 1, "code contains a blank"),
    ("gold", "c \ta\n", 1, "clinical case id contains a blank"),
    ("pred", "c\ta\x00\n", 1, "NUL byte"),
    ("pred", "c a\n", 1, "expected 2 tab-separated fields"),
    ("pred", "c\ta\nc\t\n", 2, "empty code"),
])
def test_codiesp_reader_errors_name_file_and_line(tmp_path, fmt, text, line, reason):
    path = _write(tmp_path, "f.tsv", text)
    read = judgment_format("codiesp").read if fmt == "gold" else results_format("codiesp").read
    with pytest.raises(InputError, match=reason) as e:
        read(path)
    assert e.value.path == path and e.value.line == line and e.value.text


@pytest.mark.parametrize("fmt, text, line, reason", [
    ("gold", "c\tD\ta\tt\n", 1, "expected 5 tab-separated fields"),
    ("gold", "c\tD\ta\tt\t10\n", 1, "bad offsets"),
    ("gold", "c\tD\ta\tt\tx y\n", 1, "bad offsets"),
    ("gold", "c\tD\ta\tt\t-1 4\n", 1, "bad offsets"),
    ("gold", "c\tD\ta\tt\t10 20;30\n", 1, "bad offsets"),
    ("gold", "c\tD\ta\tt\t20 10\n", 1, "ends before it starts"),
    ("gold", "c\tD\ta\tt\t\n", 1, "empty offsets"),
    ("gold", "c\tD\t\tt\t1 2\n", 1, "empty code"),
    ("pred", "c\t1 2\tD\ta\textra\n", 1, "expected 4 tab-separated fields"),
    ("pred", "c\t1 2\tD\ta\nc\t1\tD\ta\n", 2, "bad offsets"),
    ("pred", "\t1 2\tD\ta\n", 1, "empty clinical case id"),
])
def test_codiesp_x_reader_errors_name_file_and_line(tmp_path, fmt, text, line, reason):
    path = _write(tmp_path, "f.tsv", text)
    read = judgment_format("codiesp_x").read if fmt == "gold" else results_format("codiesp_x").read
    with pytest.raises(InputError, match=reason) as e:
        read(path)
    assert e.value.path == path and e.value.line == line


@pytest.mark.parametrize("fmt", ["codiesp", "codiesp_x"])
def test_empty_files_are_errors(tmp_path, fmt):
    path = _write(tmp_path, "f.tsv", "\n\n")
    with pytest.raises(InputError, match="empty"):
        judgment_format(fmt).read(path)
    with pytest.raises(InputError, match="empty"):
        results_format(fmt).read(path)


def test_valid_codes_file_errors(tmp_path):
    g = _write(tmp_path, "g.tsv", "c\ta\n")
    p = _write(tmp_path, "p.tsv", "c\ta\n")
    bad = _write(tmp_path, "codes.tsv", "a\n\tdescription\n")
    with pytest.raises(InputError, match="empty code") as e:
        evaluate(g, p, ["map"], valid_codes=bad, **D)
    assert e.value.path == bad and e.value.line == 2
    with pytest.raises(InputError, match="empty list of valid codes"):
        evaluate(g, p, ["map"], valid_codes=_write(tmp_path, "none.tsv", "\n"), **D)
    with pytest.raises(InputError, match="no such file"):
        evaluate(g, p, ["map"], valid_codes=str(tmp_path / "missing.tsv"), **D)
    # nothing valid predicted: no topic to evaluate, never a silent 0
    with pytest.raises(NoTopicsError):
        evaluate(g, p, ["map"], valid_codes=_write(tmp_path, "other.tsv", "b\n"), **D)


def test_options_that_do_not_fit(tmp_path):
    # the Python API names its parameters (the command line names the flags: below)
    with pytest.raises(UsageError, match="valid_codes applies"):
        Options(valid_codes="codes.tsv")
    with pytest.raises(UsageError,
                       match="'results_format=codiesp_x' results are evaluated with 'rel_format=codiesp_x'"):
        Options(results_format="codiesp_x")
    with pytest.raises(UsageError, match="'results_format=codiesp_x' results"):
        Options(rel_format="codiesp", results_format="codiesp_x")
    # CodiEsp-D/P predictions go with CodiEsp gold: said before the gold is misread as qrels
    with pytest.raises(UsageError, match="'results_format=codiesp' results are evaluated with 'rel_format=codiesp' "
                                         "judgments, not 'rel_format=qrels'"):
        Options(results_format="codiesp")
    with pytest.raises(UsageError, match="not 'rel_format=codiesp_x'"):
        Options(rel_format="codiesp_x", results_format="codiesp")
    # the reverse stays open: a TREC run of codes (with scores) against CodiEsp gold
    g = _write(tmp_path, "gold.tsv", "c1\tA01\nc1\tB02\n")
    got = evaluate(g, b"c1 Q0 a01 1 2.0 r\nc1 Q0 X99 2 1.0 r\n", ["map"], rel_format="codiesp")
    assert got.summary["map"] == 0.5
    g = _write(tmp_path, "g.tsv", "c\tD\ta\tt\t1 2\n")
    with pytest.raises(UsageError, match="with '-T codiesp_x' predictions"):
        evaluate(g, b"c Q0 a 1 1 r\n", ["codiesp_x"], rel_format="codiesp_x")


def test_cli_errors_are_one_line(tmp_path):
    g = _write(tmp_path, "g.tsv", "c\tD\ta\tt\t1 2\n")
    p = _write(tmp_path, "p.tsv", "c\t1 x\tD\ta\n")
    r = _cli("-R", "codiesp_x", "-T", "codiesp_x", g, p)
    assert r.returncode != 0 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and f"{p}, line 1: bad offsets" in r.stderr
    r = _cli("--valid-codes", g, g, g)
    assert r.returncode != 0 and r.stderr.count("\n") == 1 and "--valid-codes applies" in r.stderr


def test_help_describes_the_formats():
    r = _cli("-h", "-R", "codiesp_x", "-m", "codiesp_x")
    assert r.returncode == 0, r.stderr
    assert "Judgments format 'codiesp_x'" in r.stdout and "codiesp_x_F" in r.stdout
    r = _cli("-h", "-R", "codiesp")
    assert "--valid-codes" in r.stdout and "Results format 'codiesp'" not in r.stdout
    r = _cli("-h", "-R", "codiesp", "-T", "codiesp")
    assert "Results format 'codiesp' (-T codiesp)" in r.stdout


# ---------------------------------------------------------------- slow references


def _lower(code: str) -> str:
    return code.lower()


def ref_map(gold, pred, valid, complete):
    """codiespD_P_evaluation.py's MAP, step by step, with the two documented
    choices: cases absent from the gold standard are not evaluated, and
    ``complete`` averages over every gold case."""
    relevant: dict[str, set] = {}
    for case, code in gold:
        relevant.setdefault(case, set()).add(_lower(code))
    ranking: dict[str, list] = {}
    for case, code in pred:  # rank = order of first appearance within the case
        lst = ranking.setdefault(case, [])
        if _lower(code) not in lst:
            lst.append(_lower(code))
    if valid is not None:
        ranking = {c: [x for x in lst if x in valid] for c, lst in ranking.items()}
    ranking = {c: lst[:1000] for c, lst in ranking.items() if lst}
    cases = sorted(relevant if complete else set(relevant) & set(ranking), key=lambda c: c.encode())
    if not cases:
        return None
    total = 0.0
    for case in cases:
        hits, s = 0, 0.0
        for i, code in enumerate(ranking.get(case, []), start=1):
            if code in relevant[case]:
                hits += 1
                s += hits / i
        total += s / len(relevant[case])
    return total / len(cases)


def ref_x(gold, pred, valid):
    """codiespX_evaluation.py's micro P, R, F, step by step (predictions of cases
    absent from the gold standard left out, as documented)."""
    gold_cases = {g[0] for g in gold}
    pred = [r for r in pred if (valid is None or _lower(r[1]) in valid) and r[0] in gold_cases]
    pred_pos = len({(c, _lower(k)) for c, k, _, _ in pred})
    gold_pairs = {(c, _lower(k)) for c, k, _, _ in gold}
    tp = 0
    for case, code in gold_pairs:
        refs = [(s, e) for c, k, s, e in gold if c == case and _lower(k) == code]
        preds = [(s, e) for c, k, s, e in pred if c == case and _lower(k) == code]
        if any(0 <= gs - ps <= 10 and 0 <= pe - ge <= 10 for gs, ge in refs for ps, pe in preds):
            tp += 1
    P = tp / pred_pos if pred_pos else 0.0
    R = tp / len(gold_pairs)
    F = (2 * P * R) / (P + R) if P + R else 0.0
    return P, R, F


CODES = ["A1", "a1", "b2.3", "B2.3", "c4", "d5x", "E6", "f7", "g8", "h9"]


def test_map_agrees_with_the_scripts_logic_on_random_files(tmp_path):
    rng = random.Random(16)
    for case_no in range(150):
        cases = [f"S{i}" for i in range(rng.randint(1, 4))]
        gold = [(rng.choice(cases), rng.choice(CODES)) for _ in range(rng.randint(1, 12))]
        pred = [(rng.choice(cases + ["bg1", "bg2"]), rng.choice(CODES)) for _ in range(rng.randint(1, 25))]
        valid = None if rng.random() < 0.3 else {c.lower() for c in rng.sample(CODES, rng.randint(1, 8))}
        g = _write(tmp_path, "g.tsv", "".join(f"{a}\t{b}\n" for a, b in gold))
        p = _write(tmp_path, "p.tsv", "".join(f"{a}\t{b}\n" for a, b in pred))
        opts = dict(D)
        if valid is not None:
            opts["valid_codes"] = _write(tmp_path, "v.tsv", "".join(f"{c.upper()}\tdesc\n" for c in sorted(valid)))
        for complete in (False, True):
            want = ref_map(gold, pred, valid, complete)
            if want is None or (complete and ref_map(gold, pred, valid, False) is None):
                with pytest.raises(NoTopicsError):
                    evaluate(g, p, ["map"], complete=complete, **opts)
                continue
            got = evaluate(g, p, ["map"], complete=complete, **opts).summary["map"]
            assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (case_no, complete, gold, pred, valid)


def _offsets(rng, start, end):
    if rng.random() < 0.3 and end - start >= 4:  # a discontinuous reference
        cut = rng.randint(start + 1, end - 2)
        return f"{start} {cut};{cut + 1} {end}"
    return f"{start} {end}"


def test_x_agrees_with_the_scripts_logic_on_random_files(tmp_path):
    rng = random.Random(3)
    for case_no in range(200):
        cases = [f"S{i}" for i in range(rng.randint(1, 3))]
        gold, gold_lines = [], []
        for _ in range(rng.randint(1, 8)):
            c, k = rng.choice(cases), rng.choice(CODES)
            s = rng.randint(0, 40)
            e = s + rng.randint(1, 15)
            gold.append((c, k, s, e))
            gold_lines.append(f"{c}\tDIAGNOSTICO\t{k}\tsome text\t{_offsets(rng, s, e)}\n")
        pred, pred_lines = [], []
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.7:  # near a gold reference: tolerance boundaries get hit
                c, k, s, e = rng.choice(gold)
                k = rng.choice([k, k.swapcase(), rng.choice(CODES)])
                s, e = max(0, s - rng.randint(-2, 12)), e + rng.randint(-2, 12)
                if e < s:
                    e = s
            else:
                c, k = rng.choice(cases + ["bg"]), rng.choice(CODES)
                s = rng.randint(0, 40)
                e = s + rng.randint(0, 20)
            pred.append((c, k, s, e))
            pred_lines.append(f"{c}\t{s} {e}\tDIAGNOSTICO\t{k}\n")
        valid = None if rng.random() < 0.4 else {c.lower() for c in rng.sample(CODES, rng.randint(1, 9))}
        g = _write(tmp_path, "g.tsv", "".join(gold_lines))
        p = _write(tmp_path, "p.tsv", "".join(pred_lines))
        opts = dict(X)
        if valid is not None:
            opts["valid_codes"] = _write(tmp_path, "v.tsv", "".join(f"{c}\n" for c in sorted(valid)))
        for compat in ("9.0.8", "10.0"):
            # no gold case with a valid prediction scores 0 in both versions, as in the script
            s = evaluate(g, p, ["codiesp_x"], compat=compat, **opts).summary
            assert (s["codiesp_x_P"], s["codiesp_x_R"], s["codiesp_x_F"]) == ref_x(gold, pred, valid), \
                (case_no, gold_lines, pred_lines, valid)


# ---------------------------------------------------------------- a byte-order mark


def test_a_leading_bom_is_skipped_as_the_official_scripts_skip_it(tmp_path):
    # Notepad's 'UTF-8 with BOM': the scripts (pandas) read the first case id without it,
    # so every line counts; kept, the first line's case would be one the gold lacks
    bom = b"\xef\xbb\xbf"
    for fmt, gold, pred in ((D, "toy_gs_D.tsv", "toy_pred_D.tsv"), (X, "toy_gs_X.tsv", "toy_pred_X.tsv")):
        (tmp_path / gold).write_bytes(bom + (FIX / gold).read_bytes())
        (tmp_path / pred).write_bytes(bom + (FIX / pred).read_bytes())
        plain = evaluate(FIX / gold, FIX / pred, ["official"], **fmt)
        for g, p in ((tmp_path / gold, FIX / pred), (FIX / gold, tmp_path / pred), (tmp_path / gold, tmp_path / pred)):
            marked = evaluate(g, p, ["official"], **fmt)
            assert marked.summary == plain.summary and marked.topics == plain.topics


def test_validate_says_a_bom_is_skipped(tmp_path):
    from trec_eval_py.tools.grading.validate import validate_run

    (tmp_path / "pred.tsv").write_bytes(b"\xef\xbb\xbf" + (FIX / "toy_pred_D.tsv").read_bytes())
    rep = validate_run(str(tmp_path / "pred.tsv"), str(FIX / "toy_gs_D.tsv"), **D)
    assert [(f.code, f.line, f.severity) for f in rep.findings if f.code == "bom"] == [("bom", 1, "warning")]
    # (warnings that change a value, such as a topic left out, are listed before it)
    assert "it is skipped" in next(f for f in rep.findings if f.code == "bom").message and rep.passed()
