#!/usr/bin/env bash
# Lint and type check (issue 23 item 9): ruff check, ruff format --check, mypy (configured in
# pyproject.toml: [tool.ruff], [tool.mypy]). Needs the lint extra: pip install ruff mypy (or
# `pip install '.[lint]'`). mypy checks the source tree (python/ketharmad, with the compiled
# extension typed by python/ketharmad/_core.pyi), so the package need not be installed.
# Fails when ruff check or mypy finds anything; the format check only reports until the code
# base has been formatted once (set KH_FORMAT_STRICT=1 to make it fail too).
set -uo pipefail
cd "$(dirname "$0")/.."
paths=(python tests tools benches scripts)
rc=0
echo "== ruff check"
ruff check "${paths[@]}" || rc=1
echo "== ruff format --check"
if ! ruff format --check "${paths[@]}"; then
  if [ "${KH_FORMAT_STRICT:-0}" = 1 ]; then
    rc=1
  else
    echo "note: files are not ruff-formatted yet (run 'ruff format ${paths[*]}' once); not failing" >&2
  fi
fi
echo "== mypy"
python3 -m mypy || rc=1
exit "$rc"
