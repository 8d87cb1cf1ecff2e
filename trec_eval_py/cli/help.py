"""The text of ``-h``: usage, flags, and the requested measures explained."""
from __future__ import annotations

import textwrap

from .._versions import DEFAULT_COMPAT

USAGE = """\
Usage: trec_eval_py [options] QRELS RUN
       trec_eval_py -h [-m MEASURE ...] [-R FORMAT]
       trec_eval_py COMMAND [options] ...   (compare, batch, diff...: see
                                             Subcommands below)

Evaluates the ranked results in RUN against the relevance judgments in QRELS
and prints one line per measure: name, topic ('all' for the summary), value.
RUN may be '-' to read standard input. Files may be gzip, bzip2 or xz
compressed.

Options (trec_eval's own, with its long spellings):
  -q, --query_eval_wanted        also print every topic's values
  -m, --measure NAME[.PARAMS]    measure or nickname to compute; repeatable.
                                 Parameters follow a '.', comma separated:
                                 P.5,10  ndcg_cut.10  utility.2,-1,0,0
                                 ndcg.1=3,2=9.  Nicknames: official (the
                                 default), all_trec, set, and others below.
                                 ir_measures names too: nDCG@10,
                                 P(rel=2)@5, RBP(p=0.8). A bad parameter
                                 is an error naming the text and what the
                                 measure takes.
  -c, --complete_rel_info_wanted average over every topic of QRELS; a topic
      --all                      without results counts as an empty ranking
  -l, --level_for_rel N          lowest judgment level that counts as
                                 relevant (default 1)
  -n, --nosummary                leave out the summary ('all') lines
  -N, --Number_docs_in_coll N    size of the collection (for set measures)
  -M, --Max_retrieved_per_topic N  only the top N documents of a topic count
  -J, --Judged_docs_only         drop unjudged documents from every ranking
                                 first (numbers are then not comparable with
                                 ordinary ones)
{format_flags}  -Z, --Zscore FILE              print z-scores: FILE has lines
                                 'topic measure mean stddev'
  -D, --Debug_level N            accepted and ignored
  -v, --version                  print the version
  -h, --help                     this text, plus a description of every
                                 measure named with -m
  --compat 9.0.8|10.0            trec_eval version to reproduce (default
                                 9.0.8)
  --order score|rank|file        what ranks a topic's documents: score
                                 (default, as trec_eval), rank (the rank
                                 column, ascending; BioCreative) or file (the
                                 line order; CodiEsp)
  --format trec|json|csv         output: trec_eval's text (default), JSON
                                 ({"runid", "per_topic", "summary"}) or long
                                 CSV (runid,topic,measure,value)
  --valid-codes FILE             CodiEsp (-R codiesp, codiesp_x): predicted
                                 codes not listed in FILE are ignored
{cluster_flags}
Ranking: documents are ordered by score, highest first; equal scores are
ordered by docno, in descending byte order. The rank column is ignored
(unless --order rank; equal ranks then fall to the same docno order).
Topics are reported in byte order of their ids. A document missing from
QRELS is not relevant. Topics with judgments but no results are skipped
unless -c is given.
"""


#: column where the flags' descriptions start, and the width they wrap to
_DESC_COLUMN = 33
_WIDTH = 77


def _flag_text(spelling: str, text: str) -> str:
    """A flag's lines in the usage text: its spelling, then ``text`` wrapped in the description column."""
    head = f"  {spelling}".ljust(_DESC_COLUMN)
    return textwrap.fill(text, _WIDTH, initial_indent=head, subsequent_indent=" " * _DESC_COLUMN) + "\n"


def format_flags_text() -> str:
    """The ``-R`` and ``-T`` lines of the usage text, naming every registered format
    (formats are registered in :mod:`trec_eval_py.engine.inputs`: a new one shows up here)."""
    from ..engine.inputs import judgment_formats, results_formats

    def names(table: dict, default: str) -> str:
        return ", ".join(f"{n} (default)" if n == default else n
                         for n in [default] + sorted(set(table) - {default}))

    return (_flag_text("-R, --Rel_info_format FORMAT",
                       f"judgments format: {names(judgment_formats(), 'qrels')} (see -h -R FORMAT)")
            + _flag_text("-T, --Results_format FORMAT",
                         f"results format: {names(results_formats(), 'trec_results')}"))


def cluster_flags_text() -> str:
    """The ``--engine``, ``--workers`` and ``--scheduler`` lines of the usage text,
    from the flags' own table (:data:`~.flags.CLUSTER_FLAGS`)."""
    from .flags import CLUSTER_FLAGS

    return "".join(_flag_text(f"{f.decls[0]} {f.metavar}", f.help) for f in CLUSTER_FLAGS.values())


def usage_text() -> str:
    """Usage and flags, with the formats the engine registers."""
    return USAGE.replace("{format_flags}", format_flags_text()).replace("{cluster_flags}", cluster_flags_text())


def subcommand_summaries() -> list[tuple[str, str]]:
    """``(name, what it does)`` for every subcommand, from the first line of its
    module's docstring (read without importing the module)."""
    import ast
    import importlib.util

    from . import commands

    out = []
    for name in commands.names():
        spec = importlib.util.find_spec(commands.module(name))
        doc = ""
        if spec is not None and spec.origin:
            with open(spec.origin, encoding="utf-8") as f:
                doc = ast.get_docstring(ast.parse(f.read())) or ""
        first = doc.strip().split("\n", 1)[0]
        # "``trec_eval_py compare``: is a run better..." -> "is a run better..."
        if first.startswith("``") and ": " in first:
            first = first.split(": ", 1)[1]
        out.append((name, first.replace("``", "").rstrip(".")))
    return out


def subcommands_text() -> str:
    lines = ["\nSubcommands (trec_eval_py COMMAND -h for each one's options):\n"]
    for name, what in subcommand_summaries():
        wrapped = textwrap.wrap(what, 64) or [""]
        lines.append(f"  {name:<10}{wrapped[0]}\n")
        lines += [f"  {'':<10}{w}\n" for w in wrapped[1:]]
    return "".join(lines)


def exit_codes_text() -> str:
    """The exit status table (:data:`~trec_eval_py.errors.EXIT_CODES`) for the main help."""
    from ..errors import EXIT_CODES

    lines = ["\nExit status (every command):\n"]
    for code, name, meaning in EXIT_CODES:
        head = f"  {int(code):<5}{name:<12}"
        lines.append(textwrap.fill(meaning, _WIDTH, initial_indent=head, subsequent_indent=" " * len(head)) + "\n")
    return "".join(lines)


#: the codes every command can end with, besides its own results
_ALWAYS = (0, 1, 2)
_LAST = (70, 130, 143)


def exit_codes_epilog(*codes) -> str:
    """A subcommand's help epilog: the exit statuses it can end with (0, 1, 2,
    ``codes``, 70, 130, 143), each with its meaning from the one table. Paragraphs,
    as typer's help joins the lines of one; brackets escaped from its markup."""
    from ..errors import EXIT_CODES

    wanted = {*_ALWAYS, *(int(c) for c in codes), *_LAST}
    lines = ["Exit status (the same table for every command: trec_eval_py -h):"]
    lines += [f"{int(code)} {name}: {meaning}" for code, name, meaning in EXIT_CODES if int(code) in wanted]
    return "\n\n".join(x.replace("[", "\\[") for x in lines)


def help_text(measure_specs: list[str], rel_format: str = "qrels", compat: str = DEFAULT_COMPAT,
              results_format: str = "trec_results") -> str:
    from ..engine.inputs import judgment_format
    from ..engine.inputs import results_format as results_fmt
    from ..engine.measures import registry
    from ..errors import MeasureError

    fmt = judgment_format(rel_format)
    res = results_fmt(results_format)
    reg = registry()
    parts = [usage_text(), subcommands_text(), exit_codes_text(),
             "\nNicknames: " + ", ".join(sorted(reg.nicknames)) + "\n"]
    parts.append("\n" + fmt.help)
    if results_format != "trec_results":  # -h -T NAME: that format's layout too
        parts.append("\n" + res.help)
    if not measure_specs:
        parts.append("\nName measures with -m to see what they mean, e.g. trec_eval_py -h -m all_trec\n")
        return "".join(parts)
    try:
        selected = reg.resolve(measure_specs, compat)
    except MeasureError as e:
        raise e
    parts.append("\nMeasures:\n")
    for s in selected:
        m = s.measure
        parts.append(f"\n{m.name}\n")
        parts.append(textwrap.indent(textwrap.fill(m.help, 74), "    ") + "\n")
    return "".join(parts)
