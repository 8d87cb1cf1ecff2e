"""Area under the concentrated ROC curve: ``croc_exp``, ``croc_pow``, ``croc_log``.

The CROC curve plots the true-positive rate against f(fpr), where f magnifies
the early part of the false-positive axis (alpha > 0 sets how much):

    exp:  f(x) = (1 - e^(-alpha x)) / (1 - e^(-alpha))
    pow:  f(x) = x^(1 / (1 + alpha))
    log:  f(x) = log(1 + alpha x) / log(1 + alpha)

Its area is the mean, over the topic's P relevant documents, of 1 - f(fpr_i),
where fpr_i is the share of negatives ranked above relevant document i
(Swamidass et al. 2010, section 2.5: positives at ranks 1,2,4,5,7 of 10 have
rates 0,0,.2,.2,.4). Relevant documents not retrieved are ranked after every
negative and add 0. Topics without relevant documents score 0.

A random ranking scores the area under f's inverse, in closed form
(:func:`random_area`): exp 1/alpha - e^(-alpha)/(1 - e^(-alpha)) (0.142, 0.071,
0.0125 for alpha 7, 14, 80), pow 1/(2 + alpha), log 1/log(1 + alpha) - 1/alpha.

Negatives: by default the retrieved non-relevant documents; with ``-N`` the
collection's non-relevant documents, unretrieved ones ranked last. Parameters:
``croc_exp.7,14,80``, one output per alpha, named ``croc_exp_7``... Defaults
make f(0.1) about 0.5 as in the paper's Figure 1: exp 7, pow 2.32, log 80.

``ties=average`` (``croc_exp.7,ties=average``): each relevant document's
1 - f(fpr) is its mean over every order of its group of tied documents (its
rate uniform over the rates the group's negatives allow). The CROC package's
"smooth" mode instead draws a straight segment across the group in ROC space
and magnifies its points: the same area for plain ROC, a slightly different
one under a magnification.

Source: S. J. Swamidass, C.-A. Azencott, K. Daily, P. Baldi, "A CROC stronger
than ROC: measuring, visualizing and optimizing early retrieval",
Bioinformatics 26(10):1348-1356, 2010.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from ._base import Measure
from ._params import Ties, tie_rule
from .early_retrieval import Area
from .ranked_curves import MAGNIFIERS, NEGATIVES_HELP, TIES_HELP, PositiveFloats, croc_area

DEFAULT_ALPHA = {"exp": 7.0, "pow": 2.32, "log": 80.0}

FORMULA = {
    "exp": "f(x) = (1 - exp(-alpha x)) / (1 - exp(-alpha))",
    "pow": "f(x) = x^(1/(1+alpha))",
    "log": "f(x) = log(1 + alpha x) / log(1 + alpha)",
}

#: the same magnifications in LaTeX, for :attr:`Measure.formula`
FORMULA_TEX = {
    "exp": r"f(x) = \frac{1 - e^{-\alpha x}}{1 - e^{-\alpha}}",
    "pow": r"f(x) = x^{1/(1 + \alpha)}",
    "log": r"f(x) = \frac{\ln(1 + \alpha x)}{\ln(1 + \alpha)}",
}


def random_area(kind: str, alpha: float) -> float:
    """AUC[CROC] of a random ranking: the integral of 1 - f over [0, 1]."""
    if kind == "exp":
        return 1.0 / alpha - math.exp(-alpha) / -math.expm1(-alpha)
    if kind == "pow":
        return 1.0 / (2.0 + alpha)
    if kind == "log":
        return 1.0 / math.log1p(alpha) - 1.0 / alpha
    raise ValueError(kind)


def _kernel(kind: str, b, p) -> np.ndarray:
    f = MAGNIFIERS[kind]
    return np.stack([croc_area(b, partial(f, alpha=a), tie_rule(p)) for a in p.values], axis=1)


def magnification(kind: str):
    """The transform of :class:`~.early_retrieval.Area` for CROC's ``kind`` of f."""
    mag = MAGNIFIERS[kind]
    return lambda x, alpha, neg, size: mag(x, alpha)


def _measure(kind: str) -> Measure:
    d = DEFAULT_ALPHA[kind]
    return Measure(
        name=f"croc_{kind}",
        formula=(r"\mathrm{croc\_" + kind + r"}_\alpha = \frac{1}{P} \sum_{t=1}^{P} \bigl(1 - f(\nu_t)\bigr), "
                 r"\qquad " + FORMULA_TEX[kind]),
        help=(
            f"Area under the concentrated ROC curve with the {kind} magnification "
            f"{FORMULA[kind]} (Swamidass et al. 2010): the mean over the relevant documents "
            f"of 1 - f(fpr), fpr being the share of negatives ranked above the document; "
            f"relevant documents not retrieved add 0. A random ranking scores about "
            f"{random_area(kind, d):.3f} at alpha {d:g}. Parameters: -m croc_{kind}.A,B "
            f"(default {d:g}), outputs croc_{kind}_A... " + NEGATIVES_HELP + " " + TIES_HELP
        ),
        kernel=partial(_kernel, kind),
        params=Ties(PositiveFloats((d,), "alpha")),
        area=Area("fpr", magnification(kind)),
        nicknames=frozenset({"extra"}),
        since="extra",
    )


croc_exp = _measure("exp")
croc_pow = _measure("pow")
croc_log = _measure("log")
