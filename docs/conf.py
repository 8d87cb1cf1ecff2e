"""Sphinx configuration of the documentation site (``python3 -m sphinx -W docs OUT``).

Sphinx rather than MkDocs: the package's docstrings are reStructuredText
(``literals``, ``:class:`` and ``:func:`` references, numpy-style sections),
which autodoc and napoleon render as written; the guides are Markdown, read by
MyST. The reference pages are written from the code at each build by
``_ext/reference.py``.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the package of this checkout
sys.path.insert(0, os.path.join(HERE, "_ext"))

project = "trec_eval_py"
author = "trec_eval_py"
copyright = "trec_eval_py"

# formulas (each measure's page, the guides' $...$) are drawn by MathJax, served from the
# site itself (sphinx-mathjax-offline copies it into _static): the site reaches no other host
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax",
              "sphinx-mathjax-offline", "reference", "guides"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_ext", "img/*.sh"]

# links to #headings of Markdown pages, as GitHub names them
myst_heading_anchors = 4
myst_enable_extensions = ["deflist", "dollarmath", "amsmath"]
# a macro MathJax does not know is an error (shown as one, and found by the browser test),
# not a name drawn in red
mathjax3_config = {"tex": {"packages": {"[-]": ["noundefined"]}}}

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": False}
napoleon_numpy_docstring = True
napoleon_google_docstring = False

html_theme = "furo"
html_title = "trec_eval_py"
html_static_path = []
html_show_sourcelink = False
# the pages are walked in a browser by the tests; no search index needed there
html_copy_source = False

# flags are typed as they are: no curly quotes, no dashes made of '--'
smartquotes = False
# literal blocks are terminal text (help, output), not Python
highlight_language = "text"
