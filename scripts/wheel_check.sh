#!/usr/bin/env bash
# Build the wheel other Linux machines install, and prove it works without Rust:
#   1. build an abi3 manylinux2014 wheel (glibc >= 2.17, CPython >= 3.11) with maturin, linking
#      through zig (pip package `ziglang`) so the result does not depend on this machine's glibc;
#   2. check its platform tag with auditwheel;
#   3. install it into a fresh venv whose PATH has no cargo or rustc, binaries only (pip may
#      not build anything), and run the README quick-start there plus a small API check.
# Needs Python >= 3.11 (PYTHON, default python3), cargo, and network access to PyPI (maturin,
# ziglang, auditwheel, numpy, polars). The wheel is left in target/wheels/.
# Usage: bash scripts/wheel_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
start=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/ketharmad-wheel-check.XXXXXX")
trap 'rm -rf "$work"; echo "== [$((SECONDS - start))s] done (temporary venvs removed)"' EXIT
step() { printf '== [%3ds] %s\n' "$((SECONDS - start))" "$*"; }

# build tools and cargo output live under target/wheel-check (ignored by git) and are reused, so
# a second run only relinks what changed; a target dir of its own keeps the zig linker from
# invalidating the development build in target/
tools="$root/target/wheel-check/tools"
step "build tools (maturin, ziglang, auditwheel) in $tools"
[ -x "$tools/bin/python" ] || "$python" -m venv "$tools"
"$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
  "maturin>=1.9.2,<2" ziglang auditwheel

step "maturin build --release --zig --compatibility manylinux2014"
mkdir -p target/wheels
rm -f target/wheels/ketharmad-*manylinux*.whl
PATH="$tools/bin:$PATH" CARGO_TARGET_DIR="$root/target/wheel-check" \
  "$tools/bin/maturin" build --release --zig --compatibility manylinux2014 \
  --interpreter "$python" --out target/wheels
wheel=$(ls target/wheels/ketharmad-*-cp311-abi3-manylinux*.whl)
step "built $wheel ($(du -h "$wheel" | cut -f1))"
case "$wheel" in
  *manylinux_2_17_x86_64*|*manylinux2014_x86_64*) ;;
  *) echo "wheel_check: unexpected platform tag: $wheel" >&2; exit 1 ;;
esac
"$tools/bin/auditwheel" show "$wheel" | tee "$work/audit.txt"
tr -s ' \n' ' ' <"$work/audit.txt" |
  grep -q 'consistent with the following platform tag: "manylinux_2_17_x86_64"' || {
  echo "wheel_check: auditwheel does not confirm manylinux_2_17_x86_64" >&2
  exit 1
}

step "fresh venv without Rust: install the wheel (binaries only)"
"$python" -m venv "$work/run"
clean_path="$work/run/bin:/usr/local/bin:/usr/bin:/bin"
for tool in cargo rustc rustup; do
  if PATH=$clean_path command -v "$tool" >/dev/null; then
    echo "wheel_check: $tool is still on the clean PATH ($(PATH=$clean_path command -v "$tool"))" >&2
    exit 1
  fi
done
cd "$work"  # away from the source tree, so only the installed package can be imported
run() { env -u CARGO_HOME -u RUSTUP_HOME -u CARGO_TARGET_DIR PATH="$clean_path" "$@"; }
run python -m pip install --quiet --disable-pip-version-check --only-binary=:all: "$root/$wheel"

step "quick-start in the fresh venv: ketharmad matchups --games-per-side 500 --seed 1"
run ketharmad matchups --games-per-side 500 --seed 1 | tee "$work/quick.txt"
for word in tisza radikalisok "start player"; do
  grep -q "$word" "$work/quick.txt" || { echo "wheel_check: '$word' missing from the output" >&2; exit 1; }
done
run python - "$work" <<'EOF'
import sys
import ketharmad
from ketharmad import _core

assert _core.__file__.startswith(sys.argv[1]), _core.__file__  # the installed wheel's module
r = ketharmad.simulate(["ner", "tisza"], "heuristic", games=200, seed=0)
assert r.n_games == 200 and r.games["winner"].null_count() < 200
again = ketharmad.play(["ner", "tisza"], "heuristic", seed=0, index=17)
assert again.turns == r.games["turns"][17]
print(f"API check: ketharmad {ketharmad.__version__} from {_core.__file__}: 200 games, replay ok")
EOF
step "wheel check passed: $wheel installs and runs without Rust"
