"""The exact set of trec_eval's measure names per version, and the print order.

The lists below are trec_eval's measure tables (``te_trec_measures`` in
``measures.c`` of the 9.0.8 and 10.0 releases), written out by hand: every
name there must be registered here with that version as ``since``, nothing
else may claim a trec_eval version, and measures print in the table's order,
this package's extras after them in order of their names.
"""
from __future__ import annotations

import pytest

from trec_eval_py.engine.measures import Measure, registry
from trec_eval_py.engine.measures._base import VERSIONS
from trec_eval_py.engine.measures._order import TREC_ORDER
from trec_eval_py.engine.measures._registry import Registry

TABLE_908 = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult",
    "utility", "11pt_avg", "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut",
    "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
    "num_nonrel_judged_ret", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
    "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret",
    "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
    "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
)
TABLE_10 = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult",
    "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut",
    "map_cut", "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
    "num_nonrel_judged_ret", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
    "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret",
    "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
    "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
    "rbp", "rbp_resid", "unj",
)
TABLES = {"9.0.8": TABLE_908, "10.0": TABLE_10}


@pytest.mark.parametrize("version", VERSIONS)
def test_exact_trec_eval_measure_names_per_version(version):
    upto = VERSIONS[: VERSIONS.index(version) + 1]
    ours = [m.name for m in registry() if m.since in upto]
    assert ours == list(TABLES[version])  # the same names, in the table's order


def test_print_order_is_the_table_then_extras_by_name():
    assert TREC_ORDER == TABLE_10
    names = [m.name for m in registry()]
    extras = [m.name for m in registry() if m.since not in VERSIONS]
    assert names == list(TABLE_10) + sorted(extras)
    assert extras and not set(extras) & set(TABLE_10)


def test_resolve_prints_in_table_order_whatever_the_request_order():
    picked = registry().resolve(["trr", "P.5", "bedroc", "map", "num_q", "auc_roc"])
    assert [s.measure.name for s in picked] == ["num_q", "map", "P", "auc_roc", "bedroc", "trr"]


def _fake(name: str, since: str) -> Measure:
    return Measure(name=name, help="", kernel=lambda b, p: None, since=since)


def test_registry_refuses_clashes():
    with pytest.raises(RuntimeError, match="two measures are named 'map'"):
        Registry([_fake("map", "9.0.8"), _fake("map", "9.0.8")])
    with pytest.raises(RuntimeError, match="'my_extra'.*TREC_ORDER"):
        Registry([_fake("my_extra", "9.0.8")])  # claims a trec_eval version it is not in
    with pytest.raises(RuntimeError, match="'map'.*TREC_ORDER"):
        Registry([_fake("map", "extra")])  # an extra under a trec_eval name
    assert [m.name for m in Registry([_fake("zz", "extra"), _fake("P", "9.0.8"), _fake("aa", "extra"),
                                      _fake("num_q", "9.0.8")])] == ["num_q", "P", "aa", "zz"]


def test_the_measure_index_is_current():
    """The static index (module, version, nicknames of every measure) is what the
    modules define: rewrite it with ``python -m trec_eval_py.engine.measures._write_index``."""
    from trec_eval_py.engine.measures import _index
    from trec_eval_py.engine.measures._registry import discover, index_source

    with open(_index.__file__) as f:
        assert f.read() == index_source(discover())


def test_the_indexed_registry_loads_only_what_is_asked_and_refuses_a_stale_index():
    import sys

    reg = Registry.indexed({"map": ("map", "9.0.8", ("all_trec", "official")),
                            "bpref": ("bpref", "9.0.8", ("all_trec",))})
    assert [s.measure.name for s in reg.resolve(["map"])] == ["map"]
    assert "bpref" in reg and "bpref" not in reg._by_name
    assert [m.name for m in reg.nickname_members("official", "9.0.8")] == ["map"]
    assert sys.modules["trec_eval_py.engine.measures.map"].MAP is reg["map"]
    stale = Registry.indexed({"map": ("map", "9.0.8", ("official",))})
    with pytest.raises(RuntimeError, match="differs from the measure index"):
        stale["map"]
    wrong = Registry.indexed({"map": ("bpref", "9.0.8", ("all_trec", "official"))})
    with pytest.raises(RuntimeError, match="does not define it"):
        wrong["map"]
