"""Ladders of bots (issue 25 item 3): ``ketharmad.ladder`` and ``ketharmad ladder``: ratings
with bootstrap intervals on common seeds, and the check that each rung beats the one below."""

from __future__ import annotations

import math

import ketharmad
import pytest
from ketharmad.cli.main import main as cli_main
from ketharmad.lab.ladder import DEFAULT_LADDERS


def test_a_ladder_in_order_passes_and_has_intervals():
    res = ketharmad.ladder(["random", "heuristic"], games=48, seed=1, bootstrap=50)
    assert res.ordered and res.order.height == 1
    row = res.order.row(0, named=True)
    assert (row["lower"], row["upper"], row["games"]) == ("random", "heuristic", 48)
    pair = res.pairs.row(0, named=True)  # bot_a = random
    assert row["win_rate"] == pytest.approx(1 - pair["win_rate_a"]) and row["win_rate"] > 0.8
    r = {x["bot"]: x for x in res.ratings.iter_rows(named=True)}
    assert r["random"]["rung"] == 0 and r["heuristic"]["rung"] == 1
    for x in r.values():
        assert x["rating_low"] <= x["rating"] <= x["rating_high"]
    assert r["heuristic"]["rating_low"] > r["random"]["rating_high"]
    assert "ordered: every rung beats" in str(res)


def test_a_ladder_out_of_order_or_short_of_the_margin_fails_by_name():
    wrong = ketharmad.ladder(["heuristic", "random"], games=48, seed=1, bootstrap=0)
    assert (
        not wrong.ordered and "NOT ordered" in str(wrong) and "random over heuristic" in str(wrong)
    )
    assert math.isnan(wrong.ratings["rating_low"][0])  # bootstrap=0: no intervals
    close = ketharmad.ladder(["control", "heuristic"], games=48, seed=1, margin=0.3, bootstrap=0)
    row = close.order.row(0, named=True)
    assert row["win_rate"] < 0.8 and not row["ok"] and not close.ordered


def test_same_ladder_on_any_number_of_threads():
    one = ketharmad.ladder(
        ["random", "heuristic"], games=48, seed=4, bootstrap=30, run={"threads": 1}
    )
    two = ketharmad.ladder(
        ["random", "heuristic"], games=48, seed=4, bootstrap=30, run={"threads": 2}
    )
    assert one.ratings.equals(two.ratings) and one.order.equals(two.order)


def test_osztrakon_rungs_play_alone_against_a_field_of_the_rung_below():
    res = ketharmad.ladder(["random", "b1"], game="osztrakon", games=250, seed=1, bootstrap=20)
    row = res.order.row(0, named=True)
    assert row["even"] == pytest.approx(1 / 5) and row["games"] == 250
    assert row["win_rate"] > 0.2 and res.ordered


def test_every_game_has_a_default_ladder():
    assert set(DEFAULT_LADDERS) == {g for g in ketharmad.games()["name"].to_list()}


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"margin": 0.7}, "margin"),
        ({"bootstrap": -1}, "bootstrap"),
        ({"bots": ["random", "grandmaster"]}, "grandmaster"),
        ({"bots": ["random", {"kind": "heuristic", "aggression": 3}]}, "aggression"),
    ],
)
def test_bad_input_is_refused(kw, message):
    args = {"bots": ["random", "heuristic"], "games": 24}
    args.update(kw)
    with pytest.raises(ValueError, match=message):
        ketharmad.ladder(**args)


def test_cli_ladder(capsys):
    cli_main(["ladder", "random", "heuristic", "--games", "24", "--bootstrap", "10"])
    assert "ordered" in capsys.readouterr().out


def test_same_ladder_on_an_executor():
    from concurrent.futures import ThreadPoolExecutor

    here = ketharmad.ladder(["random", "heuristic"], games=48, seed=2, bootstrap=20)
    with ThreadPoolExecutor(2) as ex:
        there = ketharmad.ladder(
            ["random", "heuristic"], games=48, seed=2, bootstrap=20, run={"executor": ex}
        )
    assert here.ratings.equals(there.ratings) and here.order.equals(there.order)
