"""``-T``/``-R`` ``biocreative_int``, ``biocreative_ipt``, ``biocreative_act``:
the BioCreative II.5 results and gold files (see
:mod:`trec_eval_py.engine.parse.biocreative` for the layouts, the checks and
how ACT's two lists become one ranking).

The gold files are read as qrels and joined by the qrels join, so every
qrels measure reads them (``auc_ipr`` and ``auc_ipr_micro``, the campaign's
macro- and micro-averaged AUC iP/R, ``trr``, ``avg_confidence``...). The
results rank by their rank column unless ``--order`` says otherwise (the page
evaluates ranks; confidences only break ties between systems).

Which INT and IPT articles are averaged over is the choice the official
evaluation library (bc-evaluate 2.3.1) offers: by default only the gold
articles the results have hits for, and with its ``--all`` every gold
article, one without hits scoring 0. The first is trec_eval's default, the
second its ``-c`` (also spelled ``--all``). With ``-c`` a results file that
hits no gold article scores 0, as bc-evaluate scores it; without ``-c`` it
has no article to average over, an error. ACT is one ranking of every
article and does not depend on it; bc-evaluate leaves ACT articles outside
the gold standard out of that ranking, which ``-J`` does (without it they are
judged articles without interactions, as trec_eval judges an unjudged
document).
"""
from __future__ import annotations

from functools import partial

from ..join.qrels import build_rankings
from ..parse.biocreative import TASKS, read_biocreative_gold, read_biocreative_results
from ._base import JudgmentFormat, ResultsFormat
from .qrels import QRELS

_RESULTS_COLUMNS = {
    "int": "    DOI  accession  rank  confidence",
    "ipt": "    DOI  accession_A  accession_B  rank  confidence",
    "act": "    DOI  class  rank  confidence",
}
_GOLD_COLUMNS = {
    "int": "    DOI  accession",
    "ipt": "    DOI  accession_A  accession_B",
    "act": "    DOI  class",
}
_WHAT = {
    "int": """\
Each article (DOI) is a topic; its hits are UniProt accessions.""",
    "ipt": """\
Each article (DOI) is a topic; its hits are interaction pairs of UniProt
accessions. A pair is unordered: 'A B' and 'B A' are one pair (its docno is
the two accessions in byte order joined by '|', so '|' may not occur in an
accession), and a pair listed twice, with its columns swapped or not, is an
error.""",
    "act": """\
The whole file is one ranking of articles, topic 'ACT'; class is 1 (the
article describes protein interactions) or 0 (it does not). Ranks count
within each class. The ranking evaluated joins the positive hits in rank
order with the negative hits in inverted rank order: a system's surest
negative (rank 1 of class 0) comes last. With P positive and N negative
hits, a negative of rank r is ranked P + N - r + 1. An article outside the
gold standard counts as one without interactions; bc-evaluate leaves such
articles out of the ranking, as -J does.""",
}

_RESULTS_RULES = """\
Columns are separated by single tabs. Ranks are whole numbers that start at
1 and go up by one from line to line within each {group}: unique,
consecutive and ascending as listed. Confidences lie in ]0, 1]. Either rule
broken is an error naming the file and line; a confidence higher than the
one before it in the same {group} is a warning (stderr, one line each).
Documents are ranked by the rank column unless --order says otherwise; the
confidence is the score (avg_confidence reports its mean, which the campaign
used to order systems that performed equally). The run id is the file's base
name. Lines whose first non-blank character is '#' are comments.
"""
_WHICH_ARTICLES = ("The articles averaged over are those with hits (bc-evaluate's default);\n"
                   "with -c (--all, as bc-evaluate names it) every gold article, one without\n"
                   "hits scoring 0.\n")


def _results(task: str) -> ResultsFormat:
    t = TASKS[task]
    group = "class" if task == "act" else "article"

    def read(source, rank_column: bool = False):
        # the rank column is always read: it is this format's ranking
        return read_biocreative_results(source, task)

    return ResultsFormat(
        name=f"biocreative_{task}",
        help=(f"Results format 'biocreative_{task}' (-T biocreative_{task}): BioCreative II.5 {t.name}\n"
              f"results, one hit a line,\n{_RESULTS_COLUMNS[task]}\n{_WHAT[task]}\n"
              + _RESULTS_RULES.format(group=group)),
        read=read,
        order="rank",
    )


def _gold(task: str) -> JudgmentFormat:
    t = TASKS[task]
    return JudgmentFormat(
        name=f"biocreative_{task}",
        help=(f"Judgments format 'biocreative_{task}' (-R biocreative_{task}): a BioCreative II.5\n"
              f"{t.name} gold standard, one entry a line,\n{_GOLD_COLUMNS[task]}\n{_WHAT[task]}\n"
              + ("Every entry is relevant to its article.\n" if task != "act"
                 else "Class 1 is relevant, class 0 judged not relevant.\n")
              + "Columns are separated by single tabs; an entry listed twice is an error.\n"
              + (_WHICH_ARTICLES if task != "act" else "")
              + f"Use with -T biocreative_{task} results and -m auc_ipr (the campaign's measure"
              + (", macro-averaged; auc_ipr_micro micro-averaged).\n" if task != "act" else ").\n")),
        read=partial(read_biocreative_gold, task=task),
        join=build_rankings,
        totals=QRELS.totals,
        stream=QRELS.stream,
        spill=QRELS.spill,
        feeds="qrels",
        # under -c (bc-evaluate's --all) a file without a gold article's hit scores 0
        scores_unmatched=True,
    )


BIOCREATIVE_INT = _results("int")
BIOCREATIVE_IPT = _results("ipt")
BIOCREATIVE_ACT = _results("act")
BIOCREATIVE_INT_GOLD = _gold("int")
BIOCREATIVE_IPT_GOLD = _gold("ipt")
BIOCREATIVE_ACT_GOLD = _gold("act")
