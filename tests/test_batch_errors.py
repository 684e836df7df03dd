"""The generic harness batch reports errors as the Kétharmad batch does (issue 23 item 1): one
typed error in the core, turned into a Python exception in one place. A game that panics is a
``RuntimeError`` naming its game index and its seed (the seed of that row in a batch that does
not fail), in the row batch and in the reduction, for every game; bad input is a ``ValueError``.
"""

import pytest
from ketharmad import _core

GAMES = [
    ("schotten_totten_2", ["random", "random"], {}),
    ("osztrakon", ["random"] * 5, {}),
    ("ketharmad", ["random", "random"], {"decks": ["ner", "tisza"]}),
]


@pytest.mark.parametrize("game,agents,extra", GAMES, ids=[g[0] for g in GAMES])
def test_a_panicking_game_is_a_runtime_error_naming_its_game_and_seed(
    monkeypatch, game, agents, extra
):
    rows = _core.generic_simulate(game, agents, 10, 7, threads=2, **extra)
    seed = int(rows["games"]["seed"][3])
    monkeypatch.setenv("KETHARMAD_TEST_PANIC_GAME", "3")
    for run in (_core.generic_simulate, _core.generic_reduce):
        with pytest.raises(RuntimeError, match=rf"^game 3 \(seed {seed}\) panicked: test panic"):
            run(game, agents, 10, 7, threads=2, **extra)
    # a range without that game plays
    assert _core.generic_reduce(game, agents, 5, 7, first_game=4, **extra)["games"] == 5
    monkeypatch.delenv("KETHARMAD_TEST_PANIC_GAME")
    assert _core.generic_reduce(game, agents, 10, 7, **extra)["games"] == 10


@pytest.mark.parametrize("game,agents,extra", GAMES, ids=[g[0] for g in GAMES])
def test_bad_input_is_a_value_error(game, agents, extra):
    for run in (_core.generic_simulate, _core.generic_reduce):
        with pytest.raises(ValueError, match="unknown agent 'nobody'"):
            run(game, [*agents[:-1], "nobody"], 10, 7, **extra)
        with pytest.raises(ValueError, match="threads must be at most"):
            run(game, agents, 10, 7, threads=_core.MAX_THREADS + 1, **extra)
