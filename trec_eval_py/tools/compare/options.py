"""The values ``compare``'s options may take, checked once for the command line
and the Python API alike: each option alone (:func:`check_values`) and the
options together (:func:`check_options`), and the tests named (:func:`expand_tests`)."""
from __future__ import annotations

from collections.abc import Sequence

from ...errors import OptionError, UsageError
from .significance import ALL_TESTS, ALTERNATIVES, CORRECTIONS, FAMILY_TESTS, TESTS, check_resamples

PAIRS = ("baseline", "all")
TOPICS_FROM = ("qrels", "intersection")
FAIL_IF = ("worse", "different")
#: what compare tests over: per-topic values, or the positives of each topic (:mod:`.positives`)
UNITS = ("topics", "positives")


def one_of(value, param: str, allowed: Sequence[str]) -> None:
    """Refuse ``value`` of option ``param`` unless it is one of ``allowed`` (one line)."""
    # {@param}: the command line shows the flag (--topics-from), Python the parameter
    if value not in allowed:
        raise OptionError("unknown {@" + param + "} {value}; choose one of {allowed}",
                          value=repr(value), allowed=", ".join(allowed))


def check_values(*, unit: str = "topics", alternative: str = "two-sided", pairs: str = "baseline",
                 topics_from: str = "qrels", correction: str | None = None, permutations: int | None = None,
                 fail_if: str | None = None) -> None:
    """Refuse, with one line (:class:`~trec_eval_py.errors.OptionError`, a usage
    error), a value one of ``compare``'s options cannot take: ``unit``
    (:data:`UNITS`), ``alternative``, ``pairs``, ``topics_from``, ``correction``
    (None: not given), ``permutations`` (a whole number from 1 to
    :data:`~trec_eval_py.tools.compare.significance.MAX_RESAMPLES`; None: not given) and
    ``fail_if`` (None: no gate). The command checks them before any file is
    read, :func:`compare_runs` and
    :func:`~trec_eval_py.tools.compare.positives.compare_positive_runs` before any
    work; options that contradict each other are :func:`check_options`'."""
    one_of(unit, "unit", UNITS)
    one_of(alternative, "alternative", ALTERNATIVES)
    one_of(pairs, "pairs", PAIRS)
    one_of(topics_from, "topics_from", TOPICS_FROM)
    if correction is not None:
        one_of(correction, "correction", CORRECTIONS)
    if permutations is not None:
        check_resamples(permutations)
    if fail_if is not None:
        one_of(fail_if, "fail_if", FAIL_IF)


def expand_tests(tests) -> list[str]:
    """The tests named (``all``: every paired test), each once, in the order named;
    an unknown name is a :class:`UsageError`."""
    if isinstance(tests, str):
        tests = [tests]
    out: list[str] = []
    for t in tests:
        for name in (TESTS if t == "all" else [t]):
            if name not in ALL_TESTS:
                raise UsageError(f"unknown test {name!r}; choose one of {', '.join(ALL_TESTS)} or all")
            if name not in out:
                out.append(name)
    return out


#: the options of ``compare`` whose defaults are applied only after the checks below
#: (None: not given), so that a value given for nothing can be refused
DEFAULTS = {"tests": ("t",), "correction": "holm", "permutations": 100_000, "seed": 1}

#: tests of either unit that draw nothing at random (no --permutations, no --seed)
_NO_DRAWS = {"topics": {"t"}, "positives": {"t-paired", "t-unpaired", "wilcoxon-paired", "wilcoxon-unpaired"}}


def check_options(*, unit: str = "topics", tests: Sequence[str], alternative: str = "two-sided",
                  fail_if: str | None = None, correction: str | None = None, permutations: int | None = None,
                  seed: int | None = None) -> None:
    """Refuse, with one line (:class:`UsageError`), options of ``compare`` that
    contradict each other: together they could never do what they say.

    ``tests`` are the tests as they will run (defaults applied, ``all``
    expanded); ``correction``, ``permutations`` and ``seed`` are None when not
    given. Checked: ``--fail-if`` against a one-sided ``--alternative`` (a
    greater test never finds a worse run; a one-sided test never finds a
    difference the other way), Tukey's tests (two-sided and family-wise) against
    ``--alternative`` and ``--correction``, ``--permutations``/``--seed`` with
    tests that draw nothing (``--unit positives`` checks its formats itself:
    :func:`~trec_eval_py.tools.compare.positives.check_positive_format`).
    """
    if fail_if == "worse" and alternative == "greater":
        raise UsageError("--fail-if worse cannot fire with --alternative greater (a one-sided test of a higher "
                         "score never finds a worse run): use --alternative less or two-sided")
    if fail_if == "different" and alternative != "two-sided":
        raise UsageError(f"--fail-if different asks for a difference either way, which --alternative {alternative} "
                         "does not test: use --alternative two-sided (or --fail-if worse with --alternative less)")
    family = [t for t in tests if t in FAMILY_TESTS]
    if family and alternative != "two-sided":
        raise UsageError("Tukey's HSD is two-sided: use --alternative two-sided with --test tukey")
    if correction is not None and correction != "none" and tests and len(family) == len(tests):
        raise UsageError(f"--correction {correction} has nothing to correct: the p-values of "
                         f"{' and '.join(family)} are family-wise already")
    if (permutations is not None or seed is not None) and set(tests) <= _NO_DRAWS[unit]:
        given = " and ".join(f for f, v in (("--permutations", permutations), ("--seed", seed)) if v is not None)
        raise UsageError(f"{given}: --test {','.join(tests)} draws nothing at random "
                         "(the resampling tests and the bootstrap intervals do)")
