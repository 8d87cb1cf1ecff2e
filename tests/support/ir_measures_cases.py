"""ir_measures' own numbers on random judgments and runs, for the tests that hold
trec_eval_py to them (the ir_measures names, the ir_measures provider).

ir_measures runs in a child process: pytrec_eval (which its pytrec_eval
provider drives) is unreliable on ndcg after many evaluators in one process
(see tests/compat/test_compat_pytrec.py).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys

#: names and variants ir_measures' pytrec_eval provider computes
PYTREC_NAMES = [
    "AP", "AP@5", "AP(rel=2)", "AP(judged_only=True)@10", "AP(rel=2,judged_only=True)",
    "P@1", "P@5", "P(rel=2)@3", "P(judged_only=True)@5",
    "R@5", "R@10", "R(judged_only=True)@5",
    "RR", "RR(rel=2)", "RR(judged_only=True)",
    "nDCG", "nDCG@3", "nDCG@10", "nDCG(judged_only=True)@5", "nDCG(gains={0:0,1:1,2:5,3:2})",
    "Rprec", "Rprec(rel=2)", "Rprec(judged_only=True)",
    "Bpref", "Bpref(rel=2)", "infAP", "infAP(rel=2)",
    "NumRet", "NumRet(rel=2)", "NumRelRet", "NumRel", "NumQ",
    "SetP", "SetP(rel=2)", "SetP(relative=True)", "SetP(judged_only=True)", "SetRelP",
    "SetR", "SetR(rel=2)", "SetF", "SetF(beta=0.5)", "SetF(rel=2,judged_only=True)", "SetAP",
    "Success@1", "Success@5", "Success(rel=2)@3", "Success(judged_only=True)@2",
    "IPrec@0.0", "IPrec@0.5", "IPrec@1.0", "IPrec(judged_only=True)@0.3",
    # every (rel=N) / (judged_only=True) variant the provider accepts, and combinations
    "AP(rel=3)@5", "P(rel=3,judged_only=True)@10", "R(rel=2)@5", "R(rel=2,judged_only=True)@10",
    "RR(rel=3,judged_only=True)", "Rprec(rel=2,judged_only=True)", "NumRelRet(rel=2)", "NumRel(rel=1)",
    "SetP(relative=True,rel=2)", "SetRelP(rel=2)", "SetRelP(judged_only=True)", "SetR(rel=3)",
    "SetF(rel=2,beta=2.0)", "SetAP(rel=2)", "SetAP(judged_only=True)", "Success(rel=2,judged_only=True)@5",
    "IPrec(rel=2)@0.5", "IPrec(rel=2,judged_only=True)@0.2",
    # custom gains with a cutoff (ndcg_gain_cut), and the one DCG the provider has
    "nDCG(gains={0:0,1:1,2:5,3:2})@5", "nDCG(gains={0:1,1:3,3:0})@10", "nDCG(gains={1:0,2:7},judged_only=True)@3",
    "nDCG(gains={2:1})", 'nDCG(dcg="log2")@5',
]

QIDS = ["1", "2", "9", "10", "010", "a", "B"]
DOCS = ["d1", "d2", "d9", "d10", "9", "10", "100", "09", "A", "Z", "a", "b", "doc-x", "d3", "d4", "d5"]
SCORES = [0.0, 1.0, 1.0, 2.5, -1.0, 1e-3, 3.0, 3.0]


def random_case(rng: random.Random, levels=(-1, 0, 0, 1, 1, 2, 3), ties=True):
    while True:  # at least one topic with both judgments and results
        qrels, run = _draw(rng, levels, ties)
        if set(qrels) & set(run):
            return qrels, run


def _draw(rng, levels, ties):
    qrels = {}
    for q in rng.sample(QIDS, rng.randint(1, 5)):
        docs = rng.sample(DOCS, rng.randint(1, 10))
        qrels[q] = {d: rng.choice(levels) for d in docs}
        if max(qrels[q].values()) < 0:
            # a topic whose every judgment is negative: trec_eval 9.0.8 stops ("can't calculate
            # measure") and pytrec_eval sees no documents retrieved for it, or crashes
            qrels[q][docs[0]] = 0
    run = {}
    for q in rng.sample(QIDS, rng.randint(1, 5)):
        docs = rng.sample(DOCS, rng.randint(1, 14))
        if ties:
            run[q] = {d: (rng.choice(SCORES) if rng.random() < 0.6 else round(rng.uniform(-5, 5), 3)) for d in docs}
        else:
            run[q] = dict(zip(docs, rng.sample(range(-50, 50), len(docs))))
    return qrels, run


_CHILD = """
import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "drop-in":
    # what a user does to run ir_measures on trec_eval_py: pytrec_eval is our drop-in
    import trec_eval_py.compat.pytrec_eval as dropin
    sys.modules["pytrec_eval"] = dropin
import ir_measures
cases = json.loads(sys.stdin.read())
out = []
for qrels, run, names, provider in cases:
    prov = getattr(ir_measures, provider)
    asked = {}
    for name in names:
        asked.setdefault(ir_measures.parse_measure(name), []).append(name)
    per = {name: {} for name in names}
    # all names at once: the provider groups them into as few evaluators as it can
    for r in prov.iter_calc(list(asked), qrels, run):
        for name in asked[r.measure]:
            per[name][r.query_id] = float(r.value)
    out.append(per)
if provider == "pytrec_eval":  # which module the provider drove
    out.append(ir_measures.pytrec_eval.pytrec_eval.__name__)
print(json.dumps(out))
"""


def child_values(cases, timeout=60, drop_in=False):
    """``[{name: {topic: value}}]`` from ir_measures in one fresh process, for ``cases``
    ``[(qrels, run, names, provider)]``; ``drop_in`` runs it on trec_eval_py's pytrec_eval."""
    args = [sys.executable, "-c", _CHILD] + (["drop-in"] if drop_in else [])
    done = subprocess.run(args, input=json.dumps(cases), capture_output=True, text=True, timeout=timeout, check=True)
    out = json.loads(done.stdout)
    if cases[0][3] == "pytrec_eval":
        module = out.pop()
        assert module == ("trec_eval_py.compat.pytrec_eval" if drop_in else "pytrec_eval"), module
    return out


#: (case, name) pairs ir_measures could not compute: pytrec_eval crashed or hung on them
REFERENCE_FAILED: list = []


def ir_measures_values(cases, drop_in=False) -> list[dict]:
    """``[{name: {topic: value}}]`` from ir_measures, one fresh process per case.

    pytrec_eval sometimes crashes or hangs on a combination of measures that
    it computes fine one at a time (state left over between its evaluators);
    such a case is computed again one name per process. A name that still
    fails is left out and recorded in :data:`REFERENCE_FAILED`.
    """
    results = []
    for case in cases:
        try:
            results += child_values([case], drop_in=drop_in)
            continue
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
            pass
        qrels, run, names, provider = case
        per = {}
        for name in names:
            try:
                per.update(child_values([(qrels, run, [name], provider)], timeout=30)[0])
            except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
                REFERENCE_FAILED.append((qrels, run, name))
        results.append(per)
    return results
