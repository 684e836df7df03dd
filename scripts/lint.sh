#!/usr/bin/env bash
# Lint and type check (issue 23 item 9), configured in pyproject.toml ([tool.ruff], [tool.mypy]):
#   ruff check            lint (E F W B UP I BLE RUF100)
#   ruff format --check   formatting
#   mypy                  type check of python/ketharmad (the source tree; the Rust extension is
#                         typed by python/ketharmad/_core.pyi)
#   mypy.stubtest         _core.pyi against the built extension (needs ketharmad._core importable:
#                         the package installed, or the built .so in python/ketharmad)
# Needs the lint extra (pip install ruff mypy, or `pip install '.[lint]'`).
# Fails when ruff check, mypy or stubtest finds anything. The format check only reports until the
# code base has been formatted once (KH_FORMAT_STRICT=1 makes it fail too).
set -uo pipefail
cd "$(dirname "$0")/.."
paths=(python tests tools benches scripts)
rc=0
echo "== ruff check"
ruff check --output-format concise "${paths[@]}" || rc=1
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
echo "== stubtest (ketharmad._core against _core.pyi)"
if python3 -c "import ketharmad._core" 2>/dev/null; then
  python3 -m mypy.stubtest ketharmad._core || rc=1
else
  echo "stubtest: ketharmad._core cannot be imported (build or install the package first)" >&2
  rc=1
fi
exit "$rc"
