"""The card-data cache of the binding layer (issue 10, item 9: cheap evaluations).

The core keeps the parsed card file and the compiled card set per (text, overrides) in a small
process-wide LRU cache, so that many small ``simulate`` calls do not parse and compile the card
file every time. These tests check that the cache is used, that it never changes a result (a
cached call equals the same call in a fresh process), that overrides of one call never leak
into another, and that errors stay errors.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading

import ketharmad
import polars as pl
import pytest
from conftest import TWO_P, packaged_card_text
from ketharmad import _core

ORBAN = "ner_orban_viktor.influence"
A = {ORBAN: 12}
B: dict[str, int] = {}
C = {"rules.starting_support": 15}


def frames_digest(r: ketharmad.SimResult) -> str:
    """A hash of every table of a batch (schema and values)."""
    h = hashlib.sha256()
    for df in (r.games, r.players, r.card_records):
        h.update(str(df.schema).encode())
        h.update(df.write_csv().encode())
    return h.hexdigest()


def run(params: dict, card_data=None, seed: int = 7, games: int = 300) -> str:
    return frames_digest(
        ketharmad.simulate(
            TWO_P, bots="random", games=games, seed=seed, params=params, card_data=card_data
        )
    )


_FRESH = """
import hashlib, json, sys
import ketharmad
params, card_data, seed, games = json.loads(sys.argv[1])
r = ketharmad.simulate(["ner", "tisza"], bots="random", games=games, seed=seed, params=params,
                       card_data=card_data)
h = hashlib.sha256()
for df in (r.games, r.players, r.card_records):
    h.update(str(df.schema).encode())
    h.update(df.write_csv().encode())
print(h.hexdigest())
"""


def fresh(params: dict, card_data=None, seed: int = 7, games: int = 300) -> str:
    """The digest of the same call in a new process (an empty cache)."""
    arg = json.dumps([params, None if card_data is None else str(card_data), seed, games])
    out = subprocess.run(
        [sys.executable, "-c", _FRESH, arg], capture_output=True, text=True, check=True, timeout=300
    )
    return out.stdout.strip()


@pytest.fixture(scope="module")
def fresh_digests() -> dict[str, str]:
    return {"A": fresh(A), "B": fresh(B), "C": fresh(C)}


def test_cache_is_used_and_counts_hits():
    _core._card_cache_clear()
    run(A)
    s = _core._card_cache_stats()
    assert (s["raw_misses"], s["db_misses"], s["raw_hits"], s["db_hits"]) == (1, 1, 0, 0)
    run(A)
    run(B)
    s = _core._card_cache_stats()
    # the text was parsed once; A compiled once and reused, B compiled once
    assert s["raw_misses"] == 1 and s["raw_hits"] == 2
    assert s["db_misses"] == 2 and s["db_hits"] == 1
    assert s["texts"] == 1 and s["dbs"] == 2


def test_cached_compile_equals_a_fresh_process(fresh_digests):
    _core._card_cache_clear()
    first = run(A)  # compiled now
    again = run(A)  # from the cache
    assert _core._card_cache_stats()["db_hits"] == 1
    assert first == again == fresh_digests["A"]


def test_overrides_do_not_leak_between_calls(fresh_digests):
    # A with an override, B without, A again, C with another, B again: each equals its
    # fresh-process result, and the override does change the games (so a leak would show)
    assert len(set(fresh_digests.values())) == 3
    _core._card_cache_clear()
    for name, params in [("A", A), ("B", B), ("A", A), ("C", C), ("B", B)]:
        assert run(params) == fresh_digests[name], name


def test_concurrent_calls_with_different_overrides(fresh_digests):
    # calls release the GIL while they play: run A, B and C at once from threads sharing the
    # cache, twice each
    _core._card_cache_clear()
    jobs = [("A", A), ("B", B), ("C", C)] * 2
    results: dict[int, str] = {}
    errors: list[BaseException] = []

    def work(i: int, params: dict) -> None:
        try:
            results[i] = run(params)
        except BaseException as e:  # noqa: BLE001  # pragma: no cover - any error of a thread is reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i, p)) for i, (_, p) in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [results[i] for i in range(len(jobs))] == [fresh_digests[n] for n, _ in jobs]


def test_bad_override_after_a_good_one_still_raises():
    _core._card_cache_clear()
    good = run(A)
    with pytest.raises(ValueError, match="ner_orban_viktor.influence.*out of range"):
        run({ORBAN: 1000})
    with pytest.raises(ValueError, match="unknown parameter 'ner_orban_viktor.influenze'"):
        run({"ner_orban_viktor.influenze": 3})
    with pytest.raises(ValueError, match="parameter 'rules.starting_support'"):
        run({"rules.starting_support": "many"})
    # twice: a failure is not cached as a success either
    with pytest.raises(ValueError, match="ner_orban_viktor.influence.*out of range"):
        run({ORBAN: 1000})
    # and the good set is untouched by the failures
    assert run(A) == good
    with pytest.raises(ValueError, match="ner_orban_viktor.influence.*out of range"):
        ketharmad.play(TWO_P, params={ORBAN: 1000})


def test_bad_card_file_after_a_good_one_still_raises(tmp_path):
    _core._card_cache_clear()
    run(B)
    bad = tmp_path / "bad.toml"
    bad.write_text(
        packaged_card_text().replace("influence = 5\n", "influence = -5\n", 1), encoding="utf-8"
    )
    for _ in range(2):
        with pytest.raises(ValueError, match="influence"):
            run(B, card_data=bad)
    assert _core._card_cache_stats()["texts"] == 1  # only the good text is kept


def test_cache_is_keyed_by_the_text(tmp_path, fresh_digests):
    # a card file that differs from the packaged one in one number plays like the packaged
    # text with the matching override, and unlike the packaged text itself
    text = packaged_card_text()
    block = text.index('id = "ner_orban_viktor"')
    at = text.index("influence = 5\n", block)
    edited = tmp_path / "orban12.toml"
    edited.write_text(
        text[:at] + "influence = 12\n" + text[at + len("influence = 5\n") :], encoding="utf-8"
    )
    _core._card_cache_clear()
    assert run(B) == fresh_digests["B"]
    assert run(B, card_data=edited) == fresh_digests["A"]
    assert run(B) == fresh_digests["B"]
    assert _core._card_cache_stats()["texts"] == 2
    # the tables of the two files differ where the file differs
    t0 = ketharmad.cards().filter(pl.col("id") == "ner_orban_viktor")["influence"].item()
    t1 = ketharmad.cards(edited).filter(pl.col("id") == "ner_orban_viktor")["influence"].item()
    assert (t0, t1) == (5, 12)


def test_cache_is_bounded_and_evicts_least_recently_used(fresh_digests):
    _core._card_cache_clear()
    assert run(A, games=20) == run(A, games=20)
    for v in range(1, 30):  # more distinct override sets than the cache holds
        run({ORBAN: v}, games=5)
    s = _core._card_cache_stats()
    assert 0 < s["dbs"] <= 16 and s["texts"] == 1
    misses = s["db_misses"]
    run({ORBAN: 29}, games=5)  # the most recent is still there
    assert _core._card_cache_stats()["db_misses"] == misses
    run(A, games=5)  # A was evicted long ago: compiled again, same result
    assert _core._card_cache_stats()["db_misses"] == misses + 1
    assert run(A) == fresh_digests["A"]


# --- the eager frame conversion gives the tables of the former expression form -------------


def _reference_frames(raw: dict, bot_labels: list[str]) -> tuple[pl.DataFrame, ...]:
    """The conversion as it was written before (lazy ``with_columns`` / ``select``)."""
    import numpy as np
    from ketharmad.results.frames import (
        CARD_RECORD_BITS,
        CARD_RECORD_COLUMNS,
        GAME_COLUMNS,
        PLAYER_COLUMNS,
    )

    def arrays(cols):
        return pl.DataFrame({k: np.asarray(v) for k, v in cols.items()})

    def codes(col, labels, dtype):
        labels = list(labels)
        return pl.col(col).replace_strict(list(range(len(labels))), labels, return_dtype=dtype)

    def nonneg(col):
        return pl.when(pl.col(col) >= 0).then(pl.col(col)).alias(col)

    def ordered(df, preferred):
        first = [c for c in preferred if c in df.columns]
        return df.select(first + [c for c in df.columns if c not in first])

    g = arrays(raw["games"]).with_columns(
        nonneg("winner"), codes("end_reason", _core.END_REASONS, pl.Enum(list(_core.END_REASONS)))
    )
    p = arrays({k: v for k, v in raw["players"].items() if k not in CARD_RECORD_BITS})
    p = p.with_columns(
        codes("faction", _core.FACTIONS, pl.String),
        codes("faction", _core.FACTIONS, pl.String).alias("deck"),
        codes("seat", bot_labels, pl.String).alias("bot"),
        nonneg("eliminated_round"),
    )
    c = arrays({k: raw["players"][k] for k in CARD_RECORD_COLUMNS})
    c = c.with_columns(codes("faction", _core.FACTIONS, pl.String))
    return ordered(g, GAME_COLUMNS), ordered(p, PLAYER_COLUMNS), c


@pytest.mark.parametrize(
    "decks, bots, params",
    [
        (
            TWO_P,
            ["random", "random"],
            {"rules.max_rounds": 8},
        ),  # most games unfinished: winner null
        (
            ["ner", "osszefogas", "tisza", "radikalisok"],
            ["heuristic", "aggro", "control", "random"],
            {},
        ),
    ],
)
@pytest.mark.parametrize("direct", [True, False], ids=["direct-gather", "public-gather"])
def test_eager_frames_equal_the_expression_form(decks, bots, params, direct, monkeypatch):
    from ketharmad.results import frames as _frames
    from ketharmad.results.frames import card_records_frame, games_frame, players_frame

    if direct and not _frames._direct_gather_ok():
        pytest.skip("this polars has no Series-level gather; the public path is used")
    if not direct:
        monkeypatch.setattr(_frames, "_direct_gather_ok", lambda: False)

    raw = _core.simulate(packaged_card_text(), decks, bots, 300, 5, None, params)
    want = _reference_frames(raw, bots)
    players = players_frame(raw["players"], bots)
    got = (
        games_frame(raw["games"]),
        players,
        card_records_frame(raw["players"], players["faction"]),
    )
    # the cases do exercise the nulls
    assert (
        want[0]["winner"].null_count() > 0
        or want[1]["eliminated_round"].null_count() < want[1].height
    )
    for w, g in zip(want, got, strict=True):
        assert g.schema == w.schema
        assert g.equals(w, null_equal=True)
    assert got[2].equals(card_records_frame(raw["players"]), null_equal=True)


def test_a_card_file_rewritten_in_place_is_read_afresh(tmp_path):
    # the Python layer reuses the text of a file read before only when its bytes are the same:
    # rewriting the file at once with a same-size edit (same length, maybe the same mtime)
    # must be seen by the next call
    text = packaged_card_text()
    block = text.index('id = "ner_orban_viktor"')
    at = text.index("influence = 5\n", block)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    first = ketharmad.cards(path)
    for value in (8, 3, 5, 9):
        path.write_text(
            text[:at] + f"influence = {value}\n" + text[at + len("influence = 5\n") :],
            encoding="utf-8",
        )
        got = ketharmad.cards(path).filter(pl.col("id") == "ner_orban_viktor")["influence"].item()
        assert got == value
    assert first.filter(pl.col("id") == "ner_orban_viktor")["influence"].item() == 5
    # and the games follow the file too: back to the packaged numbers, the packaged games
    path.write_text(text, encoding="utf-8")
    assert run(B, card_data=path) == run(B)
