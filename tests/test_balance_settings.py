"""``balance(settings=...)`` (issue 23: no public call above about 10 parameters): the block
sizes and robustness samples are one :class:`ketharmad.BalanceSettings` value; the old
keywords work until 0.3.0 with a DeprecationWarning and give the same run."""

from __future__ import annotations

from pathlib import Path

import ketharmad
import pytest
from polars.testing import assert_frame_equal

SMALL = str(Path(__file__).parent / "test_balance_small.toml")


def test_settings_value_checks_its_fields_once():
    s = ketharmad.BalanceSettings(games_2p=10, robustness_bots=None)
    assert s.changed() == {"games_2p": 10, "robustness_bots": None}
    assert ketharmad.BalanceSettings.of({"games_4p": 2}).games_4p == 2
    with pytest.raises(ValueError, match="games_2p"):
        ketharmad.BalanceSettings(games_2p=0)
    with pytest.raises(ValueError, match="unknown field gams_2p.*BalanceSettings takes games_2p"):
        ketharmad.BalanceSettings.of({"gams_2p": 10})
    with pytest.raises(ValueError, match="settings must be None"):
        ketharmad.BalanceSettings.of(12)


def test_old_balance_keywords_warn_and_give_the_same_run():
    kw = dict(bots="random", budget=1_500, seed=4)
    new = ketharmad.balance(SMALL, settings={"games_2p": 8, "robustness_bots": None,
                                             "robustness_search": None}, **kw)  # fmt: skip
    with pytest.warns(DeprecationWarning, match=r"balance\(games_2p=.*settings=BalanceSettings"):
        old = ketharmad.balance(
            SMALL, games_2p=8, robustness_bots=None, robustness_search=None, **kw
        )
    assert_frame_equal(new.history, old.history)
    assert new.games_2p == old.games_2p == 8
    assert new.robustness is None and new.robustness_search is None


def test_a_setting_given_twice_or_for_the_wrong_game_is_an_error():
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="games_2p given twice"):
        ketharmad.balance(SMALL, games_2p=8, settings={"games_2p": 9}, budget=10)
    with pytest.raises(ValueError, match="games_per_block is for the harness games"):
        ketharmad.balance(SMALL, settings={"games_per_block": 10}, budget=10)
    with pytest.raises(TypeError, match="unexpected keyword argument 'start_player'"):
        ketharmad.balance(SMALL, start_player=0, budget=10)
