"""Reductions, not rows (issue 11, item 2): ``_core.simulate_stats`` / ``ketharmad.run.reduce``.

The statistics of a game range equal the reduction of the frames of ``simulate`` with the same
arguments, do not depend on the thread count or on how the range is cut into pieces (merged
exactly), and give the tables of ``SimResult.summary``.
"""

from __future__ import annotations

import ketharmad
import pytest
from conftest import FOUR_P, TWO_P
from ketharmad import _core
from ketharmad.run.reduce import TURN_BINS, Stats, simulate_stats

CASES = [
    dict(decks=TWO_P, bots="heuristic", games=600, seed=1),
    dict(
        decks=["osszefogas", "radikalisok"],
        bots=["aggro", "random"],
        games=500,
        seed=4,
        start_player=1,
    ),
    dict(decks=FOUR_P, bots=["heuristic", "random", "control", "aggro"], games=150, seed=6),
    dict(
        decks=["tisza", "tisza"],
        bots=["random", "heuristic"],
        games=300,
        seed=2,
        params={"rules.allow_mirror": True},
    ),
    dict(decks=TWO_P, bots="random", games=400, seed=3, params={"rules.max_rounds": 7}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(c["decks"]) + f"-s{c['seed']}")
def test_stats_equal_the_reduction_of_the_frames(case):
    res = ketharmad.simulate(**case, run=dict(threads=2))
    want = Stats.from_frames(res.games, res.players, res.decks)
    got = simulate_stats(threads=2, **case)
    assert got == want
    assert got.games == case["games"] and sum(got.turns_hist) == got.games
    assert sum(got.wins_seat) + got.unfinished == got.games
    assert got.seat_table(res.bots).equals(res.summary())
    assert got.faction_table().equals(res.summary(by="faction"))
    assert got.mean_turns == pytest.approx(res.games["turns"].mean())
    assert got.var_turns == pytest.approx(res.games["turns"].var(ddof=0))
    assert got.length_table()["games"].sum() == got.games


def test_the_cases_exercise_unfinished_games_and_mirrors():
    capped = simulate_stats(**CASES[4])
    assert capped.unfinished > 100 and capped.end_reasons[2] == capped.unfinished
    mirror = simulate_stats(**CASES[3])
    tisza = list(_core.FACTIONS).index("tisza")
    assert mirror.wins_faction[tisza] == mirror.games - mirror.unfinished
    assert mirror.seats_faction[tisza] == 2 * mirror.games


def test_pieces_merged_equal_the_whole_range_on_any_threads():
    args = dict(decks=["ner", "radikalisok"], bots=["heuristic", "random"], seed=12)
    whole = simulate_stats(games=700, first_game=50, threads=2, **args)
    assert simulate_stats(games=700, first_game=50, threads=1, **args) == whole
    pieces = [
        simulate_stats(games=n, first_game=f, threads=1, **args)
        for f, n in ((50, 333), (383, 1), (384, 366))
    ]
    merged = Stats.empty(args["decks"])
    for p in pieces:
        merged = merged.merge(p)
    assert merged == whole
    assert pieces[2] + pieces[0] + pieces[1] == whole
    # the same games as simulate's rows of that range
    res = ketharmad.simulate(games=700, **args, run=dict(threads=2))
    tail = ketharmad.simulate(games=750, **args, run=dict(threads=2))
    assert Stats.from_frames(tail.games.slice(50), tail.players.slice(100), args["decks"]) == whole
    assert Stats.from_frames(res.games, res.players, args["decks"]) != whole


def test_bad_input_and_bad_merges_are_value_errors():
    with pytest.raises(ValueError, match="games"):
        simulate_stats(games=0)
    with pytest.raises(ValueError, match="first_game"):
        simulate_stats(games=5, first_game=-1)
    with pytest.raises(ValueError, match="2\\^63"):
        simulate_stats(games=5, first_game=2**63 - 2)
    with pytest.raises(ValueError, match="unknown faction"):
        simulate_stats(decks=["ner", "nope"], games=5)
    with pytest.raises(ValueError, match="cannot merge"):
        Stats.empty(["ner", "tisza"]).merge(Stats.empty(["tisza", "ner"]))
    with pytest.raises(ValueError, match="bots"):
        Stats.empty(["ner", "tisza"]).seat_table(["random"])
    assert len(Stats.empty(FOUR_P).turns_hist) == TURN_BINS + 1 == _core.TURN_BINS + 1


def test_a_failing_game_is_reported_with_its_index_and_seed(monkeypatch):
    monkeypatch.setenv("KETHARMAD_TEST_PANIC_GAME", "1234")
    with pytest.raises(RuntimeError, match=r"game 1234 \(seed \d+\) panicked"):
        simulate_stats(games=100, first_game=1200, seed=0, threads=2)
    # the game is outside this range: no failure
    assert simulate_stats(games=100, first_game=0, seed=0).games == 100


def test_ctrl_c_stops_a_reduction_with_keyboard_interrupt():
    from test_safety import EXIT_WITHIN, _interrupt, posix_only

    if posix_only.args[0]:
        pytest.skip("POSIX signals")
    rc, out, err, took = _interrupt(
        """
        import sys
        from ketharmad.run.reduce import simulate_stats
        simulate_stats(games=10)
        print("ready", flush=True)
        try:
            simulate_stats(games=10**7, bots="heuristic", threads=2)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            sys.exit(0)
        """
    )
    assert rc == 0 and "KeyboardInterrupt" in out, (rc, out, err[-2000:])
    assert "PanicException" not in err
    assert took < EXIT_WITHIN, f"simulate_stats took {took:.1f} s to stop"
