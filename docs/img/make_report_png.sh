#!/usr/bin/env bash
# Remake docs/img/report.png and report_phone.png: the test class graded with the README's command,
# its report's index page shot by headless Chromium (Debian's `chromium`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/../../tests/support/grading_class.py" "$work" >/dev/null
cd "$work"
trec_eval_py batch qrels.txt submissions/ -m map -m P.10 -m ndcg_cut.10 --report report/ --hide-judgments >/dev/null || true
browser="$(command -v chromium || command -v chromium-browser)"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,900 \
    --screenshot="$here/report.png" "file://$work/report/index.html" 2>/dev/null
# a student's page as a phone shows it (390 px wide): the verdict first, then the scores
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=390,844 \
    --screenshot="$here/report_phone.png" "file://$work/report/runs/submissions_frank.html" 2>/dev/null
