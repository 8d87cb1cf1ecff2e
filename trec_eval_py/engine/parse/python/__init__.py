"""Judgments and runs held in Python, turned into the columns the file readers give.

This is the one conversion layer for every input that is not text: whatever
the entry point (:func:`~trec_eval_py.engine.pipeline.evaluate`, the
pytrec_eval drop-in, compare, batch, the ir_measures provider), these kinds
become a :class:`~.qrels.Qrels` or :class:`~.run.Run`:

* a dict of dicts, ``{topic: {docno: level}}`` / ``{topic: {docno: score}}``
  (pytrec_eval's layout; topic ids and docnos must be ``str``);
* a pandas or polars DataFrame, a pyarrow ``Table`` or ``RecordBatch``, read
  by column name (below), whatever else it holds;
* a Parquet file: a path ending in ``.parquet``, or any file or bytes
  starting with Parquet's magic ``PAR1`` (needs pyarrow: the ``parquet`` extra);
* an iterable of namedtuples with ir_measures' fields: ``Qrel(query_id,
  doc_id, relevance, ...)`` for judgments, ``ScoredDoc(query_id, doc_id,
  score)`` for runs.

Column names (the first one present is used):

* topic: ``query_id`` (ir_measures), ``qid`` (PyTerrier), ``q_id`` (ranx), ``topic``, ``topic_id``
* document: ``doc_id`` (ir_measures, ranx), ``docno`` (PyTerrier), ``docid``
* judgment level: ``relevance`` (ir_measures), ``rel``, ``label``, ``judgment``,
  ``judgement``; ``score`` for judgments that have none of those (ranx's qrels)
* retrieval score: ``score``; rank (read for ``--order rank``): ``rank``
* run id (optional, one value): ``run_id``, ``runid``, ``run``, ``name``

The rules are the file readers': topic ids and docnos are text without NUL
characters (integer ids, and whole-number floats such as pandas makes of
integer columns with gaps, are written in decimal), relevance levels are
whole numbers from :data:`~.levels.MIN_LEVEL` to :data:`~.levels.MAX_LEVEL`,
scores are numbers and never NaN (infinities are allowed, as in run files).
A docno given twice for one topic is reported by the join, as for files,
with rows counted from 1 as "lines".

The good path never runs Python code per value: dicts are flattened (by
the optional C extension ``_native/_pyin.c``, else by C-level iteration into
lists and numpy; a big run dict a piece of whole topics at a time, see
:func:`iter_run_from_dict`), columns are checked with numpy, and Arrow strings are
copied from their buffers. An error's message is built only for the value
that fails, with the offending value shortened.

The package's modules, one kind of input each, all returning the columns of
``_columns`` (the column names, what a source is and how big, ids and values checked):
``_dicts``, ``_tables`` (DataFrames, Arrow, Parquet), ``_records``
(ir_measures' namedtuples), and ``_writing`` (columns back to Python and to
files). Their names are used as this package's: a test that patches one
patches it in the module that reads it (``_tables.PARQUET_BATCH_ROWS``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .... import _lazy_attributes
from ._columns import (  # noqa: F401  (the package's names, where they were)
    DOCUMENT,
    LEVEL,
    PARQUET_MAGIC,
    RANK,
    RUNID,
    SCORE,
    SHOWN,
    TOPIC,
    dict_rows,
    is_arrow,
    is_frame,
    is_pandas,
    is_parquet,
    is_polars,
    is_records,
    parquet_size,
    row_numbers,
)

#: the names of the modules that read each kind of input and write columns back,
#: imported on first use: an evaluation of files asks only what its inputs are
#: (``_columns``), about 1 ms of its start
_LAZY = {
    **dict.fromkeys(("iter_run_from_dict", "qrels_from_dict", "run_from_dict", "run_topics"), "._dicts"),
    **dict.fromkeys(("QREL_FIELDS", "RUN_FIELDS", "qrels_from_records", "run_from_records"), "._records"),
    **dict.fromkeys(("PARQUET_BATCH_ROWS", "iter_parquet_run", "pick_column", "qrels_from_table", "read_parquet",
                     "run_from_table"), "._tables"),
    **dict.fromkeys(("distinct", "ids_text", "nested", "parquet_bytes", "require_pandas", "table_name",
                     "topic_mask", "write_parquet", "write_rows"), "._writing"),
}

if TYPE_CHECKING:
    from ._dicts import iter_run_from_dict, qrels_from_dict, run_from_dict, run_topics  # noqa: F401
    from ._records import QREL_FIELDS, RUN_FIELDS, qrels_from_records, run_from_records  # noqa: F401
    from ._tables import (  # noqa: F401
        PARQUET_BATCH_ROWS,
        iter_parquet_run,
        pick_column,
        qrels_from_table,
        read_parquet,
        run_from_table,
    )
    from ._writing import (  # noqa: F401
        distinct,
        ids_text,
        nested,
        parquet_bytes,
        require_pandas,
        table_name,
        topic_mask,
        write_parquet,
        write_rows,
    )


__getattr__ = _lazy_attributes(__name__, _LAZY)
