"""Shared arithmetic of the early-retrieval areas of the CROC paper
(``auc_ac``, ``cac_*``, ``auc_proc``, ``auc_pac``, ``auc_roc_t``,
``auc_roc_fp``, the ``*_z`` scores) and of their curves in
:mod:`trec_eval_py.tools.curves.curves`.

Every area of Swamidass et al. (2010), section 2.5, is the mean over the
topic's P relevant documents ("positives") of one number per positive:

* **FPR view** (ROC, CROC, pROC, hard-threshold ROC): ``1 - f(fpr_i)``,
  fpr_i being the share of the n negatives ranked above positive i;
* **rank view** (AC, CAC, pAC): ``1 - f(r_i / N)``, r_i the 1-based rank of
  positive i in the full list of N documents (the paper's example: positives
  at ranks {1, 2, 4, 5, 7} of 10 give x = {.1, .2, .4, .5, .7}).

``f`` maps [0, 1] onto [0, 1] increasingly, with f(0) = 0 and f(1) = 1. The
full list, the negatives and the missed relevant documents (last ranks, so a
missed one has fpr 1 and adds 0 in the FPR view) are those of
:mod:`.ranked_curves`.

Random classifier
-----------------
A random ranking places the P positives uniformly among the N = P + n
positions. Exact finite-list moments of the area (used by the ``*_z``
measures, "a Z-score for the area" of the paper's section 2.1):

* rank view: the ranks are a sample without replacement of size P from
  1..N, so with g(r) = 1 - f(r/N) over all N ranks,
  ``E = mean(g)`` and ``Var = var(g) / P * (N - P) / (N - 1)``;
* FPR view: the numbers of positives falling in each of the n + 1 gaps
  around the negatives are a uniform composition of P (a Dirichlet-multinomial
  with unit weights), so with w_j = 1 - f(j/n), j = 0..n (K = n + 1 values),
  ``E = mean(w)`` and ``Var = (P + K) / (P (K + 1)) * var(w)``. For plain
  ROC this is (P + n + 1) / (12 P n), the Mann-Whitney variance.

``var`` is the population variance over the listed values. The Z-score is
``(area - E) / sqrt(Var)``; it is 0 where the variance is 0 (a topic without
relevant documents or without negatives, or a list made only of positives).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..._record import record
from ...errors import MeasureError
from ._base import Measure, safe_div
from ._params import ParamSpec, Ties, tie_rule
from .ranked_curves import (
    TIES_HELP,
    PositiveFloats,
    croc_area,
    format_param,
    list_size,
    mean_over_group_ranks,
    num_negatives,
    tie_groups,
)

#: f(x, param, negatives, size) -> transformed x; negatives/size broadcast
#: against x (per-topic columns ``(n, 1)`` for a batch, scalars for one topic)
Transform = Callable[[np.ndarray, float, object, object], np.ndarray]


def _one_topic(transform: Transform, param: float, negatives: int, size: int) -> Callable[[np.ndarray], np.ndarray]:
    """``transform`` with the parameter and one topic's counts fixed: a function of x alone."""
    return lambda x: transform(x, param, negatives, size)


def rank_positions(b):
    """Per topic: float64 (n, W) 1-based ranks of the retrieved documents and
    the missed relevant documents' ranks as a list of arrays (the last ranks
    of the full list)."""
    size = list_size(b)
    missed = b.num_rel - b.num_rel_ret
    tails = [np.arange(size[i] - missed[i] + 1, size[i] + 1, dtype=np.float64) for i in range(b.n)]
    return size, tails


def rank_area(b, f1: Callable[[np.ndarray, int], np.ndarray], ties: str = "docno") -> np.ndarray:
    """float64 (n,): mean over each topic's positives of ``1 - f(r/N)``, ``f1(x, row)``
    being the transform of topic ``row`` (retrieved positives in rank order,
    then the missed ones in rank order). ``ties="average"``: a retrieved
    positive's value is its mean over the ranks of its group of tied documents."""
    size, tails = rank_positions(b)
    out = np.zeros(b.n, dtype=np.float64)
    ranks = b.ranks
    if ties == "average":
        groups = tie_groups(b)
        gains = np.stack([1.0 - f1(ranks / float(max(size[i], 1)), i) for i in range(b.n)]) if b.n else \
            np.zeros((0, b.width))
        expected = groups.share * mean_over_group_ranks(gains, groups)
        for i in range(b.n):
            p = int(b.num_rel[i])
            if p == 0:
                continue
            tail = 1.0 - f1(tails[i] / float(size[i]), i) if len(tails[i]) else np.zeros(0)
            terms = np.concatenate([expected[i][groups.valid[i]], tail])
            out[i] = np.cumsum(terms)[-1] / p if len(terms) else 0.0
        return out
    for i in range(b.n):
        p = int(b.num_rel[i])
        if p == 0:
            continue
        big_n = float(size[i])
        r = ranks[b.is_rel[i]]
        x = np.concatenate([r, tails[i]]) / big_n
        gain = 1.0 - f1(x, i)
        out[i] = np.cumsum(gain)[-1] / p if len(gain) else 0.0
    return out


def fpr_area(b, fb: Callable[[np.ndarray], np.ndarray], ties: str = "docno") -> np.ndarray:
    """float64 (n,): mean over the positives of ``1 - f(fpr)`` (missed ones add 0)."""
    return croc_area(b, fb, ties)


#: the exact moments sum the transform over every position of the full list
#: (every negative, with ``-N`` the whole collection): beyond this many
#: positions (128 MB per array) a Z-score is refused rather than exhausting
#: memory (``-N 1000000000`` asked for about 20 GB)
MAX_MOMENT_POSITIONS = 1 << 24


def random_moments(view: str, f1: Callable[[np.ndarray], np.ndarray], p: int, n: int) -> tuple[float, float]:
    """Exact mean and variance of the area of a random ranking of ``p``
    positives and ``n`` negatives (see the module doc); ``f1`` is the topic's
    transform. Variance 0 when either count is 0. Raises :class:`MeasureError`
    when the list has more than :data:`MAX_MOMENT_POSITIONS` positions."""
    if p <= 0:
        return 0.0, 0.0
    if p + n > MAX_MOMENT_POSITIONS:
        raise MeasureError(
            f"Z-scores of ranking areas need the exact moments over every position of the list: "
            f"{p + n:,} positions (relevant documents plus negatives, all of -N's collection) are more "
            f"than the {MAX_MOMENT_POSITIONS:,} supported")
    if view == "rank":
        big_n = p + n
        g = 1.0 - f1(np.arange(1, big_n + 1, dtype=np.float64) / big_n)
        mean = float(g.mean())
        if n == 0:
            return mean, 0.0
        return mean, float(g.var()) / p * (big_n - p) / (big_n - 1)
    if n == 0:
        # every positive ranks above all (zero) negatives
        return 1.0, 0.0
    k = n + 1
    w = 1.0 - f1(np.arange(k, dtype=np.float64) / n)
    return float(w.mean()), (p + k) / (p * (k + 1.0)) * float(w.var())


@record
class Area:
    """One early-retrieval area: its view, its transform and how it names
    its parameters. ``transform(x, param, negatives, size)``.

    It is also the statistic of the relevant documents ("positives") that
    ``compare --unit positives`` tests (:meth:`positives`): the area of a
    topic is the mean of its positives' values. ``affine_of`` names the area
    measure whose per-positive values these are when the measure holding this
    :class:`Area` is not their mean but, topic by topic, an affine transform of
    it (``rie`` and ``bedroc`` of ``cac_exp``, the CROC paper's equations 12
    and 13): its tests are that area's (Swamidass et al. 2010, section 5.2:
    "and therefore yield the same P-values"), its per-topic values its own.
    """

    view: str  # "rank" or "fpr"
    transform: Transform
    affine_of: str | None = None

    def areas(self, b, param, ties: str = "docno") -> np.ndarray:
        neg = num_negatives(b)
        size = list_size(b)
        if self.view == "fpr":
            return fpr_area(b, lambda x: self.transform(x, param, neg[:, None], size[:, None]), ties)
        return rank_area(b, lambda x, i: self.transform(x, param, int(neg[i]), int(size[i])), ties)

    def positives(self, b, param) -> list[np.ndarray]:
        """Per topic of batch ``b``: the value of each positive, the retrieved
        ones in rank order (the positions ``b.is_rel`` marks), then the missed
        ones (which take the list's last ranks, or rate 1: they add 0 in the
        FPR view). Added in this order and divided by the topic's relevant
        count they give :meth:`areas` exactly (the same additions, in the same order)."""
        neg = num_negatives(b)
        size = list_size(b)
        out = []
        for t in range(b.n):
            pos = np.flatnonzero(b.is_rel[t])
            missed = int(b.num_rel[t]) - len(pos)
            n_t, s_t = int(neg[t]), int(size[t])
            if self.view == "fpr":
                above = (pos - np.arange(len(pos))).astype(np.float64)  # negatives ranked above each
                x = above / float(n_t) if n_t > 0 else np.zeros(len(pos))
                gain = 1.0 - self.transform(x, param, n_t, s_t)
                out.append(np.concatenate([gain, np.zeros(max(missed, 0))]))
            else:
                tail = np.arange(s_t - missed + 1, s_t + 1, dtype=np.float64)
                x = np.concatenate([pos + 1.0, tail]) / float(s_t) if s_t else np.zeros(0)
                out.append(1.0 - self.transform(x, param, n_t, s_t))
        return out

    def moments(self, b, param) -> tuple[np.ndarray, np.ndarray]:
        """Per topic: mean and variance of a random ranking's area."""
        neg = num_negatives(b)
        size = list_size(b)
        mean = np.zeros(b.n)
        var = np.zeros(b.n)
        for i in range(b.n):
            n_i, s_i = int(neg[i]), int(size[i])
            mean[i], var[i] = random_moments(
                self.view, _one_topic(self.transform, param, n_i, s_i), int(b.num_rel[i]), n_i)
        return mean, var

    def zscores(self, b, param, ties: str = "docno") -> np.ndarray:
        area = self.areas(b, param, ties)
        mean, var = self.moments(b, param)
        sd = np.sqrt(var)
        return np.where(var > 0, safe_div(area - mean, sd), 0.0)


#: the moments of an area under a random ranking, by view (see the module's docstring), in LaTeX
_MOMENTS_TEX = {
    "rank": (r"\mathrm{E}[A] = \overline{h},\ \mathrm{Var}[A] = \frac{\sigma^2(h)}{P} \cdot \frac{N - P}{N - 1},"
             r"\ h_r = 1 - f(r/N),\ r = 1, \ldots, N"),
    "fpr": (r"\mathrm{E}[A] = \overline{w},\ \mathrm{Var}[A] = \frac{P + K}{P (K + 1)}\, \sigma^2(w),"
            r"\ w_j = 1 - f(j/N_{\mathrm{neg}}),\ j = 0, \ldots, N_{\mathrm{neg}},\ K = N_{\mathrm{neg}} + 1"),
}


def z_formula(name: str, area: Area) -> str:
    """The LaTeX :attr:`Measure.formula` of ``name``'s Z-score."""
    tex_name = name.replace("_", r"\_")
    return (r"\mathrm{" + tex_name + r"\_z} = \frac{A - \mathrm{E}[A]}{\sqrt{\mathrm{Var}[A]}},\quad A = \mathrm{"
            + tex_name + r"}, \qquad " + _MOMENTS_TEX[area.view]
            + r"\quad (0 \text{ if } \mathrm{Var}[A] = 0)")


def area_measures(name: str, area: Area, help_text: str, params: ParamSpec, formula: str = ""):
    """The area measure ``name`` (its :attr:`Measure.area` is ``area``, its
    :attr:`Measure.formula` ``formula``) and its Z-score companion ``name_z``
    (a Z-score is no mean over positives: no area)."""

    def per_param(fn):
        def kernel(b, p):
            values = p.values or (None,)
            return np.stack([fn(b, v, tie_rule(p)) for v in values], axis=1)
        return kernel

    if not isinstance(params, Ties):
        params = Ties(params)
        help_text = help_text + " " + TIES_HELP

    main = Measure(
        name=name, help=help_text, kernel=per_param(area.areas), params=params,
        nicknames=frozenset({"extra"}), since="extra", area=area, formula=formula,
    )
    z = Measure(
        name=f"{name}_z",
        help=(
            f"Z-score of {name} against a random ranking of the same list: (area - E) / SD, "
            f"with the exact mean and variance of the area when the relevant documents are "
            f"placed uniformly at random (analytic, no sampling); 0 for a topic without "
            f"relevant documents or without negatives. Same parameters as {name}."
        ),
        kernel=per_param(area.zscores), params=params,
        nicknames=frozenset({"extra"}), since="extra", formula=z_formula(name, area),
    )
    return main, z


# ---- transforms ----

def identity(x, param, neg, size):
    return np.asarray(x, dtype=np.float64)


def log_floor(x, param, neg, size):
    """Clark and Webster-Clark's p(x) = log10(max(x, 0.5/N)), rescaled onto
    [0, 1]: f(x) = 1 - p(x) / p(0), p(0) = log10(0.5/N)."""
    # a topic with an empty list (no documents at all) has no positives to score
    floor = 0.5 / np.maximum(np.asarray(size, dtype=np.float64), 1.0)
    x = np.asarray(x, dtype=np.float64)
    return 1.0 - np.log10(np.maximum(x, floor)) / np.log10(floor)


def hard_threshold(x, t, neg, size):
    """f(x) = min(x / t, 1) (the paper's equation 2)."""
    return np.minimum(np.asarray(x, dtype=np.float64) / t, 1.0)


def fp_cutoff(x, k, neg, size):
    """f(x) = min(x n / min(k, n), 1): the k-th negative maps to 1, or the last
    one when the list holds fewer than k."""
    neg = np.asarray(neg, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    reach = np.maximum(np.minimum(float(k), neg), 1.0)
    # without negatives every rate is 0 (a missed positive's 1): f is then the identity
    return np.where(neg > 0, np.minimum(x * neg / reach, 1.0), x)


@record
class UnitFloats(ParamSpec):
    """Like :class:`.ranked_curves.PositiveFloats` but each value in ]0, 1]."""

    default: tuple = ()
    what: str = "parameter"

    def _parse(self, measure: str, text: str) -> tuple:
        vals = PositiveFloats(self.default, self.what)._parse(measure, text)
        for v in vals:
            if v > 1:
                raise MeasureError(f"measure '{measure}': {self.what} must be in ]0, 1] (got {text!r})")
        return vals

    def output_names(self, name: str, params) -> list[str]:
        return [f"{name}_{format_param(v)}" for v in params.values]


def log_floor_random_area(size: float) -> float:
    """Continuous random-classifier area under the rescaled pROC/pAC curve:
    the integral of log(max(x, e)) / log(e) over [0, 1], e = 0.5/N,
    which is (1 - e) / log(1/e)."""
    e = 0.5 / size
    return (1.0 - e) / math.log(1.0 / e)
