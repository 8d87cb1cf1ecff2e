"""The figures of :mod:`trec_eval_py.tools.curves.plotting`: matplotlib figures that show
themselves in Jupyter.

The plots are built on :class:`matplotlib.figure.Figure` directly, not through
pyplot, so that no global backend is touched. IPython then knows no way to
draw them: a notebook cell ending in ``plot_pr(...)`` showed ``<Figure size
640x480 with 1 Axes>`` until ``%matplotlib inline`` registered one. This
subclass carries its own picture (``_repr_png_``, which IPython asks every
value for), so the figure is drawn inline either way; with ``%matplotlib
inline`` IPython's own drawing of matplotlib figures takes precedence, and the
figure is still shown once.
"""
from __future__ import annotations

import io

from matplotlib.figure import Figure as _MatplotlibFigure

#: resolution of the inline picture (matplotlib's inline backend uses 72 dots per inch, at twice
#: that for sharp screens; 100 keeps the picture at the figure's size in inches times 100)
INLINE_DPI = 100


class Figure(_MatplotlibFigure):
    """A :class:`matplotlib.figure.Figure` that IPython displays as a PNG picture."""

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=INLINE_DPI, metadata={"Software": None})
        return buf.getvalue()
