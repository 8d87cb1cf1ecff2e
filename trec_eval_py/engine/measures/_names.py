"""ir_measures-style measure names (``nDCG@10``, ``P(rel=2)@5``, ``AP``, ``RBP(p=0.8)``).

ir_measures (and PyTerrier on top of it) names a measure ``Name(param=value,
...)@cutoff``. Each name here is translated into the trec_eval measure that
computes the same number -- the one ir_measures' own pytrec_eval provider
asks trec_eval for -- plus, where given, per-measure evaluation options:

* ``rel=N``: the lowest level that counts as relevant, for that measure only
  (trec_eval's ``-l N``);
* ``judged_only=True``: unjudged documents are dropped before that measure is
  computed (trec_eval's ``-J``).

A name without them takes the evaluation's own options (``-l``, ``-J``). The
pipeline computes every group of measures sharing the same options once.

============  ============================  =====================================
ir_measures   trec_eval (output)            parameters
============  ============================  =====================================
AP, AP@k      map, map_cut.k                rel, judged_only
P@k           P.k                           rel, judged_only
R@k           recall.k                      rel, judged_only
RR, RR@k      recip_rank, rr_cut.k          rel, judged_only
nDCG, nDCG@k  ndcg, ndcg_cut.k              judged_only, gains={level: gain}
              (with gains: ndcg.L=G,...,    dcg='log2' (the only DCG offered)
              ndcg_gain_cut.k,L=G,...)
Rprec         Rprec                         rel, judged_only
Bpref         bpref                         rel
infAP         infAP                         rel
NumRet        num_ret (num_rel_ret w/ rel)  rel
NumRelRet     num_rel_ret                   rel
NumRel        num_rel                       rel
NumQ          num_q
SetP          set_P (set_relative_P)        rel, relative, judged_only
SetRelP       set_relative_P                rel, judged_only
SetR          set_recall                    rel
SetF          set_F (set_F.beta)            rel, beta, judged_only
SetAP         set_map                       rel, judged_only
Success@k     success.k                     rel, judged_only
IPrec@r       iprec_at_recall.r             rel, judged_only
ERR@k         err.k (gdeval's ERR)
Judged@k      judged.k
RBP           rbp.p=P (rbp_bin.p=P w/ rel)   p (default 0.8, ir_measures'), rel
INST          cwl_inst                      T, min_rel, max_rel
INSQ          cwl_insq                      T, min_rel, max_rel
BPM@K         cwl_bpm.K=K                   T, min_rel, max_rel
SDCG@k        cwl_sdcg.k=k                  dcg='log2', min_rel, max_rel
NERR8@k       cwl_nerr8.k=k                 min_rel, max_rel
NERR9@k       cwl_nerr9.k=k                 min_rel, max_rel
NERR10        cwl_nerr10                    p (default 0.9), min_rel, max_rel
NERR11        cwl_nerr11                    T, min_rel, max_rel
alpha_nDCG@k  alpha_nDCG.k                  alpha, rel, judged_only (-R qrels_diversity)
alpha_DCG@k   alpha_DCG.k                   alpha, rel, judged_only
ERR_IA@k      ERR_IA.k                      alpha, rel, judged_only
nERR_IA@k     nERR_IA.k                     alpha, rel, judged_only
NRBP, nNRBP   NRBP, nNRBP                   alpha, beta, rel
AP_IA         MAP_IA                        rel, judged_only
P_IA@k        P_IA.k                        rel, judged_only
StRecall@k    strec.k                       rel, judged_only
============  ============================  =====================================

The C/W/L names (INST ... NERR11) are ir_measures' cwl_eval measures: their
parameters become the ``cwl_*`` measure's ``name=value`` pairs (the cutoff
``K=`` or ``k=``). ir_measures requires ``max_rel``; without it the ``cwl_*``
measures gain 1 for a document relevant at ``-l`` and 0 otherwise.

The intent-aware measures (the last eight rows, ir_measures' ``pyndeval``
provider) need subtopic judgments (``-R qrels_diversity``); ``alpha`` and
``beta`` default to 0.5, as in ndeval.

Per topic, each name gives ir_measures' value. The means can differ: ir_measures
scores a judged topic the run lacks at 0 and averages over every judged topic
(trec_eval's ``-c``), where an evaluation without ``-c`` averages over the
topics with results; ``complete=True`` (``-c``) averages as ir_measures does,
and the ir_measures provider (:mod:`trec_eval_py.compat.ir_measures_provider`)
always does. ir_measures measure objects (``nDCG@10``) are taken by their
name, ``str(m)``.

ir_measures' aliases ``MAP``, ``Precision``, ``Recall``, ``MRR``, ``NDCG``,
``RPrec`` and ``BPref`` are accepted too. ``rel=`` is refused where
ir_measures has no such parameter (nDCG, ERR, Judged) and ``judged_only=``
likewise (Bpref, infAP, SetR, the counts).
"""
from __future__ import annotations

import ast
import contextlib
import math
from collections.abc import Iterable

from ..._record import record
from ...errors import MeasureError, OptionTypeError, shorten

#: what each parameter means to the evaluation (an option of the whole group)
OPTION_PARAMS = {"rel": "relevance_level", "judged_only": "judged_only"}


def printed_with_options(trec_name: str, overrides: tuple) -> str:
    """The name trec_eval's text prints for a value asked for by an ir_measures
    name that sets evaluation options (a :class:`Request`'s ``overrides``):
    trec_eval's name followed by ``_rel=2``, ``_judged_only=True`` (in the
    order of ``overrides``), so ``-m P.10 -m "P(rel=2)@10"`` prints ``P_10``
    and ``P_10_rel=2``. The suffix depends on the name alone, not on ``-l`` or
    ``-J`` (``P(rel=1)@10`` prints ``P_10_rel=1``); without overrides it is
    trec_eval's name unchanged."""
    param = {field: name for name, field in OPTION_PARAMS.items()}
    return trec_name + "".join(f"_{param[field]}={value}" for field, value in overrides)


@record
class Alias:
    """How one ir_measures name maps to a trec_eval measure.

    ``trec`` is the measure without a cutoff, ``trec_at`` the one with
    ``@cutoff`` (None when the name takes no cutoff; ``at`` says whether the
    cutoff is an int or a float, and whether it is required). ``params`` are
    the parameters accepted besides ``rel`` and ``judged_only`` (listed in
    ``options``).
    """

    name: str
    trec: str | None
    trec_at: str | None = None
    at: str | None = None  # "int", "float" or None
    options: tuple = ("rel", "judged_only")
    params: tuple = ()
    help: str = ""


#: the gain-scale parameters of ir_measures' cwl_eval measures
_GRADES = ("min_rel", "max_rel")

ALIASES: dict[str, Alias] = {a.name: a for a in [
    Alias("AP", "map", "map_cut", "int", help="average precision (trec_eval map; @k: map_cut)"),
    Alias("P", None, "P", "int", help="precision at k"),
    Alias("R", None, "recall", "int", help="recall at k"),
    Alias("RR", "recip_rank", "rr_cut", "int", help="reciprocal rank of the first relevant document"),
    Alias("nDCG", "ndcg", "ndcg_cut", "int", ("judged_only",), ("gains", "dcg"), help="normalised DCG, log2 discount"),
    Alias("Rprec", "Rprec", help="precision at rank R (the number of relevant documents)"),
    Alias("Bpref", "bpref", options=("rel",), help="binary preference"),
    Alias("infAP", "infAP", options=("rel",), help="inferred average precision"),
    Alias("NumRet", "num_ret", options=("rel",), help="documents retrieved (with rel=: relevant ones retrieved)"),
    Alias("NumRelRet", "num_rel_ret", options=("rel",), help="relevant documents retrieved"),
    Alias("NumRel", "num_rel", options=("rel",), help="relevant documents judged"),
    Alias("NumQ", "num_q", options=(), help="topics evaluated"),
    Alias("SetP", "set_P", params=("relative",), help="precision of the whole retrieved set"),
    Alias("SetRelP", "set_relative_P", help="set precision relative to the best possible"),
    Alias("SetR", "set_recall", options=("rel",), help="recall of the whole retrieved set"),
    Alias("SetF", "set_F", params=("beta",), help="F-measure of the whole retrieved set"),
    Alias("SetAP", "set_map", help="set precision times set recall"),
    Alias("Success", None, "success", "int", help="1 if a relevant document is in the top k"),
    Alias("IPrec", None, "iprec_at_recall", "float", help="interpolated precision at a recall level"),
    Alias("ERR", None, "err", "int", options=(), help="expected reciprocal rank (gdeval)"),
    Alias("Judged", None, "judged", "int", options=(), help="share of the top k that is judged"),
    Alias("RBP", "rbp", options=("rel",), params=("p",),
          help="rank-biased precision (graded gains; with rel=: binary, relevant at that level)"),
    Alias("INST", "cwl_inst", options=(), params=("T",) + _GRADES, help="INST, adaptive C/W/L measure"),
    Alias("INSQ", "cwl_insq", options=(), params=("T",) + _GRADES, help="INSQ, static C/W/L measure"),
    Alias("BPM", None, "cwl_bpm", "int", (), ("T",) + _GRADES,
          help="Bejeweled Player Model (static), @K the cost budget"),
    Alias("SDCG", None, "cwl_sdcg", "int", (), ("dcg",) + _GRADES, help="scaled DCG at k"),
    Alias("NERR8", None, "cwl_nerr8", "int", (), _GRADES, help="not-quite ERR, equation 8"),
    Alias("NERR9", None, "cwl_nerr9", "int", (), _GRADES, help="not-quite ERR, equation 9"),
    Alias("NERR10", "cwl_nerr10", options=(), params=("p",) + _GRADES, help="not-quite ERR, equation 10"),
    Alias("NERR11", "cwl_nerr11", options=(), params=("T",) + _GRADES, help="not-quite ERR, equation 11"),
    Alias("alpha_nDCG", None, "alpha_nDCG", "int", params=("alpha",), help="intent-aware nDCG (ndeval)"),
    Alias("alpha_DCG", None, "alpha_DCG", "int", params=("alpha",), help="intent-aware DCG (ndeval)"),
    Alias("ERR_IA", None, "ERR_IA", "int", params=("alpha",), help="intent-aware ERR (ndeval)"),
    Alias("nERR_IA", None, "nERR_IA", "int", params=("alpha",), help="intent-aware ERR, normalised (ndeval)"),
    Alias("NRBP", "NRBP", options=("rel",), params=("alpha", "beta"),
          help="novelty- and rank-biased precision (ndeval)"),
    Alias("nNRBP", "nNRBP", options=("rel",), params=("alpha", "beta"),
          help="novelty- and rank-biased precision, normalised (ndeval)"),
    Alias("AP_IA", "MAP_IA", help="intent-aware average precision (ndeval's MAP-IA)"),
    Alias("P_IA", None, "P_IA", "int", help="intent-aware precision at k (ndeval)"),
    Alias("StRecall", None, "strec", "int", help="subtopic recall at k (ndeval's strec)"),
]}

#: the intent-aware measures: their alpha= and beta= become trec_eval-style settings
_DIVERSITY = {"alpha_nDCG", "alpha_DCG", "ERR_IA", "nERR_IA", "NRBP", "nNRBP"}

#: ir_measures' other spellings of the same measures
SYNONYMS = {"MAP": "AP", "Precision": "P", "Recall": "R", "MRR": "RR", "NDCG": "nDCG",
            "RPrec": "Rprec", "BPref": "Bpref"}

#: ir_measures' default persistence of RBP (trec_eval's is 0.9)
RBP_DEFAULT_P = 0.8

_PARAM_TYPES = {"rel": int, "judged_only": bool, "relative": bool, "beta": float, "p": float, "gains": dict,
                "dcg": str, "T": float, "min_rel": int, "max_rel": int, "alpha": float}


@record
class Request:
    """An ir_measures name translated: the trec_eval spec to compute, the
    output to keep, and the evaluation options that differ for it."""

    label: str  # the name as the user wrote it
    spec: str  # a trec_eval -m spec with one output, e.g. "ndcg_cut.10"
    overrides: tuple  # ((Options field, value), ...), sorted


def is_alias_syntax(spec: str) -> bool:
    """Whether ``spec`` names an ir_measures measure (not whether it is valid)."""
    name = _head(spec)
    return name in ALIASES or name in SYNONYMS


def _head(spec: str) -> str:
    end = len(spec)
    for ch in "(@":
        i = spec.find(ch)
        if i >= 0:
            end = min(end, i)
    return spec[:end].strip()


#: what each parameter takes, as the error for a bad value says it
_EXPECTED = {
    "rel": "a whole number, the lowest relevance level that counts (e.g. rel=2)",
    "judged_only": "True or False",
    "relative": "True or False",
    "beta": "a finite number (e.g. beta=0.5)",
    "alpha": "a number from 0 to 1 (e.g. alpha=0.5)",
    "p": "a finite number (e.g. p=0.8)",
    "gains": "a dict of whole-number levels to numbers (e.g. gains={0:0,1:1,2:3})",
    "dcg": "a quoted name (e.g. dcg='log2')",
    "T": "a finite number, the gain wanted (e.g. T=3)",
    "min_rel": "a whole number, the level that gains 0 (e.g. min_rel=0)",
    "max_rel": "a whole number, the level that gains 1 (e.g. max_rel=3)",
}


class _Unreadable:
    """A value that is not a Python literal: the text as typed, and the part of it
    that could not be read (``x`` in ``{1:x}``)."""

    def __init__(self, text: str, part: str):
        self.text, self.part = text, part


def _segment(spec: str, node) -> str:
    return ast.get_source_segment(spec, node) or ast.unparse(node)


def _bad_part(spec: str, node):
    """The innermost part of ``node`` that is not a literal (for a dict, its first
    bad key or value), or None if ``node`` reads."""
    if isinstance(node, ast.Dict):
        for sub in [*node.keys, *node.values]:
            if sub is None:  # {**x}
                return _segment(spec, node)
            bad = _bad_part(spec, sub)
            if bad is not None:
                return bad
        return None
    try:
        ast.literal_eval(node)
        return None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _segment(spec, node)


def _literal(node, spec: str):
    """The value of ``node``, or :class:`_Unreadable` when it is not a literal
    (the error then says what the parameter takes, once that is known)."""
    bad = _bad_part(spec, node)
    if bad is not None:
        return _Unreadable(_segment(spec, node), bad)
    return ast.literal_eval(node)


def _not(value, text: str) -> str:
    """``not 'x'`` for the offending text (``not 'x' (in '{1:x}')`` for part of a value)."""
    if isinstance(value, _Unreadable):
        return f"not {value.part!r}" + (f" (in {value.text!r})" if value.part != value.text else "")
    return f"not {text!r}"


def _syntax_error(spec: str, e: SyntaxError) -> MeasureError:
    text = spec.strip()
    head = f"measure '{spec}': cannot read it as Name(param=value,...)@cutoff"
    if text.endswith("@"):
        return MeasureError(f"measure '{spec}': nothing after '@' (expected a cutoff, e.g. {text}10)")
    if e.msg and e.msg != "invalid syntax":
        return MeasureError(f"{head}: {e.msg}")
    pos = (e.offset or 1) - 1
    if 0 <= pos < len(text):
        return MeasureError(f"{head}: unexpected {text[pos:]!r}")
    return MeasureError(f"{head}: it ends too early")


def parse(spec: str) -> tuple[str, dict, object, dict]:
    """``(name, params, cutoff, texts)`` of an ir_measures name; cutoff None when
    absent. A value that is not a literal is an :class:`_Unreadable`; ``texts``
    holds each value as typed (key ``"@"`` for the cutoff)."""
    text = spec.strip()
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as e:
        raise _syntax_error(spec, e) from None
    at = None
    texts: dict = {}
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.MatMult):
        at = _literal(tree.right, text)
        texts["@"] = _segment(text, tree.right)
        tree = tree.left
    params: dict = {}
    if isinstance(tree, ast.Call):
        if tree.args:
            raise MeasureError(f"measure '{spec}': parameters must be named (param=value), "
                               f"not {_segment(text, tree.args[0])!r}")
        for kw in tree.keywords:
            if kw.arg is None:
                raise MeasureError(f"measure '{spec}': parameters must be named (param=value), "
                                   f"not {_segment(text, kw)!r}")
            if kw.arg in params:
                raise MeasureError(f"measure '{spec}': parameter {kw.arg!r} is given twice")
            params[kw.arg] = _literal(kw.value, text)
            texts[kw.arg] = _segment(text, kw.value)
        tree = tree.func
    if not isinstance(tree, ast.Name):
        raise MeasureError(f"measure '{spec}': cannot read it as Name(param=value,...)@cutoff: "
                           f"{_segment(text, tree)!r} is not a measure name")
    return tree.id, params, at, texts


def _check_type(spec: str, key: str, value, text: str) -> None:
    want = _PARAM_TYPES[key]
    ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
    if want is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok:
        raise MeasureError(f"measure '{spec}': {key}= must be {_EXPECTED[key]}, {_not(value, text)}")


def _num(x: float) -> str:
    """A number as trec_eval parameter text (``0.5``, ``2``)."""
    return repr(int(x)) if float(x).is_integer() else repr(float(x))


def ir_measures_names() -> frozenset[str]:
    """The ir_measures measure names this module translates (its aliases included)."""
    return frozenset(ALIASES) | frozenset(SYNONYMS)


def measure_spec(m) -> str:
    """One requested measure as a ``-m`` spec: a string as given; an ir_measures
    measure object (``nDCG@10``, ``AP(rel=2)``) by its name, ``str(m)``, which is
    also its identity in ir_measures (two measures are equal when their names are)."""
    if isinstance(m, str):
        return m
    if isinstance(getattr(m, "NAME", None), str) and isinstance(getattr(m, "params", None), dict):
        return str(m)
    # a wrong type is a TypeError (and a usage error: the option, not the file, is wrong)
    raise OptionTypeError("{@measures} are names (strings) or ir_measures measures, not {kind} ({value})",
                          kind=type(m).__name__, value=shorten(repr(m), 60))


def measure_specs(measures) -> list[str]:
    """``-m`` specs of what :func:`~trec_eval_py.engine.pipeline.evaluate` was given as measures:
    one name or measure object, or an iterable of them."""
    if isinstance(measures, str) or not isinstance(measures, Iterable):
        measures = [measures]
    return [measure_spec(m) for m in measures]


def translate(spec: str) -> Request:
    """The :class:`Request` an ir_measures name stands for; MeasureError if it is not valid."""
    name, params, at, texts = parse(spec)
    alias = ALIASES.get(SYNONYMS.get(name, name))
    if alias is None:
        raise MeasureError(f"unknown measure '{spec}'")
    allowed = set(alias.options) | set(alias.params)
    for key, value in params.items():
        if key not in allowed:
            which = ", ".join(sorted(allowed)) or "none"
            raise MeasureError(f"measure '{spec}': {alias.name} takes no parameter {key!r} (it takes: {which})")
        _check_type(spec, key, value, texts[key])
    overrides = []
    if "rel" in params:
        overrides.append((OPTION_PARAMS["rel"], params["rel"]))
    if "judged_only" in params:
        overrides.append((OPTION_PARAMS["judged_only"], bool(params["judged_only"])))

    trec = alias.trec
    suffix = None
    if at is not None:
        if alias.trec_at is None:
            raise MeasureError(f"measure '{spec}': {alias.name} takes no @cutoff")
        if alias.at == "int":
            if isinstance(at, bool) or not isinstance(at, int) or at <= 0:
                raise MeasureError(f"measure '{spec}': the cutoff after @ must be a whole number above 0 "
                                   f"(e.g. {alias.name}@10), {_not(at, texts['@'])}")
            suffix = str(at)
        else:
            if isinstance(at, bool) or not isinstance(at, (int, float)) or not 0.0 <= at <= 1.0:
                raise MeasureError(f"measure '{spec}': the recall level after @ must be a number from 0 to 1 "
                                   f"(e.g. {alias.name}@0.5), {_not(at, texts['@'])}")
            suffix = _num(at)
        trec = alias.trec_at
    elif trec is None:
        raise MeasureError(f"measure '{spec}': {alias.name} needs a cutoff, e.g. {alias.name}@10")

    text = suffix
    if alias.name == "NumRet" and "rel" in params:
        trec = "num_rel_ret"
    if alias.name == "SetP" and params.get("relative"):
        trec = "set_relative_P"
    if alias.name in _DIVERSITY:
        settings = [f"{k}={_num(params[k])}" for k in ("alpha", "beta") if k in params]
        text = ",".join(([suffix] if suffix else []) + settings) or None
    if alias.name == "SetF" and "beta" in params:
        text = _num(params["beta"])
    if alias.name == "RBP":
        text = "p=" + _num(params.get("p", RBP_DEFAULT_P))
        if "rel" in params:  # ir_measures: binary relevance at that level (cwl_eval's RBP)
            trec = "rbp_bin"
    if trec.startswith("cwl_"):
        text = _cwl_text(alias, params, suffix)
    if alias.name == "SDCG" and params.get("dcg", "log2") != "log2":
        raise MeasureError(f"measure '{spec}': dcg={params['dcg']!r} is not offered (only dcg='log2', "
                           f"ir_measures' one choice)")
    if alias.name == "nDCG" and params.get("dcg", "log2") != "log2":
        # ir_measures' pytrec_eval provider has only log2; other providers' exp-log2 is not checked here
        raise MeasureError(f"measure '{spec}': dcg={params['dcg']!r} is not offered (only dcg='log2'; "
                           f"ndcg_exp_cut.k is gdeval's exponential-gain nDCG)")
    if alias.name == "nDCG" and params.get("gains"):
        gains = params["gains"]
        for k, v in gains.items():
            if isinstance(k, bool) or not isinstance(k, int) or isinstance(v, bool) or not isinstance(
                    v, (int, float)) or not math.isfinite(v):
                raise MeasureError(f"measure '{spec}': gains= maps whole-number levels to numbers "
                                   f"(e.g. gains={{0:0,1:1,2:3}}), not the entry {k!r}: {v!r}")
        if params.get("judged_only") and any(v < 0 for v in gains.values()):
            # ir_measures gives the judgments the gains as levels: a negative one makes its
            # documents unjudged, which judged_only then drops from the ranking
            raise MeasureError(f"measure '{spec}': negative gains with judged_only=True are not offered "
                               f"(they would make judged documents unjudged)")
        pairs = ",".join(f"{k}={_num(v)}" for k, v in sorted(gains.items()))
        if suffix is not None:
            # trec_eval's ndcg_cut has no gains: ndcg_gain_cut is ndcg_cut with them
            if any(k < 0 for k in gains):
                raise MeasureError(f"measure '{spec}': with a cutoff, gains are for levels 0 or more "
                                   f"(a negative level means unjudged)")
            trec = "ndcg_gain_cut"
            pairs = f"{suffix},{pairs}"
        text = pairs
    out_spec = trec if text is None else f"{trec}.{text}"
    return Request(spec.strip(), out_spec, tuple(sorted(overrides)))


def _cwl_text(alias: Alias, params: dict, cutoff: str | None) -> str | None:
    """The ``name=value`` text of a ``cwl_*`` measure for an ir_measures C/W/L name:
    the cutoff as ``K=`` (BPM's cost budget) or ``k=``, then the parameters given."""
    items = [] if cutoff is None else [("K=" if alias.name == "BPM" else "k=") + cutoff]
    items += [f"{key}={_num(params[key])}" for key in ("T", "p", "min_rel", "max_rel") if key in params]
    return ",".join(items) or None


# ---- suggestions for unknown names, in both syntaxes ----

#: trec_eval measure -> ir_measures name (the cutoff, if any, goes after @)
_TREC_TO_IR: dict[str, str] = {}
for _a in ALIASES.values():
    if _a.trec is not None:
        _TREC_TO_IR.setdefault(_a.trec, _a.name)
    if _a.trec_at is not None:
        _TREC_TO_IR.setdefault(_a.trec_at, _a.name)


def _split_plain(spec: str) -> tuple[str, str | None, str | None]:
    """``(base, '@' cutoff text, '.' parameter text)`` of a name in either syntax."""
    base, at, dot = spec, None, None
    if "@" in base:
        base, _, at = base.partition("@")
    head = _head(base)
    if "(" not in base and "." in head:
        head, _, dot = head.partition(".")
    return head, at, dot


def _closest(word: str, names) -> str | None:
    names = list(names)
    lower = {n.lower(): n for n in names}
    if word.lower() in lower:
        return lower[word.lower()]
    import difflib  # only for a misspelt name

    found = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    return found[0] if found else None


def suggestions(spec: str, trec_names) -> list[str]:
    """The closest spellings of an unknown ``spec``: a trec_eval one and an ir_measures one."""
    base, at, dot = _split_plain(spec.strip())
    cut = at if at is not None else dot
    trec_names = list(trec_names)
    ir_names = list(ALIASES) + list(SYNONYMS)
    ir = _closest(base, ir_names)
    trec = _closest(base, trec_names)
    ir_hit = ir is not None and ir.lower() == base.lower()
    # '@' says the user meant ir_measures' syntax, '.' trec_eval's; else whichever matches best
    use_ir = (ir is not None and (at is not None or ir_hit or trec is None)
              and not (dot is not None and trec is not None))
    out: list[str] = []
    if use_ir and ir is not None:
        alias = ALIASES[SYNONYMS.get(ir, ir)]
        ir_text = alias.name + (f"@{cut}" if cut and alias.trec_at else "")
        with contextlib.suppress(MeasureError):
            out.append(translate(ir_text).spec)
        out.append(ir_text)
    elif trec is not None:
        out.append(trec + (f".{cut}" if cut else ""))
        back = _TREC_TO_IR.get(trec)
        if back is not None:
            alias = ALIASES[back]
            b_text = back + (f"@{cut}" if cut and alias.trec_at else "")
            try:
                translate(b_text)
                out.append(b_text)
            except MeasureError:
                pass
    return list(dict.fromkeys(out))
