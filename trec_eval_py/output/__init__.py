"""The output layer: what an evaluation, a comparison or a report looks like on the page.

:mod:`.evaluation` prints an evaluation as trec_eval does (and as JSON or CSV);
:mod:`.notebook` shows it in notebooks (DataFrames, HTML). Nothing here
computes a value: the stages below hand over finished numbers.
"""
