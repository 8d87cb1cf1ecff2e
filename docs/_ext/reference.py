"""The reference pages, written from the code when the site is built.

A Sphinx extension: on ``builder-inited`` it writes ``reference/`` in the
source folder from the registries the program itself reads, so that a measure,
a format or a flag added to the code is on the site at the next build, with
the words ``-h`` prints:

* ``reference/measures/NAME.rst``: one page per measure of the registry
  (:func:`trec_eval_py.engine.measures.registry`): its help, its formula
  (:attr:`~trec_eval_py.engine.measures._base.Measure.formula`, in the
  notation of the measures' index, :data:`NOTATION`), its trec_eval and
  ir_measures names, its source (the ``Source:`` sentence of its module's
  docstring), its module's docstring (what it means, edge cases),
  parameters and outputs, nicknames, the trec_eval versions that have it and
  the judgment formats that can feed it;
* ``reference/formats.rst``: every judgment (``-R``) and results (``-T``)
  format of :mod:`trec_eval_py.engine.inputs`, with the help ``-h -R NAME``
  prints;
* ``reference/cli/COMMAND.rst``: the main command and every module of
  :mod:`trec_eval_py.cli.commands`: the ``-h`` text itself and a table of
  every parameter of its click command (``typer.main.get_command(app).params``);
* ``reference/api/*.rst``: autodoc pages of the public Python names.

``tests/test_docs_site.py`` checks that every registered measure, format and
flag has its page in the built site.
"""
from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
import textwrap
from pathlib import Path

# ---------------------------------------------------------------- helpers


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * max(len(text), 3)}\n"


def _literal(text: str) -> str:
    """``text`` as an RST literal block (kept as the terminal shows it)."""
    body = textwrap.indent(text.rstrip("\n"), "   ", lambda line: True)
    return "::\n\n" + body + "\n"


def _code(text: str) -> str:
    """``text`` as RST inline code, whatever characters it holds."""
    return f":code:`{text.replace(chr(92), chr(92) * 2).replace('`', chr(92) + '`')}`"


def _rst_text(text: str) -> str:
    """Plain text (a help string) as RST body text: markup characters escaped."""
    out = text
    for ch in "\\*`|_[@<":
        out = out.replace(ch, "\\" + ch)
    return out


def _prune(folder: Path, keep: set[str]) -> None:
    """Remove the pages of ``folder`` not written this time (a measure or command that is gone)."""
    for f in folder.glob("*.rst"):
        if f.name not in keep:
            f.unlink()


def _write(path: Path, text: str) -> None:
    # rewrite only what changed, so that Sphinx rebuilds only those pages
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def page_name(measure: str) -> str:
    """The file name (without suffix) of a measure's page."""
    return measure


# ---------------------------------------------------------------- measures

#: what the parameters after ``-m NAME.`` are, by the class that reads them
_PARAM_WORDS = {
    "NoParams": "none",
    "IntCutoffs": "cutoffs: whole numbers above 0, comma separated, one output each",
    "FloatCutoffs": "cutoffs: numbers, comma separated, one output each",
    "UtilityParams": "four coefficients p1,p2,p3,p4",
    "FloatParams": "numbers, comma separated; the output is named after the text typed",
    "PersistenceParam": "p=P, the persistence (a number from 0 to 1)",
    "RbpParams": "p=P (the persistence, from 0 to 1) and level=gain pairs",
    "PairParams": "name=value pairs, comma separated; the output is named after the text typed",
    "CutoffsAndGains": "cutoffs (whole numbers above 0) and level=gain pairs; one output per cutoff",
    "CutoffsAndValues": "cutoffs (whole numbers above 0, where the measure has them) and name=number settings",
    "CwlParams": "name=value pairs and the outputs wanted (EU, ETU, EC, ETC, ED or all)",
    "PositiveFloats": "positive numbers, comma separated, one output each",
    "UnitFloats": "numbers in ]0, 1], comma separated, one output each",
}


def _param_words(spec) -> str:
    for cls in type(spec).__mro__:
        if cls.__name__ in _PARAM_WORDS:
            return _PARAM_WORDS[cls.__name__]
    # a shape not listed yet: the first sentence of its class's docstring
    doc = " ".join((inspect.getdoc(type(spec)) or type(spec).__name__).split())
    return doc.split(". ")[0].rstrip(".")


def _since_words(since: str) -> str:
    from trec_eval_py.engine.measures._base import VERSIONS

    if since not in VERSIONS:
        return "none: a measure trec_eval does not have (nickname ``extra``)"
    later = VERSIONS[VERSIONS.index(since):]
    words = " and ".join(later)
    if since != VERSIONS[0]:
        words += f" (asked for by name, it is computed in {VERSIONS[0]} mode too)"
    return words


def _nickname_words(m) -> str:
    from trec_eval_py.engine.measures._base import VERSIONS

    out = []
    for nick in sorted(m.nicknames):
        modes = [v for v in VERSIONS if m.in_nickname(nick, v)]
        out.append(f"``{nick}``" + ("" if len(modes) == len(VERSIONS) else " (with ``--compat " + ", ".join(modes) + "``)"))
    return ", ".join(out) or "none"


def _ir_samples() -> dict[str, list[str]]:
    """``{trec_eval measure: [ir_measures names that reach it]}``, found by
    translating each ir_measures name with and without a cutoff and each of
    its parameters (:func:`trec_eval_py.engine.measures._names.translate`)."""
    from trec_eval_py.engine.measures import _names
    from trec_eval_py.errors import MeasureError

    values = {"rel": "2", "judged_only": "True", "relative": "True", "beta": "0.5", "p": "0.8",
              "gains": "{0:0,1:1,2:3}", "dcg": "'log2'", "T": "3", "min_rel": "0", "max_rel": "2",
              "alpha": "0.5"}
    found: dict[str, list[str]] = {}
    for alias in _names.ALIASES.values():
        cuts = [""] if alias.trec is not None else []
        if alias.at is not None:
            cuts.append("@0.5" if alias.at == "float" else "@10")
        for cut in cuts:
            # a parameter without a sample value here is left out (the bare name still maps)
            args = [""] + [f"({k}={values[k]})" for k in (*alias.options, *alias.params) if k in values]
            for arg in args:
                spec = f"{alias.name}{arg}{cut}"
                try:
                    req = _names.translate(spec)
                except MeasureError:
                    continue
                name = req.spec.partition(".")[0]
                names = found.setdefault(name, [])
                if spec not in names:
                    names.append(spec)
    return found


def _feeding_formats(m) -> str:
    from trec_eval_py.engine.inputs import judgment_formats

    if m.rel_formats is None:
        return "any"
    names = sorted(f.name for f in judgment_formats().values() if f.measures_for in m.rel_formats)
    return ", ".join(f"``-R {n}``" for n in names)


_AGG_WORDS = {
    "MEAN": "the mean over topics",
    "GMEAN": "the geometric mean over topics (values floored at 0.00001)",
    "GMEAN_LOGS": "the geometric mean of values that are logs",
    "SUM": "the total over topics",
    "NUM_Q": "the number of topics",
    "RUNID": "the run id",
    "NONE": "none (no summary line)",
}


#: the symbols of the measures' formulas, shown on the measures' index: ``(symbol, meaning)``,
#: the symbol in LaTeX
NOTATION = [
    (r"Q", "the topics averaged over (those with judgments and results; with ``-c``, every judged topic)"),
    (r"d_1, \ldots, d_n", "the documents retrieved for the topic, in rank order, after ``-M`` and ``-J`` "
                         "(:math:`n` is ``num_ret``; :math:`n_q` for topic :math:`q`)"),
    (r"\ell_i", "the judged level of :math:`d_i`; a negative level means pooled but not judged"),
    (r"l", "the relevance level, ``-l`` (default 1)"),
    (r"\mathrm{rel}_i", "1 if :math:`d_i` is relevant (:math:`\\ell_i \\ge l`), else 0; "
                       "unjudged documents are not relevant"),
    (r"\mathrm{rel}(k)", "the relevant documents among the first :math:`k`: "
                        ":math:`\\sum_{i \\le \\min(k, n)} \\mathrm{rel}_i` "
                        "(ranks past the end of a short ranking count as non-relevant)"),
    (r"R", "the topic's relevant documents in the judgments (``num_rel``), retrieved or not"),
    (r"N", "the topic's judged non-relevant documents (``bpref``); for the early-retrieval areas, "
           "the length of the full list (see ``-N``)"),
    (r"r_{<i},\ \bar r_{<i},\ p_{<i}", "the judged relevant, judged non-relevant and pooled "
                                       "(in the judgments) documents ranked above rank :math:`i`"),
    (r"\rho_t", "the rank of the :math:`t`-th relevant document retrieved"),
    (r"g_i,\ g^*_i", "the gain of :math:`d_i` (its level unless ``level=gain`` parameters say "
                     "otherwise), and the gains of the ideal ranking: the judged documents' positive "
                     "gains, highest first"),
    (r"R^+", "the length of the ideal ranking (documents with a positive gain)"),
    (r"J,\ {}^{(j)}", "the topic's judgment groups (``-R qrels_jg``, ``-R qrels_prefs``) and what is "
                     "counted against group :math:`j` alone"),
    (r"\Pi_j,\ \phi(a, b)", "the preferences ':math:`a` over :math:`b`' of group :math:`j`; "
                             "1 if the ranking fulfils one, else 0"),
    (r"A,\ \mathcal{R}_s", "the topic's subtopics with a relevant document (``-R qrels_diversity``), "
                           "and the documents relevant to subtopic :math:`s`"),
    (r"P,\ N_{\mathrm{neg}}", "early-retrieval areas: the relevant documents (positives) and the "
                              "negatives of the full list"),
    (r"r_t,\ \nu_t", "the rank of the :math:`t`-th positive in the full list, and its false-positive "
                     "rate (the share of negatives ranked above it)"),
    (r"D,\ W(i),\ C(i)", "C/W/L measures: the depth (``depth=``), the weight of rank :math:`i` "
                         "and the probability of going on from it"),
    (r"[\,\cdot\,]", "1 if the condition holds, else 0"),
]


def _math(tex: str) -> str:
    """A display formula as an RST ``math`` directive."""
    return ".. math::\n\n" + textwrap.indent(tex.strip(), "   ") + "\n"


def source_words(doc: str) -> str:
    """The ``Source:`` (or ``Sources:``) sentences of a measure module's docstring:
    from that word to the end of its paragraph, whitespace collapsed; "" when there are none."""
    for para in re.split(r"\n\s*\n", doc):
        m = re.search(r"\bSources?:\s", para)
        if m:
            return " ".join(para[m.end():].split())
    return ""


def measure_page(m, module: str, ir_names: list[str], first_of_module: bool) -> str:
    """The reStructuredText page of measure ``m`` defined in ``module``."""
    mod = importlib.import_module(module)
    params = m.params.parse(m.name, None)
    outputs = m.output_names(params)
    path = module.replace(".", "/") + ".py"
    # an orphan: linked from the measures' index, not in the navigation tree (a tree of every
    # measure, drawn on every page, would make the build quadratic in the number of pages)
    lines = [":orphan:", "", f".. _measure-{m.name}:", "", _title(m.name)]
    # the module is declared once (several measures may share it), so that :mod: references resolve
    lines += [f".. py:module:: {module}" if first_of_module else f".. py:currentmodule:: {module}", ""]
    lines += [_rst_text(m.help), ""]
    # the formula, in the notation of the measures' index
    lines += [_math(m.formula), "Notation: :ref:`measure-notation`.", ""]
    doc = inspect.getdoc(mod) or ""
    source = source_words(doc)
    trec_name = f"``{m.name}`` (``trec_eval -m {m.name}``)" if m.since in _versions() else "none: not in trec_eval"
    fields = [
        ("Asked for as", f"``-m {m.name}``" + ("" if type(m.params).__name__ == "NoParams" else f", ``-m {m.name}.PARAMS``")),
        ("Parameters", _rst_text(_param_words(m.params))),
        ("Outputs", ", ".join(_code(o) for o in outputs) + (" (default parameters)" if type(m.params).__name__ != "NoParams" else "")),
        ("Value", {"FLOAT": "a number, printed with four decimals", "INT": "a whole number",
                   "STR": "text"}[m.kind.name] + ("" if m.per_topic else "; printed for the summary only")),
        ("Summary (``all``)", "computed by the measure itself from the topics' parts" if m.summary is not None
         else _AGG_WORDS[m.aggregate.name]),
        ("trec_eval versions", _since_words(m.since)),
        ("Nicknames", _nickname_words(m)),
        ("Judgment formats", _feeding_formats(m)),
        ("trec_eval name", trec_name),
        ("ir_measures names", ", ".join(_code(n) for n in ir_names) or "none"),
        ("Source", source or "this package (no other implementation)"),
        ("Defined in", f"``{path}``"),
    ]
    lines += [f":{k}: {v}" for k, v in fields]
    lines.append("")
    if doc:
        lines += [_title("Definition", "-"), doc, ""]
    return "\n".join(lines)


def _versions():
    from trec_eval_py.engine.measures._base import VERSIONS

    return VERSIONS


def notation_section() -> list[str]:
    """The measures' index's table of the symbols the formulas use."""
    lines = [".. _measure-notation:", "", _title("Notation", "-"),
             "Each measure's page gives its definition as a formula, for one topic unless it says",
             "otherwise (the summary line ``all`` is then the mean over the topics, or what the",
             "page's *Summary* says). The symbols:", "",
             ".. list-table::", "   :header-rows: 1", "   :widths: 25 75", "",
             "   * - symbol", "     - meaning"]
    for symbol, meaning in NOTATION:
        lines += [f"   * - :math:`{symbol}`", f"     - {meaning}"]
    lines += ["", "A value divided by zero is 0 unless the formula says otherwise.", ""]
    return lines


def write_measures(out: Path) -> list[str]:
    from trec_eval_py.engine.measures import registry
    from trec_eval_py.engine.measures._index import INDEX

    reg = registry()
    ir = _ir_samples()
    seen_modules: set[str] = set()
    names = []
    rows = []
    package = "trec_eval_py.engine.measures"
    for m in reg:
        module = f"{package}.{INDEX[m.name][0]}"
        _write(out / "measures" / f"{page_name(m.name)}.rst",
               measure_page(m, module, ir.get(m.name, []), module not in seen_modules))
        seen_modules.add(module)
        names.append(m.name)
        first = m.help.split(". ")[0].split(": ")[0].rstrip(".")
        rows.append((m.name, first, m.since))
    index = [_title("Measures"),
             "Every measure the program computes, in the order trec_eval prints them (its own measures",
             "first, then the ones it lacks, by name). ``trec_eval_py -h -m NAME`` prints the first",
             "paragraph of a page; ``-m`` takes a name, a nickname or an ir_measures name.", "",
             ".. list-table::", "   :header-rows: 1", "   :widths: 25 60 15", "",
             "   * - measure", "     - what it is", "     - since"]
    for name, first, since in rows:
        index += [f"   * - :ref:`{name} <measure-{name}>`", f"     - {_rst_text(first)}", f"     - {since}"]
    index.append("")
    index += notation_section()
    _write(out / "measures" / "index.rst", "\n".join(index))
    _prune(out / "measures", {"index.rst"} | {f"{page_name(n)}.rst" for n in names})
    return names


# ---------------------------------------------------------------- formats


def format_anchor(kind: str, name: str) -> str:
    """The HTML id of a format's section (``kind``: ``R`` or ``T``)."""
    return f"format-{kind.lower()}-{name.replace('_', '-')}"


def write_formats(out: Path) -> None:
    from trec_eval_py.engine.inputs import judgment_formats, results_formats

    lines = [_title("Input formats"),
             "The judgment formats (``-R NAME``) and results formats (``-T NAME``) the program reads,",
             "each with the text ``trec_eval_py -h -R NAME`` (or ``-h -T NAME``) prints.", ""]
    for kind, title, table, default in (("R", "Judgment formats (-R)", judgment_formats(), "qrels"),
                                        ("T", "Results formats (-T)", results_formats(), "trec_results")):
        lines += [_title(title, "-")]
        for name in [default] + sorted(set(table) - {default}):
            f = table[name]
            lines += [f".. _{format_anchor(kind, name)}:", "", _title(f"-{kind} {name}", "~")]
            facts = []
            if kind == "R":
                if f.feeds:
                    facts.append(f"Its judgments feed the measures of ``-R {f.feeds}``.")
                if f.options:
                    facts.append("Options: " + ", ".join(f"``{o}``" for o in sorted(f.options)) + ".")
                if f.complete:
                    facts.append("Every judged topic is averaged over, as with ``-c``.")
                if f.dicts:
                    facts.append("In Python, judgments may be a dict ``{topic: {docno: level}}``.")
            else:
                if f.requires:
                    facts.append(f"Only with ``-R {f.requires}``.")
                if f.order:
                    facts.append(f"Ranked by ``--order {f.order}`` unless ``--order`` is given.")
            lines += [" ".join(facts), ""] if facts else []
            lines += [_literal(f.help), ""]
    _write(out / "formats.rst", "\n".join(lines))


# ---------------------------------------------------------------- command line


def command_names() -> list[str]:
    """``trec_eval_py`` (the main command) and every subcommand."""
    from trec_eval_py.cli import commands

    return ["trec_eval_py"] + commands.names()


def click_command(name: str):
    import typer.main

    from trec_eval_py import cli
    from trec_eval_py.cli import commands

    app = cli.app if name == "trec_eval_py" else commands.load(name)
    return typer.main.get_command(app)


def help_output(name: str) -> str:
    """What ``trec_eval_py -h`` or ``trec_eval_py NAME -h`` prints (80 columns).

    Run as a user runs it, in a process of its own, with a fixed string hash seed: click
    keeps a command's help spellings in a set, so with three of them (``-h``, ``--help``,
    ``-help``) their order changes from one run to the next."""
    import subprocess
    import sys

    argv = ["-h"] if name == "trec_eval_py" else [name, "-h"]
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "COLUMNS": "80", "PYTHONHASHSEED": "0",
           "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    for k in ("TERMINAL_WIDTH", "FORCE_COLOR"):
        env.pop(k, None)
    proc = subprocess.run([sys.executable, "-m", "trec_eval_py", *argv], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=120, check=True)
    return proc.stdout


def param_rows(command) -> list[tuple[str, str, str, str]]:
    """``(spelling, value, default, help)`` of every parameter of a click command."""
    rows = []
    for p in command.params:
        if p.param_type_name == "argument":
            spelling = p.metavar or p.name.upper()
            value = ""
        else:
            spelling = ", ".join([*p.opts, *p.secondary_opts])
            value = "" if p.is_flag else (p.metavar or p.type.name.upper())
        default = p.default
        if p.param_type_name == "argument" and p.required:
            default_text = "required"
        elif default is None or default == [] or default == () or (getattr(p, "is_flag", False) and default is False):
            default_text = ""
        elif isinstance(default, (list, tuple)):
            default_text = " ".join(str(d) for d in default)
        else:
            default_text = str(default)
        rows.append((spelling, value, default_text, p.help or ""))
    return rows


def command_anchor(command: str) -> str:
    return "command-" + command.replace("_", "-")


def write_commands(out: Path) -> None:
    from trec_eval_py.cli.help import subcommand_summaries

    what = dict(subcommand_summaries())
    names = command_names()
    index = [_title("Command line"),
             "The main command evaluates a run as trec_eval does; the subcommands compare, grade and",
             "check runs. Each page shows what ``-h`` prints, then every flag with its default.", "",
             ".. list-table::", "   :header-rows: 1", "   :widths: 20 80", "", "   * - command", "     - what it does"]
    for name in names:
        doc = "evaluate a run against judgments, as trec_eval does" if name == "trec_eval_py" else what[name]
        index += [f"   * - :doc:`{name}`", f"     - {_rst_text(doc)}"]
    index += ["", ".. toctree::", "   :hidden:", ""] + [f"   {n}" for n in names] + [""]
    _write(out / "cli" / "index.rst", "\n".join(index))
    for name in names:
        command = click_command(name)
        full = name if name == "trec_eval_py" else f"trec_eval_py {name}"
        lines = [f".. _{command_anchor(name)}:", "", _title(full)]
        lines += [f"``{full} -h`` prints:", "", _literal(help_output(name)), ""]
        lines += [_title("Flags and arguments", "-"), ".. list-table::", "   :header-rows: 1",
                  "   :widths: 25 12 13 50", "", "   * - flag", "     - value", "     - default", "     - meaning"]
        for spelling, value, default, help_ in param_rows(command):
            lines += [f"   * - {_code(spelling)}", f"     - {_code(value) if value else ''}",
                      f"     - {_code(default) if default else ''}", f"     - {_rst_text(help_) if help_ else ''}"]
        lines.append("")
        _write(out / "cli" / f"{name}.rst", "\n".join(lines))
    _prune(out / "cli", {"index.rst"} | {f"{n}.rst" for n in names})


# ---------------------------------------------------------------- Python API


def tools_modules() -> list[str]:
    import trec_eval_py.tools as tools

    # the modules of every family (tools/grading/, tools/compare/...) and the packages in
    # them (tools/grading/validate/), not the families themselves nor private modules
    return sorted(i.name for i in pkgutil.walk_packages(tools.__path__, "trec_eval_py.tools.")
                  if (not i.ispkg or i.name.count(".") > 2)
                  and not any(p.startswith("_") for p in i.name.split(".")))


def public_names(module: str) -> list[str]:
    """The module's ``__all__``, or the functions and classes it defines whose names
    do not start with ``_``."""
    mod = importlib.import_module(module)
    if hasattr(mod, "__all__"):
        return list(mod.__all__)
    return sorted(n for n, v in vars(mod).items()
                  if not n.startswith("_") and callable(v) and getattr(v, "__module__", None) == module)


def write_api(out: Path) -> None:
    import trec_eval_py

    core = [n for n in trec_eval_py.__all__ if n != "__version__"]
    lines = [_title("trec_eval_py"),
             "The package's own names: ``from trec_eval_py import evaluate``.", "",
             ".. py:module:: trec_eval_py", ""]
    for n in core:
        obj = getattr(trec_eval_py, n)
        directive = "autoclass" if inspect.isclass(obj) else "autofunction"
        lines += [f".. {directive}:: trec_eval_py.{n}", ""]
    _write(out / "api" / "trec_eval_py.rst", "\n".join(lines))
    pages = ["trec_eval_py", "trec_eval_py.engine.measures", "trec_eval_py.compat.pytrec_eval"]
    # the measures as values: what each measure module declares, and the registry that finds them
    _write(out / "api" / "trec_eval_py.engine.measures.rst", "\n".join([
        _title("trec_eval_py.engine.measures"),
        "The measures as Python values (each measure's own page: :doc:`../measures/index`).", "",
        ".. autofunction:: trec_eval_py.engine.measures.registry", "",
        ".. autoclass:: trec_eval_py.engine.measures.Measure",
        "   :members: output_names, needs_scores, compute, in_nickname", ""]))
    _write(out / "api" / "trec_eval_py.compat.pytrec_eval.rst", "\n".join([
        _title("trec_eval_py.compat.pytrec_eval"),
        ".. automodule:: trec_eval_py.compat.pytrec_eval", "   :members:", ""]))
    for module in tools_modules():
        pages.append(module)
        body = [_title(module), f".. automodule:: {module}", "", f"   .. currentmodule:: {module}", ""]
        for n in public_names(module):
            obj = getattr(importlib.import_module(module), n)
            if inspect.isclass(obj):
                body += [f"   .. autoclass:: {n}", "      :members:", ""]
            elif callable(obj):
                body += [f"   .. autofunction:: {n}", ""]
            else:
                body += [f"   .. autodata:: {n}", "      :no-value:", ""]
        _write(out / "api" / f"{module}.rst", "\n".join(body))
    _prune(out / "api", {"index.rst"} | {f"{p}.rst" for p in pages})
    index = [_title("Python API"),
             "Generated from the docstrings. ``trec_eval_py`` holds the evaluation itself; the",
             "``tools`` modules are what the subcommands run, callable from Python.", "",
             ".. toctree::", ""] + [f"   {p}" for p in pages] + [""]
    _write(out / "api" / "index.rst", "\n".join(index))


# ---------------------------------------------------------------- Sphinx


def generate(srcdir: str | os.PathLike) -> None:
    """Write every reference page under ``srcdir/reference``."""
    out = Path(srcdir) / "reference"
    write_measures(out)
    write_formats(out)
    write_commands(out)
    write_api(out)


def _on_builder_inited(app) -> None:
    generate(app.srcdir)


def _skip_foreign(app, what, name, obj, skip, options):
    """Members a class gets from another package (matplotlib writes a ``set`` method into
    every subclass of its figures) are that package's to document."""
    module = getattr(obj, "__module__", None)
    if isinstance(module, str) and not module.startswith("trec_eval_py"):
        return True
    return None


def setup(app):
    app.connect("builder-inited", _on_builder_inited)
    app.connect("autodoc-skip-member", _skip_foreign)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
