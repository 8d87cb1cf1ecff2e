"""Reader for TREC qrels: ``qid iter docno rel`` lines.

``rel`` is an integer: levels >= 0 are judgments (relevant when at least the
relevance level, ``-l``, default 1); a negative value marks a document that
is in the pool but was not judged (trec_eval's "unjudged", used by infAP).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ...errors import InputError
from .fields import INT, TEXT, split_fields
from .source import Source, read_source, source_name


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments as flat columns, one row per judged document.

    ``qid`` and ``docno`` are numpy byte-string arrays; ``rel`` is int64.
    ``lineno`` holds each row's line in ``name`` (for error messages).
    """

    qid: np.ndarray
    docno: np.ndarray
    rel: np.ndarray
    lineno: np.ndarray
    name: str = "<qrels>"

    def __len__(self) -> int:
        return len(self.rel)

    @classmethod
    def from_dict(cls, qrels: Mapping[str, Mapping[str, int]], name: str = "<qrels dict>") -> "Qrels":
        """Build from ``{qid: {docno: rel}}`` (pytrec_eval's layout)."""
        qids, docs, rels = [], [], []
        for q, judged in qrels.items():
            for d, r in judged.items():
                if isinstance(r, bool) or int(r) != r:
                    raise InputError(name, f"relevance of {q}/{d} is not an integer ({r!r})")
                qids.append(str(q).encode())
                docs.append(str(d).encode())
                rels.append(int(r))
        if not rels:
            raise InputError(name, "no judgments")
        return cls(
            np.array(qids, dtype="S"),
            np.array(docs, dtype="S"),
            np.array(rels, dtype=np.int64),
            np.arange(1, len(rels) + 1, dtype=np.int64),
            name,
        )

    def to_dict(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for q, d, r in zip(self.qid.tolist(), self.docno.tolist(), self.rel.tolist()):
            out.setdefault(q.decode("utf-8", "surrogateescape"), {})[d.decode("utf-8", "surrogateescape")] = r
        return out


def read_qrels(source: Source | Mapping | Qrels, *, name: str | None = None) -> Qrels:
    """Read qrels from a path, ``-``, a file object, bytes, or a dict.

    Raises :class:`~trec_eval_py.errors.InputError` for a missing or empty
    file, a line without exactly four fields, a NUL byte or a relevance that
    is not an integer. Comment lines (first non-blank byte ``#``) and blank
    lines are skipped.
    """
    if isinstance(source, Qrels):
        return source
    if isinstance(source, Mapping):
        return Qrels.from_dict(source, name or "<qrels dict>")
    name = name or source_name(source)
    data = read_source(source)
    f = split_fields(
        data, name, min_fields=4, max_fields=4, what="qrels",
        wanted={0: TEXT, 2: TEXT, 3: INT}, labels={3: "relevance"},
    )
    if len(f.lineno) == 0:
        raise InputError(name, "empty qrels file: no judgment lines")
    return Qrels(f.columns[0], f.columns[2], f.columns[3], f.lineno, name)
