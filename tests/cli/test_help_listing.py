"""The main help lists every subcommand and --format; subcommand help keeps
bracketed text (the name of an extra) that the help renderer could eat."""
from __future__ import annotations

from support.golden import run_cli
from support.paths import SEEDS

from trec_eval_py.cli import commands


def test_main_help_lists_subcommands_and_format(capsysbinary):
    code, out, _ = run_cli(["--help"], capsysbinary)
    assert code == 0
    assert "--format trec|json|csv" in out
    section = out.split("Subcommands (trec_eval_py COMMAND -h for each one's options):\n", 1)[1]
    listed = [ln.split()[0] for ln in section.split("\n\n", 1)[0].splitlines() if ln.startswith("  ") and ln[2] != " "]
    assert listed == commands.names() and "compare" in listed and "diff" in listed
    assert "  compare   is a run better than the baseline, topic by topic?" in section
    assert "``" not in section


def test_plot_help_shows_the_extra_literally(capsysbinary):
    code, out, _ = run_cli(["plot", "--help"], capsysbinary)
    assert code == 0
    assert "pip install 'trec_eval_py[plot]'" in out and "\\[" not in out


def test_compare_and_diff_help_name_the_new_options(capsysbinary):
    code, out, _ = run_cli(["compare", "--help"], capsysbinary)
    flat = " ".join(out.replace("│", " ").split())
    for flag in ("--pairs", "--alternative", "--topics-from", "--fail-if", "--correction", "--format"):
        assert flag in flat
    assert "tukey" in flat and "long-latex" in flat and "bh" in flat
    code, out, _ = run_cli(["diff", "--help"], capsysbinary)
    flat = " ".join(out.replace("│", " ").split())
    assert "--ignore" in flat and "MEASURE=NUMBER" in flat and "json" in flat


def test_curves_help_lists_every_registered_curve_and_each_runs(capsysbinary):
    """The --curve list comes from the curve registry: each name is in the help,
    is accepted by the command, and a name outside the registry is refused
    with the registry's list."""
    from trec_eval_py.tools.curves.curves import CURVES

    code, out, _ = run_cli(["curves", "--help"], capsysbinary)
    assert code == 0
    flat = " ".join(out.replace("│", " ").split())
    curve_opt = flat.split("--curve TEXT One of ", 1)[1].split(". [default", 1)[0]
    assert curve_opt == ", ".join(k.spelling for k in CURVES.values())
    assert {"pr", "ipr", "roc", "croc_exp", "proc", "ac", "cac_log", "pac", "table"} <= set(CURVES)
    for k in CURVES.values():
        assert f"{k.spelling}: " in flat  # described in the command's help
    seeds = str(SEEDS) + "/"
    for k in CURVES.values():
        name = f"{k.name}.7" if k.alpha else k.name
        code, out, err = run_cli(["curves", seeds + "croc.qrels", seeds + "croc.run", "--curve", name], capsysbinary)
        assert code == 0 and err == "" and out.startswith("topic\t"), (name, err)
    code, out, err = run_cli(["curves", seeds + "croc.qrels", seeds + "croc.run", "--curve", "bogus"], capsysbinary)
    assert code != 0 and out == "" and ", ".join(k.spelling for k in CURVES.values()) in err


def test_help_lists_the_cwl_measures(capsysbinary):
    """-h -m cwl describes every C/W/L measure, and the main help names the nickname."""
    from trec_eval_py.engine.measures import registry

    code, out, _ = run_cli(["--help"], capsysbinary)
    assert code == 0 and "cwl" in out.split("\nNicknames: ", 1)[1].split("\n", 1)[0].split(", ")
    code, out, _ = run_cli(["-h", "-m", "cwl"], capsysbinary)
    assert code == 0
    members = [m.name for m in registry().nickname_members("cwl", "9.0.8")]
    assert len(members) == 17
    described = out.split("\nMeasures:\n", 1)[1]
    for name in members:
        assert f"\n{name}\n" in described, name
    assert "EU (the value), ETU, EC, ETC, ED" in " ".join(described.split())
