"""The step API's observation marks allies and enemies per seat (issue 13 item 5,
docs/step_api.md): a Python agent in Coalition knows its partner."""

import ketharmad as k
import pytest

FOUR = ["ner", "tisza", "osszefogas", "radikalisok"]


def test_coalition_observation_names_partner_and_opponents():
    g = k.Game(FOUR, format="coalition", seed=3)
    # E81: seats 0 + 2 against 1 + 3; enemies in turn order after the seat
    expect = {0: ([2], [1, 3]), 1: ([3], [2, 0]), 2: ([0], [3, 1]), 3: ([1], [0, 2])}
    for seat, (allies, enemies) in expect.items():
        o = g.observation(seat)
        assert o["allies"] == allies
        assert o["enemies"] == enemies
        rel = [p["relation"] for p in o["players"]]
        assert rel[seat] == "self"
        assert [q for q, r in enumerate(rel) if r == "ally"] == allies
        assert sorted(q for q, r in enumerate(rel) if r == "enemy") == sorted(enemies)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_free_for_all_observation_has_no_allies(n):
    g = k.Game(FOUR[:n], seed=1)
    for seat in range(n):
        o = g.observation(seat)
        assert o["allies"] == []
        assert o["enemies"] == [(seat + i) % n for i in range(1, n)]
        assert [p["relation"] for p in o["players"]] == [
            "self" if q == seat else "enemy" for q in range(n)
        ]


def test_coalition_winners_see_no_enemy_left_and_keep_their_partner():
    g = k.Game(FOUR, format="coalition", seed=11, index=4)
    g.advance(["heuristic"] * 4)
    assert g.is_over
    o = g.observation(0)
    alive = [p["alive"] for p in o["players"]]
    # a team falls together (E87): the seats still in are one team
    in_game = [q for q in range(4) if alive[q]]
    assert in_game in ([0, 2], [1, 3])
    for seat in in_game:
        o = g.observation(seat)
        assert o["enemies"] == []
        assert o["allies"] == [q for q in in_game if q != seat]
    assert g.winner in in_game  # the winner column holds the team's lower seat
    assert [r > 0 for r in g.returns()] == [q in in_game for q in range(4)]


def test_rl_environments_take_a_format():
    pytest.importorskip("pettingzoo")
    import numpy as np

    e = k.env(FOUR, format="coalition")
    e.reset(seed=3)
    while e.agents:
        obs, _r, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    ret = e.unwrapped.game.returns()
    assert ret[0] == ret[2] and ret[1] == ret[3] and ret[0] == -ret[1]  # partners share the reward
    g = k.gym_env(FOUR, format="coalition", seat=2)
    g.reset(seed=1)
    assert g.game.observation(2)["allies"] == [0]
    with pytest.raises(ValueError, match="exactly 4 decks"):
        k.env(["ner", "tisza"], format="coalition")
