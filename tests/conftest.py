import os

import pytest
from support.paths import GOLDEN


@pytest.fixture
def golden_dir():
    return GOLDEN


# A skip because something is missing from the machine (a test dependency, the
# C extensions, Chromium, pdflatex) would let CI pass without running the test:
# under CI those skips are failures. Skips that depend on the data stay skips.
_MISSING = ("could not import", "not built", "no Chromium", "no pdflatex")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or os.environ.get("CI", "").lower() not in ("1", "true", "yes"):
        return
    reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if any(m in reason for m in _MISSING):
        report.outcome = "failed"
        report.longrepr = f"under CI a missing dependency is a failure, not a skip: {reason}"
