"""Learned bots (issue 26): positions, the value model's fit and calibration, its file
format read identically by Python and Rust, resuming, and bad model files named before any
game is played."""

from __future__ import annotations

import os
import warnings

import ketharmad
import ketharmad.learn as kl
import numpy as np
import pytest
from ketharmad import _core


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> kl.TrainResult:
    out = tmp_path_factory.mktemp("value")
    return kl.train_value(out=out, games=1200, seed=3, epochs=3, rate=0.5)


def test_positions_cover_every_pairing_with_both_seats_labelled() -> None:
    p = kl.positions(games=120, seed=1, rate=0.5)
    assert p["x"].shape == (len(p["y"]), len(p["names"]))
    assert p["layout"] == "ketharmad-v1"
    # 12 ordered pairings of 10 games: 120 distinct games, rows in pairs (both seats)
    assert len(np.unique(p["game"])) == 120
    assert (p["seat"][0::2] == 0).all() and (p["seat"][1::2] == 1).all()
    # one winner per game: the two seats' results at a decision sum to 1
    assert np.allclose(p["y"][0::2] + p["y"][1::2], 1.0)
    # the same seed gives the same rows
    q = kl.positions(games=120, seed=1, rate=0.5, threads=1)
    assert np.array_equal(p["x"], q["x"]) and np.array_equal(p["y"], q["y"])


def test_the_value_model_predicts_held_out_games_better_than_the_base_rate(
    trained: kl.TrainResult,
) -> None:
    c = trained.calibration
    # a real signal: held-out log-loss and Brier score clearly below a constant prediction
    assert c["log_loss"] < c["base_log_loss"] - 0.1, c
    assert c["brier"] < c["base_brier"] - 0.04, c
    assert sum(r["rows"] for r in c["reliability"]) == c["rows"]
    assert os.path.getsize(trained.model_path) < 5_000_000
    info = _core.model_info(trained.model_path)
    assert info["game"] == "ketharmad" and info["kind"] == "value" and info["dims"][-1] == 1


def test_python_and_rust_read_the_same_model(trained: kl.TrainResult) -> None:
    m = kl.load(trained.model_path)
    x = kl.positions(games=24, seed=9)["x"][:200]
    rust = _core.model_predict(trained.model_path, x.ravel().tolist())
    assert np.allclose(m.win_chance(x), rust, atol=2e-4)


def test_training_resumes_and_reproduces(trained: kl.TrainResult) -> None:
    out = os.path.dirname(trained.model_path)
    with open(trained.model_path, "rb") as f:
        before = f.read()
    again = kl.train_value(out=out, games=1200, seed=3, epochs=3, rate=0.5)
    assert again.resumed == ["positions"]
    with open(again.model_path, "rb") as f:
        assert f.read() == before


def test_the_search_plays_with_a_value_model(trained: kl.TrainResult) -> None:
    bot = {"kind": "ismcts", "iterations": 10, "value": trained.model_path}
    res = ketharmad.simulate(["ner", "tisza"], [bot, "heuristic"], games=4, seed=2)
    assert res.games.height == 4
    assert (res.games["winner"] >= 0).sum() >= 3


def test_bad_model_files_are_named_before_any_game(tmp_path, trained: kl.TrainResult) -> None:
    with open(trained.model_path, "rb") as f:
        good = f.read()
    cases = {
        "missing.khnn": None,
        "foreign.khnn": b"PK\x03\x04 a zip file, not a model",
        "truncated.khnn": good[: len(good) - 10],
    }
    for name, data in cases.items():
        p = tmp_path / name
        if data is not None:
            p.write_bytes(data)
        with pytest.raises(ValueError, match=name):
            ketharmad.simulate(
                ["ner", "tisza"], [{"kind": "ismcts", "value": str(p)}, "heuristic"], games=1
            )
        with pytest.raises(ValueError, match=name):
            kl.load(p)
    with pytest.raises(ValueError, match="an option of 'ismcts'"):
        ketharmad.simulate(
            ["ner", "tisza"],
            [{"kind": "heuristic", "value": trained.model_path}, "heuristic"],
            games=1,
        )
    with pytest.raises(ValueError, match="model of game 'ketharmad'"):
        ketharmad.simulate(
            bots=[f"search:value={trained.model_path}", "greedy"], games=1, game="schotten_totten_2"
        )


def test_the_train_command_trains_both_models_and_reports(tmp_path, capsys) -> None:
    from ketharmad.cli.main import main as cli_main

    out = tmp_path / "m"
    argv = ["train", "--out", str(out), "--value-games", "240", "--policy-games", "24", "--generations", "1",
            "--teacher", "tuned", "--seed", "4"]  # fmt: skip
    assert cli_main(argv) == 0
    text = capsys.readouterr().out
    assert "held-out log-loss" in text and "reliability" in text and "generation" in text
    assert (out / "value" / "value.khnn").exists() and (out / "value" / "report.json").exists()
    assert _core.model_info(str(out / "value" / "value.khnn"))["features"] == "ketharmad-v1"
    assert _core.model_info(str(out / "policy" / "policy.khnn"))["kind"] == "policy"
    assert cli_main(argv) == 0
    assert "resumed: positions" in capsys.readouterr().out


def test_expert_iteration_learns_its_teacher_and_resumes(tmp_path, trained: kl.TrainResult) -> None:
    out = tmp_path / "p"
    # a teacher the features can express exactly (tuned's pick is an option feature): the
    # fit must learn to agree with it almost always
    r = kl.train_policy(
        out=out, generations=2, games=72, teacher="tuned", epochs=4, eval_games=960, seed=5
    )
    g0, g1 = r.generations
    assert g0["player"] == "tuned" and g1["player"].startswith("learned:model=")
    assert g1["decisions"] > g0["decisions"] > 1000
    assert g1["agreement"] > 0.95, g1
    # a copy of `tuned` beats the heuristic as `tuned` does (about 61 %)
    assert g1["vs_heuristic"] > 0.5, g1
    info = _core.model_info(r.model_path)
    assert info["kind"] == "policy" and info["dims"][0] == 64
    again = kl.train_policy(
        out=out, generations=2, games=72, teacher="tuned", epochs=4, eval_games=960, seed=5
    )
    assert again.resumed == ["generation 0", "generation 1"]
    res = ketharmad.simulate(
        ["ner", "tisza"],
        [{"kind": "learned", "model": r.model_path}, "heuristic"],
        games=24,
        seed=1,
    )
    assert res.games.height == 24
    # without a model file: the shipped policy, which beats the heuristic clearly
    shipped = ketharmad.simulate(["ner", "tisza"], ["learned", "heuristic"], games=400, seed=3)
    plain = ketharmad.simulate(["ner", "tisza"], ["tuned", "heuristic"], games=400, seed=3)
    assert (shipped.games["winner"] == 0).sum() > (plain.games["winner"] == 0).sum()
    with pytest.raises(ValueError, match="not a 'policy' model"):
        ketharmad.simulate(
            ["ner", "tisza"],
            [{"kind": "learned", "model": trained.model_path}, "heuristic"],
            games=1,
        )


def test_a_model_warns_when_it_plays_another_card_set(trained: kl.TrainResult) -> None:
    bot = {"kind": "ismcts", "iterations": 5, "value": trained.model_path}
    # the set it was trained on: no warning (pytest turns warnings into errors here)
    ketharmad.simulate(["ner", "tisza"], [bot, "heuristic"], games=1, seed=1)
    assert _core.model_info(trained.model_path)["card_hash"] == kl.card_hash()
    with pytest.warns(UserWarning, match="trained on card set"):
        r = ketharmad.simulate(
            ["ner", "tisza"],
            [bot, "heuristic"],
            games=2,
            seed=1,
            params={"rules.starting_support": 22},
        )
    assert r.games.height == 2
    # a sweep plays many card sets: the warning's text names no played set, so Python's
    # registry shows it once per call site (807 copies in one ladder run before)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        for support in (21, 22, 23):
            ketharmad.simulate(["ner", "tisza"], [bot, "heuristic"], games=1, seed=1,
                               params={"rules.starting_support": support})  # fmt: skip
    assert len([w for w in seen if "trained on card set" in str(w.message)]) == 1


def test_schotten_totten_2_has_a_value_model_and_a_learned_bot(tmp_path) -> None:
    v = kl.train_value(game="schotten_totten_2", out=tmp_path / "v", games=400, epochs=2, seed=2)
    assert v.calibration["log_loss"] < v.calibration["base_log_loss"]
    info = _core.model_info(v.model_path)
    assert info["game"] == "schotten_totten_2" and info["features"] == "st2-v1"
    p = kl.train_policy(game="schotten_totten_2", out=tmp_path / "p", generations=1, games=80, teacher="greedy", rate=0.5,
                        epochs=12, eval_games=40, seed=2)  # fmt: skip
    g = p.generations[0]
    assert g["player"] == "greedy" and g["agreement"] > 0.9, g
    assert set(g["roles"]) == {"seat0", "seat1", "baseline_seat0", "baseline_seat1"}
    r = ketharmad.simulate(
        bots=[f"learned:model={p.model_path}", "greedy"], games=10, game="schotten_totten_2"
    )
    assert r.games.height == 10
    with pytest.raises(ValueError, match="model of game 'schotten_totten_2'"):
        ketharmad.simulate(
            ["ner", "tisza"], [{"kind": "learned", "model": p.model_path}, "heuristic"], games=1
        )


def test_the_batch_search_takes_the_shipped_value_and_policy_prior() -> None:
    from ketharmad.run.options import RunOptions

    bot = {"kind": "ismcts", "iterations": 8, "value": "shipped", "prior": "shipped"}
    a = ketharmad.simulate(
        ["ner", "tisza"], [bot, "heuristic"], games=6, seed=4, run=RunOptions(threads=1)
    )
    b = ketharmad.simulate(
        ["ner", "tisza"], [bot, "heuristic"], games=6, seed=4, run=RunOptions(threads=2)
    )
    assert a.games["winner"].to_list() == b.games["winner"].to_list()
    assert a.games["turns"].to_list() == b.games["turns"].to_list()
    plain = ketharmad.simulate(
        ["ner", "tisza"], [{"kind": "ismcts", "iterations": 8}, "heuristic"], games=6, seed=4
    )
    assert a.games["turns"].to_list() != plain.games["turns"].to_list()
    with pytest.raises(ValueError, match="an option of 'ismcts'"):
        ketharmad.simulate(
            ["ner", "tisza"], [{"kind": "tuned", "prior": "shipped"}, "heuristic"], games=1
        )


def test_value_seats_limits_the_value_model_to_the_named_seats() -> None:
    """Schotten Totten 2's shipped value model (`value=shipped`) with `value_seats=1`: the
    Attacker's (seat 0's) searches score their cuts with it, the Defender's with the game's
    evaluation, so as Defender the bot plays exactly plain `search`'s games."""
    from ketharmad.run.harness import simulate_game

    def games(bots: list[str]) -> list[tuple[int, int, int]]:
        g = simulate_game("schotten_totten_2", bots=bots, games=6, seed=8).games
        return list(
            zip(g["winner"].to_list(), g["turns"].to_list(), g["claims"].to_list(), strict=True)
        )

    plain, greedy = "search:iterations=12", "greedy"
    attacker_only = f"{plain},value=shipped,value_seats=1"
    every_seat = f"{plain},value=shipped"
    # as Defender (seat 1) the value model is off: plain search's games
    assert games([greedy, attacker_only]) == games([greedy, plain])
    assert games([greedy, every_seat]) != games([greedy, plain])
    # as Attacker (seat 0) it is on: the games of the value model at every seat
    assert games([attacker_only, greedy]) == games([every_seat, greedy])
    assert games([attacker_only, greedy]) != games([plain, greedy])
    with pytest.raises(ValueError, match="value_seats.*0..=255"):
        games([f"{plain},value=shipped,value_seats=256", greedy])
    with pytest.raises(ValueError, match="osztrakon has no position features, so no value model"):
        simulate_game("osztrakon", bots=["search:value=shipped"] + ["b1"] * 4, games=1)


def test_a_learned_bot_of_several_models_plays_their_mean_score(tmp_path) -> None:
    """``model = [a, b]``: an ensemble whose score of each option is the mean of the models'
    scores (issue 27: a learned rung whose reading does not hang on one training seed)."""
    from ketharmad.game.data import SHIPPED_MODELS

    shipped = SHIPPED_MODELS["ketharmad-policy"]
    other = kl.train_policy(
        out=tmp_path / "p", generations=1, games=24, teacher="tuned", epochs=2, eval_games=0, seed=2
    ).model_path

    def games(model: object) -> object:
        bot = {"kind": "learned", "model": model}
        return ketharmad.simulate(["ner", "tisza"], [bot, "heuristic"], games=120, seed=1).games

    one = games(shipped)
    # the mean of a model with itself is the model: the same games, decision for decision
    assert games([shipped, shipped]).equals(one)
    # two models: the order does not matter (the mean of two is exact either way), and the
    # ensemble plays neither model's games
    both = games([shipped, other])
    assert both.equals(games([other, shipped]))
    assert not both.equals(one) and not both.equals(games(other))
    for bad, msg in (([], "empty list"), ([1], "list must hold model files")):
        with pytest.raises(ValueError, match=msg):
            games(bad)
    with pytest.raises(ValueError, match="missing.khnn"):
        games([shipped, str(tmp_path / "missing.khnn")])
