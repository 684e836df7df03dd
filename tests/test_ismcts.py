"""The harness search (rust/harness/search.rs) as Kétharmad's `ismcts` bot in every lab call,
and its options on the driven path and in the other games (issue 25 item 1)."""

import ketharmad
import polars as pl
import pytest
from ketharmad.run.harness import simulate_game


def test_bots_lists_ismcts_with_ketharmad_defaults():
    t = ketharmad.bots().filter(pl.col("applies_to") == "ismcts")
    knobs = {r["name"]: r for r in t.iter_rows(named=True)}
    assert "ismcts" in ketharmad.bots().filter(pl.col("entry") == "bot")["name"].to_list()
    # the search's own knobs and Kétharmad's evaluation weights, with Kétharmad's defaults
    for name in ("iterations", "c", "horizon", "epsilon", "widen", "widen_power", "key_only",
                 "own_only", "halving", "width", "eval_board", "eval_hand", "eval_scandal", "eval_scale",
                 "rollout"):  # fmt: skip
        assert name in knobs, name
    assert knobs["iterations"]["default"] == 100
    assert knobs["horizon"]["default"] == 2
    assert knobs["own_only"]["default"] == 1
    assert knobs["widen"]["default"] == 1
    assert knobs["halving"]["default"] == 0


def test_ismcts_beats_the_heuristic_and_reproduces_on_any_thread_count():
    # 20 iterations a decision: about 1,900 decisions a second per core (docs/bots.md); it won
    # 69 % [63, 75] of these 240 games against the default heuristic (all 12 deck pairings)
    bot = {"kind": "ismcts", "iterations": 20}
    r = ketharmad.tournament([bot, "heuristic"], games=240, seed=5)
    row = r.pairs.row(0, named=True)
    assert row["games"] == 240
    assert row["win_rate_a"] > 0.58, row
    one = ketharmad.simulate(
        ["tisza", "radikalisok"], [bot, "tuned"], games=12, seed=2, run={"threads": 1}
    )
    two = ketharmad.simulate(
        ["tisza", "radikalisok"], [bot, "tuned"], games=12, seed=2, run={"threads": 2}
    )
    assert one.games.equals(two.games)


@pytest.mark.parametrize(
    "knobs, message",
    [
        ({"depth": 3}, "no knob 'depth'"),
        ({"horizon": 2.5}, "'horizon' must be a whole number"),
        ({"epsilon": 2}, "'epsilon' must be a number in 0..=1"),
        ({"iterations": 0}, "'iterations' must be"),
        ({"eval_scale": 0}, "'eval_scale'"),
    ],
)
def test_bad_ismcts_knobs_are_refused_by_name(knobs, message):
    with pytest.raises(ValueError, match=message):
        ketharmad.simulate(["ner", "tisza"], [{"kind": "ismcts", **knobs}, "heuristic"], games=2)


def test_driven_path_options_rollout_and_prior():
    # every option of the search on the driven path, a rollout bot with knobs after ';'
    spec = ("ismcts:iterations=6,horizon=1,epsilon=0.1,widen=2,widen_power=0.4,key_only=1,own_only=0,"
            "rollout=heuristic;aggression=0.8,prior=aggro,eval_board=1.5")  # fmt: skip
    r = simulate_game("ketharmad", [spec, "heuristic"], decks=["ner", "tisza"], games=2, seed=1)
    assert r.games.height == 2 and r.games["winner"].is_in([0, 1]).all()
    with pytest.raises(ValueError, match="cannot itself be a search"):
        simulate_game(
            "ketharmad", ["ismcts:rollout=search", "heuristic"], decks=["ner", "tisza"], games=1
        )
    with pytest.raises(ValueError, match="prior bot"):
        simulate_game(
            "ketharmad", ["ismcts:prior=nobody", "heuristic"], decks=["ner", "tisza"], games=1
        )


def test_the_other_games_list_and_take_the_search_options():
    for game, opp in (("schotten_totten_2", "greedy"), ("osztrakon", "b1")):
        t = ketharmad.bots(game=game).filter(pl.col("entry") == "knob")
        assert {"horizon", "widen", "own_only", "prior"} <= set(t["name"])
        seats = 2 if game == "schotten_totten_2" else 5
        bots = [f"search:iterations=8,widen=1,prior={opp},rollout=random"] + [opp] * (seats - 1)
        r = simulate_game(game, bots, games=2, seed=3)
        assert r.games.height == 2
    # Osztrakon's defaults (issue 25): only the key decisions (disciples, the naming of special
    # days) of its own seat, b1 play-outs, the choices compared on common re-deals
    t = ketharmad.bots(game="osztrakon").filter(pl.col("entry") == "knob")
    knobs = {r["name"]: r["default"] for r in t.iter_rows(named=True)}
    assert knobs["key_only"] == 1 and knobs["own_only"] == 1 and knobs["halving"] == 1
    assert knobs["iterations"] == 2000


def test_schotten_totten_2_cut_off_rollouts_use_its_evaluation():
    # Schotten Totten 2 has an evaluation (rust/games/schotten_totten2/evaluate.rs): its
    # weights are search options, a cut-off search runs, reproduces and differs from full
    # play-outs (the evaluation decides where the rollout is cut)
    t = ketharmad.bots(game="schotten_totten_2").filter(pl.col("entry") == "knob")
    knobs = {r["name"]: r for r in t.iter_rows(named=True)}
    assert knobs["eval_scale"]["default"] == 25 and knobs["eval_pace"]["default"] == 1
    # this game's defaults (issue 25): greedy rollouts cut after 4 turns, halving over greedy's 6
    # best candidates, only the key decisions of its own seat
    assert knobs["horizon"]["default"] == 4 and knobs["halving"]["default"] == 1
    assert knobs["width"]["default"] == 6 and knobs["key_only"]["default"] == 1
    cut = "search:iterations=16,horizon=1,eval_scale=10"

    def play(spec):
        return simulate_game("schotten_totten_2", [spec, "greedy"], games=6, seed=4).games

    first = play(cut)
    assert first.equals(play(cut))
    assert not first.equals(play("search:iterations=16,horizon=0"))
    with pytest.raises(ValueError, match="eval_pace"):
        play("search:horizon=1,eval_pace=2")
