"""Invalid input raises ValueError naming the problem (from Python or from the core)."""

from __future__ import annotations

import ketharmad
import pytest
from conftest import TWO_P, first_card_block, packaged_card_text


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"decks": ["ner", "fidesz"]}, "fidesz"),
        ({"decks": ["ner"]}, "2-9 decks"),
        # five decks: the free-for-all's own range (war of the gods takes 5-9)
        (
            {"decks": ["ner", "tisza", "osszefogas", "radikalisok", "ner"]},
            "ffa format needs 2 to 4 decks, got 5",
        ),
        ({"decks": []}, "2-9 decks"),
        ({"decks": "ner"}, "decks"),
        ({"decks": ["ner", 3]}, "faction"),
        ({"games": 0}, "games"),
        ({"games": -3}, "games"),
        ({"games": "10"}, "games"),
        ({"games": 10.0}, "games"),
        ({"games": True}, "games"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": "1"}, "seed"),
        ({"run": {"threads": 0}}, "threads"),
        ({"run": {"threads": 1.5}}, "threads"),
        ({"bots": ["random"]}, "bots"),
        ({"bots": ["random", "random", "random"]}, "bots"),
        ({"bots": "genius"}, "genius"),
        ({"bots": {"kind": "genius"}}, "genius"),
        ({"bots": {"depth": 3}}, "kind"),
        ({"bots": 7}, "bots"),
        ({"params": ["rules.starting_support", 5]}, "params"),
        ({"params": {1: 5}}, "parameter"),
        ({"params": {"rules.starting_support": 2.5}}, "rules.starting_support"),
    ],
)
def test_python_side_validation(kwargs, match):
    args = {"decks": TWO_P, "games": 5, **kwargs}
    with pytest.raises(ValueError, match=match):
        ketharmad.simulate(**args)


def test_unknown_faction_lists_valid_ones():
    with pytest.raises(ValueError) as info:
        ketharmad.simulate(["ner", "fidesz"], games=5)
    for faction in ketharmad.FACTIONS:
        assert faction in str(info.value)


def test_unknown_parameter_is_named():
    with pytest.raises(ValueError, match="no_such_card.influence"):
        ketharmad.simulate(TWO_P, games=5, params={"no_such_card.influence": 3})


@pytest.mark.parametrize(
    "params",
    [
        {"ner_orban_viktor.credibility": -1},
        {"rules.starting_support": "abc"},
        {"rules.starting_support": -5},
    ],
)
def test_bad_parameter_values_rejected_by_core(params):
    with pytest.raises(ValueError):
        ketharmad.simulate(TWO_P, games=5, params=params)
    with pytest.raises(ValueError):
        ketharmad.play(TWO_P, params=params)


def test_missing_card_data_file_names_path(tmp_path):
    path = tmp_path / "nope" / "cards.toml"
    with pytest.raises(ValueError, match="nope"):
        ketharmad.simulate(TWO_P, games=5, card_data=path)
    with pytest.raises(ValueError, match="nope"):
        ketharmad.cards(card_data=str(path))


def test_card_data_given_as_text_is_rejected():
    with pytest.raises(ValueError, match="path"):
        ketharmad.cards(card_data=packaged_card_text())


def test_broken_toml_rejected(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('[[card]]\nid = "x\nname = = 3\n[[[\n', encoding="utf-8")
    with pytest.raises(ValueError):
        ketharmad.cards(card_data=path)
    with pytest.raises(ValueError):
        ketharmad.parameters(card_data=path)
    with pytest.raises(ValueError):
        ketharmad.simulate(TWO_P, games=5, card_data=path)
    with pytest.raises(ValueError):
        ketharmad.play(TWO_P, card_data=path)


def test_duplicate_card_id_rejected(tmp_path):
    text = packaged_card_text()
    block = first_card_block(text)
    assert "id" in block
    dup = text.rstrip("\n") + "\n\n" + block
    try:  # the file must still be valid TOML, so that only the duplicate is wrong
        import tomllib
    except ImportError:  # Python < 3.11
        pass
    else:
        ids = [c["id"] for c in tomllib.loads(dup)["card"]]
        assert len(ids) == len(set(ids)) + 1
    path = tmp_path / "dup.toml"
    path.write_text(dup, encoding="utf-8")
    with pytest.raises(ValueError):
        ketharmad.cards(card_data=path)
    with pytest.raises(ValueError):
        ketharmad.simulate(TWO_P, games=5, card_data=path)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"decks": ["ner", "fidesz"]}, "fidesz"),
        ({"decks": ["ner"]}, "2-9 decks"),
        ({"index": -1}, "index"),
        ({"game": "3"}, "game"),
        ({"seed": -2}, "seed"),
        ({"bots": ["random"]}, "bots"),
    ],
)
def test_play_validation(kwargs, match):
    args = {"decks": TWO_P, **kwargs}
    with pytest.raises(ValueError, match=match):
        ketharmad.play(**args)


def test_summary_rejects_unknown_grouping():
    res = ketharmad.simulate(TWO_P, games=3, seed=0)
    with pytest.raises(ValueError, match="by"):
        res.summary(by="colour")


def test_panic_in_one_game_is_reported_with_its_seed(monkeypatch):
    import ketharmad

    monkeypatch.setenv("KETHARMAD_TEST_PANIC_GAME", "3")
    with pytest.raises(RuntimeError, match=r"game 3 \(seed \d+\) panicked"):
        ketharmad.simulate(["ner", "tisza"], games=10, seed=0)
    monkeypatch.delenv("KETHARMAD_TEST_PANIC_GAME")
    assert ketharmad.simulate(["ner", "tisza"], games=10, seed=0).games.height == 10


# malformed card data: each mutation of the packaged file must fail naming the card and field
_SEMJEN = 'id = "ner_semjen_zsolt"'


@pytest.mark.parametrize(
    ("old", "new", "must_name"),
    [
        (
            'type = "figure"\nrole = "Deputy',
            'type = "wizard"\nrole = "Deputy',
            ["ner_semjen_zsolt", "type", "wizard"],
        ),
        ('do = "damage"', 'do = "smite"', ["ner_semjen_zsolt", "abilities.do", "smite"]),
        (
            'keywords = [{ name = "scandal", n = 1 }]\ntext = "Scandal 1. When Semjén',
            'keywords = [{ name = "scandall", n = 1 }]\ntext = "Scandal 1. When Semjén',
            ["ner_semjen_zsolt", "keywords", "scandall"],
        ),
        (
            'influence = 2\ncredibility = 2\nkeywords = [{ name = "scandal", n = 1 }]\ntext = "Scandal 1. When Semjén',
            'influence = 2\ncredibility = 2\nmood = 3\nkeywords = [{ name = "scandal", n = 1 }]\ntext = "Scandal 1. When Semjén',
            ["ner_semjen_zsolt", "mood"],
        ),
        (
            'influence = 2\ncredibility = 2\nkeywords = [{ name = "scandal", n = 1 }]\ntext = "Scandal 1. When Semjén',
            'credibility = 2\nkeywords = [{ name = "scandal", n = 1 }]\ntext = "Scandal 1. When Semjén',
            ["ner_semjen_zsolt", "influence"],
        ),
        (
            'influence = 2\ncredibility = 2\nkeywords = [{ name = "scandal", n = 1 }]\ntext = "Scandal 1. When Semjén',
            'influence = "two"\ncredibility = 2\nkeywords = [{ name = "scandal", n = 1 }]\ntext = "Scandal 1. When Semjén',
            ["ner_semjen_zsolt", "influence", "expected an integer"],
        ),
        ('n = "damage" }', 'n = "dmg" }', ["ner_semjen_zsolt", "abilities.n", "dmg"]),
    ],
)
def test_malformed_card_data_names_card_and_field(tmp_path, old, new, must_name):
    text = packaged_card_text()
    start = text.index(_SEMJEN)
    end = text.index("[[card]]", start)
    block = text[start:end]
    assert old in block, f"test setup: {old!r} not in Semjén's block"
    bad = text[:start] + block.replace(old, new, 1) + text[end:]
    path = tmp_path / "cards.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(ValueError) as e:
        ketharmad.simulate(["ner", "tisza"], games=1, card_data=path)
    for word in must_name:
        assert word in str(e.value), f"{word!r} not in {e.value}"
    with pytest.raises(ValueError):
        ketharmad.cards(card_data=path)


def test_game_with_more_than_512_cards_rejected(tmp_path):
    """A game holds at most 512 card instances (docs/engine_choices.md "The card limit"): a
    card file whose game would hold more is refused with a clear error instead of playing a
    broken game."""
    text = packaged_card_text()
    blocks = text.split("[[card]]")
    newsfeed = [i for i, b in enumerate(blocks) if 'faction = "newsfeed"' in b]
    assert len(newsfeed) == 12
    for i in newsfeed:
        assert "\ncopies = 1\n" in blocks[i]
        blocks[i] = blocks[i].replace("\ncopies = 1\n", "\ncopies = 31\n", 1)
    path = tmp_path / "big.toml"
    path.write_text("[[card]]".join(blocks), encoding="utf-8")
    four = ["ner", "osszefogas", "tisza", "radikalisok"]
    # 4 x 31 + 12 x 31 + 18 + 8 = 522 cards
    with pytest.raises(ValueError, match="would hold 522 cards .*at most 512 fit"):
        ketharmad.simulate(four, games=3, card_data=path)
    # the same file is fine for two decks (460 cards)
    res = ketharmad.simulate(TWO_P, games=3, seed=1, card_data=path)
    assert res.games.height == 3
