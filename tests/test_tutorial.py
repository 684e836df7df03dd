"""Every command of docs/tutorial.md runs (issue 10, item 7).

Each ```bash block is run with bash (``set -e``) in one scratch folder holding a copy of
``examples/``, in order (later steps use the files earlier ones wrote); its exit status must
be 0 and its output must contain the line named by the ``<!-- expect: ... -->`` comment
under the block. Sizes are scaled down: the number after ``--games-per-side`` and
``--games`` is replaced with a small one (the tutorial says so), except in the blocks marked
``<!-- full size -->`` (the balance and the final check, so the tutorial's card set is
confirmed here too: issue 28 item 5).
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
BLOCK = re.compile(r"```bash\n(.*?)```\n(?:<!-- expect: (.*?) -->)?\n?(<!-- full size -->)?", re.S)
SMALL = {"--games-per-side": "10", "--games": "24"}


def blocks() -> list[tuple[str, str, bool]]:
    text = TUTORIAL.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), bool(m.group(3))) for m in BLOCK.finditer(text)]


def scale(script: str) -> str:
    for flag, small in SMALL.items():
        script = re.sub(rf"(?<=\s){re.escape(flag)} \d+", f"{flag} {small}", script)
    return script


def test_tutorial_blocks_are_well_formed():
    found = blocks()
    # install check, matchups, card-stats, params --match, sweep, balance, export, params, confirm
    assert len(found) == 9
    for script, expect, _full in found:
        assert expect, f"block without an <!-- expect: ... --> line:\n{script}"
    # the balance and the final check run at their printed sizes
    assert [full for _s, _e, full in found] == [False] * 5 + [True, False, False, True]
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
    for script, expect, full in blocks():
        proc = subprocess.run(
            ["bash", "-e", "-c", script if full else scale(script)],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert proc.returncode == 0, f"{script}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
        assert expect in proc.stdout, f"{script}\nexpected {expect!r} in:\n{proc.stdout}"
        outputs.append(proc.stdout)
    # the steps left their files: the reports before and after, the sweep, the card files
    for path in ("runs/before/report.md", "runs/before/report.html", "runs/sweep/report.md",
                 "runs/balance/report.md", "runs/balance/report.html",
                 "runs/balance/cards_balanced.toml", "runs/after/report.html",
                 "my_cards.toml", "hand_tuned.toml", "tuned.toml"):  # fmt: skip
        assert (tmp_path / path).is_file(), path
    # the balance confirmed its edits: its summary and its card file say so first
    balance_out = outputs[5]
    assert not balance_out.startswith("NOT CONFIRMED"), balance_out
    assert "best: 2 edits (confirmed on holdout games)" in balance_out, balance_out
    header = (tmp_path / "my_cards.toml").read_text(encoding="utf-8").splitlines()[0]
    assert "NOT CONFIRMED" not in header and "confirmed" in header, header
    # the tutorial's card file holds the balancer's numbers as the parameters' defaults
    row = next(
        ln for ln in outputs[6].splitlines() if ln.startswith("ner_rezsicsokkentes.support ")
    )
    assert re.search(r"\bint\s+3\s+0\.\.99\b", row), row
    # confirm: on fresh games NER-Tisza is inside the band asked for (20-30 %)
    after = outputs[8]
    ner_row = next(ln for ln in after.splitlines() if ln.strip().startswith("ner ") and "%" in ln)
    header_row = next(
        ln for ln in after.splitlines() if ln.strip().startswith("faction \\ opponent")
    )
    cols = header_row.split()[3:]  # the opponents, in the table's order
    rates = [float(x) for x in re.findall(r"(\d+\.\d)%(?= \[)", ner_row)]
    ner_tisza = rates[cols.index("tisza")]
    assert 20.0 <= ner_tisza <= 30.0, after
    assert "compare" in after.lower(), after
    # a hand-made export plays the games of the same overrides (same seed, same sizes)
    game = "ketharmad matchups --games-per-side 1000 --seed 1 "
    runs = [
        subprocess.run(
            ["bash", "-e", "-c", scale(game + extra)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )  # fmt: skip
        for extra in ("--params tuned.toml", "--card-data hand_tuned.toml")
    ]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    table = lambda out: [ln for ln in out.splitlines() if ln.startswith("  ") and "%" in ln]  # noqa: E731
    assert table(runs[0].stdout) == table(runs[1].stdout)
    assert len(table(runs[0].stdout)) == 4  # the 4 faction rows of the matrix
