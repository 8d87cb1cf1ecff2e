"""Area under the concentrated accumulation curve: ``cac_exp``, ``cac_pow``,
``cac_log`` and their Z-scores ``cac_*_z``.

The CAC curve is the accumulation curve with its x axis (the fraction of the
list ranked) magnified by the CROC paper's functions f (exp, pow, log, the
same ones and the same alpha defaults as ``croc_*``: f(0.1) about 0.5). Its area
is the mean over the topic's relevant documents of ``1 - f(r/N)``, r the
1-based rank in the full list of N documents (Swamidass et al. 2010, section
2.5: ranks {1, 2, 4, 5, 7} of 10 give the mean of 1 - f(.1), 1 - f(.2),
1 - f(.4), 1 - f(.5), 1 - f(.7)).

A random ranking scores, for long lists, the integral of 1 - f, the same
value as ``croc_*``'s (exp 0.142, 0.071, 0.0125 for alpha 7, 14, 80); the
``cac_*_z`` scores use the exact finite-list mean and variance. RIE and
BEDROC are affine transforms of ``cac_exp`` (the paper's equations 12-13).
Topics without relevant documents score 0; list and negatives as ``auc_roc``.
Parameters: ``cac_exp.7,14,80``, one output per alpha (``cac_exp_7``...).

Source: Swamidass et al., "A CROC stronger than ROC", Bioinformatics
26(10):1348-1356, 2010, sections 2.2, 2.5 and 6.
"""
from __future__ import annotations

from .croc import DEFAULT_ALPHA, FORMULA, FORMULA_TEX, magnification, random_area
from .early_retrieval import Area, area_measures
from .ranked_curves import NEGATIVES_HELP, PositiveFloats


def _measures(kind: str):
    d = DEFAULT_ALPHA[kind]
    return area_measures(
        f"cac_{kind}",
        Area("rank", magnification(kind)),
        (
            f"Area under the concentrated accumulation curve with the {kind} magnification "
            f"{FORMULA[kind]} (Swamidass et al. 2010): the mean over the relevant documents "
            f"of 1 - f(r/N), r the rank in the full list of N documents. A random ranking "
            f"scores about {random_area(kind, d):.3f} at alpha {d:g}. Parameters: -m "
            f"cac_{kind}.A,B (default {d:g}), outputs cac_{kind}_A... " + NEGATIVES_HELP
        ),
        PositiveFloats((d,), "alpha"),
        formula=(r"\mathrm{cac\_" + kind + r"}_\alpha = \frac{1}{P} \sum_{t=1}^{P} "
                 r"\Bigl(1 - f\bigl(\tfrac{r_t}{N}\bigr)\Bigr), \qquad " + FORMULA_TEX[kind]),
    )


cac_exp, cac_exp_z = _measures("exp")
cac_pow, cac_pow_z = _measures("pow")
cac_log, cac_log_z = _measures("log")
