"""Results depend only on the arguments: not on threads, not on the call, not on batch size."""

from __future__ import annotations

import ketharmad
from conftest import FOUR_P, TWO_P


def test_same_call_twice_is_identical():
    a = ketharmad.simulate(TWO_P, games=1000, seed=5)
    b = ketharmad.simulate(TWO_P, games=1000, seed=5)
    assert a.games.equals(b.games)
    assert a.players.equals(b.players)


def test_threads_do_not_change_results():
    one = ketharmad.simulate(FOUR_P, games=1000, seed=9, run=dict(threads=1))
    two = ketharmad.simulate(FOUR_P, games=1000, seed=9, run=dict(threads=2))
    every = ketharmad.simulate(FOUR_P, games=1000, seed=9)
    assert one.games.equals(two.games)
    assert one.players.equals(two.players)
    assert one.games.equals(every.games)
    assert one.players.equals(every.players)


def test_different_seed_gives_different_results():
    a = ketharmad.simulate(TWO_P, games=500, seed=1)
    b = ketharmad.simulate(TWO_P, games=500, seed=2)
    assert not a.games.equals(b.games)
    assert not set(a.games["seed"].to_list()) & set(b.games["seed"].to_list())


def test_batch_prefix_is_stable():
    """Game i of a batch does not depend on how many games the batch has (play relies on it)."""
    small = ketharmad.simulate(TWO_P, games=100, seed=4)
    large = ketharmad.simulate(TWO_P, games=600, seed=4)
    assert large.games.head(100).equals(small.games)
    assert large.players.head(200).equals(small.players)


def test_play_is_repeatable():
    a = ketharmad.play(FOUR_P, seed=8, index=3)
    b = ketharmad.play(FOUR_P, seed=8, index=3)
    assert a.log == b.log
    assert str(a) == str(b)


def test_games_in_a_batch_differ():
    res = ketharmad.simulate(TWO_P, games=200, seed=0)
    assert res.games["seed"].n_unique() == 200
    assert res.games.select("turns", "rounds").n_unique() > 1
