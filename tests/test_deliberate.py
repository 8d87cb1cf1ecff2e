"""The deliberate differences from trec_eval that README lists (besides garbage
input, tested with the parsers): each behaves as documented."""
from trec_eval_py import evaluate

QRELS = b"1 0 a 1\n1 0 b 2\n"
RUN = b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n"


def test_dcg_and_ndcg_keep_their_own_parameters_in_10():
    # 10.0 shares one parameter block: it prints ndcg_1=5 here, with dcg's gains
    ev = evaluate(QRELS, RUN, ["dcg.1=5", "all_trec"], compat="10.0")
    names = [c.name for c in ev.columns]
    assert "dcg_1=5" in names and "ndcg" in names and "ndcg_1=5" not in names
    plain = evaluate(QRELS, RUN, ["ndcg"], compat="10.0")
    assert ev.summary["ndcg"] == plain.summary["ndcg"]
    # the combination that makes 10.0 crash: two separate results
    both = evaluate(QRELS, RUN, ["dcg.1=5", "ndcg"], compat="10.0")
    assert both.summary["ndcg"] == plain.summary["ndcg"]
    assert both.summary["dcg_1=5"] == evaluate(QRELS, RUN, ["dcg.1=5"], compat="10.0").summary["dcg_1=5"]


def test_topic_with_only_negative_judgments_is_evaluated():
    # trec_eval exits 4 ("Can't calculate measure") on topic 2
    qrels = QRELS + b"2 0 c -1\n2 0 d -2\n"
    run = RUN + b"2 Q0 x 1 1 r\n"
    for compat in ("9.0.8", "10.0"):
        ev = evaluate(qrels, run, ["map", "num_rel", "num_ret", "P.1", "ndcg"], compat=compat)
        t2 = {c.name: v[ev.topics.index("2")] for c, v in zip(ev.columns, ev.column_values)}
        assert t2 == {"num_ret": 1, "num_rel": 0, "map": 0.0, "P_1": 0.0, "ndcg": 0.0}
        assert ev.topics == ["1", "2"]
