"""Rewrite :mod:`._index` from the measure modules: run
``python -m trec_eval_py.engine.measures._write_index`` after adding a measure
or changing one's name, version or nicknames (a test fails until it is done)."""
import os

from ._registry import discover, index_source

if __name__ == "__main__":
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_index.py")
    with open(path, "w") as f:
        f.write(index_source(discover()))
    print(f"wrote {path}")
