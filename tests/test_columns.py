"""The result columns are defined once (issue 11, item 6).

``rust/batch/columns.rs`` lists every column; the core's raw output, ``_core.columns()``, the
row sizes, the polars frames, ``play()``, the docs table and the type stub all follow from it.
These tests check that they agree, so a column added to the list and not to the docs (or a
doc edited by hand) fails here.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import FOUR_P, TWO_P, load_script, packaged_card_text
from ketharmad import _core
from ketharmad.results import frames as _frames

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    return load_script("tools/gen_columns_doc.py", "gen_columns_doc")


@pytest.fixture(scope="module")
def raw4():
    return _core.simulate(
        packaged_card_text(),
        FOUR_P,
        ["heuristic", "random", "aggro", "control"],
        40,
        3,
        2,
        {},
        record_plays=True,
    )


def test_raw_output_is_exactly_the_schema(raw4):
    schema = _core.columns()
    assert [c["table"] for c in schema] == sorted(
        (c["table"] for c in schema), key=["games", "players", "plays"].index
    )
    for table in ("games", "players", "plays"):
        cols = [c for c in schema if c["table"] == table]
        assert list(raw4[table]) == [c["name"] for c in cols], table
        assert [str(raw4[table][c["name"]].dtype) for c in cols] == [c["dtype"] for c in cols], (
            table
        )
        assert all(
            c["doc"]
            and c["frame"]
            in {"plain", "null_if_negative", "end_reason", "faction", "card_record", "card"}
            for c in cols
        )
    assert len(raw4["games"]["game"]) == 40
    assert len(raw4["players"]["seat"]) == 160
    assert len(raw4["plays"]["card"]) > 40


def test_row_sizes_are_the_sum_of_the_column_itemsizes(raw4):
    size = lambda t: sum(np.dtype(c["dtype"]).itemsize for c in _core.columns() if c["table"] == t)  # noqa: E731
    assert (_core.GAME_ROW_BYTES, _core.SEAT_ROW_BYTES, _core.PLAY_ROW_BYTES) == (
        size("games"),
        size("players"),
        size("plays"),
    )


def test_frames_follow_the_schema_and_its_hints(raw4):
    r = ketharmad.simulate(
        TWO_P, bots="random", games=400, seed=2, params={"rules.max_rounds": 8}, record_plays=True
    )
    raw = _core.simulate(
        packaged_card_text(),
        TWO_P,
        ["random", "random"],
        400,
        2,
        None,
        {"rules.max_rounds": 8},
        record_plays=True,
    )
    assert r.games.columns == _frames.GAME_COLUMNS
    assert r.players.columns == _frames.PLAYER_COLUMNS
    assert r.card_records.columns == _frames.CARD_RECORD_COLUMNS
    assert r.plays is not None and r.plays.columns == ["game", "seat", "faction", "card", "turn"]
    # every hint does what it says, on real values
    hints = {(c.table, c.name): c.frame for c in _frames.COLUMNS}
    for table, df in (("games", r.games), ("players", r.players)):
        for name in df.columns:
            hint = hints.get((table, name))
            if hint is None:
                assert (table, name) in (("players", "bot"), ("players", "deck"))
                continue
            values = raw[table][name]
            if hint == "plain":
                # `points` is NaN in formats without victory points
                assert np.array_equal(
                    df[name].to_numpy(), values, equal_nan=values.dtype.kind == "f"
                ), name
            elif hint == "null_if_negative":
                assert (values < 0).any() and (values >= 0).any(), (
                    f"{name}: the case has no nulls or no values"
                )
                assert np.array_equal(df[name].is_null().to_numpy(), values < 0), name
                assert np.array_equal(df[name].drop_nulls().to_numpy(), values[values >= 0]), name
            elif hint == "end_reason":
                assert df[name].dtype == pl.Enum(_core.END_REASONS)
                assert df[name].cast(pl.String).to_list() == [_core.END_REASONS[v] for v in values]
            elif hint == "faction":
                assert df[name].to_list() == [_core.FACTIONS[v] for v in values]
            else:
                raise AssertionError(f"{table}.{name}: hint {hint} in the frame")
    for name in _frames.CARD_RECORD_BITS:
        assert np.array_equal(r.card_records[name].to_numpy(), raw["players"][name])
    ids = _core.card_table(packaged_card_text())["id"]
    assert r.plays["card"].to_list() == [ids[i] for i in raw["plays"]["card"]]


def test_play_returns_the_rows_of_the_same_game():
    decks, bots = (
        ["ner", "tisza", "radikalisok"],
        ["random", "heuristic", {"kind": "search", "iterations": 4}],
    )
    res = ketharmad.simulate(decks, bots=bots, games=4, seed=9, run=dict(threads=1))
    raw = _core.simulate(packaged_card_text(), decks, bots, 4, 9, 1, {})
    names = {c.table: [] for c in _frames.COLUMNS}
    for c in _frames.COLUMNS:
        names[c.table].append(c.name)
    for game in range(4):
        got = _core.play(packaged_card_text(), decks, bots, 9, game, {}, None)
        want_keys = {"log", *names["games"]} | {
            n for n in names["players"] if n != "game" and n not in _frames.CARD_RECORD_BITS
        }
        assert set(got) == want_keys
        for n in names["games"]:
            assert got[n] == raw["games"][n][game], n
        for n in want_keys - {"log", *names["games"]}:
            want = raw["players"][n][3 * game : 3 * game + 3]
            if want.dtype.kind == "f":  # `points`: NaN in formats without victory points
                assert np.array_equal(np.asarray(got[n], dtype=want.dtype), want, equal_nan=True), n
            else:
                assert got[n] == want.tolist(), n
        assert got["rollouts"][2] > 0
    assert res.games["turns"].to_list() == raw["games"]["turns"].tolist()


def test_docs_and_stub_are_generated_from_the_schema():
    gen = _generator()
    for path, text in gen.rendered().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} differs from _core.columns(): run python tools/gen_columns_doc.py"
        )
    doc = (ROOT / "docs" / "core_interface.md").read_text(encoding="utf-8")
    for c in _frames.COLUMNS:
        assert f"| `{c.name}` | {c.dtype} |" in doc
    # the check does fail on drift: a hand edit of a generated line is caught
    stale = doc.replace("| `scandal` | int32 |", "| `scandal` | int16 |")
    assert gen._DOC_RE.sub(lambda _: gen.markdown(), stale) != stale


def test_result_docstring_names_every_frame_column():
    doc = inspect.getdoc(ketharmad.SimResult) or ""
    for name in [*_frames.GAME_COLUMNS, *_frames.PLAYER_COLUMNS]:
        assert name in doc, name
