"""parameters / cards / formats with game= (issue 14 item 4): a harness game's parameter
table comes from games(); cards and formats are Kétharmad's and say so for the others."""

from __future__ import annotations

import ketharmad
import polars as pl
import pytest
from ketharmad.games import simulate_game  # the harness engine behind simulate(game=...)

HARNESS = ["schotten_totten_2", "osztrakon"]


@pytest.mark.parametrize("game", HARNESS)
def test_parameters_of_a_harness_game_are_its_registry(game):
    entry = ketharmad.load_game(game).info
    t = ketharmad.parameters(game=game)
    assert t.columns == [
        "name",
        "kind",
        "default",
        "default_str",
        "min",
        "max",
        "choices",
        "description",
    ]
    assert t.schema["choices"] == pl.List(pl.String)
    assert t.height == len(entry["parameters"])
    for row, p in zip(t.iter_rows(named=True), entry["parameters"], strict=True):
        assert (row["name"], row["kind"], row["min"], row["max"], row["description"]) == (
            p["name"], p["kind"], p["min"], p["max"], p["description"])  # fmt: skip
        assert row["choices"] == list(p["choices"])
        d = p["default"]
        if isinstance(d, bool):
            assert (row["default"], row["default_str"]) == (float(d), str(d).lower())
        elif isinstance(d, str):
            assert row["default_str"] == d and row["choices"][int(row["default"])] == d
        else:
            assert row["default"] == d and row["default_str"] == str(d)


def test_parameters_match_and_every_default_is_accepted():
    t = ketharmad.parameters(game="schotten_totten_2", match="OIL")
    assert t.height > 0
    assert all(
        "oil" in n.lower() or "oil" in d.lower()
        for n, d in zip(t["name"], t["description"], strict=True)
    )
    assert t.height < ketharmad.parameters(game="schotten_totten_2").height
    assert ketharmad.parameters(game="osztrakon", match="no such text").height == 0
    # the defaults as given back to the game change nothing: same games as no params at all
    full = ketharmad.parameters(game="schotten_totten_2")
    params = {}
    for row in full.iter_rows(named=True):
        s = row["default_str"]
        params[row["name"]] = (s == "true") if row["kind"] == "bool" else s if row["kind"] == "choice" else (
            int(s) if row["kind"] == "int" else float(s))  # fmt: skip
    a = simulate_game("schotten_totten_2", ["greedy", "random"], games=20, seed=3, params=params)
    b = simulate_game("schotten_totten_2", ["greedy", "random"], games=20, seed=3)
    assert a.games.equals(b.games)


def test_parameters_ketharmad_unchanged_and_bad_arguments_named():
    assert ketharmad.parameters().equals(ketharmad.parameters(game="ketharmad"))
    assert ketharmad.parameters(match="orban").equals(
        ketharmad.parameters(game="ketharmad", match="orban")
    )
    with pytest.raises(
        ValueError, match=r"card_data: Kétharmad only; parameters\(game='osztrakon'\)"
    ):
        ketharmad.parameters("cards.toml", game="osztrakon")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        ketharmad.parameters(game="chess")
    with pytest.raises(ValueError, match="match must be a str"):
        ketharmad.parameters(game="osztrakon", match=3)


@pytest.mark.parametrize(
    ("game", "doc"),
    [("schotten_totten_2", "docs/schotten_totten2.md"), ("osztrakon", "docs/osztrakon.md")],
)
def test_cards_of_a_harness_game_is_a_value_error_naming_its_doc(game, doc):
    with pytest.raises(ValueError, match=f"{game} has no card table.*{doc}"):
        ketharmad.cards(game=game)
    assert ketharmad.cards(game="ketharmad").equals(ketharmad.cards())
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        ketharmad.cards(game="chess")


@pytest.mark.parametrize("game", HARNESS)
def test_formats_are_ketharmads(game):
    with pytest.raises(ValueError, match=f"formats\\(game='{game}'\\): formats are Kétharmad's"):
        ketharmad.formats(game=game)
    assert ketharmad.formats(game="ketharmad").equals(ketharmad.formats())
