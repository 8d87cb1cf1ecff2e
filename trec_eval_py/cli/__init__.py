"""Command-line interface: flags to :class:`~trec_eval_py.engine.pipeline.Options`,
errors to one line on stderr and an exit code. No evaluation logic here."""
from __future__ import annotations

import sys
from typing import Optional

import click
import typer

from .. import __version__
from ..errors import OutputError, TrecEvalError
from .flags import evaluation_flags
from .help import help_text

# Newer typer releases carry their own copy of click; catch both families.
_CLI_ERRORS = tuple({click.ClickException, getattr(typer, "TyperException", click.ClickException)})
_ABORTS = tuple({click.exceptions.Abort, typer.Abort})

CONTEXT = {"help_option_names": [], "ignore_unknown_options": False, "allow_interspersed_args": True}

app = typer.Typer(add_completion=False, context_settings=CONTEXT)


from .output import PipeClosed, silence_stdout, write_output as _write  # noqa: E402


@app.command()
@evaluation_flags("measures", "complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only",
                  "rel_format", "results_format", "zscore_file", "compat", "order", "valid_codes")
def evaluate_cmd(
    rel_info_file: Optional[str] = typer.Argument(None, metavar="QRELS"),
    results_file: Optional[str] = typer.Argument(None, metavar="RUN"),
    help_: bool = typer.Option(False, "-h", "--help", help="Full help, with the requested measures' descriptions."),
    version: bool = typer.Option(False, "-v", "--version", help="Print the version and exit."),
    query: bool = typer.Option(False, "-q", "--query_eval_wanted", help="Also print each topic's values."),
    nosummary: bool = typer.Option(False, "-n", "--nosummary", help="Do not print the summary ('all') lines."),
    debug: Optional[str] = typer.Option(None, "-D", "--Debug_level", help="Accepted for compatibility; ignored."),
    old_format: bool = typer.Option(False, "-o", help="trec_eval's obsolete output flag; accepted and ignored."),
    old_format_long: Optional[str] = typer.Option(None, "--Output_old_results_format", help="trec_eval's obsolete output flag; accepted and ignored."),
    output_format: str = typer.Option("trec", "--format", help="Output: trec (trec_eval's text), json, or csv (runid,topic,measure,value)."),
    *,
    options: dict,
) -> None:
    """Evaluate a TREC run against relevance judgments, printing what trec_eval prints."""
    from ..engine.pipeline import evaluate

    if version:
        _write(f"trec_eval_py {__version__} (reproduces trec_eval 9.0.8 and 10.0)\n")
        return
    if help_:
        _write([help_text(options["measures"], options["rel_format"], options["compat"], options["results_format"])])
        return
    if rel_info_file is None or results_file is None:
        raise TrecEvalError("need two files: QRELS RUN (see -h)")
    from ..engine.format import check_output_format, render_evaluation

    check_output_format(output_format)
    from .progress import Progress

    # big runs are measured piece by piece: a bar on a terminal's stderr, erased before output
    with Progress(desc="topics measured", unit="topics") as bar:
        result = evaluate(rel_info_file, results_file, progress=bar.update,
                          **{**options, "measures": options["measures"] or ["official"]})
    _write(render_evaluation(result, output_format, query=query, summary=not nosummary))


def _fail(message: str, code: int) -> None:
    sys.stderr.write(f"trec_eval_py: {message}\n")
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``trec_eval_py`` command."""
    from . import commands

    argv = list(sys.argv[1:] if argv is None else argv)
    target, prog = app, "trec_eval_py"
    if argv and argv[0] in commands.names():
        target, prog = commands.load(argv[0]), f"trec_eval_py {argv[0]}"
        argv = argv[1:]
    try:
        result = target(args=argv, prog_name=prog, standalone_mode=False)
        if isinstance(result, int) and result:
            sys.exit(result)
    except PipeClosed:
        silence_stdout()
        sys.exit(0)
    except TrecEvalError as e:
        if isinstance(e, OutputError):
            silence_stdout()
        _fail(str(e), e.exit_code)
    except _ABORTS:
        _fail("aborted", 1)
    except _CLI_ERRORS as e:
        message = e.format_message() if hasattr(e, "format_message") else str(e)
        _fail(" ".join(message.split()), 1)
    except BrokenPipeError:  # a write outside the output helper
        silence_stdout()
        sys.exit(0)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
