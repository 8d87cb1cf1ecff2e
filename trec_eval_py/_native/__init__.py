"""The optional C extensions and the one switch that turns them off.

Five small extensions speed up the hot loops; each has a numpy twin in the
module that calls it, and both give the same bytes:

``scan`` (``_scan.c``)
    splits judgment and run text into columns in one pass
    (:mod:`trec_eval_py.engine.parse.fields`).
``joinrank`` (``_joinrank.c``)
    joins a run with its qrels and ranks it by trec_eval's own order
    (:mod:`trec_eval_py.engine.join.qrels`).
``cmath`` (``_cmath.c``)
    the C library's ``log()`` over arrays (geometric means) and left-to-right
    row sums (:mod:`trec_eval_py.engine.aggregate`, :mod:`trec_eval_py.engine.join.batch`).
``kernels`` (``_kernels.c``)
    the rank loops of the heaviest measures (bpref, infAP, G, Rndcg,
    ndcg_rel, map, binG), each called from its measure's module, the gain
    tables' lookups and running dcg (ndcg, ndcg_cut), the interpolated
    precisions (iprec_at_recall, 11pt_avg), and the padding of
    topics into a batch's rows (:mod:`trec_eval_py.engine.join.batch`).
``pyin`` (``_pyin.c``)
    turns dicts of dicts and lists or Arrow buffers of strings into columns
    (:mod:`trec_eval_py.engine.parse.python`).

They sit at the bottom of the package, below every stage that uses them, so
that no stage reaches up or sideways for a switch. :func:`extension` gives a
module, or None when it was not built (the build treats them as optional) or
when :data:`USE_C` is False: the tests and the benchmarks set it to run the
numpy twins, and ``TREC_EVAL_PY_NO_C=1`` in the environment starts with it off.
:func:`in_use` says which are used (``trec_eval_py --version`` prints it).
"""
from __future__ import annotations

import importlib
import os

#: False runs every numpy twin instead of the C extensions (read at each call)
USE_C = os.environ.get("TREC_EVAL_PY_NO_C", "") in ("", "0")

_NAMES = ("scan", "joinrank", "cmath", "kernels", "pyin")
_NOT_LOADED = object()
_loaded: dict[str, object] = {}


def built(name: str):
    """The extension module ``name`` (one of :data:`_NAMES`), or None if it was not built."""
    mod = _loaded.get(name, _NOT_LOADED)
    if mod is _NOT_LOADED:
        if name not in _NAMES:
            raise KeyError(name)
        try:
            mod = importlib.import_module(f"{__name__}._{name}")
        except ImportError:  # optional: the numpy twin is used
            mod = None
        _loaded[name] = mod
    return mod


def extension(name: str):
    """The extension module ``name`` when it is built and :data:`USE_C` is on, else None."""
    return built(name) if USE_C else None


def in_use() -> dict[str, bool]:
    """Each extension's name (:data:`_NAMES`) and whether
    it is used: built and :data:`USE_C` on."""
    return {name: extension(name) is not None for name in _NAMES}
