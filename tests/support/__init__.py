"""What the tests share and are not tests themselves: the checkout's paths
(:mod:`support.paths`), slow reference implementations of the measures, random
inputs, the golden corpus's loader, the classes of submissions the grading tests
build and the headless browser.

``tests/`` is on the import path (pyproject.toml's ``pythonpath``), so a test
imports these by name: ``from support.golden import run_cli``.
"""
