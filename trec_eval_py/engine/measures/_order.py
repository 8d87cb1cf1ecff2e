"""Print order: the one place that decides in which order measures are printed.

trec_eval prints measures in the order of its measure table
(``te_trec_measures`` in its ``measures.c``), whatever order ``-m`` named
them in. :data:`TREC_ORDER` is that table as of trec_eval 10.0 (9.0.8's is
the same without ``dcg``, ``ideal_dcg``, ``rbp``, ``rbp_resid`` and ``unj``,
which 10.0 added). Measures trec_eval does not have (this package's extras)
print after all of them, in order of their names.
"""
from __future__ import annotations

TREC_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
    "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel",
    "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
    "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "prefs_num_prefs_poss",
    "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
    "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
    "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj",
)

_POSITION = {name: i for i, name in enumerate(TREC_ORDER)}
assert len(_POSITION) == len(TREC_ORDER), "a measure is listed twice in TREC_ORDER"


def print_key(name: str) -> tuple:
    """Sort key of measure ``name``: trec_eval's table position, then extras by name."""
    i = _POSITION.get(name)
    return (0, i, "") if i is not None else (1, 0, name)


def is_trec_measure(name: str) -> bool:
    """Whether trec_eval (9.0.8 or 10.0) has a measure of this name."""
    return name in _POSITION
