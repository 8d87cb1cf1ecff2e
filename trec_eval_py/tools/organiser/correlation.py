"""System-ranking correlation: do two evaluations of the same runs rank them alike?

The two sides are two evaluations of one set of runs: two measures, two
versions of the judgments, two pools. They come either from two result files
(:func:`read_evaluations`), or are computed here through
:func:`~trec_eval_py.engine.pipeline.evaluate` (:func:`evaluate_sides`).
Runs are matched by name; a run found on one side only, or whose value is
undefined (NaN) on either side, is listed and left out.

The statistics (``a`` and ``b`` are the runs' values on the two sides; a
higher value ranks a run higher):

``kendall_tau``
    Kendall's tau-b: ``(C - D) / sqrt((P - T_a)(P - T_b))`` over the ``P``
    pairs of runs, ``C`` concordant and ``D`` discordant (*swapped*) pairs,
    ``T_a``/``T_b`` the pairs tied on one side. Without ties it is tau-a,
    ``(C - D) / P``. As :func:`scipy.stats.kendalltau` computes it.
``tau_ap``
    AP correlation (Yilmaz, Aslam and Robertson, "A new rank correlation
    coefficient for information retrieval", SIGIR 2008), which weighs a swap
    near the top of the ranking more than one near the bottom. With ``B``
    judged against ``A``: walk ``B``'s ranking; for each run, the share of
    the runs ranked above it by ``B`` that ``A`` also ranks above it;
    ``tau_ap = 2 * mean(share) - 1``. It is not symmetric: ``tau_ap_b_vs_a``
    takes ``A`` as the truth and ``B`` as the estimate, ``tau_ap_a_vs_b``
    the reverse, and ``tau_ap`` is their mean.

    Ties: the variant is Urbano and Marrero's ``tau_AP_b`` ("The Treatment
    of Ties in AP Correlation", ICTIR 2017), the one made for comparing two
    rankings that may both hold ties: "ranked above" means strictly above
    (a run's share is over the runs above its whole tie group; the runs of
    the top group have none and are skipped, so the mean is over the other
    runs), and a pair tied in the truth counts as not correctly ordered. With
    no ties each direction is Yilmaz et al.'s tau_AP exactly.
``spearman_rho``
    Spearman's rho: Pearson's correlation of the runs' ranks, tied runs
    sharing the mean of their ranks (as :func:`scipy.stats.spearmanr`).

Each is NaN when undefined: fewer than two runs, or every run tied on a side.
"""
from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence

import numpy as np

from ..._record import field, record
from ...errors import InputError, NoTopicsError, UsageError

SECTIONS = ("summary", "runs", "swaps")
#: --format (md is markdown's other spelling)
OUTPUT_FORMATS = ("text", "markdown", "csv", "json")
#: values equal to this many decimals are tied (see :func:`correlation`)
TIE_DECIMALS = 12
#: the measure of each side when none is named
DEFAULT_MEASURE = "map"


# ---------------------------------------------------------------- statistics

def _signs(v: np.ndarray) -> np.ndarray:
    # sign of v[i] - v[j] for every pair
    return np.sign(v[:, None] - v[None, :])


def kendall_tau(a, b) -> float:
    """Kendall's tau-b of the paired values ``a`` and ``b`` (see the module doc)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    n = len(a)
    if n < 2:
        return math.nan
    sa, sb = _signs(a), _signs(b)
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    s = float((sa * sb)[upper].sum())
    pairs = n * (n - 1) / 2
    untied_a = pairs - float(np.count_nonzero((sa == 0) & upper))
    untied_b = pairs - float(np.count_nonzero((sb == 0) & upper))
    if untied_a == 0 or untied_b == 0:
        return math.nan
    return s / math.sqrt(untied_a * untied_b)


def tau_ap_directed(truth, estimate) -> float:
    """AP correlation of the ranking by ``estimate`` judged against the ranking
    by ``truth``, ties as in Urbano and Marrero's tau_AP_b (see the module doc)."""
    t, e = np.asarray(truth, dtype=np.float64), np.asarray(estimate, dtype=np.float64)
    above = e[None, :] > e[:, None]  # above[i, j]: the estimate ranks j strictly above i
    right = above & (t[None, :] > t[:, None])  # ... and so does the truth
    n_above = above.sum(axis=1)
    ranked = n_above > 0  # runs of the top tie group have nothing above them
    if not ranked.any():
        return math.nan
    share = right.sum(axis=1)[ranked] / n_above[ranked]
    return 2.0 * float(share.mean()) - 1.0


def tau_ap(a, b) -> float:
    """Symmetric AP correlation: the mean of both directions (see the module doc)."""
    x, y = tau_ap_directed(a, b), tau_ap_directed(b, a)
    return (x + y) / 2.0


def _mean_ranks(v: np.ndarray) -> np.ndarray:
    order = np.argsort(v, kind="stable")
    s = v[order]
    ranks = np.empty(len(v))
    start = 0
    while start < len(s):
        end = start
        while end + 1 < len(s) and s[end + 1] == s[start]:
            end += 1
        ranks[order[start:end + 1]] = (start + end) / 2.0 + 1.0
        start = end + 1
    return ranks


def spearman_rho(a, b) -> float:
    """Spearman's rho of ``a`` and ``b`` (ties share their mean rank)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if len(a) < 2:
        return math.nan
    ra, rb = _mean_ranks(a), _mean_ranks(b)
    ra, rb = ra - ra.mean(), rb - rb.mean()
    den = math.sqrt(float(ra @ ra) * float(rb @ rb))
    if den == 0:
        return math.nan
    return float(ra @ rb) / den


def competition_ranks(v) -> np.ndarray:
    """1 + how many values are strictly higher (tied runs share the better rank)."""
    v = np.asarray(v, dtype=np.float64)
    return 1 + (v[None, :] > v[:, None]).sum(axis=1)


# ---------------------------------------------------------------- the report

@record(frozen=False)
class Correlation:
    """Two evaluations of the same runs: ``a[i]`` and ``b[i]`` are run ``names[i]``'s values.

    ``only_a``/``only_b`` are runs on one side only; ``undefined`` runs whose
    value is NaN on a side; all are left out of the statistics."""

    names: list[str]
    a: np.ndarray
    b: np.ndarray
    label_a: str = "A"
    label_b: str = "B"
    only_a: list[str] = field(factory=list)
    only_b: list[str] = field(factory=list)
    undefined: list[str] = field(factory=list)

    @property
    def ranked(self) -> tuple[np.ndarray, np.ndarray]:
        """``a`` and ``b`` as the runs are ranked by: to :data:`TIE_DECIMALS` decimals
        (see :func:`correlation`)."""
        return np.round(self.a, TIE_DECIMALS), np.round(self.b, TIE_DECIMALS)

    def statistics(self) -> dict[str, float]:
        """The correlations by name (see the module doc)."""
        a, b = self.ranked
        return {
            "kendall_tau": kendall_tau(a, b),
            "tau_ap": tau_ap(a, b),
            "tau_ap_b_vs_a": tau_ap_directed(a, b),
            "tau_ap_a_vs_b": tau_ap_directed(b, a),
            "spearman_rho": spearman_rho(a, b),
        }

    def swapped(self) -> list[tuple[int, int]]:
        """Pairs ``(i, j)`` that ``A`` ranks ``i`` above ``j`` and ``B`` ``j`` above ``i``,
        by ``A``'s ranking of ``i``, then of ``j``."""
        a, b = self.ranked
        i, j = np.nonzero((_signs(a) > 0) & (_signs(b) < 0))
        order = np.lexsort((-a[j], -a[i]))
        return [(int(i[k]), int(j[k])) for k in order]

    def summary(self) -> list[tuple[str, object, str]]:
        """``(name, value, meaning)`` rows: the counts, then the correlations."""
        n = len(self.names)
        upper = np.triu(np.ones((n, n), dtype=bool), 1)
        a, b = self.ranked
        tied_a = int(np.count_nonzero((_signs(a) == 0) & upper))
        tied_b = int(np.count_nonzero((_signs(b) == 0) & upper))
        stats = self.statistics()
        meaning = {
            "kendall_tau": "Kendall's tau-b",
            "tau_ap": "AP correlation, mean of both directions (ties: Urbano & Marrero's tau_AP_b)",
            "tau_ap_b_vs_a": "AP correlation of B's ranking against A's",
            "tau_ap_a_vs_b": "AP correlation of A's ranking against B's",
            "spearman_rho": "Spearman's rho (tied runs share their mean rank)",
        }
        rows: list[tuple[str, object, str]] = [
            ("A", self.label_a, "first evaluation"),
            ("B", self.label_b, "second evaluation"),
            ("num_runs", n, "runs compared"),
            ("num_only_A", len(self.only_a), "runs in A only (left out)" + _names(self.only_a)),
            ("num_only_B", len(self.only_b), "runs in B only (left out)" + _names(self.only_b)),
            ("num_undefined", len(self.undefined), "runs with an undefined value (left out)" + _names(self.undefined)),
            ("num_pairs", n * (n - 1) // 2, "pairs of runs"),
            ("num_swapped", len(self.swapped()), "pairs A and B order oppositely"),
            ("num_tied_A", tied_a, "pairs tied in A"),
            ("num_tied_B", tied_b, "pairs tied in B"),
        ]
        rows += [(k, v, meaning[k]) for k, v in stats.items()]
        return rows

    def ranking(self) -> list[dict]:
        """One row per run, best in ``A`` first: values, ranks and how far ``B`` moves it."""
        a, b = self.ranked
        ra, rb = competition_ranks(a), competition_ranks(b)
        order = np.lexsort((-b, -a))
        return [{"run": self.names[i], "A": float(self.a[i]), "rank_A": int(ra[i]),
                 "B": float(self.b[i]), "rank_B": int(rb[i]), "moved": int(ra[i] - rb[i])}
                for i in order.tolist()]

    def swaps(self) -> list[dict]:
        """The swapped pairs (see :meth:`swapped`), with both sides' values."""
        return [{"higher_in_A": self.names[i], "lower_in_A": self.names[j],
                 "A": f"{_short(self.a[i])} > {_short(self.a[j])}",
                 "B": f"{_short(self.b[i])} < {_short(self.b[j])}",
                 "A_values": [float(self.a[i]), float(self.a[j])],
                 "B_values": [float(self.b[i]), float(self.b[j])]}
                for i, j in self.swapped()]


def _names(names: list[str], most: int = 5) -> str:
    if not names:
        return ""
    shown = ", ".join(names[:most]) + (f", ... ({len(names) - most} more)" if len(names) > most else "")
    return f": {shown}"


def _short(v: float) -> str:
    return f"{v:.4f}"


def correlation(names: Sequence[str], a, b, *, label_a: str = "A", label_b: str = "B") -> Correlation:
    """A :class:`Correlation` of runs ``names`` with values ``a`` and ``b``;
    runs whose value is NaN on either side are set aside as undefined.

    Runs are ranked by their values rounded to :data:`TIE_DECIMALS` decimals
    (:attr:`Correlation.ranked`; the values themselves are kept): two runs with the
    same mean (22.3 / 25 = 0.892 for P_10, say) can get means that differ in
    the last bits when their per-topic values are added up in another order,
    and must tie rather than make a swapped pair."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    names = list(names)
    if not (len(names) == len(a) == len(b)):
        raise UsageError(f"{len(names)} runs with {len(a)} and {len(b)} values")
    if len(set(names)) != len(names):
        raise UsageError("two runs share a name")
    ok = ~(np.isnan(a) | np.isnan(b))
    return Correlation([n for n, k in zip(names, ok) if k], a[ok], b[ok], label_a, label_b,
                       undefined=[n for n, k in zip(names, ok) if not k])


# ---------------------------------------------------------------- result files

@record(frozen=False)
class RunValues:
    """One run's summary values in a result file; ``run`` is the run file's name
    when the file gives it (batch outputs), ``line`` where the run starts (0 in JSON)."""

    runid: str
    run: str | None
    line: int
    values: dict = field(factory=dict)

    @property
    def key(self) -> str:
        return self.run if self.run is not None else self.runid


def _number(text: str, name: str, line: int | None, raw: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InputError(name, f"value {text!r} is not a number", line or None, raw) from None


def _put(run: RunValues, measure: str, value: float, name: str, line: int | None, raw: str) -> None:
    if measure in run.values:
        raise InputError(name, f"{measure} given twice for run {run.key}", line or None, raw)
    run.values[measure] = value


def _read_text(text: str, name: str) -> list[RunValues]:
    runs: list[RunValues] = []
    for no, raw in enumerate(text.split("\n"), 1):
        f = raw.split()
        if not f:
            continue
        line = raw.rstrip("\r")
        if len(f) != 3:
            raise InputError(name, f"expected 'measure topic value', found {len(f)} fields", no, line)
        measure, topic, value = f
        if topic != "all":
            continue  # per-topic values (-q): the ranking is by the summary
        if measure == "runid":
            runs.append(RunValues(value, None, no))
            continue
        if not runs:
            raise InputError(name, "a summary value before any 'runid' line: evaluate with the runid "
                             "measure (-m runid) so that each run is named", no, line)
        _put(runs[-1], measure, _number(value, name, no, line), name, no, line)
    return runs


def _read_csv(text: str, name: str) -> list[RunValues]:
    reader = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    runs: dict[str, RunValues] = {}
    try:
        for row in reader:
            no = reader.line_num
            if not row:
                continue
            if header is None or row == header:
                header = row
                continue
            raw = ",".join(row)
            if len(row) != len(header):
                raise InputError(name, f"{len(row)} fields under a header of {len(header)}", no, raw)
            rec = dict(zip(header, row))
            if rec.get("error"):
                continue  # a batch run that could not be graded has no values
            run_name = rec.get("run")
            runid = rec["runid"]
            key = run_name if run_name is not None else runid
            if "measure" in rec:  # long: runid,topic,measure,value (batch: with rank,run,...)
                if rec["topic"] != "all" or rec["measure"] == "runid":
                    continue
                run = runs.setdefault(key, RunValues(runid, run_name, no))
                _put(run, rec["measure"], _number(rec["value"], name, no, raw), name, no, raw)
            else:  # batch's board: one row per run, a column per measure
                if key in runs:
                    raise InputError(name, f"run {key} given twice (first on line {runs[key].line})", no, raw)
                run = runs[key] = RunValues(runid, run_name, no)
                from ..grading.leaderboard import BOARD_FIELDS

                for m in header:
                    if m not in BOARD_FIELDS:
                        _put(run, m, _number(rec[m], name, no, raw), name, no, raw)
    except csv.Error as e:
        raise InputError(name, f"not readable as CSV: {e}", reader.line_num or None) from None
    return list(runs.values())


def _read_json(text: str, name: str) -> list[RunValues]:
    dec = json.JSONDecoder()
    docs = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        try:
            doc, pos = dec.raw_decode(text, pos)
        except ValueError as e:
            raise InputError(name, f"not valid JSON: {e}") from None
        docs.append(doc)
    runs: list[RunValues] = []

    def add(runid, run, summary, where: str):
        if not isinstance(summary, dict):
            raise InputError(name, f"{where}: no 'summary' object of measure values")
        r = RunValues(str(runid), None if run is None else str(run), 0)
        for m, v in summary.items():
            if m == "runid":
                continue
            if isinstance(v, (dict, list, str, bool)):
                raise InputError(name, f"{where}: {m} is not a number: {v!r}")
            r.values[m] = math.nan if v is None else float(v)
        runs.append(r)

    for k, doc in enumerate(docs, 1):
        if isinstance(doc, dict) and isinstance(doc.get("runs"), list):  # batch's board
            for i, item in enumerate(doc["runs"], 1):
                if not isinstance(item, dict):
                    raise InputError(name, f"run {i} of the board is not an object")
                if item.get("error") is None:
                    add(item.get("runid", ""), item.get("run"), item.get("summary"), f"run {i}")
        elif isinstance(doc, dict) and "runid" in doc:  # the main command's, one a run
            add(doc["runid"], None, doc.get("summary"), f"document {k}")
        else:
            raise InputError(name, f"document {k} is neither trec_eval_py --format json output "
                             "nor a batch board (no 'runid' or 'runs')")
    return runs


def read_evaluations(source, *, name: str | None = None) -> list[RunValues]:
    """The runs' summary values in a result file: trec_eval's (or trec_eval_py's)
    text, one block per run each named by its ``runid`` line (per-topic lines
    are skipped); the main command's ``--format csv`` or json (documents one
    after another); or batch's csv or json board. Raises
    :class:`~trec_eval_py.errors.InputError` naming the file (and line) of
    anything else, or of a run or value given twice."""
    from ...engine.parse.source import read_source, source_name

    name = name or source_name(source)
    text = read_source(source).decode("utf-8", "surrogateescape")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(name, "a NUL byte", line)
    head = text.lstrip()
    if head[:1] in ("{", "["):
        runs = _read_json(text, name)
    elif "," in head.split("\n", 1)[0] and "runid" in head.split("\n", 1)[0].split(","):
        runs = _read_csv(text, name)
    else:
        runs = _read_text(text, name)
    if not runs:
        raise InputError(name, "no run's summary values")
    seen: dict[str, RunValues] = {}
    for r in runs:
        if r.key in seen:
            where = f" (first on line {seen[r.key].line})" if seen[r.key].line else ""
            raise InputError(name, f"run {r.key} given twice{where}", r.line or None)
        seen[r.key] = r
    return runs


def _pick_measure(runs: list[RunValues], measure: str | None, name: str) -> str:
    have = [m for m in dict.fromkeys(m for r in runs for m in r.values)]
    if measure is not None:
        missing = [r.key for r in runs if measure not in r.values]
        if len(missing) == len(runs):
            raise UsageError(f"{name}: no measure {measure!r}; it holds {', '.join(have[:12])}"
                             + (" ..." if len(have) > 12 else ""))
        if missing:
            raise UsageError(f"{name}: run {missing[0]} has no {measure}")
        return measure
    if all(DEFAULT_MEASURE in r.values for r in runs):
        return DEFAULT_MEASURE
    if len(have) == 1:
        return have[0]
    raise UsageError(f"{name} holds several measures ({', '.join(have[:12])}{' ...' if len(have) > 12 else ''}): "
                     "name one with -m")


def correlate_files(file_a, file_b, measures: Sequence[str] = ()) -> Correlation:
    """The correlation of the runs in two result files (see :func:`read_evaluations`).

    ``measures``: none (map, or the files' only measure), one for both files,
    or one per file. Runs are matched by run file name when both files give
    it (batch boards), else by run id."""
    from ...engine.parse.source import source_name

    measures = list(measures)
    if len(measures) > 2:
        raise UsageError(f"-m names the measure of each file: at most two, not {len(measures)}")
    name_a, name_b = source_name(file_a), source_name(file_b)
    ra, rb = read_evaluations(file_a), read_evaluations(file_b)
    ma = _pick_measure(ra, measures[0] if measures else None, name_a)
    mb = _pick_measure(rb, measures[-1] if measures else None, name_b)
    by_run = all(r.run is not None for r in ra + rb)
    ka = {(r.key if by_run else r.runid): r for r in ra}
    kb = {(r.key if by_run else r.runid): r for r in rb}
    if not by_run:
        for runs, name in ((ra, name_a), (rb, name_b)):
            ids = [r.runid for r in runs]
            if len(set(ids)) != len(ids):
                twice = next(i for i in ids if ids.count(i) > 1)
                raise UsageError(f"{name}: two runs share the run id {twice!r}; match by file name "
                                 "with batch outputs on both sides")
    names = [k for k in ka if k in kb]
    return _with_sides(correlation(names, [ka[k].values[ma] for k in names], [kb[k].values[mb] for k in names],
                                   label_a=f"{ma} in {name_a}", label_b=f"{mb} in {name_b}"),
                       [k for k in ka if k not in kb], [k for k in kb if k not in ka])


def _with_sides(c: Correlation, only_a, only_b) -> Correlation:
    c.only_a, c.only_b = list(only_a), list(only_b)
    return c


# ---------------------------------------------------------------- evaluating

def evaluate_sides(runs: Sequence, qrels: Sequence, measures: Sequence[str] = (), **options) -> Correlation:
    """The correlation of ``runs`` evaluated twice through
    :func:`~trec_eval_py.engine.pipeline.evaluate`: against two ``qrels``
    with one measure (``measures``: none for map, or one), with two
    ``measures`` against one qrels, or measure ``k`` against qrels ``k``.
    ``options`` are the evaluation options (:class:`~trec_eval_py.engine.pipeline.Options`
    fields, e.g. ``complete=True``). Each judgments file and each run is read
    once. A measure must give one value per run (``P.10``, not ``P``)."""
    from ...engine.parse.source import run_labels, source_label, source_name
    from ...engine.pipeline import Evaluator, Options, read_judgments, read_results
    from ..compare.comparison import expand_runs

    qrels, measures = list(qrels), list(measures)
    if not 1 <= len(qrels) <= 2 or len(measures) > 2:
        raise UsageError("correlate evaluates two sides: one or two --qrels, and at most two -m")
    if len(qrels) == 1 and len(measures) < 2:
        raise UsageError("both sides would be the same evaluation: give two --qrels or two -m")
    measures = measures or [DEFAULT_MEASURE]
    sides = [(qrels[k % len(qrels)], measures[k % len(measures)]) for k in range(2)]
    opts = Options(**options)
    files = expand_runs(list(runs))
    if len(files) < 2:
        raise UsageError("correlate needs two runs or more")
    judgments = {}
    for q, _ in sides:
        if id(q) not in judgments:
            judgments[id(q)] = read_judgments(q, opts)
    parsed = [read_results(r, opts) for r in files]
    names = run_labels([p.runid for p in parsed], [source_label(r, i) for i, r in enumerate(files)])
    values = []
    for q, m in sides:
        col = []
        evaluator = Evaluator(judgments[id(q)], [m], **options)  # one side's measure, resolved once
        for i, run in enumerate(parsed):
            try:
                ev = evaluator.evaluate(run)
            except NoTopicsError as e:  # exit 7, worded as compare words it
                raise NoTopicsError(f"{source_name(files[i])}: {e}") from None
            if len(ev.columns) != 1 or ev.column_summary[0] is None:
                shown = " ".join(c.name for c in ev.columns)
                raise UsageError(f"-m {m} gives {len(ev.columns)} values ({shown}); correlate ranks runs by one "
                                 "summary value: name one (e.g. P.10)")
            col.append(float(ev.column_summary[0]))
        values.append(col)

    def label(q, m):
        return f"{m} on {source_name(q)}" if len(qrels) > 1 else m

    return correlation(names, values[0], values[1], label_a=label(*sides[0]), label_b=label(*sides[1]))


# ---------------------------------------------------------------- output

def _json_value(v):
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, list):
        return [_json_value(x) for x in v]
    return v


def render_correlation(report: Correlation, fmt: str = "text", show: Sequence[str] | None = None) -> str:
    """``report`` as text, md, csv or json: the sections ``show`` (default:
    summary, runs and swaps). csv holds one table, so it takes exactly one section."""
    from ...output.table import canonical, check_format, check_sections

    fmt = canonical(check_format(fmt, OUTPUT_FORMATS))
    show = check_sections(show, SECTIONS, fmt, list(SECTIONS))
    tables: list[tuple[str, list[str], list[list]]] = []
    doc: dict = {}
    for section in show:
        if section == "summary":
            stats = report.summary()
            doc["summary"] = {k: _json_value(v) for k, v, _ in stats}
            doc["summary"]["only_A"] = report.only_a
            doc["summary"]["only_B"] = report.only_b
            doc["summary"]["undefined"] = report.undefined
            tables.append(("summary", ["statistic", "value", "meaning"], [list(r) for r in stats]))
        elif section == "runs":
            runs = report.ranking()
            doc["runs"] = runs
            tables.append(("runs (best in A first; moved: places up in B)", list(runs[0]) if runs else [],
                           [list(r.values()) for r in runs]))
        else:
            swaps = report.swaps()
            doc["swaps"] = [{k: r[k] for k in ("higher_in_A", "lower_in_A", "A_values", "B_values")} for r in swaps]
            header = ["higher_in_A", "lower_in_A", "A", "B"]
            tables.append(("swaps (pairs A and B order oppositely)", header, [[r[k] for k in header] for r in swaps]))
    if fmt == "json":
        return json.dumps({k: ([{kk: _json_value(vv) for kk, vv in r.items()} for r in v] if isinstance(v, list)
                               else v) for k, v in doc.items()}, indent=1) + "\n"
    if fmt == "csv":
        title, header, rows = tables[0]
        if show[0] == "swaps":
            header = ["higher_in_A", "lower_in_A", "A_higher", "A_lower", "B_higher", "B_lower"]
            rows = [[r["higher_in_A"], r["lower_in_A"], *r["A_values"], *r["B_values"]] for r in report.swaps()]
        tables = [(title, header, rows)]
    from ...output.table import render_sections

    return render_sections(tables, fmt, nan="undefined")



__all__ = ["Correlation", "RunValues", "competition_ranks", "correlate_files", "correlation", "evaluate_sides",
           "kendall_tau", "read_evaluations", "render_correlation", "spearman_rho", "tau_ap", "tau_ap_directed"]
