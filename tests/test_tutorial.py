"""Every command of docs/tutorial.md runs (issue 10, item 7).

Each ```bash block is run with bash (``set -e``) in one scratch folder holding a copy of
``examples/``, in order (later steps use the files earlier ones wrote); its exit status must
be 0 and its output must contain the line named by the ``<!-- expect: ... -->`` comment
under the block. Sizes are scaled down: the number after ``--games-per-side`` and
``--games`` is replaced with a small one (the tutorial says so).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"```bash\n(.*?)```\n(?:<!-- expect: (.*?) -->)?", re.S)
SMALL = {"--games-per-side": "10", "--games": "24", "--budget": "20000"}


def blocks() -> list[tuple[str, str]]:
    found = [(m.group(1), m.group(2)) for m in BLOCK.finditer(TUTORIAL.read_text(encoding="utf-8"))]
    return found


def scale(script: str) -> str:
    for flag, small in SMALL.items():
        script = re.sub(rf"(?<=\s){re.escape(flag)} \d+", f"{flag} {small}", script)
    return script


def test_tutorial_blocks_are_well_formed():
    found = blocks()
    # install check, matchups, card-stats, params --match, sweep, balance, export, params, confirm
    assert len(found) == 9
    for script, expect in found:
        assert expect, f"block without an <!-- expect: ... --> line:\n{script}"
    text = TUTORIAL.read_text(encoding="utf-8")
    assert "ketharmad balance my_targets.toml" in text
    assert scale("x --games-per-side 1000 --games 2000\n") == "x --games-per-side 10 --games 24\n"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_tutorial_commands_run(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples",
                    ignore=shutil.ignore_patterns("*.rs"))  # fmt: skip
    env = dict(os.environ)
    # `ketharmad` = this interpreter's package, wherever pip put the console script
    shim = tmp_path / ".bin" / "ketharmad"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ketharmad "$@"\n')
    shim.chmod(0o755)
    env["PATH"] = str(shim.parent) + os.pathsep + env.get("PATH", "")
    env.pop("KETHARMAD_PROGRESS", None)
    outputs = []
    for script, expect in blocks():
        proc = subprocess.run(
            ["bash", "-e", "-c", scale(script)],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert proc.returncode == 0, f"{script}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
        assert expect in proc.stdout, f"{script}\nexpected {expect!r} in:\n{proc.stdout}"
        outputs.append(proc.stdout)
    # the steps left their files: the reports before and after, the sweep, the card file
    for path in ("runs/before/report.md", "runs/sweep/report.md", "runs/balance/report.md",
                 "runs/balance/cards_balanced.toml", "runs/after/report.md",
                 "my_cards.toml", "tuned.toml"):  # fmt: skip
        assert (tmp_path / path).is_file(), path
    # the exported file holds the tuned value as the parameter's default
    params_out = outputs[7]
    row = next(
        line for line in params_out.splitlines() if line.startswith("ner_orban_viktor.influence ")
    )
    assert re.search(r"\bint\s+7\s+0\.\.99\b", row), row
    # confirm: the exported file plays the games of the overrides (same seed, same sizes)
    same = subprocess.run(
        ["bash", "-e", "-c", scale("ketharmad matchups --games-per-side 1000 --seed 1 --params tuned.toml")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert same.returncode == 0, same.stderr
    table = lambda out: [ln for ln in out.splitlines() if ln.startswith("  ") and "%" in ln]  # noqa: E731
    assert table(same.stdout) == table(outputs[8])
    assert len(table(same.stdout)) == 4  # the 4 faction rows of the matrix
