"""The checkout's folders, for every test wherever it sits under ``tests/``."""
from __future__ import annotations

from pathlib import Path

#: the checkout: the folder holding pyproject.toml, trec_eval_py/ and tests/
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
#: the golden corpus (trec_eval 9.0.8 and 10.0 outputs), see support.golden
GOLDEN = FIXTURES / "golden"
#: the seed documents' worked examples (fixtures/seeds_examples/README.md)
SEEDS = FIXTURES / "seeds_examples"
EXAMPLES = ROOT / "examples"
