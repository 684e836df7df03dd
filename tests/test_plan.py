"""The plan runner (ketharmad.run.plan): one seeding scheme, results independent of how cells
are cut into shards or grouped, executors, and the features that run on it."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import packaged_card_text
from ketharmad import _core
from ketharmad.run.plan import Cell, Frames, Plan, cell, run_plan, run_shard, shards

TEXT = packaged_card_text()


def _plan(output: str = "frames", seed: int = 11) -> Plan:
    """Cells of every shape: 2 and 4 seats, fixed and drawn start seats, overrides, a mirror,
    recorded plays, and game ranges that do not start at 0."""
    return Plan(seed, [
        cell(TEXT, ["ner", "tisza"], ["heuristic", "random"], {}, 0, 23, start_player=0, output=output),
        cell(TEXT, ["tisza", "ner"], ["random", "aggro"], {"rules.starting_support": 18}, 100, 17, output=output),
        cell(TEXT, ["ner", "ner"], ["random", "random"], {"rules.allow_mirror": True}, 5, 9, start_player=1,
             output=output),
        cell(TEXT, ["ner", "tisza", "osszefogas", "radikalisok"], ["random"] * 4, {}, 40, 15,
             record_plays=output == "frames", output=output),
    ])  # fmt: skip


def _frames_equal(a: Frames, b: Frames) -> None:
    for name in ("games", "players", "card_records", "plays"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert x.equals(y), name


@pytest.mark.parametrize("output", ["frames", "games", "outcomes"])
def test_shard_size_does_not_change_results(output: str) -> None:
    plan = _plan(output)
    whole = run_plan(plan)
    assert len(whole) == 4
    for size in (1, 7, None):
        got = run_plan(plan, shard_size=size, threads=1)
        for a, b, c in zip(whole, got, plan.cells, strict=True):
            if output == "outcomes":
                assert a.keys() == b.keys()
                assert all(np.array_equal(a[k], b[k]) for k in a)
                assert len(a["winner"]) == c.games
            else:
                _frames_equal(a, b)
                assert a.games.height == c.games
                assert a.games["game"].to_list() == list(
                    range(c.first_game, c.first_game + c.games)
                )
    # the sizes really cut the plan: 23 + 17 + 9 + 15 shards of one game, 4 + 3 + 2 + 3 of 7
    assert len(list(shards(plan, 1))) == 64
    assert len(list(shards(plan, 7))) == 12
    assert len(list(shards(plan))) == 4


def test_game_i_is_the_same_game_in_any_cell_grouping() -> None:
    """A cell's games are the batch's games at those indices: the same rows as one core call
    over the whole range, and the same when the range is split over two cells."""
    c = _plan().cells[1]
    (one,) = run_plan(Plan(11, [c]))
    raw = _core.simulate(
        TEXT, list(c.decks), list(c.bots), c.first_game + c.games, 11, None, dict(c.params)
    )
    assert one.games["seed"].to_list() == raw["games"]["seed"][c.first_game :].tolist()
    assert (
        one.games["winner"].fill_null(-1).to_list()
        == raw["games"]["winner"][c.first_game :].tolist()
    )
    split = Plan(11, [cell(TEXT, c.decks, c.bots, c.params, c.first_game, 6),
                      cell(TEXT, c.decks, c.bots, c.params, c.first_game + 6, c.games - 6)])  # fmt: skip
    a, b = run_plan(split)
    assert pl.concat([a.games, b.games]).equals(one.games)
    assert pl.concat([a.players, b.players]).equals(one.players)
    # another seed: other games
    (other,) = run_plan(Plan(12, [c]))
    assert not set(other.games["seed"].to_list()) & set(one.games["seed"].to_list())


def test_executors_give_the_local_result() -> None:
    plan = _plan()
    local = run_plan(plan)
    with ThreadPoolExecutor(max_workers=2) as ex:
        threaded = run_plan(plan, shard_size=5, executor=ex, threads=1)
    for a, b in zip(local, threaded, strict=True):
        _frames_equal(a, b)
    # shards are pure, picklable descriptions and run_shard a module-level function: a
    # process pool (spawned interpreter) plays them to the same frames
    small = Plan(11, plan.cells[:2])
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as ex:
        remote = run_plan(small, shard_size=8, executor=ex)
    for a, b in zip(local[:2], remote, strict=True):
        _frames_equal(a, b)
    s = next(iter(shards(small, 8)))
    _frames_equal(run_shard(pickle.loads(pickle.dumps(s))), run_shard(s))


def test_plan_checks_its_cells() -> None:
    with pytest.raises(ValueError, match="output"):
        Cell(TEXT, ("ner", "tisza"), ("random", "random"), {}, 0, 5, output="rows")
    with pytest.raises(ValueError, match="one bot per seat"):
        cell(TEXT, ["ner", "tisza"], ["random"], {}, 0, 5)
    with pytest.raises(ValueError, match="games >= 1"):
        cell(TEXT, ["ner", "tisza"], ["random"] * 2, {}, 0, 0)
    with pytest.raises(ValueError, match="shard_size"):
        run_plan(_plan(), shard_size=0)
    bad = Plan(0, [cell(TEXT, ["ner", "tisza"], ["random"] * 2, {"ner_orban_viktor.influenze": 3}, 0, 5,
                        label="cell 7")])  # fmt: skip
    with pytest.raises(ValueError, match="cell 7: .*influenze"):
        bad.validate()


def test_matchups_cells_are_batch_games() -> None:
    """Every matchup game is game `game` of the batch with the run's seed: the rows of a
    plain simulate call over the same range (what play() replays)."""
    m = ketharmad.matchups(games_per_side=6, bots="random", seed=5)
    factions = list(ketharmad.FACTIONS)
    pairs = [(a, b) for i, a in enumerate(factions) for b in factions[i:]]
    k = pairs.index(("ner", "tisza"))
    for side in (0, 1):
        first = (2 * k + side) * 6
        ref = ketharmad.simulate(
            ["ner", "tisza"], "random", games=first + 6, seed=5, start_player=side
        )
        got = m.games.filter(pl.col("game").is_between(first, first + 5))
        assert got["seed"].to_list() == ref.games["seed"].tail(6).to_list()
        assert got["winner"].to_list() == ref.games["winner"].tail(6).to_list()


def test_matchups_and_sweep_with_an_executor_equal_local() -> None:
    with ThreadPoolExecutor(max_workers=2) as ex:
        m1 = ketharmad.matchups(
            games_per_side=8,
            bots="random",
            seed=2,
            run=dict(executor=ex, chunk_size=3),
        )
        s1 = ketharmad.sweep(
            {"rules.starting_support": [18, 20]}, games=12, bots="random", run=dict(executor=ex)
        )
    m0 = ketharmad.matchups(games_per_side=8, bots="random", seed=2)
    s0 = ketharmad.sweep({"rules.starting_support": [18, 20]}, games=12, bots="random")
    assert m0.games.equals(m1.games) and m0.players.equals(m1.players) and m0.table.equals(m1.table)
    assert s0.games.equals(s1.games) and s0.table.equals(s1.table)


def test_tournament_uses_the_common_seeding() -> None:
    """Deck pairing d of a tournament plays games d*n .. (d+1)*n - 1 of the batch with the
    tournament's seed, both seatings and every pair of bots the same games."""
    decks = [["ner", "tisza"], ["tisza", "osszefogas"]]
    res = ketharmad.tournament(["random", "heuristic"], decks=decks, games=40, seed=6)
    per = 10
    wa = wb = unf = 0
    for d, deck in enumerate(decks):
        for a_seat, bots in ((0, ["random", "heuristic"]), (1, ["heuristic", "random"])):
            w = (
                ketharmad.simulate(deck, bots, games=(d + 1) * per, seed=6)
                .games["winner"]
                .tail(per)
            )
            wa += int((w == a_seat).sum())
            wb += int((w == 1 - a_seat).sum())
            unf += w.null_count()
    row = res.pairs.row(0, named=True)
    assert (row["wins_a"], row["wins_b"], row["unfinished"], row["games"]) == (wa, wb, unf, 40)


def test_balance_with_an_executor_equals_local(tmp_path) -> None:
    small = str(__import__("pathlib").Path(__file__).parent / "test_balance_small.toml")
    kw = dict(bots="random", budget=3000, seed=1, settings={"robustness_bots": None})
    local = ketharmad.balance(small, journal=tmp_path / "a.jsonl", **kw)
    with ThreadPoolExecutor(max_workers=2) as ex:
        remote = ketharmad.balance(small, journal=tmp_path / "b.jsonl", **kw, run=dict(executor=ex))
    assert local.best_point == remote.best_point
    assert local.history.equals(remote.history) and local.proposals.equals(remote.proposals)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


class _CountingExecutor(ThreadPoolExecutor):
    """A thread pool that records the most shards it ever had in flight."""

    shard_window = 3

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        import threading

        self._lock = threading.Lock()
        self.in_flight = 0
        self.most = 0
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]  # a test double of Executor.submit
        with self._lock:
            self.in_flight += 1
            self.submitted += 1
            self.most = max(self.most, self.in_flight)
        fut = super().submit(fn, *args, **kwargs)

        def done(_f) -> None:
            with self._lock:
                self.in_flight -= 1

        fut.add_done_callback(done)
        return fut


def test_an_executor_gets_at_most_its_window_of_shards_at_once() -> None:
    """A long run keeps at most ``shard_window`` shards in flight (each carries its card
    text), submitting the next as one finishes; the results are the local ones."""
    plan = _plan("games")
    local = run_plan(plan)
    with _CountingExecutor() as ex:
        got = run_plan(plan, shard_size=2, executor=ex, threads=1)
    assert ex.submitted == len(list(shards(plan, 2))) == 12 + 9 + 5 + 8
    assert 1 <= ex.most <= 3
    for a, b in zip(local, got, strict=True):
        _frames_equal(a, b)


def test_outcome_cells_played_together_equal_one_call_each() -> None:
    """run_plan plays consecutive "outcomes" cells of one card set, parameters, seat count,
    seed and threads in one core call (_core.simulate_cells); each cell's arrays are the ones
    its own call gives, whatever the grouping."""
    from ketharmad.run.plan import _outcome_group, run_shards_together

    cells = [
        cell(
            TEXT,
            ["ner", "tisza"],
            ["heuristic", "random"],
            {},
            0,
            23,
            start_player=0,
            output="outcomes",
        ),
        cell(TEXT, ["tisza", "ner"], ["random", "aggro"], {}, 100, 17, output="outcomes"),
        cell(
            TEXT,
            ["ner", "osszefogas"],
            ["heuristic", "heuristic"],
            {},
            7,
            1,
            start_player=1,
            output="outcomes",
        ),
        cell(
            TEXT,
            ["ner", "tisza"],
            ["random", "random"],
            {"rules.starting_support": 18},
            0,
            9,
            output="outcomes",
        ),
        cell(
            TEXT,
            ["ner", "tisza", "osszefogas", "radikalisok"],
            ["random"] * 4,
            {},
            40,
            15,
            output="outcomes",
        ),
        cell(
            TEXT,
            ["tisza", "ner", "radikalisok", "osszefogas"],
            ["heuristic"] * 4,
            {},
            3,
            11,
            output="outcomes",
        ),
        cell(TEXT, ["ner", "tisza"], ["random", "random"], {}, 0, 5, output="games"),
    ]
    plan = Plan(11, cells)
    work = list(shards(plan))
    # groups: the first three cells (same params, 2 seats), the override alone, the two
    # 4-seat cells, the "games" cell alone
    sizes = []
    k = 0
    while k < len(work):
        g = _outcome_group(work, k)
        sizes.append(len(g))
        k += len(g)
    assert sizes == [3, 1, 2, 1]
    together = run_plan(plan)
    for s, got in zip(work, together, strict=True):
        alone = run_shard(s)
        if s.cell.output == "outcomes":
            assert got.keys() == alone.keys()
            for key in alone:
                assert np.array_equal(got[key], alone[key]), key
            assert got["game"].tolist() == list(range(s.first_game, s.first_game + s.games))
        else:
            _frames_equal(got, alone)
    with pytest.raises(ValueError, match="share their number of seats"):
        run_shards_together([work[0], work[4]])


def test_simulate_first_game_is_a_range_of_the_batch() -> None:
    """simulate(first_game=a, games=n) plays games a .. a+n-1 of the batch: the rows of one
    bigger call (issue 11: the first_game offset is public API)."""
    whole = ketharmad.simulate(
        ["ner", "tisza", "osszefogas"], "random", games=50, seed=4, record_plays=True
    )
    part = ketharmad.simulate(["ner", "tisza", "osszefogas"], "random", games=30, seed=4, first_game=20,
                              record_plays=True)  # fmt: skip
    assert part.first_game == 20 and part.n_games == 30
    assert part.games.equals(whole.games.filter(pl.col("game") >= 20))
    assert part.players.equals(whole.players.filter(pl.col("game") >= 20))
    assert part.card_records.equals(whole.card_records.filter(pl.col("game") >= 20))
    assert part.plays.equals(whole.plays.filter(pl.col("game") >= 20))
    for bad in (-1, 1.5, 2**63):
        with pytest.raises(ValueError, match="first_game"):
            ketharmad.simulate(games=10, first_game=bad)


def test_outcome_groups_are_bounded_in_games(monkeypatch) -> None:
    """A group played together holds at most TOGETHER_GAMES games (its columns are held at
    once); the results do not change."""
    from ketharmad.run import plan as plan_mod

    cells = [
        cell(TEXT, ["ner", "tisza"], ["random", "random"], {}, 30 * i, 30, output="outcomes")
        for i in range(5)
    ]
    p = Plan(3, cells)
    whole = run_plan(p)
    monkeypatch.setattr(plan_mod, "TOGETHER_GAMES", 70)  # two cells of 30 fit, a third does not
    work = list(shards(p))
    assert [len(plan_mod._outcome_group(work, k)) for k in (0, 2, 4)] == [2, 2, 1]
    for a, b in zip(whole, run_plan(p), strict=True):
        assert all(np.array_equal(a[key], b[key]) for key in a)
