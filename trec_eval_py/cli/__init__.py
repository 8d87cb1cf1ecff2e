"""Command-line interface: flags to :class:`~trec_eval_py.engine.pipeline.Options`,
errors to one line on stderr and an exit code. No evaluation logic here."""
from __future__ import annotations

import gc
import os
import sys
import warnings

from .. import __version__
from ..errors import ExitCode, InputWarning, OutputError, TrecEvalError, UsageError
from .flags import CLUSTER_FLAGS, FLAGS, Flag, cluster_client, command_flags, evaluation_flags, is_local, parse_plain
from .output import PipeClosed, silence_stdout
from .output import write_output as _write

CONTEXT = {"help_option_names": [], "ignore_unknown_options": False, "allow_interspersed_args": True}

#: the shared evaluation flags the main command takes
EVALUATION = ("measures", "complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only",
              "rel_format", "results_format", "zscore_file", "compat", "order", "valid_codes")

#: the main command's own flags
MAIN_FLAGS: dict[str, Flag] = {**{f.field: f for f in (
    Flag("help_", ("-h", "--help"), bool, False, "Full help, with the requested measures' descriptions."),
    Flag("version", ("-v", "--version"), bool, False, "Print the version and exit."),
    Flag("query", ("-q", "--query_eval_wanted"), bool, False, "Also print each topic's values."),
    Flag("nosummary", ("-n", "--nosummary"), bool, False, "Do not print the summary ('all') lines."),
    Flag("debug", ("-D", "--Debug_level"), str | None, None, "Accepted for compatibility; ignored."),
    Flag("old_format", ("-o",), bool, False, "trec_eval's obsolete output flag; accepted and ignored."),
    Flag("old_format_long", ("--Output_old_results_format",), str | None, None,
         "trec_eval's obsolete output flag; accepted and ignored."),
    Flag("output_format", ("--format",), str, "trec",
         "Output: trec (trec_eval's text), json, csv (runid,topic,measure,value), or parquet "
         "(the csv's table; needs pyarrow)."),
)}, **CLUSTER_FLAGS}


def _c_extensions_line() -> str:
    """Which C extensions run (a build without a C compiler has none: the numpy code
    gives the same results, slower), for ``--version``."""
    from .. import _native

    used = _native.in_use()
    on = [name for name, yes in used.items() if yes]
    if not _native.USE_C:
        return "C extensions: off (TREC_EVAL_PY_NO_C); numpy code, same results, slower"
    if not on:
        return "C extensions: none built; numpy code, same results, slower"
    off = [name for name, yes in used.items() if not yes]
    return f"C extensions: {', '.join(on)}" + (f" (not built: {', '.join(off)})" if off else "")


def evaluate_run(rel_info_file: str | None, results_file: str | None, *, own: dict, options: dict) -> None:
    """Evaluate a TREC run against relevance judgments, printing what trec_eval prints."""
    if own["version"]:
        _write(f"trec_eval_py {__version__} (reproduces trec_eval 9.0.8 and 10.0)\n{_c_extensions_line()}\n")
        return
    if own["help_"]:
        from .help import help_text

        _write([help_text(options["measures"], options["rel_format"], options["compat"], options["results_format"])])
        return
    if rel_info_file is None or results_file is None:
        from ..errors import UsageError

        raise UsageError("need two files: QRELS RUN (see -h)")
    cluster_flags = {k: own[k] for k in CLUSTER_FLAGS}
    with _read_ahead(rel_info_file, results_file, options, is_local(cluster_flags)):
        from ..engine.pipeline import evaluate

        _start_collecting()
        _evaluate_and_print(evaluate, rel_info_file, results_file, cluster_flags, own, options)


def _read_ahead(rel_info_file: str, results_file: str, options: dict, local: bool):
    """The two files read and scanned on a second core while the engine (numpy) is
    imported (see :mod:`~trec_eval_py.engine.parse.readahead`), when they are
    evaluated here and the run is small enough to be read whole."""
    import contextlib

    if not local:
        return contextlib.nullcontext()
    from ..engine.join.policy import POLICY
    from ..engine.parse.layouts import layout_of
    from ..engine.parse.readahead import read_ahead

    files = [(rel_info_file, layout_of(options["rel_format"])),
             (results_file, layout_of(options["results_format"], rank_column=options["order"] == "rank"))]
    return read_ahead([(path, layout) for path, layout in files if path != "-" and layout is not None],
                      POLICY.stream_min())


def _evaluate_and_print(evaluate, rel_info_file: str, results_file: str, cluster_flags: dict, own: dict,
                        options: dict) -> None:
    from ..output.evaluation import check_output_format, render_evaluation

    check_output_format(own["output_format"])
    from .progress import Progress

    cluster = cluster_client(cluster_flags)
    # big runs are measured piece by piece: a bar on a terminal's stderr, erased before output
    with cluster as client, Progress(desc="topics measured", unit="topics") as bar:
        if client is not None:  # the files the workers read (-Z, --valid-codes), named wherever they run
            from ..tools.shared.cluster import located

            options = located(options)
        # without -q only the summary is printed: a big run is then summarised range by range
        result = evaluate(rel_info_file, results_file, progress=bar.update, per_topic=own["query"], client=client,
                          **{**options, "measures": options["measures"] or None})
    _write(render_evaluation(result, own["output_format"], query=own["query"],
                             summary=not own["nosummary"]))


def _build_app():
    """The typer application of the main command (built on first use: typer
    and click take a while to import, and a plain command line needs neither)."""
    import typer

    app = typer.Typer(add_completion=False, context_settings=CONTEXT)

    @app.command()
    @evaluation_flags(*EVALUATION)
    @command_flags(MAIN_FLAGS, into="own")
    def evaluate_cmd(
        rel_info_file: str | None = typer.Argument(None, metavar="QRELS"),
        results_file: str | None = typer.Argument(None, metavar="RUN"),
        *,
        own: dict,
        options: dict,
    ) -> None:
        """Evaluate a TREC run against relevance judgments, printing what trec_eval prints."""
        evaluate_run(rel_info_file, results_file, own=own, options=options)

    return app


def __getattr__(name):
    if name == "app":  # trec_eval_py.cli.app, the typer application, built on first use
        global app
        app = _build_app()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse_main(argv: list[str]):
    """``(arguments, own flags, evaluation options)`` of a plain main command line
    (see :func:`~.flags.parse_plain`), or None for typer to read."""
    parsed = parse_plain(argv, [MAIN_FLAGS, {k: FLAGS[k] for k in EVALUATION}], 2)
    if parsed is None:
        return None
    args, values = parsed
    return args, {k: values[k] for k in MAIN_FLAGS}, {k: values[k] for k in EVALUATION}


def _parser_errors() -> tuple[tuple, tuple]:
    """(click's usage errors, its aborts), both families of a typer that carries
    its own click; nothing when typer never ran."""
    if "click" not in sys.modules and "typer" not in sys.modules:
        return (), ()
    import click
    import typer

    return (tuple({click.ClickException, getattr(typer, "TyperException", click.ClickException)}),
            tuple({click.exceptions.Abort, typer.Abort}))


def _message(error: TrecEvalError, sub: str | None) -> str:
    """The error as the command line says it: a parameter the Python API names
    (``max_docs``) shown as the flag that sets it (``-M``)."""
    from ..errors import OptionError

    if not isinstance(error, OptionError):
        return str(error)
    return error.render(flag_names(sub))


def flag_names(sub: str | None = None) -> dict[str, str]:
    """``{parameter: flag}`` of the main command, or of subcommand ``sub``, from the
    flag tables (the first spelling of each, as ``-h`` lists it)."""
    names = {f.field: f.decls[0] for f in FLAGS.values()}
    if sub is None:
        return names
    import typer.main

    from . import commands

    command = typer.main.get_command(commands.load(sub))
    for p in getattr(command, "params", ()):
        opts = [o for o in getattr(p, "opts", ()) if o.startswith("-")]
        if p.name and opts:
            names[p.name] = opts[0]
    return names


def _say(message: str) -> None:
    from ..output.names import printable

    sys.stderr.write(f"trec_eval_py: {printable(message)}\n")  # a file name in it acts on no terminal


def _fail(message: str, code: int) -> None:
    _say(message)
    sys.exit(int(code))


class Stopped(BaseException):
    """A signal stops the command: it unwinds (temporary files and worker processes
    go) and exits 128 + the signal's number with one line. Not a KeyboardInterrupt,
    which click would turn into an 'Aborted!' of its own."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _on_signal(signum, frame) -> None:
    raise Stopped(signum)


def _signals():
    """The functions and numbers of :mod:`signal`, from the C module under it:
    importing ``signal`` itself builds its enums (``Signals``, ``Handlers``),
    about 0.8 ms of every command's start, for names that are plain numbers
    and functions here. A handler it returns is then a number (``0`` for
    ``SIG_DFL``), which both modules take back alike."""
    import importlib

    # imported by name: the C module has no type stubs (it is typed as Any)
    return importlib.import_module("_signal")


def _catch_signals() -> dict:
    """SIGINT and SIGTERM raise :class:`Stopped` while a command runs (in the main
    thread of the program only: a host program's own handlers are left alone
    elsewhere); returns the handlers to restore afterwards."""
    import threading

    signal = _signals()

    if threading.current_thread() is not threading.main_thread():
        return {}
    old = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            if sig == signal.SIGINT and signal.getsignal(sig) is not signal.default_int_handler:
                continue  # SIGINT ignored (a background job) or handled by the host program
            old[sig] = signal.signal(sig, _on_signal)
        except (ValueError, OSError):
            pass
    return old


def _stopped(message: str, code: int | None) -> None:
    """The command was stopped: delete its temporary files, say so in one line, exit
    with ``code`` (None: return, the command running inside another program,
    whose standard output is left as it is)."""
    from ..engine.join.scratch import remove_scratch

    remove_scratch()
    if code is None:
        _say(message)
        return
    silence_stdout()
    _fail(message, code)


_python_show_warning = warnings.showwarning


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    # an input file's warnings are one line each, like the errors; others as Python shows them
    if isinstance(message, InputWarning):
        from ..output.names import printable

        sys.stderr.write(f"trec_eval_py: warning: {printable(str(message))}\n")
    else:
        _python_show_warning(message, category, filename, lineno, file, line)


#: what OpenBLAS (numpy's matrix products) reads for its number of threads
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _one_blas_thread() -> None:
    # numpy's OpenBLAS starts its thread pool as numpy is imported, and the idle
    # worker spins on the other core for the whole of a short run (about 60 ms
    # of CPU on a small evaluation, as much wall time when that core is busy),
    # for matrix products the commands hardly make (the preference closure's,
    # on a topic's judged documents); the user's own setting wins
    if "numpy" not in sys.modules and not any(v in os.environ for v in _BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def entry() -> None:
    """The ``trec_eval_py`` command (and ``python -m trec_eval_py``): :func:`main`
    in a process of its own.

    Python's cycle collector would trace the objects start-up makes (modules,
    classes, numpy's tables: tens of thousands, none of them garbage) several
    times while they are made and once more at exit, about 15 ms of a small
    evaluation's 0.1 s. So it is off until the engine is imported, those
    objects are then frozen out of its sweeps (:func:`_start_collecting`), and
    at exit, when the process gives all memory back anyway, everything is
    frozen to skip the last sweep. A plain evaluation ends the process
    itself, without Python's teardown (:func:`_end_process`), when the
    program's main module is the one that imported ``entry`` to run it."""
    gc.disable()
    try:
        main(own_process=True)
    finally:
        gc.freeze()


def _end_process() -> None:
    """A plain evaluation is over and the command is the whole program
    (``python -m trec_eval_py`` or the installed script, whose main module
    imports :func:`entry` to run it): end the process now, with status 0.

    Python's own exit would then tear the interpreter down object by object
    (numpy's modules and the engine's: about 5 ms of a 42,000-line run), for
    memory the system takes back anyway. What that exit does that anyone can
    see is still done: the output is flushed and the ``atexit`` functions run.
    Python's exit is left to do it all when anything else may still run: a
    program whose main module did not import ``entry`` (it runs the command
    from elsewhere, ``runpy`` or :func:`main`, and may go on after it), a
    profiler or tracer (coverage, cProfile: they write their report at
    exit), another thread, or standard output that cannot be flushed."""
    import atexit
    import threading

    if (getattr(sys.modules.get("__main__"), "entry", None) is not entry or sys.gettrace() is not None
            or sys.getprofile() is not None or threading.active_count() > 1):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(ExitCode.OK)


def _start_collecting() -> None:
    """Start-up is over (see :func:`entry`): what exists now lives as long as the
    process, so the collector leaves it alone and collects what the
    evaluation makes (reference cycles must not pile up over a long run).
    Nothing to do when :func:`main` runs inside another program."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _check_not_a_mistyped_command(word: str) -> None:
    """A first argument that is no file but looks like a subcommand's name
    (``comapre``) is a typo: say which command was meant, instead of reading
    it as the judgments file or counting extra arguments."""
    if os.path.exists(word) or any(c in word for c in "./\\") or word == "-":
        return
    import difflib

    from . import commands

    close = difflib.get_close_matches(word, commands.names(), n=1, cutoff=0.75)
    if close:
        raise UsageError(f"unknown command {word!r}; did you mean {close[0]!r}? (trec_eval_py -h lists them)")


#: the line printed when memory runs out, made before it does: that handler may
#: import nothing (an import needs memory; it failed with a traceback, importing
#: the escaping of file names, which this line does not need)
_OUT_OF_MEMORY = ("trec_eval_py: out of memory; without -q a big run is summarised in bounded memory, and "
                  "--engine dask spreads the topics over several processes (docs/guide/scale.md)\n")


def main(argv: list[str] | None = None, *, own_process: bool = False) -> None:
    """Entry point of the ``trec_eval_py`` command.

    Stopped by SIGINT or SIGTERM, the command unwinds, says so in one line, and
    ``own_process`` (:func:`entry`: the command is the process) exits 130 or 143.
    Called inside another program (``own_process`` false), the signal is then
    given back to that program: its own handler, restored, receives it again
    (by default SIGTERM ends the process, SIGINT raises ``KeyboardInterrupt``),
    instead of being turned into an exit status a caller may catch and go on
    after (a test suite that its time limit's SIGTERM would then not stop)."""
    _one_blas_thread()
    warnings.showwarning = _show_warning
    argv = list(sys.argv[1:] if argv is None else argv)
    sub = None
    if argv and not argv[0].startswith("-"):
        from . import commands

        if argv[0] in commands.names():
            sub = argv[0]
    old_handlers = _catch_signals()
    out_of_memory = False
    given_back = None  # the signal that stopped a command run inside another program
    try:
        if sub is None and argv and not argv[0].startswith("-"):
            _check_not_a_mistyped_command(argv[0])
        plain = None if sub else parse_main(argv)
        if plain is not None:
            args, own, options = plain
            evaluate_run(*args, own=own, options=options)
            if own_process:
                _end_process()
            return
        if sub:
            from . import commands

            target, prog, argv = commands.load(sub), f"trec_eval_py {sub}", argv[1:]
        else:
            target, prog = globals().get("app") or __getattr__("app"), "trec_eval_py"
        _start_collecting()
        result = target(args=argv, prog_name=prog, standalone_mode=False)
        if result == ExitCode.INTERRUPTED:  # typer's answer to Ctrl-C inside a command
            _fail("interrupted", ExitCode.INTERRUPTED)
        if isinstance(result, int) and result:
            sys.exit(int(result))
    except PipeClosed:
        silence_stdout()
        sys.exit(ExitCode.OK)
    except TrecEvalError as e:
        if isinstance(e, OutputError):
            silence_stdout()
        _fail(_message(e, sub), e.exit_code)
    except MemoryError:
        # said below, once this block has let go of the exception: its traceback holds
        # the evaluation's frames, and with them the memory they took
        out_of_memory = True
    except _parser_errors()[1]:
        # click turns Ctrl-C (and an end of input at a prompt) inside a command into Abort
        _fail("interrupted", ExitCode.INTERRUPTED)
    except _parser_errors()[0] as e:
        # click's own usage errors (an unknown option, a missing argument) exit 2 by
        # themselves, the code of an unreadable input here: they are usage errors
        message = e.format_message() if hasattr(e, "format_message") else str(e)
        _fail(" ".join(message.split()), ExitCode.USAGE)
    except BrokenPipeError:  # a write outside the output helper
        silence_stdout()
        sys.exit(ExitCode.OK)
    except KeyboardInterrupt:
        if not own_process:  # the host program's own Ctrl-C (it handles SIGINT): its to answer
            _stopped("interrupted", None)
            raise
        _stopped("interrupted", ExitCode.INTERRUPTED)
    except Stopped as e:
        import signal

        word, code = (("interrupted", ExitCode.INTERRUPTED) if e.signum == signal.SIGINT
                      else ("terminated", ExitCode.TERMINATED))  # SIGTERM: 128 + 15
        if not own_process:
            given_back = e.signum, code
            _stopped(word, None)
        else:
            _stopped(word, code)
    except Exception as e:  # a bug: one line and a code of its own (Python's 1 would read as a usage error)
        if os.environ.get("TREC_EVAL_PY_TRACEBACK"):
            raise
        _fail(f"internal error ({type(e).__name__}: {' '.join(str(e).split())}); "
              "TREC_EVAL_PY_TRACEBACK=1 shows where", ExitCode.INTERNAL)
    finally:
        if old_handlers:
            signal = _signals()
            for sig, handler in old_handlers.items():
                signal.signal(sig, handler)
    if given_back is not None:
        import signal

        signal.raise_signal(given_back[0])  # to the host's handler, restored above
        sys.exit(int(given_back[1]))  # a handler that let it pass: the command still ends so
    if out_of_memory:
        gc.collect()
        sys.stderr.write(_OUT_OF_MEMORY)
        sys.exit(ExitCode.INPUT)
