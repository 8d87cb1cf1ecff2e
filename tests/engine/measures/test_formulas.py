"""Every measure declares its definition as a formula (``Measure.formula``, shown on its
page of the documentation site), and every formula is well-formed LaTeX."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from trec_eval_py.engine.measures import registry


def test_every_measure_declares_a_formula():
    missing = [m.name for m in registry() if not m.formula.strip()]
    assert missing == []


def test_a_formula_names_its_own_measure():
    # a formula copied from a neighbour without its name changed would show another measure's
    # definition; each one starts by naming what it defines (or, for the C/W/L family, the
    # expected utility EU and a continuation C(i) of its own)
    seen: dict[str, str] = {}
    for m in registry():
        if m.name.startswith("cwl_"):
            assert m.formula.startswith(r"\mathrm{EU} = "), m.name
            assert m.formula not in seen, (m.name, seen.get(m.formula))
        else:
            tex_name = m.name.replace("_", r"\_")
            head = m.formula.split("=")[0]
            assert tex_name in head or m.name.replace("_", "-") in head or m.name in {
                "alpha_DCG", "alpha_nDCG", "G", "codiesp_x_P", "codiesp_x_R", "codiesp_x_F",
                "map"}, (m.name, head)
        seen[m.formula] = m.name


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex on this machine")
def test_every_formula_compiles_in_latex(tmp_path):
    body = "\n".join(f"% {m.name}\n\\[ {m.formula} \\]" for m in registry())
    (tmp_path / "f.tex").write_text("\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n"
                                    "\\begin{document}\n" + body + "\n\\end{document}\n", encoding="utf-8")
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "f.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stdout[-3000:]
