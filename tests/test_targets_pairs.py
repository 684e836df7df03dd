"""A `pairs =` line adjusts the pairs it names; the others keep the section's band unless
`others = false` leaves them out, and the balance result says which (issue 28 item 5)."""

from __future__ import annotations

import pytest
from ketharmad.lab.balance.targets import load_targets


def _bands(doc: dict) -> dict[str, tuple[float, float, float]]:
    return {
        m.name: (round(m.target, 4), round(m.low, 4), round(m.high, 4))
        for m in load_targets(doc).metrics
        if m.kind == "2p"
    }


def test_pairs_adjust_the_named_pair_and_keep_the_others_in_the_sections_band():
    bands = _bands({"two_player": {"tolerance": 0.04, "pairs": {"ner-tisza": 0.45}}})
    assert len(bands) == 6  # every pair of different factions is still measured
    assert bands["2p ner-tisza"] == (0.45, 0.41, 0.49)
    assert bands["2p osszefogas-radikalisok"] == (0.5, 0.46, 0.54)
    tg = load_targets({"two_player": {"pairs": {"ner-tisza": 0.45}}})
    assert tg.scope == [
        "targets: two_player.pairs names 1 pair(s); the other 5 keep the section's band, "
        "50% +- 5% (two_player.others = false leaves them out)"
    ]


def test_others_false_measures_only_the_named_pairs():
    doc = {"two_player": {"others": False, "pairs": {"ner-tisza": 0.45, "tisza-radikalisok": 0.6}}}
    assert sorted(_bands(doc)) == ["2p ner-tisza", "2p tisza-radikalisok"]
    assert load_targets(doc).scope == [
        "targets: two_player.pairs names 2 pair(s); the other 4 are not measured "
        "(two_player.others = false)"
    ]


def test_a_pair_set_to_false_is_dropped_and_every_pair_named_says_nothing():
    bands = _bands({"two_player": {"pairs": {"ner-tisza": False}}})
    assert len(bands) == 5 and "2p ner-tisza" not in bands
    every = {f"{a}-{b}": 0.5 for a, b in load_targets(None).pairs}
    assert load_targets({"two_player": {"pairs": every}}).scope == []


@pytest.mark.parametrize("bad", ["no", 0, "target"])
def test_others_must_be_true_or_false(bad):
    with pytest.raises(ValueError, match="targets.two_player.others must be true"):
        load_targets({"two_player": {"others": bad, "pairs": {"ner-tisza": 0.5}}})
