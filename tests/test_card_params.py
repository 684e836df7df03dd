"""Every number printed in a card's rules text is a named parameter of that card (cards.md §1
"Numbers"), and overriding a parameter changes the card."""

import re

import ketharmad
import polars as pl

# numbers in texts that are not amounts: die faces of Márki-Zay Péter's table are derived
# from the *_max_roll parameters (cards-notes.md "Die bands")
DIE_FACES = {"osz_marki_zay_peter"}


def test_every_text_number_has_a_parameter():
    cards = ketharmad.cards()
    params = ketharmad.parameters()
    missing = []
    for row in cards.iter_rows(named=True):
        cid = row["id"]
        numbers = {int(n) for n in re.findall(r"(?<![A-Za-z])(\d+)(?![A-Za-z])", row["text"])}
        own = params.filter(pl.col("card") == cid)
        text_params = own.filter(
            ~pl.col("name")
            .str.split(".")
            .list.last()
            .is_in(
                ["copies", "cost_generic", "cost_f", "cost_m", "cost_u", "influence", "credibility"]
            )
        )
        defaults = set(text_params["default"].to_list())
        for n in numbers:
            if n not in defaults and not (cid in DIE_FACES and 1 <= n <= 6):
                missing.append((cid, n))
    assert not missing, f"numbers without a parameter: {missing}"


def test_every_card_has_its_stat_parameters():
    cards = ketharmad.cards()
    names = set(ketharmad.parameters()["name"])
    for row in cards.iter_rows(named=True):
        assert f"{row['id']}.copies" in names
        if row["influence"] is not None:
            assert f"{row['id']}.influence" in names and f"{row['id']}.credibility" in names
        if row["type"] not in ("base", "event", "token"):
            for f in ("cost_generic", "cost_f", "cost_m", "cost_u"):
                assert f"{row['id']}.{f}" in names


def test_deck_composition_change_is_a_clear_error():
    import pytest

    with pytest.raises(ValueError, match="deck 'ner' must have 31 cards"):
        ketharmad.simulate(["ner", "tisza"], games=1, params={"ner_bunbak.copies": 1})
    with pytest.raises(ValueError, match="out of range"):
        ketharmad.simulate(["ner", "tisza"], games=1, params={"ner_orban_viktor.copies": 2})
    # swapping one Base type for another keeps the deck legal
    r = ketharmad.simulate(
        ["ner", "tisza"],
        games=20,
        seed=1,
        params={"ner_base_stadion.copies": 2, "ner_base_kozbeszerzes.copies": 5},
    )
    assert r.games.height == 20
