"""Tuned bots by self-play (issue 25 item 2): ``ketharmad.tune_bot`` tunes a bot's knobs with
Optuna on common random numbers, chooses on fresh games and confirms on a holdout; the
shipped ``tuned`` preset is its result for the heuristic."""

from __future__ import annotations

import ketharmad
import polars as pl
import pytest


def test_tuning_the_heuristic_finds_a_stronger_bot_and_confirms_it():
    res = ketharmad.tune_bot("heuristic", trials=8, games=240, seed=1)
    assert res.trials.height == 8 and set(res.knobs) == {
        "aggression", "block_caution", "expose_priority", "scandal_tolerance", "recruit_appetite",
        "mulligan_strictness", "reaction_patience",
    }  # fmt: skip
    # the finalists: the start (50 % against itself on every stage) and the 3 best trials
    assert res.finalists["bot"][0] == "heuristic" and res.finalists["train"][0] == 0.5
    assert res.finalists["select"][0] == 0.5 and res.finalists.height == 4
    assert (
        res.finalists["train"][1:].to_list()
        == sorted(res.trials["score"].to_list(), reverse=True)[:3]
    )
    h = res.holdout.row(0, named=True)
    assert h["games"] == 8 * 240 and h["opponent"] == "heuristic"
    assert res.confirmed and h["ci_low"] > 0.5 and res.best != "heuristic"
    assert str(res).splitlines()[1].startswith("CONFIRMED")
    # the tuned bot is stronger on games no stage of the tuning played, too
    again = ketharmad.tournament([res.best, "heuristic"], games=1200, seed=99).pairs.row(
        0, named=True
    )
    assert again["win_rate_a"] > 0.53
    assert res.n_games == 8 * 240 + 240 + 4 * 480 + 8 * 240


def test_tuning_is_reproducible_and_the_same_on_two_threads():
    one = ketharmad.tune_bot("heuristic", trials=3, games=48, seed=3, run={"threads": 1})
    two = ketharmad.tune_bot("heuristic", trials=3, games=48, seed=3, run={"threads": 2})
    assert (
        one.trials.equals(two.trials) and one.best == two.best and one.holdout.equals(two.holdout)
    )


def test_a_fixed_knob_is_not_tuned_and_named_knobs_with_ranges():
    res = ketharmad.tune_bot({"kind": "heuristic", "aggression": 0.9}, trials=2, games=24)
    assert "aggression" not in res.knobs and all(b["aggression"] == 0.9 for b in [res.best])
    res = ketharmad.tune_bot("heuristic", knobs={"expose_priority": (0.2, 0.6)}, trials=3, games=24,)  # fmt: skip
    assert set(res.knobs) == {"expose_priority"}
    assert res.trials["expose_priority"].is_between(0.2, 0.6).all()


def test_the_harness_search_tunes_its_exploration_constant():
    res = ketharmad.tune_bot("search:iterations=20", game="schotten_totten_2", against=["random"], trials=2,
                             games=10)  # fmt: skip
    # every numeric option but the cost knobs and the switches: UCB's c, the horizon, the
    # rollouts' epsilon, the widening and the game's evaluation weights, in their ranges
    assert set(res.knobs) == {
        "c",
        "horizon",
        "epsilon",
        "widen",
        "widen_power",
        "eval_scale",
        "eval_pace",
    }
    assert res.knobs["c"] == (0.05, 5.0) and res.knobs["horizon"] == (1.0, 8.0)
    assert res.knobs["eval_scale"] == (2.0, 40.0) and res.knobs["eval_pace"] == (0.0, 1.0)
    assert isinstance(res.best, str) and res.best.startswith("search:")


def test_the_tuned_preset_beats_the_default_heuristic():
    """The shipped preset, on games no tuning stage played (seed 77): above 55 % on 2,400."""
    r = ketharmad.tournament(["tuned", "heuristic"], games=2400, seed=77)
    row = r.pairs.row(0, named=True)
    assert row["win_rate_a"] > 0.55
    table = ketharmad.bots()
    assert "tuned" in table.filter(pl.col("entry") == "bot")["name"].to_list()


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"knobs": ["agression"]}, "agression"),
        ({"knobs": {"aggression": (0.5, 2.0)}}, "range"),
        ({"bot": "greedy"}, "greedy"),
        ({"bot": "random"}, "no knobs"),
        ({"trials": 0}, "trials"),
        ({"games": 25}, "multiple of 24"),
        ({"against": ["grandmaster"]}, "grandmaster"),
    ],
)
def test_bad_input_is_refused_by_name(kw, message):
    args = {"bot": "heuristic", "trials": 2, "games": 24}
    args.update(kw)
    with pytest.raises(ValueError, match=message):
        ketharmad.tune_bot(**args)
