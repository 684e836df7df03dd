"""tools/import_graph.py: the package's import graph has no cycle when every import counts
(module level, inside functions, under ``if TYPE_CHECKING:``), and the tool finds a cycle
made by each kind of import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "import_graph.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=120
    )


def test_package_has_no_cycle():
    r = _run(str(ROOT / "python" / "ketharmad"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no cycle" in r.stdout
    assert "cycle (" not in r.stdout
    # the arrows of docs/architecture: cli -> lab -> run -> results -> game -> _core
    arrows = dict(
        line.strip().split(" -> ")
        for line in r.stdout.splitlines()
        if line.startswith("  ") and " -> " in line and ".py:" not in line
    )
    below = {
        "game": set(),
        "results": {"game"},
        "run": {"results", "game", "step"},
        "lab": {"run", "results", "game", "api"},
    }
    for part, allowed in below.items():
        # leaves (they import no package module): the core, the version, the statistics and
        # the deprecation helpers (run.options folds the old run keywords with them) and the
        # option-value mixin (RunOptions, BalanceSettings)
        leaves = {"", "_core", "_version", "stats", "_deprecation", "_options"}
        targets = set(arrows.get(part, "").split(", ")) - leaves
        assert targets <= allowed, (part, targets - allowed)


def _fake(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "fakepkg"
    for name, text in files.items():
        path = pkg / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return pkg


def test_finds_cycle_made_by_in_function_import(tmp_path):
    pkg = _fake(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from . import b\n",
            "sub/__init__.py": "",
            "sub/c.py": "def f():\n    from .. import a\n    return a\n",
            "b.py": "from .sub import c\n",
        },
    )
    r = _run(str(pkg))
    assert r.returncode == 1
    assert "cycle (3 modules): a, b, sub.c" in r.stdout
    assert "sub.c:2 -> a (in function)" in r.stdout
    quiet = _run(str(pkg), "--quiet")
    assert quiet.returncode == 1 and "layer" not in quiet.stdout and "cycle (3" in quiet.stdout


def test_finds_cycle_made_by_type_checking_import(tmp_path):
    pkg = _fake(
        tmp_path,
        {
            "__init__.py": "from .x import X\n",
            "x.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fakepkg.y import Y\nX = 1\n",
            "y.py": "import fakepkg.x\nY = 2\n",
        },
    )
    r = _run(str(pkg))
    assert r.returncode == 1
    assert "cycle (2 modules): x, y" in r.stdout
    assert "x:3 -> y (TYPE_CHECKING)" in r.stdout


def test_acyclic_fake_package_and_dot(tmp_path):
    pkg = _fake(
        tmp_path,
        {
            "__init__.py": "from .top import T\n",
            "top.py": "from .low import L\nT = L\n",
            "low.py": "L = 1\n",
        },
    )
    r = _run(str(pkg))
    assert r.returncode == 0 and "no cycle" in r.stdout
    assert "layer 0: low" in r.stdout and "layer 1: top" in r.stdout
    dot = _run(str(pkg), "--dot")
    assert dot.returncode == 0 and dot.stdout.startswith('digraph "fakepkg"')
    assert '"top" -> "low";' in dot.stdout
