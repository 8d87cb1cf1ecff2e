"""Is the pool fair to runs that did not help build it? ``trec_eval_py pool-bias``.

Leave-one-run-out (Zobel, "How reliable are the results of large-scale
information retrieval experiments?", SIGIR 1998; Buckley, Dimmick, Soboroff
& Voorhees, "Bias and the limits of pooling for large collections", 2007):
the depth-``k`` pool of all the runs is formed; for each run, the documents
it alone put in the pool are removed from the judgments, and the run is
evaluated on what is left, as if it had not contributed. A reusable
collection changes its score little and its rank among the other runs
(scored on the full judgments) not at all. With groups (one team's runs
share documents), the documents only the run's *group* put in the pool are
removed instead (leave-one-group-out).

Scores are the mean of one measure as the main command computes it (``-m``,
with the evaluation options given); a run's rank is 1 + the number of other
runs that score higher on the full judgments.
"""
from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence

import numpy as np

from ..._record import fields, record, replace
from ...errors import UsageError
from ..shared.runs import Restart, regrouped_blocks, run_labels, topic_blocks
from .pooling import group_documents, pool_rows

FORMATS = ("text", "csv", "json")


@record
class RunBias:
    """One run's leave-out result."""

    run: str
    group: str
    removed: int  # judged or not: documents only the run (group) put in the pool
    removed_relevant: int  # of those, judged relevant
    score: float
    score_left_out: float
    rank: int
    rank_left_out: int

    @property
    def change(self) -> float:
        return self.score_left_out - self.score


@record(eq=False)
class BiasReport:
    measure: str
    depth: int
    by_group: bool
    runs: list

    @property
    def mean_change(self) -> float:
        return float(np.mean([r.change for r in self.runs])) if self.runs else 0.0

    @property
    def largest_drop(self) -> RunBias | None:
        return min(self.runs, key=lambda r: r.change) if self.runs else None


def read_groups(spec: str | None, labels: Sequence[str], *, prefix: int | None = None,
                separator: str | None = None) -> list[str]:
    """Each run's group: from a CSV file ``run,group`` (``spec``), the first ``prefix``
    characters of its name, or its name up to ``separator``; else its own name."""
    if sum(x is not None for x in (spec, prefix, separator)) > 1:
        raise UsageError("give one of --groups, --group-prefix, --group-separator")
    if prefix is not None:
        if prefix < 1:
            raise UsageError(f"--group-prefix must be 1 or more, not {prefix}")
        return [n[:prefix] for n in labels]
    if separator is not None:
        if not separator:
            raise UsageError("--group-separator must not be empty")
        return [n.split(separator, 1)[0] for n in labels]
    if spec is None:
        return list(labels)
    from ...errors import InputError

    if not os.path.isfile(spec):
        raise InputError(spec, "no such file")
    mapping: dict[str, str] = {}
    with open(spec, newline="", encoding="utf-8", errors="surrogateescape") as f:
        for i, row in enumerate(csv.reader(f), 1):
            if not row or not "".join(row).strip() or row[0].startswith("#"):
                continue
            if len(row) != 2:
                raise InputError(spec, f"expected 2 fields (run,group), found {len(row)}", i, ",".join(row))
            if i == 1 and [c.strip().lower() for c in row] == ["run", "group"]:
                continue
            run, group = row[0].strip(), row[1].strip()
            if run in mapping:
                raise InputError(spec, f"run {run!r} is listed twice", i, ",".join(row))
            mapping[run] = group
    missing = [n for n in labels if n not in mapping]
    if missing:
        raise UsageError(f"{spec}: no group for run(s) {', '.join(missing)}")
    return [mapping[n] for n in labels]


def _contributions(runs, opts, depth):
    """``(labels, {(topic, docno): set of runs})`` of the depth-``depth`` pool."""
    def collect(blocks) -> tuple[list[str] | None, dict]:
        contrib: dict = {}
        labels: list[str] | None = None
        for block in blocks:
            if labels is None:
                labels = run_labels(runs, [r.runid for r in block.runs])
            t, d, r, _ = pool_rows(block, [depth] * len(runs))
            order, starts = group_documents(t, d, r)
            t, d, r = t[order], d[order], r[order]
            ends = np.append(starts[1:], len(order))
            topics = block.topics[t[starts]].tolist()
            docs = d[starts].tolist()
            rl = r.tolist()
            for j in range(len(starts)):
                contrib[(topics[j], docs[j])] = frozenset(rl[starts[j]:ends[j]])
        return labels, contrib

    try:
        return collect(topic_blocks(runs, opts))
    except Restart:
        return collect(regrouped_blocks(runs, opts))


def _without(judgments, drop: set):
    """``judgments`` (any parsed -R format with per-row ``qid``/``docno``) without the rows of ``drop``."""
    n = len(judgments.qid)
    keep = np.fromiter(((q, d) not in drop for q, d in zip(judgments.qid.tolist(), judgments.docno.tolist())),
                       dtype=bool, count=n)
    if keep.all():
        return judgments, keep
    changes = {}
    for name in fields(judgments):
        v = getattr(judgments, name)
        if isinstance(v, np.ndarray) and v.shape[:1] == (n,):
            changes[name] = v[keep]
    return replace(judgments, **changes), keep


def _score(evaluator, run, measure) -> tuple[float, str]:
    """The mean of ``measure`` (the evaluator's one measure) and the name it is printed under."""
    ev = evaluator.evaluate(run)
    values = [(float(v), c.trec_name) for c, v in zip(ev.columns, ev.column_summary)
              if v is not None and c.name != "runid"]
    if not values:
        raise UsageError(f"measure {measure!r} has no summary value")
    return values[0]


def pool_bias(qrels, runs: Sequence, measure: str = "map", *, depth: int = 100, groups: Sequence[str] | None = None,
              **options) -> BiasReport:
    """Leave-one-run-out (or, with ``groups``, one group name per run, leave-one-group-out)
    scores of ``runs`` on ``qrels`` for ``measure``; ``depth`` is the pool depth.
    Other keywords are :class:`~trec_eval_py.engine.pipeline.Options` fields."""
    from ...engine.pipeline import Evaluator, Options

    if depth < 1:
        raise UsageError(f"--depth must be 1 or more, not {depth}")
    if len(runs) < 2:
        raise UsageError("leaving runs out needs at least two runs")
    opts = Options(**options)
    full_judgments = Evaluator(qrels, [measure], **options)  # read once; the measure checked before any run
    judgments = full_judgments.judgments
    labels, contrib = _contributions(runs, opts, depth)
    if labels is None:
        raise UsageError("the runs hold no results")
    if groups is None:
        group_of = list(labels)
    else:
        if len(groups) != len(runs):
            raise UsageError(f"{len(groups)} groups for {len(runs)} runs")
        group_of = list(groups)
    by_group = groups is not None and group_of != list(labels)
    gid = {g: i for i, g in enumerate(dict.fromkeys(group_of))}
    run_group = [gid[g] for g in group_of]
    only: dict[int, set] = {}
    for key, rs in contrib.items():
        gs = {run_group[r] for r in rs}
        if len(gs) == 1:
            only.setdefault(next(iter(gs)), set()).add(key)
    rel = getattr(judgments, "rel", None)
    scored = [_score(full_judgments, run, measure) for run in runs]
    full = [v for v, _ in scored]
    name = scored[0][1]
    out = []
    for i, run in enumerate(runs):
        drop = only.get(run_group[i], set())
        reduced, keep = _without(judgments, drop)
        removed_rel = 0 if rel is None else int(np.count_nonzero((rel >= opts.relevance_level) & ~keep))
        left = _score(Evaluator(reduced, [measure], **options), run, measure)[0] if not keep.all() else full[i]
        others = [full[j] for j in range(len(runs)) if j != i]
        out.append(RunBias(labels[i], group_of[i], len(drop), removed_rel, full[i], left,
                           1 + sum(s > full[i] for s in others), 1 + sum(s > left for s in others)))
    return BiasReport(name, depth, by_group, out)


def render(report: BiasReport, fmt: str) -> str:
    """The one formatting function of ``pool-bias``: text, csv or json."""
    head = ["run", "group", "removed", "removed_rel", report.measure, "left_out", "change", "rank", "rank_left_out"]
    rows = [[r.run, r.group, r.removed, r.removed_relevant, r.score, r.score_left_out, r.change, r.rank,
             r.rank_left_out] for r in report.runs]
    if fmt == "json":
        return json.dumps({"measure": report.measure, "depth": report.depth, "left_out": "group" if report.by_group
                           else "run", "runs": [dict(zip(head, row)) for row in rows],
                           "mean_change": report.mean_change}, indent=1) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(head)
        w.writerows([[*row[:4], f"{row[4]:.4f}", f"{row[5]:.4f}", f"{row[6]:+.4f}", *row[7:]] for row in rows])
        return buf.getvalue()
    if fmt != "text":
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}")
    cells = [head] + [[str(row[0]), str(row[1]), str(row[2]), str(row[3]), f"{row[4]:.4f}", f"{row[5]:.4f}",
                       f"{row[6]:+.4f}", str(row[7]), str(row[8])] for row in rows]
    if not report.by_group:
        cells = [c[:1] + c[2:] for c in cells]
    widths = [max(len(c[j]) for c in cells) for j in range(len(cells[0]))]
    lines = ["  ".join(c[j].ljust(widths[j]) if j == 0 else c[j].rjust(widths[j]) for j in range(len(c)))
             for c in cells]
    worst = report.largest_drop
    lines.append("")
    lines.append(f"left out: each {'group' if report.by_group else 'run'}'s unique documents of the depth-"
                 f"{report.depth} pool; mean change {report.mean_change:+.4f}"
                 + (f", largest drop {worst.change:+.4f} ({worst.run})" if worst is not None else ""))
    return "\n".join(lines) + "\n"
