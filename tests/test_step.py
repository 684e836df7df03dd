"""The step API (issue 12, docs/step_api.md): ketharmad.Game."""

import random

import ketharmad as k
import numpy as np
import pytest

SEARCH = {"kind": "search", "iterations": 4, "rollout_rounds": 3}
SEARCH_EVERY = {"kind": "search", "iterations": 3, "rollout_rounds": 2, "every": 1}


def play_with_bots(decks, bots, seed, game):
    g = k.Game(decks, seed=seed, index=game)
    while not g.is_over:
        g.step(g.bot_action(bots[g.current_player]))
    return g


@pytest.mark.parametrize(
    "decks,bots,games",
    [
        (["ner", "tisza"], ["random", "random"], 12),
        (["osszefogas", "radikalisok"], ["heuristic", "aggro"], 8),
        (["tisza", "ner", "radikalisok"], ["control", "random", "heuristic"], 6),
        (
            ["ner", "osszefogas", "tisza", "radikalisok"],
            ["heuristic", "random", "aggro", "control"],
            4,
        ),
        (["radikalisok", "osszefogas"], [SEARCH, "heuristic"], 2),
        (["ner", "tisza"], [SEARCH_EVERY, "random"], 1),
    ],
)
def test_stepping_with_bot_actions_replays_simulate(decks, bots, games):
    """Replay equivalence: row i of simulate == Game(seed, index=i) stepped with bot_action."""
    r = k.simulate(decks, bots=bots, games=games, seed=11, run=dict(threads=1))
    for i in range(games):
        g = play_with_bots(decks, bots, 11, i)
        row = r.games.row(i, named=True)
        assert (g.winner, g.turn, g.round, g.end_reason) == (
            row["winner"],
            row["turns"],
            row["rounds"],
            row["end_reason"],
        ), (decks, bots, i)


def test_advance_plays_bots_in_rust_like_simulate():
    bots = ["heuristic", "random", "aggro"]
    decks = ["ner", "tisza", "osszefogas"]
    r = k.simulate(decks, bots=bots, games=5, seed=3, run=dict(threads=1))
    for i in range(5):
        g = k.Game(decks, seed=3, index=i)
        # seat 1 is "external": answered from Python with the bot it would have used
        while not g.is_over:
            g.advance([bots[0], None, bots[2]])
            if not g.is_over:
                assert g.current_player == 1
                g.step(g.bot_action(bots[1]))
        assert g.winner == r.games["winner"][i]


def test_clone_at_every_decision_kind_continues_the_same():
    kinds = set()
    for game in range(6):
        g = k.Game(
            ["ner", "osszefogas", "tisza", "radikalisok"] if game % 2 else ["tisza", "radikalisok"],
            seed=2,
            index=game,
        )
        rng = random.Random(game)
        step = 0
        while not g.is_over:
            if step % 4 == 0:
                kinds.add(g.decision_kind)
                c = g.clone()
                assert (c.current_player, c.decision_kind, c.legal_action_ids()) == (
                    g.current_player,
                    g.decision_kind,
                    g.legal_action_ids(),
                )
                a, b = c.clone(), g.clone()
                r1, r2 = random.Random(step), random.Random(step)
                while not a.is_over:
                    a.step(r1.choice(a.legal_action_ids()))
                while not b.is_over:
                    b.step(r2.choice(b.legal_action_ids()))
                assert (a.winner, a.turn, a.returns()) == (b.winner, b.turn, b.returns())
            g.step(rng.choice(g.legal_action_ids()))
            step += 1
    assert {"mulligan", "main", "respond", "target", "attackers", "blocks"} <= kinds, kinds


def test_determinize_keeps_what_the_seat_sees():
    g = k.Game(["ner", "osszefogas", "tisza", "radikalisok"], seed=4, index=1)
    rng = random.Random(1)
    checked = 0
    while not g.is_over:
        seat = g.current_player
        d = g.determinize(seat, 99)
        if (d.current_player, d.decision_kind, d.legal_action_ids()) == (
            seat,
            g.decision_kind,
            g.legal_action_ids(),
        ):
            checked += 1
            assert d.observation(seat) == g.observation(seat)
            assert np.array_equal(d.observation_tensor(seat), g.observation_tensor(seat))
        g.step(rng.choice(g.legal_action_ids()))
    assert checked > 50


def test_action_ids_mean_the_same_everywhere():
    meaning = {}
    for game, decks in enumerate(
        [["ner", "tisza"], ["tisza", "ner"], ["osszefogas", "radikalisok", "ner"]]
    ):
        g = k.Game(decks, seed=9, index=game)
        rng = random.Random(game)
        while not g.is_over:
            acts = g.legal_actions()
            ids = [a.id for a in acts]
            assert len(set(ids)) == len(ids)
            assert ids == g.legal_action_ids()
            mask = g.action_mask()
            assert (
                mask.dtype == bool
                and mask.shape == (g.num_actions,)
                and mask.sum() == len(ids)
                and mask[ids].all()
            )
            for a in acts:
                assert 0 <= a.id < g.num_actions and a.label
                meaning.setdefault(a.id, g.describe_action(a.id))
                assert g.describe_action(a.id) == meaning[a.id]
            g.step(rng.choice(ids))
    assert len(meaning) > 100


def test_bad_actions_raise_value_error_naming_the_legal_ones():
    g = k.Game(["ner", "tisza"], seed=1)
    legal = g.legal_action_ids()
    bad = next(i for i in range(g.num_actions) if i not in legal)
    with pytest.raises(
        ValueError,
        match=rf"action {bad} is not legal here; legal actions for seat \d \(mulligan\): 0 \(keep the hand\), 1 \(mulligan\)",
    ):
        g.step(bad)
    for junk in (-1, g.num_actions, 10**12):
        with pytest.raises(ValueError, match="not legal"):
            g.step(junk)
    with pytest.raises(ValueError, match="integer id or an Action"):
        g.step("keep")
    with pytest.raises(ValueError, match="integer id or an Action"):
        g.step(True)
    g.step(g.legal_actions()[0])  # an Action works
    with pytest.raises(ValueError, match="seat 5 does not exist"):
        g.observation(5)
    with pytest.raises(ValueError, match="unknown faction"):
        k.Game(["ner", "nope"])
    with pytest.raises(ValueError, match="seed"):
        k.Game(["ner", "tisza"], seed=-1)
    with pytest.raises(ValueError, match="no log"):
        _ = g.log
    while not g.is_over:
        g.step(g.bot_action("random"))
    with pytest.raises(ValueError, match="over"):
        g.step(0)
    assert g.current_player is None and g.decision_kind is None and g.legal_action_ids() == []
    assert sorted(g.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_observation_and_log():
    g = k.Game(["ner", "tisza"], seed=5, index=2, log=True)
    while g.decision_kind != "main":
        g.step(g.bot_action("heuristic"))
    seat = g.current_player
    o = g.observation(seat)
    assert o["seat"] == seat and o["decision"] == (seat, "main")
    assert len(o["hand"]) == o["players"][seat]["hand_size"]
    other = 1 - seat
    assert "hand" not in o["players"][other]
    t = g.observation_tensor(seat)
    assert t.dtype == np.float32 and t.shape == (g.observation_size,)
    assert any("Round 1" in line for line in g.log)
