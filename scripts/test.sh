#!/usr/bin/env bash
# Install the package (release build) with its test dependencies, the rl extra (pettingzoo,
# gymnasium) and the lint extra (ruff, mypy), and, where missing, headless Chromium and its driver
# (apt-get; for the browser tests, which it makes required) and the docs extra (MkDocs), then check
# and test everything:
#   the import graph of python/ketharmad has no cycle (tools/import_graph.py);
#   Rust: cargo fmt --check, cargo clippy -D warnings (with and without the python feature);
#   Python: ruff check, ruff format --check, mypy, stubtest of _core.pyi (scripts/lint.sh);
#   the documentation site: mkdocs build --strict into site/ (a broken link or anchor, or a
#   public name the API reference cannot find, fails it);
#   the Rust tests (rules, cards, fuzzer at CI size), the speed history (instruction counts
#   of fixed workloads no more than 3 % over their record; needs valgrind) and the Python suite.
# Fails on any finding, any failing test, and when pytest collects no tests (exit code 5).
# Uses the pip that is installed (23.2.1 or newer) and never upgrades it.
set -euo pipefail
cd "$(dirname "$0")/.."
# each stage's line says when it started (seconds since this script began), so a slow CI run
# shows which stage grew
stage() { echo "== $* (at ${SECONDS} s)"; }
stage "pip install .[test,rl,lint,docs]"
python3 -m pip install --quiet ".[test,rl,lint,docs]"
# the RL environment tests (tests/test_rl.py) must run here, not be skipped for want of the extra
export KH_REQUIRE_RL=1
# and the tests of the documentation site (tests/test_docs_site.py) for want of the docs extra
export KH_REQUIRE_DOCS=1
# the real-browser tests (tests/browser.py, docs/testing.md) need a headless Chromium and its
# driver: installed here with apt-get where missing (as root, or with passwordless sudo), and the
# tests fail rather than skip without them. KH_REQUIRE_BROWSER=0 skips them instead.
export KH_REQUIRE_BROWSER="${KH_REQUIRE_BROWSER:-1}"
have_chromium() {
  { [ -n "${KH_CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1 \
    || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; } \
    && { [ -n "${KH_CHROMEDRIVER:-}" ] || command -v chromedriver >/dev/null 2>&1; }
}
if [ "$KH_REQUIRE_BROWSER" = "1" ] && ! have_chromium; then
  stage "apt-get install chromium chromium-driver (for the browser tests)"
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    if sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      echo "Chromium or chromedriver is missing and apt-get needs root: run" \
        "'sudo apt-get install chromium chromium-driver', or KH_REQUIRE_BROWSER=0 to skip" \
        "the browser tests" >&2
      exit 1
    fi
  fi
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium chromium-driver >/dev/null
fi
stage "import graph"
python3 tools/import_graph.py --quiet
stage "cargo fmt --check"
cargo fmt --check
stage "cargo clippy"
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --all-targets --features python -- -D warnings
KH_FORMAT_STRICT=1 bash scripts/lint.sh
stage "mkdocs build --strict (the documentation site, warnings as errors: docs/testing.md)"
# NO_MKDOCS_2_WARNING: the Material theme's notice of its end of life (docs/install.md). Not
# --quiet: it drops the warnings before --strict counts them, and the build passes
NO_MKDOCS_2_WARNING=1 python3 -m mkdocs build --strict
stage "cargo test"
# the release optimisation without fat LTO (Cargo.toml's ci-test profile): 580 tests built and
# run in 240 s instead of 626 s with `--release` (fresh clone, 2 cores; docs/testing.md)
cargo test --profile ci-test
stage "speed history (instruction counts under callgrind: benches/instructions.py, docs/speed.md)"
if command -v valgrind >/dev/null 2>&1; then
  python3 benches/instructions.py --check
elif [ "${KH_REQUIRE_VALGRIND:-0}" = "1" ]; then
  echo "valgrind is missing (apt-get install valgrind): the speed-history check cannot run" >&2
  exit 1
else
  echo "skipped: valgrind is not installed (apt-get install valgrind)"
fi
# two workers (pytest-xdist), each taking whole test files (a file's tests share fixtures and
# folders): 706 s instead of 943 s on the 2-core machine; KH_TEST_WORKERS=0 runs in one process
workers="${KH_TEST_WORKERS:-2}"
stage "pytest (${workers} workers)"
set +e
if [ "$workers" = "0" ]; then
  python3 -m pytest -q tests
else
  python3 -m pytest -q -n "$workers" --dist loadfile tests
fi
rc=$?
set -e
stage "pytest exit status ${rc}"
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
