"""The two cycle benches (docs/balance.md "Cycles") run end to end in a tiny size and print
what they measure: cycle_floor.py the split of every rung's matrix and the gap over the rungs,
cycle_effects.py each move's effect on a cycle's mean, as paired differences."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-W", "ignore", str(ROOT / "benches" / script), *args],
                          capture_output=True, text=True, cwd=ROOT)  # fmt: skip


def test_cycle_floor_prints_each_rung_s_split_and_the_gap_over_the_rungs() -> None:
    proc = run("cycle_floor.py", "--set", "d=draft", "--rungs", "random,heuristic", "--games-per-side", "40",
               "--boot", "20")  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "d / random" in out and "d / heuristic" in out
    floors = [float(x) for x in re.findall(r"floor (\d+\.\d) \[", out)]
    assert len(floors) == 2 and all(f >= 0 for f in floors)
    assert re.search(r"d over the rungs: .* needs every 50 \+- 3 band \d+\.\d points wider", out)
    bad = run("cycle_floor.py", "--set", "nonsense", "--games-per-side", "4")
    assert bad.returncode != 0 and "--set wants NAME=SPEC" in bad.stderr


def test_cycle_effects_measures_each_move_on_the_start_s_games(tmp_path: Path) -> None:
    out = tmp_path / "moves.parquet"
    proc = run("cycle_effects.py", "--cycle", "ner,osszefogas,tisza", "--rungs", "heuristic", "--games", "40",
               "--match", "ner_orban_viktor.influence_bonus", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    t = pl.read_parquet(out)
    # Orbán Viktor's Influence bonus one step up and one down from its printed value
    assert (
        t["parameter"].unique().to_list() == ["ner_orban_viktor.influence_bonus"] and t.height == 2
    )
    assert sorted(t["to"] - t["from"]) == [-1, 1]
    # the cycle's mean effect is the mean of the three pairs' effects (the same games)
    pairs = t.select("heuristic:ner-ossz", "heuristic:ossz-tisz", "heuristic:tisz-ner").to_numpy()
    assert abs(pairs.mean(axis=1) - t["cycle_heuristic"].to_numpy()).max() < 1e-9
    assert (t["se_heuristic"] >= 0).all()
    bad = run("cycle_effects.py", "--cycle", "ner,nobody,tisza", "--games", "4")
    assert bad.returncode != 0 and "--cycle wants 3 or more factions" in bad.stderr
