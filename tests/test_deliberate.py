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
    # trec_eval exits 4 ("Can't calculate measure") when such a topic is the first it
    # evaluates (topic 0 here); after another topic it evaluates it (see
    # tests/engine/join/test_negative_only_topics.py), with the result checked for topic 2
    qrels = b"0 0 c -1\n0 0 d -2\n" + QRELS + b"2 0 c -1\n2 0 d -2\n"
    run = b"0 Q0 x 1 1 r\n" + RUN + b"2 Q0 x 1 1 r\n"
    for compat in ("9.0.8", "10.0"):
        ev = evaluate(qrels, run, ["map", "num_rel", "num_ret", "P.1", "ndcg"], compat=compat)
        for topic in ("0", "2"):
            values = {c.name: v[ev.topics.index(topic)] for c, v in zip(ev.columns, ev.column_values)}
            assert values == {"num_ret": 1, "num_rel": 0, "map": 0.0, "P_1": 0.0, "ndcg": 0.0}
        assert ev.topics == ["0", "1", "2"]


def test_zscore_missing_for_a_topic_is_missing_even_where_trec_eval_reads_past_its_table(tmp_path):
    # topic 1 lists only map; utility sorts after it, so trec_eval's measure search
    # reads the entry after topic 1's table (here: topic 2's utility, mean 1, sd 1)
    # and prints (2 - 1) / 1 = 1.0000 for topic 1
    z = tmp_path / "z"
    z.write_bytes(b"1 map 0.5 0.5\n2 utility 1 1\n")
    qrels = b"1 0 a 1\n1 0 b 1\n2 0 a 1\n"
    run = b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n2 Q0 a 1 1 r\n"
    for compat in ("9.0.8", "10.0"):
        ev = evaluate(qrels, run, ["utility", "map"], zscore_file=str(z), compat=compat)
        lines = ev.to_text(query=True).splitlines()
        assert "Zutility               \t1\t-1000000.0000" in lines  # trec_eval: 1.0000
        assert "Zmap                   \t1\t1.0000" in lines
        assert "Zutility               \t2\t0.0000" in lines
        assert "Zutility               \tall\t-500000.0000" in lines


def test_zscore_line_given_twice_is_an_error(tmp_path):
    import pytest

    from trec_eval_py.errors import InputError

    z = tmp_path / "z"
    z.write_bytes(b"1 map 0.5 0.5\n1 map 0.2 0.1\n")
    with pytest.raises(InputError, match="line 2: topic and measure already given on line 1"):
        evaluate(QRELS, RUN, ["map"], zscore_file=str(z))
