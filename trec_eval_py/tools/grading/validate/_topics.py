"""Topic ids and judgments: the topics a run is checked against, the topic checks,
unjudged documents at the top, the judgments read once for many runs."""
from __future__ import annotations

import math

import numpy as np

from ...._record import record, replace
from ...._versions import DEFAULT_COMPAT
from ....engine.join.context import EvalContext
from ....engine.join.keys import run_starts
from ....engine.join.order import segment_positions
from ....engine.options import Options
from ....engine.parse import Qrels, Run
from ....engine.parse.source import read_source, source_name
from ....errors import InputError, UsageError
from ._findings import ERROR, NOTE, UNJUDGED_DEPTH, WARNING, Report, _Collector, _show
from ._lines import _Cols
from ._sniff import sniff


@record
class TopicSet:
    """Topic ids to check a run against, and where each is first listed."""

    name: str
    first_line: dict  # bytes -> line


def read_topics(source) -> TopicSet:
    """Topic ids from ``source``: the first field of every non-blank, non-comment line
    (a file of ids, one a line, or a qrels file)."""
    data = read_source(source)
    first: dict[bytes, int] = {}
    for no, raw in enumerate(data.splitlines(), 1):
        f = raw.split()
        if f and not f[0].startswith(b"#"):
            first.setdefault(f[0], no)
    if not first:
        raise InputError(source_name(source), "no topic ids")
    return TopicSet(source_name(source), first)


#: how findings name the judgments: never by their path, which a student's feedback would show
JUDGMENTS = "the judgments"


def qrels_topics(q) -> TopicSet:
    """The topic ids of judgments ``q`` (any judgment format with topic ids), each
    with the line it is first judged on; named :data:`JUDGMENTS` in the findings."""
    qid = np.asarray(q.qid)
    if not len(qid):
        return TopicSet(JUDGMENTS, {})
    ids, first = np.unique(qid, return_index=True)
    order = np.argsort(first, kind="stable")
    lines = np.asarray(q.lineno)[first[order]].tolist()
    return TopicSet(JUDGMENTS, dict(zip(ids[order].tolist(), lines)))


_qrels_topics = qrels_topics


def _id_hint(run_ids: list[bytes], known: list[bytes]) -> str:
    """How the run's topic ids differ from the known ones, if by a simple pattern."""
    known_set = set(known)
    ks, rs = sorted(known_set)[:3], sorted(set(run_ids))
    example = (f"the run has {', '.join(_show(r) for r in rs[:3])}; "
               f"expected ids such as {', '.join(_show(k) for k in ks)}")

    def share(f) -> float:
        return sum(1 for r in rs if f(r) in known_set) / len(rs)

    # a prefix on the run's side (q401 vs 401) or on the known side (401 vs q401)
    for pre in sorted({r[:n] for r in rs for n in range(1, min(len(r), 8)) if not r[:n].isdigit()},
                      key=len, reverse=True):
        if share(lambda r, pre=pre: r[len(pre):] if r.startswith(pre) else None) >= 0.5:
            return f"{example}: remove the prefix {_show(pre)}"
    for pre in sorted({k[:n] for k in ks for n in range(1, min(len(k), 8)) if not k[:n].isdigit()}, key=len):
        if share(lambda r, pre=pre: pre + r) >= 0.5:
            return f"{example}: add the prefix {_show(pre)}"
    if share(lambda r: r.lstrip(b"0") or b"0") >= 0.5:
        return f"{example}: remove the leading zeros"
    padded = {k.lstrip(b"0") or b"0": k for k in known_set}
    if share(lambda r: padded.get(r.lstrip(b"0") or b"0")) >= 0.5:
        return f"{example}: pad the ids with zeros as the qrels do"
    lower = {k.lower(): k for k in known_set}
    if share(lambda r: lower.get(r.lower())) >= 0.5:
        return f"{example}: the ids differ in upper/lower case"
    return example


def _listed(ids: list[bytes], most: int = 10) -> str:
    shown = ", ".join(i.decode("utf-8", "replace") for i in ids[:most])
    return shown + (f" and {len(ids) - most} more" if len(ids) > most else "")


def _check_topics(topic_lines: dict, ts: TopicSet, out: _Collector) -> bool:
    """Coverage of ``ts`` by the run (``topic_lines``: its topic ids, in order of first
    appearance, each with its first line); False if they share no topic (one error,
    nothing else)."""
    run_ids = list(topic_lines)
    known = ts.first_line
    common = [q for q in run_ids if q in known]
    if not common:
        out.add(topic_lines[run_ids[0]], ERROR, "no-common-topics",
                f"no topic of the run is in {ts.name}, so nothing can be evaluated; {_id_hint(run_ids, list(known))}",
                count=len(run_ids))
        return False
    extra = [q for q in run_ids if q not in known]
    if extra:
        out.add(topic_lines[extra[0]], NOTE, "topic-not-in-qrels",
                f"{len(extra)} topic{'s' * (len(extra) != 1)} of the run {'are' if len(extra) != 1 else 'is'} not "
                f"in {ts.name} ({_listed(extra)}); trec_eval ignores them", count=len(extra))
    have = set(run_ids)
    missing = sorted((q for q in known if q not in have), key=lambda q: known[q])
    if missing:
        out.add(None, WARNING, "topic-not-in-run",
                f"answers {len(known) - len(missing)} of {len(known)} judged topics; missing {_listed(missing)}: "
                "each scores 0 when every judged topic counts (batch's default, trec_eval -c), and is left out "
                "of the averages otherwise", count=len(missing))
    return True


def unjudged_at_top(ordered, q: Qrels, compat: str = DEFAULT_COMPAT, name: str = "<run>") -> dict[bytes, np.ndarray]:
    """Per topic of ``ordered`` (``{qid: docnos in the ranking rule's order}``) that the
    judgments ``q`` cover: the positions, among its top :data:`UNJUDGED_DEPTH`, of the
    documents without a judgment (not in the qrels, or with a negative level), found
    by the engine's own join."""
    qids = np.array([qid for qid, docs in ordered.items() for _ in docs[:UNJUDGED_DEPTH]], dtype="S")
    docs = np.array([d for ds in ordered.values() for d in ds[:UNJUDGED_DEPTH]], dtype="S")
    lv = _levels(q, qids, docs, compat, name)
    ends = np.cumsum(lv.sizes)
    return {qid: np.flatnonzero(lv.rel[e - k:e] < 0) for qid, k, e in zip(lv.qids.tolist(), lv.sizes.tolist(),
                                                                          ends.tolist())}


@record
class _Levels:
    """The relevance levels the engine's join gives rows of a run (see :func:`_levels`):
    per topic the judgments cover, in the engine's order, its id (``qids``) and
    number of rows (``sizes``); then every such row, topic after topic, in the
    order given: its level (``rel``, negative: unjudged) and its index among the
    rows given (``row``)."""

    qids: np.ndarray
    sizes: np.ndarray
    rel: np.ndarray
    row: np.ndarray


def _levels(q: Qrels, qid: np.ndarray, docno: np.ndarray, compat: str, name: str) -> _Levels:
    """Relevance level (negative: unjudged) of each row (``qid``, ``docno``), rows given
    topic by topic in the ranking rule's order, by the engine's join."""
    from ....engine.pipeline import Options, join

    n = len(qid)
    none = _Levels(np.zeros(0, "S1"), np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64))
    if not n:
        return none
    starts = run_starts(qid)
    sizes = np.diff(np.append(starts, n))
    pos = np.arange(n) - np.repeat(starts, sizes)
    # scores that keep the given order under the ranking rule (strictly falling, exact in float32)
    run = Run(qid, docno, float(1 << 22) - pos.astype(np.float64), np.arange(1, n + 1, dtype=np.int64), "", name)

    # the join stage alone (no batches): each ranked row's level, a negative one
    # marking a document nobody judged (pooled or not)
    ranked = join(q, run, Options(compat=compat, measures=()))
    if not ranked.qids:
        return none
    ids = np.array([t.encode("utf-8", "surrogateescape") for t in ranked.qids], dtype="S")
    counts = np.asarray(ranked.num_ret, dtype=np.int64)
    rel = np.asarray(ranked.rel, dtype=np.float64)
    # each topic's first row among those given: a topic's levels are its rows' in order
    heads = qid[starts]
    by_id = np.argsort(heads, kind="stable")
    at = np.minimum(np.searchsorted(heads[by_id], ids), len(heads) - 1)
    first = starts[by_id[at]]
    offsets = np.cumsum(counts) - counts
    row = np.repeat(first - offsets, counts) + np.arange(len(rel))
    return _Levels(ids, counts, rel, row)


class _Unjudged:
    """Topics with too many unjudged documents at the top, added up: the one whose
    first such document comes first (line, topic, unjudged, of), their number, and
    every judged topic's counts (for :attr:`Report.unjudged`)."""

    __slots__ = ("first", "count", "per_topic")

    def __init__(self) -> None:
        self.first: tuple[int, bytes, int, int] | None = None  # line, topic, unjudged, of
        self.count = 0
        self.per_topic: dict[bytes, tuple[int, int]] = {}


@record
class _Joined:
    """The ranked lines of the judged topics a run lists (see :func:`_join_lines`): per
    topic in byte order of ids, its id (``qids``) and its lines from
    ``offsets[i]`` to ``offsets[i + 1]``, each line's row among the lines joined
    (``rows``) and its level (``rel``; negative: unjudged), in rank order."""

    qids: list
    offsets: np.ndarray
    rel: np.ndarray
    rows: np.ndarray


def _join_lines(c: _Cols, q: Qrels, compat: str, name: str, join=None, run: Run | None = None):
    """``(the ranked lines of the judged topics of c, the evaluation's join)``: the
    engine's join of the lines ``c`` with judgments ``q``, each ranked line keeping its
    row, as the evaluation finds them. The join is ``join(run)`` (the evaluation's own,
    :meth:`~trec_eval_py.engine.pipeline.Evaluator.join` of the lines ``run``; then
    given back second, for the evaluation to measure) when it ranks every line of the
    run (no ``-M``, no ``-J``); else one made here (given back as None). The first is
    None when the join fails on a docno listed twice in a topic (the duplicate check
    then names it and the lines kept are ranked again), or when a rank is no integer
    (the tie check then looks at every topic's ranks, judged or not)."""
    from ....engine.pipeline import join as engine_join

    if np.isnan(c.rank).any():
        return None, None
    try:
        shared = join(run if run is not None else c.as_run(name)) if join is not None else None
        if shared is not None and (getattr(shared, "rows", None) is None or not checks_read(shared.ctx, compat)):
            shared = None
        joined = shared if shared is not None else engine_join(
            q, c.as_run(name), Options(compat=compat, measures=()), EvalContext(compat=compat, keep_rows=True))
    except InputError:
        return None, None
    return _run_topics(joined), shared


def checks_read(ctx: EvalContext, compat: str) -> bool:
    """Whether the checks can read a join made with settings ``ctx``: one that ranks every
    line of a topic (no ``-M``, no ``-J``) as ``compat`` ranks them."""
    return ctx.max_docs is None and not ctx.judged_only and ctx.compat == compat


def _run_topics(joined) -> _Joined:
    """What the checks read of a join: the topics the run lists (``-c``'s fill-ins, with
    no line or 10.0's placeholder line, left out)."""
    keep = ~np.asarray(joined.filled, dtype=bool)
    if keep.all():
        return _Joined(list(joined.qids), joined.offsets, joined.rel, joined.rows)
    sizes = np.diff(joined.offsets)[keep]
    lines = np.repeat(keep, np.diff(joined.offsets))
    return _Joined([t for t, k in zip(joined.qids, keep.tolist()) if k], np.concatenate([[0], np.cumsum(sizes)]),
                   joined.rel[lines], joined.rows[lines])


def _in_topic_order(joined: _Joined, topic: np.ndarray) -> np.ndarray:
    """The ranked rows of ``joined``, each topic's in rank order, the topics in the
    order of their codes ``topic`` (first appearance in the file) rather than the
    join's byte order of ids."""
    rows, offsets = joined.rows, joined.offsets
    if not len(rows):
        return rows
    order = np.argsort(topic[rows[offsets[:-1]]], kind="stable")
    sizes = np.diff(offsets)[order]
    return rows[segment_positions(sizes) + np.repeat(offsets[:-1][order], sizes)]


def _joined_levels(joined: _Joined, n: int):
    """A function giving the relevance (unjudged: 0) of rows among the ``n`` lines joined."""
    rel = np.zeros(n, dtype=np.float64)
    rel[joined.rows] = np.maximum(joined.rel, 0)
    return rel.__getitem__


def _top_levels(joined: _Joined) -> _Levels:
    """The levels of the first :data:`UNJUDGED_DEPTH` ranked lines of each topic of
    ``joined``; ``row``: their rows among the lines joined."""
    sizes = np.diff(joined.offsets)
    top = segment_positions(sizes) < UNJUDGED_DEPTH
    ids = np.array([t.encode("utf-8", "surrogateescape") for t in joined.qids], dtype="S")
    return _Levels(ids, np.minimum(sizes, UNJUDGED_DEPTH), joined.rel[top].astype(np.float64), joined.rows[top])


def _levels_at_top(c: _Cols, topic: np.ndarray, perm: np.ndarray, q: Qrels, compat: str, name: str) -> _Levels:
    """:func:`_top_levels` of lines the engine cannot join whole (see :func:`_join_lines`):
    the top of each topic in the ranking ``perm`` (every line in the rule's order),
    joined on its own."""
    t = topic[perm]
    top = perm[segment_positions(np.diff(np.append(run_starts(t), len(t)))) < UNJUDGED_DEPTH]
    lv = _levels(q, c.qid[top], c.docno[top], compat, name)
    return replace(lv, row=top[lv.row])


def _check_unjudged(c: _Cols, lv: _Levels, max_unjudged: float, found: _Unjudged) -> None:
    """Too many unjudged documents in a topic's top 10 (``lv``: the levels there, see
    :func:`_top_levels`); every judged topic's count goes to ``found``."""
    if not len(lv.qids):
        return
    unjudged = lv.rel < 0
    ends = np.cumsum(lv.sizes)
    begins = ends - lv.sizes
    # per topic: its unjudged documents (cumulative counts at the topic ends)
    before = np.concatenate([[0], np.cumsum(unjudged)])
    n_unjudged = before[ends] - before[begins]
    found.per_topic.update(zip(lv.qids.tolist(), zip(n_unjudged.tolist(), lv.sizes.tolist())))
    with np.errstate(divide="ignore", invalid="ignore"):
        bad = np.flatnonzero((n_unjudged > 0) & (n_unjudged / np.maximum(lv.sizes, 1) > max_unjudged))
    if not len(bad):
        return
    # each bad topic's first unjudged document, and its line
    marks = np.flatnonzero(unjudged)
    first = marks[np.searchsorted(marks, begins[bad])]
    lines = c.line[lv.row[first]]
    i = int(np.argmin(lines))
    least = (int(lines[i]), bytes(lv.qids[bad[i]]), int(n_unjudged[bad[i]]), int(lv.sizes[bad[i]]))
    found.first = least if found.first is None else min(found.first, least)
    found.count += len(bad)


def _report_unjudged(found: _Unjudged, max_unjudged: float, out: _Collector, report: Report) -> None:
    """The ``unjudged`` finding: a note, or a warning when more than half of the run's
    judged topics have too many unjudged documents (its mean is then an underestimate)."""
    # topics in byte order of their ids, as the evaluation gives them
    report.unjudged = {qid.decode("utf-8", "surrogateescape"): counts
                       for qid, counts in sorted(found.per_topic.items())}
    if not found.count or found.first is None:  # (a count comes with its first)
        return
    line, qid, n, of = found.first
    k, judged = found.count, len(found.per_topic)
    out.add(line, WARNING if 2 * k > judged else NOTE, "unjudged",
            f"in {k} of {judged} judged topic{'s' * (judged != 1)} "
            f"more than {math.floor(max_unjudged * 100 + 0.5)}% of "
            f"the top {UNJUDGED_DEPTH} documents are unjudged (topic {_show(qid)}: {n} of {of}); their scores "
            "are underestimates", count=k)


def _rel_lookup(c: _Cols, q: Qrels, compat: str, name: str):
    """A function giving the relevance (unjudged: 0) of rows of ``c`` by the engine's join
    over just those rows (given in evaluation order)."""
    def lookup(rows: np.ndarray) -> np.ndarray:
        lv = _levels(q, c.qid[rows], c.docno[rows], compat, name)
        rel = np.zeros(len(rows), dtype=np.float64)
        rel[lv.row] = np.maximum(lv.rel, 0.0)
        return rel

    return lookup


def _swapped_hint(qrels) -> None:
    """Reading the qrels failed: say so plainly if they look like a run."""
    try:
        data = read_source(qrels, allow_stdin=False) if isinstance(qrels, (str, bytes)) else None
    except InputError:
        return
    if data is not None and sniff(data) == "run":
        raise UsageError(f"{source_name(qrels)} looks like a run (6 fields a line), not qrels: "
                         "were the qrels and the run given in swapped order?")


def load_qrels(qrels, options=None):
    """The pipeline's judgment-reading stage (qrels format, or ``options.rel_format``),
    with a hint when the file given as qrels is a run."""
    from ....engine.pipeline import read_judgments

    if isinstance(qrels, Qrels) and options is None:
        return qrels
    try:
        return read_judgments(qrels, options)
    except InputError:
        _swapped_hint(qrels)
        raise


def blank_line(data: bytes, lineno: int) -> bytes:
    """``data`` with line ``lineno`` emptied (the line numbers of the others kept):
    how a header skipped on request is left out of the evaluation."""
    from ....engine.parse.source import line_start

    start = line_start(data, lineno)
    end = data.find(b"\n", start)
    return data[:start] + (b"" if end < 0 else data[end:])
