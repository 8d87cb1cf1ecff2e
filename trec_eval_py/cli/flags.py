"""The evaluation flags every command shares, declared once.

``-m``, ``-l``, ``-N``, ``-M``, ``-J``, ``-c``, ``-R``, ``-T``, ``-Z``,
``--valid-codes`` and ``--compat`` mean the same in the main command and in every subcommand that
evaluates runs. Each is declared here, once, as a :class:`Flag` whose
``field`` is the keyword of :func:`~trec_eval_py.engine.pipeline.evaluate`
(and of :class:`~trec_eval_py.engine.pipeline.Options`) it sets.

A command takes the flags it needs with :func:`evaluation_flags`::

    @app.command()
    @evaluation_flags("measures", "relevance_level", "compat")
    def batch(qrels: str = ..., *, options: dict) -> int:
        evaluate(qrels, run, **options)

The decorator adds the typer options to the command's signature and hands
their values to the command as one dict, ``options``, keyed by field.
:func:`command_flags` does the same for a table of a command's own flags.

:func:`parse_plain` reads a plain command line (only flags of given tables,
spelled one per argument) from the same declarations without typer, so that
the main command starts quickly; anything else goes to typer.
"""
from __future__ import annotations

import functools
from typing import Any

from .._record import record
from .._versions import DEFAULT_COMPAT


@record
class Flag:
    """One shared flag: the evaluation option it sets and how it is spelled."""

    field: str  # keyword of evaluate() / Options
    decls: tuple[str, ...]  # short and long spellings (trec_eval's)
    annotation: object  # the type typer converts the value to
    default: object
    help: str
    metavar: str | None = None

    def option(self, help: str | None = None):
        """The typer option of this flag."""
        import typer

        default = list(self.default) if isinstance(self.default, list) else self.default
        return typer.Option(default, *self.decls, help=help or self.help, metavar=self.metavar)


_FLAGS = (
    Flag("measures", ("-m", "--measure"), list[str], [],
         "Measure or nickname, with parameters after a dot (P.5,10), or an ir_measures name (nDCG@10, "
         "P(rel=2)@5); repeatable. A value asked for under two names (-m AP -m map) prints once; "
         "--format json/csv keep both names.", "MEASURE"),
    Flag("complete", ("-c", "--complete_rel_info_wanted", "--all"), bool, False,
         "Average over every topic of the qrels; a topic without results is an empty ranking "
         "(--all: BioCreative's bc-evaluate names it so)."),
    Flag("relevance_level", ("-l", "--level_for_rel"), int, 1,
         "Lowest judgment level that counts as relevant.", "LEVEL"),
    Flag("num_docs_in_coll", ("-N", "--Number_docs_in_coll"), int, 0,
         "Number of documents in the collection (0: unknown).", "N"),
    Flag("max_docs", ("-M", "--Max_retrieved_per_topic"), int | None, None,
         "Only the top N documents of each topic count (N >= 0).", "N"),
    Flag("judged_only", ("-J", "--Judged_docs_only"), bool, False,
         "Drop unjudged documents from every ranking before evaluating."),
    Flag("rel_format", ("-R", "--Rel_info_format"), str, "qrels",
         "Judgment format, qrels by default; trec_eval_py -h lists the registered formats.", "FORMAT"),
    Flag("results_format", ("-T", "--Results_format"), str, "trec_results",
         "Results format, trec_results by default; trec_eval_py -h lists the registered formats.", "FORMAT"),
    Flag("zscore_file", ("-Z", "--Zscore"), str | None, None,
         "Print z-scores against the per-topic means and deviations in this file.", "FILE"),
    Flag("compat", ("--compat",), str, DEFAULT_COMPAT,
         "trec_eval version to reproduce: 9.0.8 (default) or 10.0.", "VERSION"),
    Flag("valid_codes", ("--valid-codes",), list[str], [],
         "CodiEsp (-R codiesp, codiesp_x): a list of valid codes (first tab-separated field of "
         "each line); predicted codes not in it are ignored. Repeatable: the lists are joined.", "FILE"),
    Flag("order", ("--order",), str | None, None,
         "What ranks each topic's documents: score (default, trec_eval's rule), rank (the rank "
         "column, ascending; the default of -T biocreative_*) or file (the line order); ties fall "
         "to the docno order.", "ORDER"),
)

#: every shared flag by the evaluation option it sets
FLAGS: dict[str, Flag] = {f.field: f for f in _FLAGS}

#: where the runs are evaluated: the same three flags for every command that takes them
CLUSTER_FLAGS: dict[str, Flag] = {f.field: f for f in (
    Flag("engine", ("--engine",), str, "local",
         "local (this machine) or dask (a dask cluster: ranges of topics, or one task per run; "
         "see --workers, --scheduler).", "ENGINE"),
    Flag("workers", ("--workers",), int | None, None,
         "With --engine dask: start a cluster of N worker processes on this machine (default: one per core).", "N"),
    Flag("scheduler", ("--scheduler",), str | None, None,
         "With --engine dask: use the running dask cluster whose scheduler is at ADDRESS.", "ADDRESS"),
    Flag("cluster_timeout", ("--cluster-timeout",), int | None, None,
         "With --engine dask: give up (exit status 5) when the scheduler is lost, or no worker can run a "
         "task for this many seconds (default 60).", "SECONDS"),
)}


#: the bounds on reading untrusted submissions (batch, validate): ReadLimits' fields
READ_LIMIT_FLAGS: dict[str, Flag] = {f.field: f for f in (
    Flag("max_input", ("--max-input",), str | None, None,
         "Most bytes read from standard input or expanded from a compressed file or archive member "
         "(default 1G; e.g. 4G; 0: no limit).", "SIZE"),
    Flag("max_ratio", ("--max-ratio",), float | None, None,
         "Most bytes a compressed file, an archive member or an archive's members together may expand to "
         "per compressed byte, past 16 MiB (default 100; 0: no limit).", "N"),
    Flag("max_members", ("--max-members",), int | None, None,
         "Most entries in one archive; an archive with more is one failed row (default 10000; 0: no limit).",
         "N"),
    Flag("max_archive", ("--max-archive",), str | None, None,
         "Most bytes the members of one archive expand to together (default 4G; 0: no limit).", "SIZE"),
    Flag("max_class", ("--max-class",), str | None, None,
         "Most bytes the members of all the archives given expand to together (default 16G; 0: no limit).",
         "SIZE"),
    Flag("max_line", ("--max-line",), str | None, None,
         "Longest line of a file read in pieces; a longer one is an error naming it (default 1M; 0: no limit).",
         "SIZE"),
    Flag("max_seconds", ("--max-seconds",), float | None, None,
         "Most seconds grading one submission may take; a slower one is one failed row (default 120; "
         "0: no limit).", "SECONDS"),
)}
#: the bounds of reading alone (validate: it grades nothing)
READING = tuple(f for f in READ_LIMIT_FLAGS if f != "max_seconds")


def read_limit_flags(fields=None):
    """Add :data:`READ_LIMIT_FLAGS` (or those of ``fields``) to a typer command, which
    receives them as ``limits`` (keywords of
    :func:`~trec_eval_py.engine.parse.source.set_read_limits`)."""
    return command_flags(READ_LIMIT_FLAGS, fields, into="limits")


def cluster_flags(help: dict[str, str] | None = None):
    """Add :data:`CLUSTER_FLAGS` to a typer command, which receives them as ``cluster``
    (``{"engine": ..., "workers": ..., "scheduler": ..., "cluster_timeout": ...}``, for :func:`cluster_client`)."""
    return command_flags(CLUSTER_FLAGS, help=help, into="cluster")


def is_local(cluster: dict) -> bool:
    """Whether the cluster flags leave the work on this machine's engine (no dask)."""
    return cluster["engine"] == "local" and all(cluster[k] is None for k in ("workers", "scheduler", "cluster_timeout"))


def cluster_client(cluster: dict):
    """A context manager giving the dask client the cluster flags ask for, or None
    for the local engine (dask is then not imported)."""
    import contextlib

    if is_local(cluster):
        return contextlib.nullcontext()
    from ..tools.shared.cluster import client_for

    return client_for(cluster["engine"], cluster["workers"], cluster["scheduler"], cluster["cluster_timeout"])


def evaluation_flags(*fields: str, help: dict[str, str] | None = None):
    """Add the shared flags ``fields`` (keys of :data:`FLAGS`) to a typer command.

    The command must accept a keyword ``options``; it receives
    ``{field: value}`` for the flags given here, ready for ``evaluate(**options)``.
    ``help`` may override a flag's help text where a command gives it a
    narrower meaning (its spelling, type and default stay the shared ones).
    """
    unknown = [f for f in fields if f not in FLAGS]
    if unknown:
        raise KeyError(f"no shared flag sets {unknown}")
    return command_flags(FLAGS, fields, help=help, into="options")


def command_flags(table: dict[str, Flag], fields=None, *, help: dict[str, str] | None = None,
                  into: str = "options"):
    """Add the flags ``fields`` of ``table`` (all by default) to a typer command,
    which receives their values as one dict, the keyword ``into``."""
    fields = list(table) if fields is None else list(fields)
    help = help or {}

    def decorate(command):
        import inspect

        sig = inspect.signature(command)
        own = [p for p in sig.parameters.values() if p.name != into]
        added = [
            inspect.Parameter(f"flag_{name}", inspect.Parameter.KEYWORD_ONLY,
                              default=table[name].option(help.get(name)), annotation=table[name].annotation)
            for name in fields
        ]

        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            values = {name: kwargs.pop(f"flag_{name}") for name in fields}
            return command(*args, **{into: values}, **kwargs)

        # typer reads the signature and the annotations: both must list the added flags
        wrapper.__signature__ = sig.replace(parameters=own + added)
        wrapper.__annotations__ = {
            **{k: v for k, v in command.__annotations__.items() if k != into},
            **{f"flag_{name}": table[name].annotation for name in fields},
        }
        return wrapper

    return decorate


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def parse_plain(argv: list[str], tables: list[dict[str, Flag]], positional: int):
    """``(arguments, {field: value})`` of a plain command line, or None.

    Plain means: exactly ``positional`` arguments, and flags of ``tables``
    spelled ``-x``, ``-xVALUE``, ``-x VALUE``, ``--long VALUE`` or
    ``--long=VALUE``, each in its own argument, with values that do not start
    with '-' and, for numbers, are plain digits. Such a line means the same to
    typer (a test checks both parsers agree); anything else (clustered flags,
    '--', '-' for standard input, a misspelt flag, a missing value...) gives
    None, and typer then reads the line and words any error.
    """
    by_decl = {d: f for table in tables for f in table.values() for d in f.decls}
    values: dict[str, Any] = {f.field: list(f.default) if isinstance(f.default, list) else f.default
                              for table in tables for f in table.values()}
    args: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if not a.startswith("-"):
            args.append(a)
            continue
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            attached = bool(eq)
        else:
            name, value = a[:2], a[2:]
            attached = bool(value)
        f = by_decl.get(name)
        if f is None:
            return None
        if f.annotation is bool:
            if attached:
                return None
            values[f.field] = True
            continue
        if not attached:
            if i >= len(argv):
                return None
            value = argv[i]
            i += 1
        if value.startswith("-"):
            return None
        parsed: str | int = value
        if f.annotation in (int, int | None):
            if not _digits(value):
                return None
            parsed = int(value)
        elif f.annotation not in (str, str | None, list[str]):
            return None
        if isinstance(f.default, list):
            values[f.field].append(parsed)
        else:
            values[f.field] = parsed
    if len(args) != positional:
        return None
    return args, values
