"""Big runs of the harness games (docs/games.md, "Big runs: stats and executors"):
``simulate_game(output="stats")`` (the core's reduction, rust/harness/reduce.rs) counts what
the rows of the same batch count; ``chunk_size``/``executor``/``cluster`` cut the batch into
shards (``first_game`` ranges) and join them in game order, equal to one call; the harness lab
takes ``executor``/``cluster`` and gives the same tables."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import ketharmad
import polars as pl
import pytest
from ketharmad import _core
from ketharmad.games import (
    GameShard,
    GameStats,
    run_game_shard,
    simulate_game,  # the harness engine behind simulate(game=...)
)

ST2 = "schotten_totten_2"
OSZ = "osztrakon"
ST2_BOTS = ["greedy", "random"]
OSZ_BOTS = ["b1", "random", "greedy", "safe", "race+always"]


def _same_rows(a, b) -> None:
    assert a.games.equals(b.games)
    assert a.players.equals(b.players)


def _same_counts(a: GameStats, b: GameStats) -> None:
    """Every integer count equal, the float sums equal up to rounding (a fractional column
    such as Osztrakon's read_noise is summed in another order by polars)."""
    for f in ("game", "bots", "sides", "seed", "games", "wins", "no_winner", "shared", "unfinished", "turns",
              "end_reasons"):  # fmt: skip
        assert getattr(a, f) == getattr(b, f), f
    assert list(a.game_sums) == list(b.game_sums) and list(a.seat_sums) == list(b.seat_sums)
    for k, v in a.game_sums.items():
        assert v == pytest.approx(b.game_sums[k], rel=1e-12, abs=1e-9), k
    for k, v in a.seat_sums.items():
        assert v == pytest.approx(b.seat_sums[k], rel=1e-12, abs=1e-9), k
    assert a.return_sums == pytest.approx(b.return_sums)


# ---------------------------------------------------------------- reductions


@pytest.mark.parametrize(
    "game, bots, n", [(ST2, ST2_BOTS, 300), (ST2, ["random", "random"], 300), (OSZ, OSZ_BOTS, 200)]
)
def test_stats_count_what_the_rows_of_the_same_batch_count(game, bots, n) -> None:
    rows = simulate_game(game, bots, games=n, seed=7, first_game=11, threads=2)
    s1 = simulate_game(game, bots, games=n, seed=7, first_game=11, threads=1, output="stats")
    s2 = simulate_game(game, bots, games=n, seed=7, first_game=11, threads=2, output="stats")
    assert s1 == s2  # bit for bit, on any thread count
    assert isinstance(s1, GameStats) and s1.games == n
    _same_counts(s1, GameStats.from_result(rows))
    # spot checks against the rows directly
    g = rows.games
    assert s1.wins[0] == int((g["winners_mask"] & 1 != 0).sum())
    assert s1.no_winner == int((g["winners_mask"] == 0).sum())
    assert sum(s1.end_reasons.values()) == n and sum(s1.turns.values()) == n
    assert s1.turns_max == g["turns"].max() and s1.turns_min == g["turns"].min()
    assert s1.turns_mean == pytest.approx(g["turns"].mean())
    assert s1.turns_std == pytest.approx(g["turns"].std(ddof=0))
    assert s1.summary().equals(rows.summary())


def test_stats_of_a_decided_st2_batch() -> None:
    s = simulate_game(ST2, ST2_BOTS, games=200, seed=3, output="stats")
    # every game of Schotten Totten 2 has exactly one winner; the extra columns are counts
    assert sum(s.wins) == 200 and s.no_winner == 0 and s.shared == 0 and s.unfinished == 0
    assert set(s.end_reasons) <= {"damaged_twice", "fourth_damage", "deck_out"}
    assert s.return_sums == [s.wins[0] - s.wins[1], s.wins[1] - s.wins[0]]
    assert s.mean("damaged_sections") == s.game_sums["damaged_sections"] / 200
    rate, lo, hi = s.attacker_win_rate()
    assert lo <= rate == s.wins[0] / 200 <= hi
    with pytest.raises(ValueError, match="no per-game column 'nope'"):
        s.mean("nope")


def test_generic_reduce_takes_generic_simulates_arguments() -> None:
    raw = _core.generic_reduce(ST2, ST2_BOTS, 50, 4, 1, {"rules.damages_to_win": 3}, 20)
    rows = _core.generic_simulate(ST2, ST2_BOTS, 50, 4, 1, {"rules.damages_to_win": 3}, 20)
    assert raw["games"] == 50
    assert raw["wins"] == [int((rows["games"]["winner"] == s).sum()) for s in (0, 1)]
    with pytest.raises(ValueError, match="unknown parameter 'rules.nope'"):
        _core.generic_reduce(ST2, ST2_BOTS, 5, 1, None, {"rules.nope": 1})
    with pytest.raises(ValueError, match="games must be a positive number"):
        _core.generic_reduce(ST2, ST2_BOTS, 0, 1)


def test_ketharmad_through_the_harness_reduces_too() -> None:
    kw = dict(bots=["random", "random"], games=24, seed=5, decks=["ner", "tisza"])
    rows = simulate_game("ketharmad", **kw)
    _same_counts(simulate_game("ketharmad", **kw, output="stats"), GameStats.from_result(rows))
    _same_rows(rows, simulate_game("ketharmad", **kw, chunk_size=7))


# ---------------------------------------------------------------- shards and executors


@pytest.mark.parametrize("chunk", [1, 7, 64, 299, 300, 5000])
def test_chunked_rows_equal_one_call(chunk) -> None:
    kw = dict(games=300 if chunk > 1 else 40, seed=9, first_game=3)
    _same_rows(simulate_game(ST2, ST2_BOTS, **kw),
               simulate_game(ST2, ST2_BOTS, **kw, chunk_size=chunk))  # fmt: skip


def test_chunked_osztrakon_rows_equal_one_call() -> None:
    kw = dict(games=150, seed=2, params={"model.read_noise": 0.3})
    one = simulate_game(OSZ, OSZ_BOTS, **kw)
    _same_rows(one, simulate_game(OSZ, OSZ_BOTS, **kw, chunk_size=40))
    with ThreadPoolExecutor(2) as ex:
        _same_rows(one, simulate_game(OSZ, OSZ_BOTS, **kw, chunk_size=40, executor=ex))


@pytest.mark.parametrize("start", ["spawn", "fork"])
def test_process_pool_equals_local(start: str) -> None:
    kw = dict(games=240, seed=12, params={"rules.damages_to_win": 3})
    local = simulate_game(ST2, ST2_BOTS, **kw)
    # fork too: a forked child builds its own thread pools (batch::thread_pool)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(start)) as ex:
        _same_rows(local, simulate_game(ST2, ST2_BOTS, **kw, chunk_size=50, executor=ex, threads=1))
        # no chunk_size: one shard (a plain executor says no shard size)
        _same_rows(local, simulate_game(ST2, ST2_BOTS, **kw, executor=ex))
        st = simulate_game(ST2, ST2_BOTS, **kw, chunk_size=50, executor=ex, output="stats")
    assert st == simulate_game(ST2, ST2_BOTS, **kw, output="stats")


@pytest.mark.parametrize("chunk", [1, 33, 100, 1000])
def test_stats_merged_over_shards_equal_one_call(chunk) -> None:
    n = 40 if chunk == 1 else 250
    one = simulate_game(ST2, ST2_BOTS, games=n, seed=4, output="stats")
    assert simulate_game(ST2, ST2_BOTS, games=n, seed=4, output="stats", chunk_size=chunk) == one
    with ThreadPoolExecutor(3) as ex:  # shards finish in any order; merged in game order
        assert simulate_game(ST2, ST2_BOTS, games=n, seed=4, output="stats", chunk_size=chunk,
                                       executor=ex) == one  # fmt: skip
    # Osztrakon: every count equal (its fractional column may differ in the last bits)
    o = simulate_game(OSZ, OSZ_BOTS, games=120, seed=4, output="stats")
    _same_counts(
        simulate_game(OSZ, OSZ_BOTS, games=120, seed=4, output="stats", chunk_size=chunk), o
    )


def test_merge_and_shard_function() -> None:
    a = GameStats.from_core(
        run_game_shard(GameShard(ST2, tuple(ST2_BOTS), 1, 0, 30, output="stats")), ST2, ST2_BOTS, 1
    )
    b = GameStats.from_core(
        run_game_shard(GameShard(ST2, tuple(ST2_BOTS), 1, 30, 20, output="stats")), ST2, ST2_BOTS, 1
    )
    assert a.merge(b) == simulate_game(ST2, ST2_BOTS, games=50, seed=1, output="stats")
    other = simulate_game(ST2, ST2_BOTS, games=5, seed=2, output="stats")
    with pytest.raises(ValueError, match="different batches"):
        a.merge(other)


def test_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="output must be one of 'rows', 'stats'"):
        simulate_game(ST2, ST2_BOTS, games=5, output="frames")
    with pytest.raises(ValueError, match="chunk_size must be a whole number >= 1"):
        simulate_game(ST2, ST2_BOTS, games=5, chunk_size=0)
    with ThreadPoolExecutor(1) as ex:
        with pytest.raises(ValueError, match="executor= or cluster=, not both"):
            simulate_game(ST2, ST2_BOTS, games=5, executor=ex, cluster="local")
        # a bad bot is found here, before any shard is sent
        with pytest.raises(ValueError, match="unknown agent"):
            simulate_game(ST2, ["greedy", "nobot"], games=5, executor=ex, chunk_size=2)
    with pytest.raises(ValueError, match="unknown agent"):
        simulate_game(ST2, ["greedy", "nobot"], games=5, chunk_size=2)


def test_simulate_with_game_passes_the_executor_down() -> None:
    one = ketharmad.simulate(game=ST2, bots="greedy", games=80, seed=6)
    with ThreadPoolExecutor(2) as ex:
        _same_rows(
            one,
            ketharmad.simulate(
                game=ST2,
                bots="greedy",
                games=80,
                seed=6,
                run=dict(chunk_size=30, executor=ex),
            ),
        )
    with pytest.raises(ValueError, match="^record_plays: Kétharmad only"):
        ketharmad.simulate(game=ST2, games=5, record_plays=True, run=dict(chunk_size=2))


# ---------------------------------------------------------------- the lab on an executor


def _drop_speed(df: pl.DataFrame) -> pl.DataFrame:
    return df.drop([c for c in df.columns if "per_second" in c or c == "secs"])


def test_matchups_on_an_executor_equal_local() -> None:
    kw = dict(game=ST2, bots=["random", "greedy"], games=90, seed=5)
    local = ketharmad.matchups(**kw, run={"rows": True})
    with ThreadPoolExecutor(2) as ex:
        on = ketharmad.matchups(
            **kw,
            run=dict(rows=True, executor=ex, chunk_size=25),
        )
    assert _drop_speed(on.table).equals(_drop_speed(local.table))
    assert _drop_speed(on.by_side).equals(_drop_speed(local.by_side))
    assert on.games.equals(local.games)
    # without rows, each cell is reduced in the core: the same table
    assert _drop_speed(ketharmad.matchups(**kw, run={"rows": False}).table).equals(
        _drop_speed(local.table)
    )


def test_osztrakon_matchups_and_tournament_on_an_executor_equal_local() -> None:
    kw = dict(game=OSZ, bots=["b1", "random"], seed=3)
    local_m = ketharmad.matchups(**kw, games=50)
    local_t = ketharmad.tournament(kw["bots"], game=OSZ, games=50, seed=3)
    with ThreadPoolExecutor(2) as ex:
        on_m = ketharmad.matchups(
            **kw,
            games=50,
            run=dict(executor=ex, chunk_size=4),
        )
        on_t = ketharmad.tournament(kw["bots"], game=OSZ, games=50, seed=3, run=dict(executor=ex))
    assert _drop_speed(on_m.table).equals(_drop_speed(local_m.table))
    assert on_t.pairs.equals(local_t.pairs) and on_t.ratings.equals(local_t.ratings)


def test_st2_tournament_on_an_executor_equals_local() -> None:
    local = ketharmad.tournament(["random", "greedy"], game=ST2, games=60, seed=8)
    with ThreadPoolExecutor(2) as ex:
        on = ketharmad.tournament(
            ["random", "greedy"], game=ST2, games=60, seed=8, run=dict(executor=ex)
        )
    assert on.pairs.equals(local.pairs) and on.ratings.equals(local.ratings)


def test_sweep_on_an_executor_equals_local() -> None:
    grid = {"rules.damages_to_win": [2, 3]}
    local = ketharmad.sweep(grid, game=ST2, bots=["greedy", "random"], games=80, seed=1)
    with ThreadPoolExecutor(2) as ex:
        on = ketharmad.sweep(
            grid,
            game=ST2,
            bots=["greedy", "random"],
            games=80,
            seed=1,
            run=dict(executor=ex, chunk_size=30),
        )
    assert (
        on.table.equals(local.table)
        and on.summary.equals(local.summary)
        and on.games.equals(local.games)
    )


def test_balance_on_an_executor_equals_local() -> None:
    targets = {"metrics": [{"bots": ["random", "random"], "seat": "attacker", "low": 0.50, "high": 0.56}],
               "change": {"allow": ["rules.damages_to_win"]}}  # fmt: skip
    kw = dict(game=ST2, budget=3000, settings={"games_per_block": 150}, seed=2)
    local = ketharmad.balance(targets, **kw)
    with ThreadPoolExecutor(2) as ex:
        on = ketharmad.balance(targets, **kw, run=dict(executor=ex))
    assert on.best_point == local.best_point and on.used == local.used
    assert on.before.equals(local.before) and on.after.equals(local.after)
    assert on.history.equals(local.history)


def test_the_lab_still_refuses_what_only_ketharmad_takes() -> None:
    with pytest.raises(ValueError, match="^decks: Kétharmad only"):
        ketharmad.matchups(
            game=ST2, bots=["random"], decks=["ner", "tisza"], run=dict(executor=None)
        )
    with pytest.raises(ValueError, match="card_data: Kétharmad only"):
        ketharmad.tournament(
            ["random", "greedy"], game=ST2, card_data="balanced", run=dict(executor=None)
        )
    with ThreadPoolExecutor(1) as ex:
        with pytest.raises(ValueError, match="executor= or cluster=, not both"):
            ketharmad.sweep(
                {"rules.damages_to_win": [2]},
                game=ST2,
                games=5,
                run=dict(executor=ex, cluster="local"),
            )


# ---------------------------------------------------------------- Dask


def test_a_dask_cluster_gives_the_local_result() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.Client(distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                                     dashboard_address=":0")) as client:  # fmt: skip
        kw = dict(games=200, seed=3)
        _same_rows(simulate_game(ST2, ST2_BOTS, **kw),
                   simulate_game(ST2, ST2_BOTS, **kw, cluster=client, chunk_size=60))  # fmt: skip
        assert simulate_game(ST2, ST2_BOTS, **kw, cluster=client, output="stats", chunk_size=60) == \
            simulate_game(ST2, ST2_BOTS, **kw, output="stats")  # fmt: skip
        local = ketharmad.matchups(game=ST2, bots=["random", "greedy"], games=40, seed=2)
        on = ketharmad.matchups(
            game=ST2, bots=["random", "greedy"], games=40, seed=2, run=dict(cluster=client)
        )
        assert _drop_speed(on.table).equals(_drop_speed(local.table))
        client.cluster.close()


def _without_timing(text: str) -> list[str]:
    return [line for line in text.splitlines() if "games/s" not in line and " s)" not in line]


def test_cli_workers_run_the_harness_games_on_dask(capsys) -> None:
    """``--workers N`` (a local Dask cluster) on the harness games' commands prints what the
    same command prints without it."""
    pytest.importorskip("distributed")
    from ketharmad.cli import main

    for argv in (["simulate", "--game", ST2, "--bots", "random", "greedy", "--games", "300", "--seed", "4"],
                 ["bots", "--game", ST2, "random", "greedy", "--games", "40", "--seed", "4"]):  # fmt: skip
        assert main(argv) in (0, None)
        here = _without_timing(capsys.readouterr().out)
        assert main(argv + ["--workers", "2"]) in (0, None)
        there = _without_timing(capsys.readouterr().out)
        assert here == there and len(here) > 3
