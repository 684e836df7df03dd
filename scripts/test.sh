#!/usr/bin/env bash
# Install the package (release build) with its test dependencies and the rl extra (pettingzoo,
# gymnasium), then run every test:
# the Rust tests (rules, cards, fuzzer at CI size) and the Python suite.
# Fails on any failing test, and when pytest collects no tests (exit code 5).
# Uses the pip that is installed (23.2.1 or newer) and never upgrades it.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet ".[test,rl]"
# the RL environment tests (tests/test_rl.py) must run here, not be skipped for want of the extra
export KH_REQUIRE_RL=1
# the package's import graph has no cycle, imports inside functions included (issue 23)
python3 tools/import_graph.py --quiet
cargo test --release
set +e
python3 -m pytest -q tests
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
