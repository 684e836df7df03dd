"""Loose edges of the Python API (issue 9, item 10): each gives a ValueError naming the
argument, or the documented behaviour."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import TWO_P
from ketharmad.cli import main
from ketharmad.game.data import MAX_CARD_DATA_BYTES
from ketharmad.lab.sweep import MAX_SWEEP_FILE_BYTES, load_sweep_file

UNDECIDED = {"rules.max_rounds": 1}  # every game hits the round cap: nobody wins


# ---------------------------------------------------------------- bools where numbers belong


@pytest.mark.parametrize(
    ("spec", "knob"),
    [
        ({"kind": "heuristic", "aggression": True}, "aggression"),
        ({"kind": "aggro", "block_caution": False}, "block_caution"),
        ({"kind": "search", "iterations": True}, "iterations"),
        ({"kind": "search", "width": np.bool_(True)}, "width"),
    ],
)
def test_bool_knob_values_rejected(spec, knob):
    with pytest.raises(ValueError, match=rf"knob '{knob}'.*bool"):
        ketharmad.simulate(TWO_P, bots=spec, games=2)
    with pytest.raises(ValueError, match=rf"knob '{knob}'"):
        ketharmad.play(TWO_P, bots=[spec, "random"])
    with pytest.raises(ValueError, match=rf"knob '{knob}'"):
        ketharmad.matchups(games_per_side=1, bots=spec)


def test_number_knob_values_still_work():
    a = ketharmad.simulate(TWO_P, bots={"kind": "heuristic", "aggression": 1}, games=20, seed=1)
    b = ketharmad.simulate(TWO_P, bots={"kind": "heuristic", "aggression": 1.0}, games=20, seed=1)
    assert a.games.equals(b.games)


@pytest.mark.parametrize("value", ["yes", 1, None, "false"])
def test_progress_must_be_a_bool(value):
    with pytest.raises(ValueError, match="progress"):
        ketharmad.simulate(TWO_P, games=2, run=dict(progress=value))
    with pytest.raises(ValueError, match="progress"):
        ketharmad.matchups(games_per_side=1, run=dict(progress=value))
    with pytest.raises(ValueError, match="progress"):
        ketharmad.sweep({"rules.starting_support": [19, 20]}, games=2, run=dict(progress=value))


# ---------------------------------------------------------------- matchups: games or games_per_side


def test_matchups_games_and_games_per_side_both_given():
    with pytest.raises(ValueError, match="games_per_side.*games|games.*games_per_side"):
        ketharmad.matchups(games=20, games_per_side=10)
    with pytest.raises(ValueError, match="games_per_side"):
        ketharmad.matchups(players=3, games=24, games_per_side=10)
    # either one alone is fine and means the same games
    a = ketharmad.matchups(games=4, bots="random", seed=2)
    b = ketharmad.matchups(games_per_side=2, bots="random", seed=2)
    assert a.games.equals(b.games)
    assert ketharmad.matchups(bots="random", players=3, games=24).games.height == 24


# ---------------------------------------------------------------- tournament game counts


def test_tournament_games_must_fill_every_cell():
    bots = ["random", "heuristic"]
    for games, allowed in [(1, "24, 48"), (100, "96 or 120")]:
        with pytest.raises(ValueError, match=rf"games must be a multiple of 24.*{allowed}"):
            ketharmad.tournament(bots, games=games)
    with pytest.raises(ValueError, match="multiple of 2"):
        ketharmad.tournament(bots, decks=["ner", "tisza"], games=3)
    res = ketharmad.tournament(bots, games=24, seed=1)
    assert res.games_per_pair == 24
    assert res.pairs["games"].to_list() == [24]


def test_tournament_default_games_is_allowed():
    import inspect

    from ketharmad.lab.tournament import DEFAULT_GAMES

    # games=None: each game's own default (Kétharmad's DEFAULT_GAMES; docs/games.md)
    assert inspect.signature(ketharmad.tournament).parameters["games"].default is None
    assert DEFAULT_GAMES % 24 == 0


def test_tournament_pair_without_decided_games_has_null_rate():
    res = ketharmad.tournament(["random", "heuristic"], decks=["ner", "tisza"], games=4,
                               params=UNDECIDED)  # fmt: skip
    row = res.pairs.row(0, named=True)
    assert row["unfinished"] == 4 and row["wins_a"] == row["wins_b"] == 0
    assert row["win_rate_a"] is None and row["ci_low"] is None and row["ci_high"] is None


# ---------------------------------------------------------------- sweep


def test_sweep_empty_grid_refused_either_way():
    for grid in ({}, []):
        with pytest.raises(ValueError, match="grid.*empty"):
            ketharmad.sweep(grid, games=2)


def test_sweep_degenerate_paired_interval_is_flagged():
    # nobody ever wins, so every paired difference is 0: sd 0 would give the interval [0, 0]
    sw = ketharmad.sweep({"rules.starting_support": [20, 25]}, params=UNDECIDED, games=10,
                         bots="random")  # fmt: skip
    other = sw.table.filter(~pl.col("baseline")).row(0, named=True)
    assert other["diff"] == 0
    assert other["degenerate_ci"] is True
    assert other["diff_ci_low"] is None and other["diff_ci_high"] is None
    assert other["paired_half_width"] is None
    base = sw.table.filter(pl.col("baseline")).row(0, named=True)
    assert base["degenerate_ci"] is False and base["diff_ci_low"] == base["diff_ci_high"] == 0
    assert "degenerate" in repr(sw)


def test_sweep_ordinary_interval_is_not_flagged():
    sw = ketharmad.sweep({"rules.starting_support": [20, 10]}, games=200, bots="random", seed=3)
    assert not sw.table["degenerate_ci"].any()
    assert sw.table["diff_ci_low"].null_count() == 0


# ---------------------------------------------------------------- card_stats.top


@pytest.fixture(scope="module")
def tiny_cs() -> ketharmad.CardStatsResult:
    # 3 games: many cards were in hand in every game (not-seen rate 0/0) or in none
    return ketharmad.card_stats(ketharmad.simulate(TWO_P, "heuristic", games=3, seed=2))


def test_top_rejects_unknown_column(tiny_cs):
    with pytest.raises(ValueError, match=r"by='nope'.*in_hand_win_rate.*iwd"):
        tiny_cs.top(by="nope")
    with pytest.raises(ValueError, match="by"):
        tiny_cs.top(by="name")  # not a number
    with pytest.raises(ValueError, match="faction"):
        tiny_cs.top(faction="fidesz")
    with pytest.raises(ValueError, match="n"):
        tiny_cs.top(n=-1)


def test_top_puts_missing_values_last(tiny_cs):
    t = tiny_cs.table
    assert t["iwd"].is_null().any()  # rates over 0 games are null, not NaN
    assert not t.select(pl.col(pl.Float64).is_nan().any()).row(0).count(True)
    top = tiny_cs.top(by="iwd", n=t.height)
    assert top.height == t.height
    values = top["iwd"].to_list()
    known = [v for v in values if v is not None]
    assert values[: len(known)] == sorted(known, reverse=True)
    assert all(v is None for v in values[len(known) :])
    assert tiny_cs.top(by="iwd", n=3)["iwd"].null_count() == 0


def test_top_handles_nan(tiny_cs):
    cs = ketharmad.CardStatsResult(
        tiny_cs.table.with_columns(iwd=pl.col("iwd").fill_null(float("nan"))), tiny_cs.batch,
        tiny_cs._card_text,
    )  # fmt: skip
    values = cs.top(by="iwd", n=cs.table.height)["iwd"].to_list()
    finite = [v for v in values if v is not None and not math.isnan(v)]
    assert finite and values[: len(finite)] == sorted(finite, reverse=True)


# ---------------------------------------------------------------- file sizes and nesting


def _limited_cli(argv: list[str]) -> subprocess.CompletedProcess:
    """Run the CLI in a child with a 2 GiB address-space limit and a time limit."""
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
        "from ketharmad.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_card_data_dev_zero_is_a_clear_error():
    r = _limited_cli(["simulate", "--games", "2", "--card-data", "/dev/zero"])
    assert r.returncode == 2, r.stderr[-2000:]
    assert r.stderr.startswith("error: ") and "Traceback" not in r.stderr
    assert "16 MiB" in r.stderr


def test_card_data_size_limit(tmp_path):
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate(MAX_CARD_DATA_BYTES + 1)
    with pytest.raises(ValueError, match=r"card data file .*big.toml.* larger than 16 MiB"):
        ketharmad.cards(big)


def test_sweep_file_size_limit(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_SWEEP_FILE_BYTES + "\n")
    with pytest.raises(ValueError, match="larger than 1 MiB"):
        load_sweep_file(str(big))


@pytest.mark.parametrize(
    "text",
    [
        "[grid]\nx = " + "[" * 3000 + "]" * 3000 + "\n",  # inline arrays
        "[grid]\nx = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",  # inline tables
        "[grid]\n" + ".".join(["k"] * 3000) + " = [1, 2]\n",  # dotted keys
        "[" + ".".join(["k"] * 3000) + "]\nx = 1\n",  # table headers
    ],
)
def test_sweep_file_nested_too_deep(tmp_path, text, capsys):
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"nested deeper than \d+ levels"):
        load_sweep_file(str(path))
    with pytest.raises(SystemExit) as info:
        main(["sweep", str(path), "--no-plots"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "nested deeper than" in err


def test_sweep_file_moderate_nesting_is_fine(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(
        '[grid]\nner_orban_viktor.influence = [4, 5]\n[params]\n"rules.max_rounds" = 9\n'
    )
    kwargs = load_sweep_file(str(path))
    assert kwargs["grid"] == {"ner_orban_viktor.influence": [4, 5]}
