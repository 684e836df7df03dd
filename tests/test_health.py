"""``ketharmad.health`` and ``ketharmad health`` (issue 27 items 4 and 5; docs/health.md)."""

from __future__ import annotations

from pathlib import Path

import ketharmad
import numpy as np
import polars as pl
import pytest
from ketharmad import _core
from ketharmad.cli.main import main
from ketharmad.lab.health import METRIC_COLUMNS, nash


def _check_table(m: pl.DataFrame) -> None:
    assert tuple(m.columns) == METRIC_COLUMNS
    assert m.height >= 12
    assert m["metric"].n_unique() == m.height
    for r in m.iter_rows(named=True):
        assert r["lo"] <= r["value"] <= r["hi"], r
        assert r["interval"] in ("wilson", "bootstrap", "paired"), r
        assert r["meaning"], r


@pytest.fixture(scope="module")
def st2() -> ketharmad.HealthResult:
    return ketharmad.health(game="schotten_totten_2", games=120, seed=3)


def test_every_game_has_at_least_12_metrics_with_intervals(st2: ketharmad.HealthResult) -> None:
    _check_table(st2.metrics)
    o = ketharmad.health(game="osztrakon", games=300, seed=1)
    _check_table(o.metrics)
    k = ketharmad.health(game="ketharmad", games=240, seed=1, restricted=12)
    _check_table(k.metrics)
    names = set(k.metrics["metric"])
    assert {"nash_support", "must_play_cards", "dead_cards", "max_restricted_delta"} <= names
    assert k.nash.height == 4 and abs(k.nash["nash_weight"].sum() - 1) < 1e-9
    # the deck matchups split into strength and cycle (ketharmad.lab.cycles): the strengths
    # sum to 0, a deck's strength is its mean win rate's distance from 50 % times (k - 1) / k,
    # the cyclic share is a share and the floor is not negative (tests/test_cycles.py: the math)
    assert {"cyclic_share", "cycle_floor"} <= names
    assert abs(k.nash["strength_pts"].sum()) < 1e-9
    mean = k.nash["mean_win_rate"].to_numpy()
    assert np.allclose(k.nash["strength_pts"].to_numpy(), 100 * (mean - 0.5) * 3 / 4)
    assert 0 <= k.metric("cyclic_share")["value"] <= 1 and k.metric("cycle_floor")["value"] >= 0
    assert {"must_play", "dead", "restricted_delta"} <= set(k.cards.columns)
    assert k.cards.height > 20  # every faction's cards with a cost


def test_the_decks_table_splits_the_ladder_by_deck(tmp_path: Path) -> None:
    # two decks: each game has one deck in each seat, so the two decks' win rates add up to the
    # decided share of the games, in the weak mirror (control) and the strong one (main games)
    h = ketharmad.health(game="ketharmad", bots=["random", "heuristic"], decks=["ner", "tisza"],
                         games=400, seed=4, restricted=0)  # fmt: skip
    d = h.decks
    assert d["deck"].to_list() == ["ner", "tisza"]
    main_games = h.metric("game_length_median")["games"]
    decided = 1 - h.metric("draw_rate")["value"] - h.metric("unfinished_rate")["value"]
    assert d["strong_games"].to_list() == [main_games, main_games]
    assert abs(d["strong_win_rate"].sum() - decided) < 1e-9
    # the control counts each deck on games of its own (another seat rotated), so their sum is
    # 1 (draws are rare) up to the noise of two independent shares
    w, wn = d["weak_win_rate"].to_numpy(), d["weak_games"].to_numpy()
    assert abs(w.sum() - 1) < 4 * np.sqrt((w * (1 - w) / wn).sum())
    # every skill and control game is counted once, for the deck of the counted seat
    assert d["skill_games"].sum() == h.metric("skill_share")["games"]
    assert d["weak_games"].sum() == h.metric("skill_share_control")["games"]
    for r in d.iter_rows(named=True):
        assert r["shift"] == pytest.approx(r["strong_win_rate"] - r["weak_win_rate"])
        assert r["uplift"] == pytest.approx(r["skill_win_rate"] - r["weak_win_rate"])
        for k in ("weak", "strong", "skill"):
            assert r[f"{k}_lo"] <= r[f"{k}_win_rate"] <= r[f"{k}_hi"]
        assert r["shift_lo"] <= r["shift"] <= r["shift_hi"]
        assert r["uplift_lo"] > 0  # the heuristic gains over random with either deck
    top = d.row(int(np.argmax(np.abs(d["shift"].to_numpy()))), named=True)
    m = h.metric("deck_shift_max")
    assert m["value"] == pytest.approx(abs(top["shift"])) and top["deck"] in m["meaning"]
    spread = h.metric("skill_uplift_spread")["value"]
    assert spread == pytest.approx(d["uplift"].max() - d["uplift"].min())
    assert "## Decks across the ladder" in h.to_markdown()
    assert "decks" in h.tables()
    assert "decks" in h.write_parquet(tmp_path / "p")
    # the command: the decks table in the HTML report (its shift chart) and as Parquet
    pytest.importorskip("matplotlib")
    out = tmp_path / "run"
    argv = ["health", "--game", "ketharmad", "--decks", "ner", "tisza", "--games", "40"]
    assert main([*argv, "--restricted", "0", "--out", str(out)]) in (0, None)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "health_deck_shift" in html and "win rate from random to heuristic" in html
    assert list(out.glob("decks/*.parquet"))


def test_a_stronger_bot_shows_skill_and_the_luck_control_none(st2: ketharmad.HealthResult) -> None:
    skill, control = st2.metric("skill_share"), st2.metric("skill_share_control")
    # greedy beats random far beyond the control, whose interval holds 0
    assert skill["lo"] > control["hi"]
    assert skill["value"] > 0.8
    assert control["lo"] <= 0 <= control["hi"]


def test_the_luck_control_has_no_first_player_advantage_and_no_skill() -> None:
    # coin_flip: no decision matters, no seat is favoured (a search plays no better than random)
    luck = ketharmad.health(game="coin_flip", games=400, seed=2)
    _check_table(luck.metrics)
    for name in ("first_player_advantage", "skill_share", "skill_share_control"):
        m = luck.metric(name)
        assert m["lo"] <= 0 <= m["hi"], m


def test_same_seed_same_table_on_one_and_two_threads() -> None:
    a = ketharmad.health(game="osztrakon", games=200, seed=5, run={"threads": 1})
    b = ketharmad.health(game="osztrakon", games=200, seed=5, run={"threads": 2})
    assert a.metrics.equals(b.metrics)
    t1 = _core.trajectories(
        "ketharmad", ["heuristic"] * 2, 300, 9, threads=1, decks=["ner", "tisza"]
    )
    t2 = _core.trajectories(
        "ketharmad", ["heuristic"] * 2, 300, 9, threads=2, decks=["ner", "tisza"]
    )
    assert np.array_equal(t1["value"], t2["value"])
    assert np.array_equal(t1["samples"]["clock"], t2["samples"]["clock"])


def test_the_recorder_plays_the_games_of_simulate() -> None:
    t = _core.trajectories("ketharmad", ["heuristic"] * 2, 400, 4, decks=["ner", "tisza"])
    s = ketharmad.simulate(decks=["ner", "tisza"], bots="heuristic", games=400, seed=4)
    mask = t["games"]["winners_mask"]
    winner = np.where(mask == 1, 0, np.where(mask == 2, 1, -1))
    assert np.array_equal(winner, s.games["winner"].to_numpy())
    assert np.array_equal(t["games"]["turns"], s.games["turns"].to_numpy())
    assert np.array_equal(t["games"]["start"], s.games["start_player"].to_numpy())
    assert t["source"] == "evaluation"
    # one sample per turn at most, a value per seat each
    assert (t["games"]["samples"] <= t["games"]["turns"]).all()
    assert len(t["value"]) == 2 * len(t["samples"]["clock"])


def test_bad_names_raise_value_errors_naming_them() -> None:
    with pytest.raises(ValueError, match="'chess'"):
        ketharmad.health(game="chess")
    with pytest.raises(ValueError, match="nobody"):
        ketharmad.health(game="osztrakon", bots=["random", "nobody"], games=10)
    with pytest.raises(ValueError, match="nobody"):
        ketharmad.health(game="ketharmad", bots=["nobody"], games=24, restricted=0)
    with pytest.raises(ValueError, match="atlantis"):
        ketharmad.health(game="ketharmad", decks=["ner", "atlantis"], games=24)
    with pytest.raises(ValueError, match="Kétharmad"):
        ketharmad.health(game="osztrakon", decks=["ner", "tisza"])
    with pytest.raises(ValueError, match="different ones"):
        ketharmad.health(game="ketharmad", decks=["ner", "tisza", "ner"], games=24)
    with pytest.raises(ValueError, match="weakest and the strongest bot, got 3"):
        ketharmad.health(game="osztrakon", bots=["random", "greedy", "b1"], games=10)
    with pytest.raises(ValueError, match="seed must be >= 0"):
        ketharmad.health(game="coin_flip", games=10, seed=-1)


def test_the_coin_flip_control_is_fair_at_three_seats() -> None:
    # every seat flips 20 times whatever the seat count: no start-seat advantage at 3 seats
    luck = ketharmad.health(game="coin_flip", seats=3, games=3000, seed=4)
    m = luck.metric("first_player_advantage")
    assert m["lo"] <= 0 <= m["hi"], m
    assert luck.metric("game_length_median")["value"] == 60


def test_nash_of_a_dominant_deck_and_of_rock_paper_scissors() -> None:
    dominant = np.array([[0.0, 0.2, 0.3], [-0.2, 0.0, 0.1], [-0.3, -0.1, 0.0]])
    assert nash(dominant)[0] > 0.98
    rps = np.array([[0.0, 0.2, -0.2], [-0.2, 0.0, 0.2], [0.2, -0.2, 0.0]])
    assert np.allclose(nash(rps), 1 / 3, atol=0.02)


def test_reports_markdown_html_and_the_command(st2: ketharmad.HealthResult, tmp_path: Path) -> None:
    md = st2.to_markdown()
    assert "skill_share" in md and "95 % interval" in md
    pytest.importorskip("matplotlib")
    out = tmp_path / "run"
    assert main(["health", "--game", "osztrakon", "--games", "100", "--out", str(out)]) in (0, None)
    assert (out / "report.md").exists() and (out / "report.html").exists()
    assert list(out.glob("*.png"))
    assert "lead_changes" in (out / "report.html").read_text(encoding="utf-8")
