"""Dispatch for the judgment formats other than qrels (``-R``).

``qrels`` goes through :func:`~trec_eval_py.engine.join.rankings.build_rankings`;
``prefs`` and ``qrels_prefs`` through :mod:`.prefs`; ``qrels_jg`` through
:mod:`.qrels_jg`. Each join returns a rankings-like object (``qids``,
``num_topics``, ``filled``, ``num_qrels_topics``, ``runid``, ``ctx``) whose
``batches()`` yields the batch type its measures' kernels read.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...errors import UsageError
from ..parse.prefs import FORMAT_HELP as _PREFS_HELP
from ..parse.prefs import read_prefs, read_qrels_prefs
from ..parse.qrels_jg import FORMAT_HELP as _JG_HELP
from ..parse.qrels_jg import read_qrels_jg
from ..parse.run import read_run
from .context import EvalContext

REL_FORMATS = ("qrels", "prefs", "qrels_prefs", "qrels_jg")

FORMAT_HELP = {**_PREFS_HELP, **_JG_HELP}


def check_rel_format(rel_format: str) -> None:
    if rel_format not in REL_FORMATS:
        raise UsageError(
            f"unknown judgments format '-R {rel_format}'; choose one of {', '.join(REL_FORMATS)}"
        )


def join_judgments(rel_format: str, rel_info, run, ctx: EvalContext):
    """Read ``rel_info`` in ``rel_format`` (not ``qrels``), then the run, and join them."""
    check_rel_format(rel_format)
    if isinstance(rel_info, Mapping):
        raise UsageError(f"'-R {rel_format}' judgments must be given as a file, a stream or bytes, not a dict")
    if rel_format == "qrels_jg":
        from .qrels_jg import build_qrels_jg

        return build_qrels_jg(read_qrels_jg(rel_info), read_run(run, rank_column=ctx.order == "rank"), ctx)
    if rel_format in ("prefs", "qrels_prefs"):
        from .prefs import build_prefs

        reader = read_prefs if rel_format == "prefs" else read_qrels_prefs
        return build_prefs(reader(rel_info), read_run(run, rank_column=ctx.order == "rank"), ctx)
    raise UsageError(f"judgments format '-R {rel_format}' is read by the qrels path")
