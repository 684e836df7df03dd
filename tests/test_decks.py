"""Decks beyond the four factions (rules.md R16.4, E90; docs/decks.md): Mixed decks, custom
lists and deck files through every entry point, their labels in the results, and the
ValueError of every illegal list."""

import subprocess
import sys
from collections import Counter

import ketharmad as k
import numpy as np
import polars as pl
import pytest
from conftest import packaged_card_text
from ketharmad import _core
from ketharmad.game.validate import check_decks

CARDS = k.cards()
FACTION_OF = dict(zip(CARDS["id"], CARDS["faction"], strict=True))
TYPE_OF = dict(zip(CARDS["id"], CARDS["type"], strict=True))
INDEX_OF = {c: i for i, c in enumerate(CARDS["id"])}


def own_deck(faction):
    """The faction's own deck as a custom list."""
    rows = CARDS.filter(pl.col("faction") == faction)
    return dict(zip(rows["id"], rows["copies"], strict=True))


def mixed_cards(decks, seed, game):
    """Each seat's card ids (a multiset) in game ``game`` of the batch ``seed``, as the engine
    dealt them (``_core.deck_lists``)."""
    raw = _core.deck_lists(packaged_card_text(), check_decks(decks), seed, game, None)
    return [Counter(CARDS["id"][d] for d in seat) for seat in raw]


@pytest.mark.parametrize(
    "pair", [("ner", "tisza"), ("osszefogas", "radikalisok"), ("tisza", "ner")]
)
def test_e90_mixed_deck_composition_over_many_games(pair):
    a, b = pair
    other = [f for f in k.FACTIONS if f not in pair][0]
    for game in range(60):
        seat = mixed_cards([f"{a}+{b}", other], 5, game)[0]
        assert sum(seat.values()) == 30
        for f in pair:
            non_base = sum(
                n for c, n in seat.items() if FACTION_OF[c] == f and TYPE_OF[c] != "base"
            )
            bases = sum(n for c, n in seat.items() if FACTION_OF[c] == f and TYPE_OF[c] == "base")
            assert (non_base, bases) == (9, 6), (f, game)
        # no card in more copies than its faction deck holds
        copies = dict(zip(CARDS["id"], CARDS["copies"], strict=True))
        assert all(n <= copies[c] for c, n in seat.items())


def test_mixed_deck_is_reproducible_and_varies_per_game():
    first = mixed_cards(["ner+tisza", "radikalisok"], 3, 0)
    assert mixed_cards(["ner+tisza", "radikalisok"], 3, 0) == first
    assert any(mixed_cards(["ner+tisza", "radikalisok"], 3, g)[0] != first[0] for g in range(1, 4))
    assert first[1] == Counter(own_deck("radikalisok"))


def test_mixed_numbers_are_parameters():
    p = {"rules.mixed_deck_non_base": 4, "rules.mixed_deck_bases": 3}
    seat = Counter(
        CARDS["id"][d]
        for d in _core.deck_lists(packaged_card_text(), ["ner+tisza", "osszefogas"], 0, 0, p)[0]
    )
    assert sum(seat.values()) == 14
    assert sum(n for c, n in seat.items() if FACTION_OF[c] == "tisza" and TYPE_OF[c] == "base") == 3


def test_results_carry_the_deck_label():
    custom = {"name": "my_tisza", "cards": own_deck("tisza")}
    r = k.simulate(["ner+osszefogas", custom], bots="heuristic", games=30, seed=4)
    p = r.players
    assert p.columns.index("deck") == p.columns.index("faction") + 1
    assert p.filter(pl.col("seat") == 0)["deck"].unique().to_list() == ["ner+osszefogas"]
    assert p.filter(pl.col("seat") == 0)["faction"].unique().to_list() == ["ner"]
    assert p.filter(pl.col("seat") == 1)["deck"].unique().to_list() == ["my_tisza"]
    assert p.filter(pl.col("seat") == 1)["faction"].unique().to_list() == ["tisza"]
    by = r.summary(by="faction")
    assert by["faction"].to_list() == ["ner+osszefogas", "my_tisza"]
    assert by["wins"].sum() == p["won"].sum()
    assert "ner+osszefogas vs my_tisza" in str(r)
    # the reduction gives the same pooled table
    from ketharmad.run.reduce import simulate_stats

    s = simulate_stats(["ner+osszefogas", custom], bots="heuristic", games=30, seed=4)
    assert s.faction_table().equals(by)
    # plain decks: the deck is the faction
    plain = k.simulate(["ner", "tisza"], games=5, seed=1)
    assert plain.players["deck"].to_list() == plain.players["faction"].to_list()


def test_custom_list_plays_only_its_cards():
    # a Mixed deck fixed as a list: take one game's deal and play it in every game
    deal = mixed_cards(["ner+tisza", "osszefogas"], 9, 0)[0]
    custom = {"name": "fixed", "cards": dict(deal)}
    for game in range(3):
        assert mixed_cards([custom, "osszefogas"], 1, game)[0] == deal
    r = k.simulate([custom, "osszefogas"], bots="heuristic", games=40, seed=2, record_plays=True)
    played = set(r.plays.filter(pl.col("seat") == 0)["card"].to_list())
    newsfeed = set(CARDS.filter(pl.col("faction") == "newsfeed")["id"])
    assert played, "seat 0 played nothing"
    assert played <= set(deal) | newsfeed
    # the card records agree: every card seat 0 played is in its list or the Newsfeed
    rec = r.card_records.filter(pl.col("seat") == 0)
    bits = (
        np.bitwise_or.reduce(rec["played_lo"].to_numpy()),
        np.bitwise_or.reduce(rec["played_hi"].to_numpy()),
    )
    ids = {CARDS["id"][i] for i in range(len(CARDS)) if (int(bits[i // 64]) >> (i % 64)) & 1}
    assert ids == played


def test_card_stats_work_with_mixed_decks():
    cs = k.card_stats(decks=["ner+tisza", "radikalisok"], games=40, seed=1, bots="heuristic")
    t = cs.table
    assert t.height > 0
    # the Mixed seat's Tisza cards are counted under the seat's faction (ner)
    tisza_in_ner = t.filter(
        (pl.col("faction") == "ner") & pl.col("card").is_in(list(own_deck("tisza")))
    )
    assert tisza_in_ner.height > 0


def test_deck_file(tmp_path):
    path = tmp_path / "tempo.toml"
    body = "\n".join(f"{c} = {n}" for c, n in own_deck("ner").items())
    path.write_text(f"[cards]\n{body}\n")
    r = k.simulate([str(path), "tisza"], games=10, seed=3)
    assert r.players.filter(pl.col("seat") == 0)["deck"].unique().to_list() == ["tempo"]
    # the same games as the faction deck itself (same cards, same order of the deck)
    plain = k.simulate(["ner", "tisza"], games=10, seed=3)
    assert r.games.equals(plain.games)
    named = tmp_path / "other.toml"
    named.write_text(f'name = "mine"\n[cards]\n{body}\n')
    assert k.Game([named, "tisza"]).decks == ["mine", "tisza"]
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'x'\ncolour = 'red'\n[cards]\n")
    with pytest.raises(ValueError, match="unknown key.*colour"):
        k.simulate([str(bad), "tisza"], games=1)
    with pytest.raises(ValueError, match="deck file not found"):
        k.simulate([str(tmp_path / "missing.toml"), "tisza"], games=1)


def _one_removed(deck):
    d = dict(deck)
    first = next(iter(d))
    d[first] -= 1
    if d[first] == 0:
        del d[first]
    return d


PUBLIC = CARDS.filter((pl.col("faction") == "ner") & (pl.col("copies") == 1))["id"][0]
NEWS = CARDS.filter(pl.col("faction") == "newsfeed")["id"][0]
EVENT = CARDS.filter(pl.col("faction") == "event")["id"][0]
TOKEN = CARDS.filter(pl.col("faction") == "token")["id"][0]


@pytest.mark.parametrize(
    "cards, message",
    [
        ({**own_deck("ner"), "no_such_card": 1}, "unknown card id 'no_such_card'"),
        (
            _one_removed(own_deck("ner")),
            r"has 30 cards; a deck of one faction has 31 \(rules.deck_size",
        ),
        (
            {**own_deck("ner"), PUBLIC: 2},
            f"2 copies of '{PUBLIC}', but the card allows 1.*rules.allow_extra_copies",
        ),
        ({**own_deck("ner"), NEWS: 1}, f"'{NEWS}' is a Newsfeed card"),
        ({**own_deck("ner"), EVENT: 1}, f"'{EVENT}' is an Event card"),
        ({**own_deck("ner"), TOKEN: 1}, f"'{TOKEN}' is a token card"),
        ({}, "the card list is empty"),
        (
            {**own_deck("ner"), **own_deck("tisza")},
            r"so it is a Mixed deck \(R16.4, E90\) of 9 non-Base cards and 6 Bases",
        ),
        ({PUBLIC: 1.5}, "must be a whole number"),
    ],
)
def test_illegal_lists_raise_value_error(cards, message):
    deck = {"name": "bad", "cards": cards}
    with pytest.raises(ValueError, match=message):
        k.simulate([deck, "tisza"], games=1)
    with pytest.raises(ValueError, match=message):
        k.Game([deck, "tisza"])
    with pytest.raises(ValueError, match=message):
        k.play([deck, "tisza"])


def test_extra_copies_parameter_lifts_the_limit():
    cards = {**own_deck("ner"), PUBLIC: 2}
    first = next(c for c, n in cards.items() if n >= 2 and c != PUBLIC)
    cards[first] -= 1
    with pytest.raises(ValueError, match="the card allows 1"):
        k.simulate([{"name": "x", "cards": cards}, "tisza"], games=1)
    r = k.simulate(
        [{"name": "x", "cards": cards}, "tisza"], games=3, params={"rules.allow_extra_copies": True}
    )
    assert r.n_games == 3


def test_mixed_deck_errors():
    with pytest.raises(ValueError, match="both take cards from the tisza deck.*rules.allow_mirror"):
        k.simulate(["ner+tisza", "tisza"], games=1)
    assert (
        k.simulate(["ner+tisza", "tisza"], games=2, params={"rules.allow_mirror": True}).n_games
        == 2
    )
    with pytest.raises(ValueError, match="unknown faction 'fidesz' in Mixed deck"):
        k.simulate(["ner+fidesz", "tisza"], games=1)
    with pytest.raises(ValueError, match="twice"):
        k.simulate(["ner+ner", "tisza"], games=1)
    with pytest.raises(ValueError, match="a deck name"):
        k.simulate([{"name": "a b", "cards": {PUBLIC: 1}}, "tisza"], games=1)
    with pytest.raises(ValueError, match="is a faction's name"):
        k.simulate([{"name": "ner", "cards": own_deck("ner")}, "tisza"], games=1)


@pytest.mark.parametrize(
    "decks",
    [
        ["ner+tisza", "osszefogas+radikalisok"],
        ["tisza+radikalisok", {"name": "n", "cards": own_deck("ner")}, "osszefogas"],
    ],
)
def test_replay_and_stepping_equal_simulate(decks):
    bots = ["heuristic", "random", "aggro"][: len(decks)]
    r = k.simulate(decks, bots=bots, games=6, seed=8, run=dict(threads=1))
    for i in range(6):
        row = r.games.row(i, named=True)
        log = k.play(decks, bots=bots, seed=8, index=i)
        assert (log.winner, log.turns) == (row["winner"], row["turns"])
        g = k.Game(decks, seed=8, index=i)
        while not g.is_over:
            g.step(g.bot_action(bots[g.current_player]))
        assert (g.winner, g.turn, g.round, g.end_reason) == (
            row["winner"],
            row["turns"],
            row["rounds"],
            row["end_reason"],
        )
    assert k.Game(decks).decks == r.players.filter(pl.col("game") == 0)["deck"].to_list()


def test_tournament_and_sweep_take_mixed_decks():
    t = k.tournament(["heuristic", "random"], games=4, decks=[["ner+tisza", "osszefogas"]], seed=1)
    assert t.decks == [["ner+tisza", "osszefogas"]]
    assert t.ratings.height == 2


def test_cli_plays_mixed_decks(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ketharmad",
            "simulate",
            "--decks",
            "ner+tisza",
            "osszefogas",
            "--games",
            "20",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "ner+tisza vs osszefogas" in out.stdout


def test_shipped_example_deck_file_is_legal_and_plays():
    from pathlib import Path

    path = (
        Path(__file__).resolve().parent.parent / "examples" / "decks" / "ner_osszefogas_media.toml"
    )
    r = k.simulate([path, "tisza"], bots="heuristic", games=20, seed=1)
    assert r.players.filter(pl.col("seat") == 0)["deck"].unique().to_list() == ["ner_osz_media"]
    seat = mixed_cards([path, "tisza"], 1, 0)[0]
    assert sum(seat.values()) == 30


def test_sweep_knows_a_mixed_deck_holds_both_factions():
    sw = k.sweep(
        {"tis_tisza_sziget.influence": [1, 3]},
        decks=[["ner+tisza", "osszefogas"], ["ner", "osszefogas"]],
        games=4,
        bots="random",
    )
    affect = dict(zip(sw.table["matchup"], sw.table["can_affect"], strict=True))
    assert affect["ner+tisza vs osszefogas"] is True
    assert affect["ner vs osszefogas"] is False
