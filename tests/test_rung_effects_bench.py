"""benches/rung_effects.py in its CI size (issue 27): each move's effect on a pairing under two
rungs, on the start's games (common random numbers), and their difference."""

from __future__ import annotations

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import load_script


def _bench():
    return load_script("benches/rung_effects.py", "rung_effects_bench")


def test_each_move_is_played_on_the_start_games_under_both_rungs(tmp_path, capsys) -> None:
    b = _bench()
    argv = ["--pair", "ner,tisza", "--rungs", "random,heuristic", "--card-data", "draft",
            "--games", "60", "--match", "ner_orban_viktor.influence"]  # fmt: skip
    b.main([*argv, "--out", str(tmp_path / "a.parquet")])
    out = capsys.readouterr().out
    assert "start under random" in out and "start under heuristic" in out
    t = pl.read_parquet(tmp_path / "a.parquet")
    # Orbán Viktor's Influence (5 in the draft) two steps up and two down
    assert t["parameter"].to_list() == ["ner_orban_viktor.influence"] * 2
    assert sorted(t["to"].to_list()) == [3, 7] and t["from"].to_list() == [5, 5]
    for r in t.iter_rows(named=True):
        assert r["differential"] == pytest.approx(r["effect_heuristic"] - r["effect_random"])
        assert r["se_differential"] == pytest.approx(np.hypot(r["se_random"], r["se_heuristic"]))

    # an effect is the point's win share minus the start's on the same games, both seatings
    def share(params: dict) -> float:
        w = []
        for seating, decks in enumerate((("ner", "tisza"), ("tisza", "ner"))):
            g = ketharmad.simulate(decks=decks, bots="heuristic", games=30, seed=777 + seating,
                                   params=params or None).games  # fmt: skip
            w.append((g["winner"].to_numpy() == seating).astype(float))
        return float(np.concatenate(w).mean())

    up = t.filter(pl.col("to") == 7).row(0, named=True)
    assert up["effect_heuristic"] == pytest.approx(
        share({"ner_orban_viktor.influence": 7}) - share({})
    )
    # the same seed gives the same table
    b.main([*argv, "--out", str(tmp_path / "b.parquet")])
    assert pl.read_parquet(tmp_path / "b.parquet").equals(t)
