"""Notebooks: the example notebook runs in a Jupyter kernel, and a plot is drawn
inline as a cell's value without ``%matplotlib inline``.

The plots are built on matplotlib's Figure without pyplot (no global
backend), so IPython had no way to draw them and showed ``<Figure size
640x480 with 1 Axes>``; :mod:`trec_eval_py.tools.curves.figure` gives them their
own PNG picture.
"""
from __future__ import annotations

import os

import pytest
from support.paths import ROOT

EXAMPLES = ROOT / "examples"
PNG = b"\x89PNG\r\n\x1a\n"


def test_a_plot_is_displayed_as_a_picture_by_ipython():
    pytest.importorskip("matplotlib", reason="could not import matplotlib (the test extra installs it)")
    formatters = pytest.importorskip("IPython.core.formatters", reason="could not import IPython (the test extra "
                                     "installs it)")
    from trec_eval_py.tools.curves.plotting import plot_per_topic, plot_pr

    runs = [str(EXAMPLES / "run_a.txt"), str(EXAMPLES / "run_b.txt")]
    for fig in (plot_pr(str(EXAMPLES / "qrels.txt"), runs), plot_per_topic(str(EXAMPLES / "qrels.txt"), runs)):
        data, _meta = formatters.DisplayFormatter().format(fig)  # what a notebook asks of a cell's value
        assert data["image/png"].startswith(PNG)
        # the picture is the figure: its size in pixels is the figure's, in inches, at the inline resolution
        from trec_eval_py.tools.curves.figure import INLINE_DPI

        width = int.from_bytes(data["image/png"][16:20], "big")
        assert width == round(fig.get_figwidth() * INLINE_DPI)


def test_the_example_notebook_runs_and_draws_its_plot(monkeypatch):
    nbformat = pytest.importorskip("nbformat", reason="could not import nbformat (the test extra installs it)")
    nbclient = pytest.importorskip("nbclient", reason="could not import nbclient (the test extra installs it)")
    pytest.importorskip("ipykernel", reason="could not import ipykernel (the test extra installs it)")
    # the kernel imports this checkout's package
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    nb = nbformat.read(EXAMPLES / "notebook.ipynb", as_version=4)
    assert not any("%matplotlib" in c.source for c in nb.cells if c.cell_type == "code")
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    for cell in code:
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
    summary = code[0].outputs[0]["data"]["text/plain"]
    assert summary.startswith("(0.1785")  # run_a's MAP, as `trec_eval_py -m map` prints it (0.1785)
    last = code[-1].outputs
    assert [o.output_type for o in last] == ["execute_result"]
    import base64

    assert base64.b64decode(last[0]["data"]["image/png"]).startswith(PNG)
