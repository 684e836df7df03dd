"""Card-data and cost-string mistakes raise ValueError naming the card/parameter and the field
(issue 9 items 3, 4 and the card-data parts of 10). Each case here failed before the fix: a
``PanicException``, a silent wrap-around, or a file accepted by one call and refused by another.
The property test over mutated files is ``test_card_data_fuzz.py``."""

from __future__ import annotations

import ketharmad
import pytest
from conftest import TWO_P, packaged_card_text
from ketharmad import _core

TEXT = packaged_card_text()


def edit_card(card_id: str, old: str, new: str) -> str:
    """The packaged file with ``old`` replaced by ``new`` inside the block of ``card_id``."""
    start = TEXT.index(f'id = "{card_id}"')
    end = TEXT.find("[[card]]", start)
    end = len(TEXT) if end < 0 else end
    block = TEXT[start:end]
    assert old in block, f"test setup: {old!r} not in {card_id}'s block"
    return TEXT[:start] + block.replace(old, new, 1) + TEXT[end:]


def write(tmp_path, text: str):
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


def refused_everywhere(path, *words: str) -> None:
    """cards(), parameters() and simulate() all raise ValueError naming every word."""
    for call in (
        lambda: ketharmad.cards(card_data=path),
        lambda: ketharmad.parameters(card_data=path),
        lambda: ketharmad.simulate(TWO_P, games=1, card_data=path),
    ):
        with pytest.raises(ValueError) as info:
            call()
        for w in words:
            assert w in str(info.value), f"{w!r} not in {info.value}"


# ---------------------------------------------------------------- item 3


def test_non_figure_with_influence_but_no_credibility_is_a_value_error(tmp_path):
    """Before: ``pyo3_runtime.PanicException: parameter ner_rezsicsokkentes.influence not
    registered`` from cards()/simulate() (and parameters() accepted the file)."""
    bad = edit_card(
        "ner_rezsicsokkentes", 'type = "institution"', 'type = "institution"\ninfluence = 3'
    )
    refused_everywhere(write(tmp_path, bad), "ner_rezsicsokkentes", "influence")


def test_create_tokens_naming_a_non_token_card_is_a_value_error(tmp_path):
    """Before: accepted, and Toroczkai's Fences were silently never created (the box holds
    only token cards)."""
    bad = edit_card("rad_toroczkai_laszlo", 'token = "tok_kerites"', 'token = "ner_semjen_zsolt"')
    refused_everywhere(
        write(tmp_path, bad), "rad_toroczkai_laszlo", "abilities.token", "ner_semjen_zsolt"
    )


def test_params_key_shadowing_a_stat_is_a_value_error(tmp_path):
    """Before: ``params = { influence = 9 }`` registered ``ner_semjen_zsolt.influence`` twice
    and the second silently replaced the printed Influence 2."""
    bad = edit_card("ner_semjen_zsolt", "params = {", "params = { influence = 9,")
    refused_everywhere(write(tmp_path, bad), "ner_semjen_zsolt", "params.influence")
    row = ketharmad.cards().filter(ketharmad.cards()["id"] == "ner_semjen_zsolt").row(0, named=True)
    assert row["influence"] == 2


def test_params_key_shadowing_a_keyword_number_is_a_value_error(tmp_path):
    bad = edit_card("ner_semjen_zsolt", "params = {", "params = { scandal = 4,")
    refused_everywhere(write(tmp_path, bad), "ner_semjen_zsolt", "params.scandal")


def test_parameters_refuses_what_cards_refuses(tmp_path):
    """Item 10: parameters() used to compile nothing, so it listed the parameters of a file
    whose NER deck has 32 cards; cards() and simulate() refused it."""
    i = TEXT.index('id = "ner_base_stadion"')
    j = TEXT.index("copies = ", i) + len("copies = ")
    k = TEXT.index("\n", j)
    bad = TEXT[:j] + str(int(TEXT[j:k]) + 1) + TEXT[k:]
    refused_everywhere(write(tmp_path, bad), "deck 'ner'", "31")
    with pytest.raises(ValueError):
        _core.card_data_hash(bad)


def test_more_than_32_parties_is_a_value_error(tmp_path):
    """Party bits are a u32: a 33rd party used to share bit 0 with the first and Unity counted
    two different parties as one."""
    parts = TEXT.split("\nparty = ")
    out = [parts[0]]
    for n, part in enumerate(parts[1:]):
        out.append(f'\nparty = "P{n}"' + part[part.index("\n") :])
    assert len(parts) > 40
    refused_everywhere(write(tmp_path, "".join(out)), "party", "32")


def test_deeply_nested_toml_is_a_value_error():
    """The TOML parser has a recursion limit: 100,000 levels are refused, not a stack overflow."""
    for text in (
        "a = " + "[" * 100_000 + "]" * 100_000,
        "a = " + "{b=" * 100_000 + "1" + "}" * 100_000,
    ):
        with pytest.raises(ValueError, match="malformed card data"):
            _core.card_table(text)
        with pytest.raises(ValueError, match="malformed card data"):
            _core.parameter_table(text)


# ---------------------------------------------------------------- item 4


@pytest.mark.parametrize(
    ("param", "value", "why"),
    [
        ("rules.expose_cost", "{20}{20}", "exceeds 20"),
        ("rules.expose_cost", "{20}" * 1639, "exceeds 20"),
        ("rules.expose_cost", "{M}" * 21, "Media"),
        ("rules.expose_cost", "{F}" * 40_000, "Forint"),
        ("rules.swap_cost", "{20}{1}", "exceeds 20"),
    ],
)
def test_cost_string_out_of_range_is_a_value_error(param, value, why):
    """Before: ``{20}{20}`` was accepted (documented range 0..20) and ``{20}`` × 1639 wrapped
    to a negative cost that made the Exposé free."""
    with pytest.raises(ValueError) as info:
        ketharmad.simulate(TWO_P, games=1, params={param: value})
    msg = str(info.value)
    assert param in msg and why in msg, msg
    assert len(msg) < 400, "the message must not quote a huge value whole"


def test_cost_string_at_the_bound_plays_and_is_never_free():
    """``{20}`` is the largest generic cost: accepted, and it makes the basic Exposé (R10.3.1)
    rarer than the default ``{1}{M}`` with the same seed, never free."""
    cheap = ketharmad.simulate(TWO_P, games=200, seed=3)
    dear = ketharmad.simulate(TWO_P, games=200, seed=3, params={"rules.expose_cost": "{20}"})
    assert cheap.players["exposes"].sum() > 0
    assert dear.players["exposes"].sum() < cheap.players["exposes"].sum()
