"""The one staged balancer on the harness games (issue 23): it recovers a planted
one-parameter change in Schotten Totten 2 and in Osztrakon, as it does in Kétharmad, and a
journal resumes a harness-game run to the result of an uninterrupted one.

The plant: one parameter is set off its default in ``params=`` (the run's starting point),
the targets are the bands measured at the default, the search may move that parameter and a
few others; the proposal must move the planted parameter back to (or within one step of) its
default and be confirmed on the holdout games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ketharmad
import pytest
from ketharmad.games import simulate_game
from ketharmad.lab.balance import search as _balance
from ketharmad.lab.balance.games import load_game_targets

ST2 = "schotten_totten_2"
OSZ = "osztrakon"
ST2_BOTS = ["random", "random"]
OSZ_BOTS = ["b1", "b1", "b1", "b1", "random"]


def _bands_at_default(game: str, bots: list[str], seat: int, rate_tol: float, turns_tol: float,
                      games: int) -> list[dict[str, Any]]:  # fmt: skip
    """A win rate of ``seat`` and the mean turns, each banded around its value at the default
    parameters (measured on games no balance block plays: another seed)."""
    g = simulate_game(game, bots, games=games, seed=12345).games
    rate = float((g["winner"] == seat).mean())
    turns = float(g["turns"].mean())
    return [
        {"kind": "win_rate", "bots": bots, "seat": seat, "target": rate, "tolerance": rate_tol},
        {"kind": "mean_turns", "bots": bots, "target": turns, "tolerance": turns_tol},
    ]


def _recovers(res: Any, name: str, planted: Any, default: Any, step: float, seat: int) -> None:
    assert isinstance(res, ketharmad.BalanceResult)
    assert res.best_confirmed, res.text()
    assert res.params[name] == planted and name in res.space  # the plant is the starting point
    assert name in res.best_point, res.text()
    assert abs(res.best_point[name] - default) <= step + 1e-9, res.text()
    edit = res.best.filter(res.best["parameter"] == name).row(0, named=True)
    assert edit["old"] == pytest.approx(planted) and edit["new"] == pytest.approx(
        res.best_point[name]
    )
    # before: the plant is out of some band; after: every metric confirmed on the holdout
    assert not res.before["in_band"].all()
    assert res.after["confirmed"].all()
    # the holdout numbers replay with simulate(game=...) on the confirmation block
    direct = simulate_game(res.game, res.bots[0], games=res.confirm_games, seed=res.seed,
                           first_game=res.confirm_first_game, params=res.overrides).games  # fmt: skip
    row = res.after.row(0, named=True)
    assert row["kind"] == "win_rate"
    wins = int((direct["winner"] == seat).sum())
    assert (row["wins"], row["games"]) == (wins, res.confirm_games)
    assert res.after.row(1, named=True)["value"] == pytest.approx(float(direct["turns"].mean()))


def test_recovers_a_planted_change_in_schotten_totten_2() -> None:
    # rules.hand_size 6 -> 5 lifts the Attacker of random vs random from about 40 % to 52 %;
    # the other levers move the rate or the game length the wrong way, or not at all
    targets = {"metrics": _bands_at_default(ST2, ST2_BOTS, 0, 0.04, 1.5, 6000),
               "change": {"allow": ["rules.hand_size", "rules.damages_to_win", "rules.max_value",
                                    "rules.cauldrons"]}}  # fmt: skip
    res = ketharmad.balance(targets, game=ST2, params={"rules.hand_size": 5}, budget=200_000,
                            settings={"games_per_block": 100}, seed=3)  # fmt: skip
    _recovers(res, "rules.hand_size", 5, 6, 1, seat=0)
    assert res.games <= 200_000 * 1.05
    assert "balance of schotten_totten_2" in res.text()


def test_recovers_a_planted_change_in_osztrakon() -> None:
    # model.read_noise 0.5 -> 2.0 (a float parameter, 3 steps of 0.5) lifts the random voter
    # among four b1 readers from about 10 % to 18 %
    targets = {"metrics": _bands_at_default(OSZ, OSZ_BOTS, 4, 0.03, 1.0, 6000),
               "change": {"allow": ["model.read_noise", "model.m_free", "rules.temple_position",
                                    "rules.days.n5"]}}  # fmt: skip
    res = ketharmad.balance(targets, game=OSZ, params={"model.read_noise": 2.0}, budget=100_000,
                            settings={"games_per_block": 100}, seed=1)  # fmt: skip
    _recovers(res, "model.read_noise", 2.0, 0.5, 0.5, seat=4)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_recovers_planted_changes_on_more_seeds(seed: int) -> None:
    """The bigger version: six seeds, another plant in each game, bigger budgets."""
    targets = {"metrics": _bands_at_default(ST2, ST2_BOTS, 0, 0.03, 1.0, 20000),
               "change": {"allow": ["rules.hand_size", "rules.damages_to_win", "rules.max_value",
                                    "rules.cauldrons"]}}  # fmt: skip
    res = ketharmad.balance(targets, game=ST2, params={"rules.damages_to_win": 5},
                            budget=300_000, settings={"games_per_block": 200}, seed=seed)  # fmt: skip
    _recovers(res, "rules.damages_to_win", 5, 4, 1, seat=0)
    targets = {"metrics": _bands_at_default(OSZ, OSZ_BOTS, 4, 0.03, 1.0, 20000),
               "change": {"allow": ["model.read_noise", "model.m_free", "rules.temple_position",
                                    "rules.days.n5"]}}  # fmt: skip
    res = ketharmad.balance(targets, game=OSZ, params={"model.read_noise": 2.0},
                            budget=300_000, settings={"games_per_block": 200}, seed=seed)  # fmt: skip
    _recovers(res, "model.read_noise", 2.0, 0.5, 0.5, seat=4)


class _Stop(Exception):
    pass


def test_journal_resume_gives_the_uninterrupted_result(tmp_path: Path, monkeypatch) -> None:
    targets = {"metrics": [{"bots": ST2_BOTS, "seat": "attacker", "low": 0.50, "high": 0.56}],
               "change": {"allow": ["rules.hand_size", "rules.damages_to_win"]}}  # fmt: skip
    kw: dict[str, Any] = dict(game=ST2, budget=20_000, settings={"games_per_block": 100}, seed=4)
    full = ketharmad.balance(targets, **kw)
    journal = tmp_path / "j.jsonl"

    def stop_after(n: int) -> None:
        if n >= 5:
            raise _Stop

    monkeypatch.setattr(_balance, "_after_evaluation", stop_after)
    with pytest.raises(_Stop):
        ketharmad.balance(targets, journal=journal, **kw)
    monkeypatch.setattr(_balance, "_after_evaluation", None)
    assert len(journal.read_text().splitlines()) == 1 + 5  # header + five evaluations
    with open(journal, "a") as f:
        f.write('{"key": "partial')  # a write cut short by a kill: dropped on resume
    resumed = ketharmad.balance(targets, journal=journal, **kw)
    assert resumed.evaluations_played == full.evaluations_played - 5
    assert resumed.games == full.games and resumed.best_point == full.best_point
    for name in ("history", "proposals", "before", "after", "edits", "screen"):
        assert getattr(resumed, name).equals(getattr(full, name)), name
    # a finished journal replays everything; another run's journal is refused by name
    again = ketharmad.balance(targets, journal=journal, **kw)
    assert again.evaluations_played == 0 and again.history.equals(full.history)
    with pytest.raises(ValueError, match="belongs to another run"):
        ketharmad.balance(targets, journal=journal, **{**kw, "seed": 5})


def test_optuna_search_and_robustness_run_on_a_harness_game() -> None:
    pytest.importorskip("optuna")
    targets = {"metrics": [{"bots": ST2_BOTS, "seat": "attacker", "low": 0.50, "high": 0.56}],
               "change": {"allow": ["rules.hand_size", "rules.damages_to_win"]}}  # fmt: skip
    res = ketharmad.balance(targets, game=ST2, budget=30_000, seed=2,
                            settings={"games_per_block": 100, "robustness_bots": "greedy",
                                      "strategy": "descent"})  # fmt: skip
    stages = set(res.history["stage"].to_list())
    assert {"screen", "descend", "search", "confirm"} <= stages
    assert not any("Optuna is not installed" in n for n in res.notes)
    if res.best_point:
        assert res.robustness is not None and res.robustness["bots"].to_list()[0] == "greedy"


def test_the_example_targets_and_the_result_tables() -> None:
    tg = load_game_targets("examples/st2_targets.toml", ST2, None)
    assert [m.kind for m in tg.metrics] == ["win_rate"] and tg.max_edits_per_card == tg.max_edits
    res = ketharmad.balance({"metrics": [{"bots": ST2_BOTS, "low": 0.35, "high": 0.47}],
                             "change": {"allow": ["rules.hand_size"]}},
                            game=ST2, budget=5_000, settings={"games_per_block": 100}, seed=1)  # fmt: skip
    assert set(res.tables()) >= {"balance_edits", "balance_before", "balance_after",
                                 "balance_proposals", "balance_history", "balance_screen"}  # fmt: skip
    assert res.provenance()["game"] == ST2
    with pytest.raises(ValueError, match="no card file"):
        res.write_card_data("x.toml")


def test_cli_harness_balance_takes_a_journal(tmp_path: Path, capsys) -> None:
    from ketharmad.cli import main

    argv = ["balance", "--game", ST2, "--bots", "random", "random", "--target", "attacker=0.50:0.56",
            "--allow", "rules.hand_size", "--budget", "20000", "--seed", "1",
            "--journal", str(tmp_path / "j.jsonl")]  # fmt: skip
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert (
        first.removeprefix("NOT CONFIRMED: ").startswith("balance of schotten_totten_2")
        and "rules.hand_size: 6 -> 5" in first
    )
    assert main(argv) == 0  # resumed from the finished journal: nothing played, the same result
    second = capsys.readouterr().out
    assert "(0 played now" in second
    assert first.splitlines()[1:] == second.splitlines()[1:]


def test_the_card_level_repair_runs_on_a_harness_game() -> None:
    """The default strategy on a game without card records: no diagnosis (no suspects), the
    repair's rounds ordered by the screen, then race and confirmation as for Kétharmad."""
    targets = {"metrics": [{"bots": ST2_BOTS, "seat": "attacker", "low": 0.50, "high": 0.56}],
               "change": {"allow": ["rules.hand_size", "rules.damages_to_win"]}}  # fmt: skip
    res = ketharmad.balance(targets, game=ST2, budget=30_000, seed=2,
                            settings={"games_per_block": 100, "robustness_bots": None})  # fmt: skip
    stages = set(res.history["stage"].to_list())
    assert res.strategy == "cards" and res.suspects is None and res.diagnose_games == 0
    assert {"screen", "repair", "confirm"} <= stages and "descend" not in stages
    assert res.before.height == 1 and res.holdout_games > 0
