"""The balancer refuses a mistake in its targets by name instead of running on a silently
different question (issue 24 item 4): an allow pattern or frozen name that matches no
parameter, a kind bound outside every declared range (an Influence minimum of 150), a
printed value outside its kind's bounds, and 4-player bands that cannot hold together
(every 4-player game has exactly one winner, R14: the four shares sum to 1; two in the
team formats, R16.2)."""

from __future__ import annotations

import ketharmad
import pytest

TWO_P = {"two_player": {"others": False, "pairs": {"ner-tisza": 0.5}}}


def _balance(doc: dict, **kw):
    return ketharmad.balance(doc, bots="random", budget=2_000, seed=1, **kw)


def test_a_misspelt_allow_pattern_is_named_with_the_closest_names():
    doc = {**TWO_P, "change": {"allow": ["ner_orban_vikor.influence"]}}
    with pytest.raises(ValueError, match=r"change.allow: 'ner_orban_vikor.influence' matches no "
                                         r"parameter; did you mean 'ner_orban_viktor.influence'"):  # fmt: skip
        _balance(doc)


def test_a_misspelt_frozen_name_is_refused_not_ignored():
    # before: the misspelt name froze nothing and the card meant to be frozen was edited
    doc = {
        **TWO_P,
        "change": {"allow": ["ner_*.influence"], "freeze": ["ner_orban_vikor.influence"]},
    }
    with pytest.raises(
        ValueError, match=r"change.freeze: 'ner_orban_vikor.influence' matches no parameter"
    ):
        _balance(doc)


def test_a_rule_parameter_needs_its_prefix_and_the_error_says_so():
    doc = {**TWO_P, "change": {"allow": ["*hand_limit"]}}
    with pytest.raises(
        ValueError, match=r"'\*hand_limit' matches no parameter \(rules\.\*, keyword\.\*"
    ):
        _balance(doc)


def test_a_kind_bound_outside_every_declared_range_is_refused():
    # before: kinds.influence.min = 150 emptied the range and Influence 8 was recommended
    doc = {**TWO_P, "change": {"allow": ["ner_*.influence"], "kinds": {"influence": {"min": 150}}}}
    with pytest.raises(ValueError, match=r"kinds.influence.min = 150 is outside the declared range "
                                         r"of every influence parameter \(0 to 99"):  # fmt: skip
        _balance(doc)


def test_a_printed_value_outside_its_kinds_bounds_is_named():
    # Orbán Viktor is printed at Influence 5: a kind maximum of 3 cannot hold for him
    doc = {
        **TWO_P,
        "change": {"allow": ["ner_orban_viktor.influence"], "kinds": {"influence": {"max": 3}}},
    }
    with pytest.raises(ValueError, match=r"1 allowed parameter is printed outside the kind's bounds "
                                         r"\(influence: max 3\): ner_orban_viktor.influence = 5"):  # fmt: skip
        _balance(doc)


def test_four_player_bands_that_cannot_sum_to_one_are_refused():
    lows = {
        "four_player": {
            "factions": {f: {"target": 0.3, "low": 0.27, "high": 0.4} for f in ketharmad.FACTIONS}
        }
    }
    with pytest.raises(
        ValueError, match=r"four_player: the bands cannot all hold: their lows sum to 1.08"
    ):
        _balance(lows)
    highs = {
        "four_player": {
            "factions": {f: {"target": 0.2, "low": 0.1, "high": 0.24} for f in ketharmad.FACTIONS}
        }
    }
    with pytest.raises(
        ValueError, match=r"their highs sum to 0.96, but the four factions' shares sum to 1"
    ):
        _balance(highs)


def test_team_formats_count_two_winners_per_game():
    # Coalition (R16.2): both partners win, the shares sum to 2, so lows of 0.27 can all hold
    lows = {"four_player": {"factions": {f: {"target": 0.5, "low": 0.27, "high": 0.6} for f in ketharmad.FACTIONS}},
            "change": {"allow": ["ner_orban_viktor.influence"]}}  # fmt: skip
    res = ketharmad.balance(lows, bots="random", budget=300, seed=1, format="coalition",
                            settings={"games_4p": 1, "robustness_bots": None})  # fmt: skip
    assert res.before.height == 4
    over = {
        "four_player": {
            "factions": {f: {"target": 0.6, "low": 0.55, "high": 0.9} for f in ketharmad.FACTIONS}
        }
    }
    with pytest.raises(
        ValueError, match=r"lows sum to 2.2, but the four factions' shares sum to 2"
    ):
        _balance(over, format="coalition")


def test_an_unconfirmed_result_says_so_first_everywhere(tmp_path):
    # a band no single Influence edit on one card reaches, on a budget far too small: the
    # run cannot confirm, and its summary, report and card file say so in their first line
    doc = {"two_player": {"others": False, "pairs": {"ner-tisza": {"target": 0.5, "low": 0.499, "high": 0.501}}},
           "change": {"allow": ["ner_orban_viktor.influence"]}}  # fmt: skip
    res = _balance(
        doc, settings={"games_2p": 4, "robustness_bots": None, "robustness_search": None}
    )
    assert not res.best_confirmed
    assert res.text().splitlines()[0].startswith("NOT CONFIRMED: balance:")
    report = res.write_report(tmp_path, plots=False)
    lines = report.read_text().splitlines()
    assert lines[0].endswith("(NOT CONFIRMED)") and lines[2].startswith("**Not confirmed:**")
    card_file = (tmp_path / "cards_balanced.toml").read_text().splitlines()
    assert "NOT CONFIRMED" in card_file[0]
