"""RunOptions (ketharmad.run.options, issue 23): one checked value for how a call runs its
games (threads, chunk size, executor or cluster, progress, rows) instead of 5-6 keywords on
every entry point; the older keywords still work until 0.3.0, with a DeprecationWarning, and
give the same results as ``run=``."""

from __future__ import annotations

import dataclasses
import gc
import inspect
import pickle
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import ketharmad
import polars as pl
import pytest
from ketharmad import RunOptions
from ketharmad.game import validate
from polars.testing import assert_frame_equal

SMALL_TARGETS = str(Path(__file__).parent / "test_balance_small.toml")
TWO_P = ["ner", "tisza"]


# -- the value -------------------------------------------------------------------------------
def test_defaults_and_of() -> None:
    d = RunOptions()
    assert (d.threads, d.chunk_size, d.executor, d.cluster, d.progress, d.rows) == (
        None, None, None, None, False, None,
    )  # fmt: skip
    assert RunOptions.of(None) == d
    r = RunOptions(threads=2, rows=False)
    assert RunOptions.of(r) is r
    assert RunOptions.of({"threads": 2, "rows": False}) == r
    assert repr(r) == "RunOptions(threads=2, rows=False)"
    assert r.changed() == {"threads": 2, "rows": False}
    assert r.replace(threads=3) == RunOptions(threads=3, rows=False)
    assert ketharmad.RunOptions is RunOptions and "RunOptions" in ketharmad.__all__


@pytest.mark.parametrize(
    "fields, check",
    [
        ({"threads": 0}, lambda: validate.check_threads(0)),
        ({"threads": 5000}, lambda: validate.check_threads(5000)),
        ({"threads": "2"}, lambda: validate.check_threads("2")),
        ({"threads": True}, lambda: validate.check_threads(True)),
        ({"chunk_size": 0}, lambda: validate.check_chunk_size(0)),
        ({"chunk_size": 2.5}, lambda: validate.check_chunk_size(2.5)),
        ({"progress": "yes"}, lambda: validate.check_flag("progress", "yes")),
        ({"rows": 1}, lambda: validate.check_flag("rows", 1)),
    ],
)
def test_validation_errors_are_the_checks_messages(fields: dict, check: Callable[[], Any]) -> None:
    with pytest.raises(ValueError) as expected:
        check()
    with pytest.raises(ValueError) as got:
        RunOptions(**fields)
    assert str(got.value) == str(expected.value)
    # the same message through a dict run= and (once more) through the old keyword
    with pytest.raises(ValueError, match="^" + _re(str(expected.value)) + "$"):
        ketharmad.matchups(games_per_side=1, run=fields)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError) as old:
        ketharmad.matchups(games_per_side=1, **fields)
    assert str(old.value) == str(expected.value)


def _re(text: str) -> str:
    import re

    return re.escape(text)


def test_cluster_and_executor_checks() -> None:
    with ThreadPoolExecutor(1) as ex:
        with pytest.raises(ValueError, match="give executor= or cluster=, not both"):
            RunOptions(executor=ex, cluster="local")
    with pytest.raises(ValueError, match="cluster= must be"):
        RunOptions(cluster=4)
    with pytest.raises(ValueError, match="cluster= must be 'local', a scheduler address"):
        RunOptions(cluster="  ")


def test_of_refuses_unknown_keys_and_types() -> None:
    with pytest.raises(ValueError, match="run: unknown option nope; RunOptions takes threads, "):
        RunOptions.of({"nope": 1})
    with pytest.raises(ValueError, match="run must be None, a ketharmad.RunOptions or a dict"):
        RunOptions.of(4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown option"):
        ketharmad.simulate(TWO_P, games=4, run={"thread": 2})


def test_frozen_hashable_picklable() -> None:
    r = RunOptions(threads=3, chunk_size=500, progress=True, rows=False, cluster="tcp://h:8786")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.threads = 4  # type: ignore[misc]
    back = pickle.loads(pickle.dumps(r))
    assert back == r and hash(back) == hash(r)
    assert {r: 1}[back] == 1


def test_a_field_the_call_does_not_use_is_refused() -> None:
    with pytest.raises(ValueError, match=r"simulate\(\) does not use run.rows \(it uses threads, "):
        ketharmad.simulate(TWO_P, games=4, run=RunOptions(rows=False))
    with pytest.raises(
        ValueError, match=r"tournament\(\) does not use run.chunk_size, run.progress"
    ):
        ketharmad.tournament(["random", "heuristic"], run={"chunk_size": 10, "progress": True})
    with pytest.raises(ValueError, match=r"balance\(\) does not use run.rows"):
        ketharmad.balance(SMALL_TARGETS, run={"rows": True})


# -- the old keywords ------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _collect_before() -> None:
    """Garbage of the tests before is collected here, on the main thread, not by a collection
    that happens to run on a pool or Dask worker thread (conftest: unsendable step objects)."""
    gc.collect()


@pytest.fixture(scope="module")
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(2) as ex:
        yield ex


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """An in-process Dask cluster (threads, no worker processes: cheap to start)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cl, distributed.Client(cl) as c:  # fmt: skip
        yield c


def _simulate(**kw: Any) -> pl.DataFrame:
    return ketharmad.simulate(TWO_P, "random", games=30, seed=4, **kw).games.rechunk()


def _matchups(**kw: Any) -> pl.DataFrame:
    return ketharmad.matchups(games_per_side=3, bots="random", seed=2, **kw).table


def _sweep(**kw: Any) -> pl.DataFrame:
    grid = {"ner_orban_viktor.influence": [4, 6]}
    return ketharmad.sweep(grid, bots="random", games=20, seed=1, **kw).table


def _card_stats(**kw: Any) -> pl.DataFrame:
    return ketharmad.card_stats(decks=TWO_P, bots="random", games=30, seed=3, **kw).table


def _tournament(**kw: Any) -> pl.DataFrame:
    return ketharmad.tournament(["random", "heuristic"], decks=TWO_P, games=8, seed=1, **kw).pairs


def _balance(**kw: Any) -> pl.DataFrame:
    res = ketharmad.balance(SMALL_TARGETS, bots="random", budget=3_000, seed=5,
                            settings={"robustness_bots": None, "robustness_search": None}, **kw)  # fmt: skip
    return res.history


CALLS = {
    "simulate": (_simulate, ("threads", "chunk_size", "progress", "executor", "cluster")),
    "matchups": (_matchups, ("threads", "chunk_size", "progress", "executor", "cluster", "rows")),
    "sweep": (_sweep, ("threads", "chunk_size", "progress", "executor", "cluster", "rows")),
    "card_stats": (
        _card_stats,
        ("threads", "chunk_size", "progress", "executor", "cluster", "rows"),
    ),
    "tournament": (_tournament, ("threads", "executor", "cluster")),
    "balance": (_balance, ("threads", "progress", "executor", "cluster")),
}
CASES = [(name, field) for name, (_, fields) in CALLS.items() for field in fields]


@pytest.mark.parametrize("name, field", CASES, ids=[f"{n}-{f}" for n, f in CASES])
def test_each_old_keyword_warns_and_gives_the_run_result(
    name: str, field: str, pool: ThreadPoolExecutor, request: pytest.FixtureRequest
) -> None:
    call, fields = CALLS[name]
    value: Any = {"threads": 1, "chunk_size": 7, "progress": True, "rows": False}.get(field)
    if field == "executor":
        value = pool
    elif field == "cluster":
        value = request.getfixturevalue("client")
    new = call(run=RunOptions(**{field: value}))
    with pytest.warns(DeprecationWarning) as record:
        old = call(**{field: value})
    msgs = [str(w.message) for w in record if issubclass(w.category, DeprecationWarning)]
    assert msgs == [
        f"{name}({field}=...) is deprecated in 0.2.0, removed in 0.3.0: "
        f"use {name}(run=RunOptions({field}=...)) instead"
    ]
    assert record[0].filename == __file__  # the warning names the caller's line
    assert_frame_equal(old, new)
    # and the same as the dict form
    assert_frame_equal(call(run={field: value}), new)


@pytest.mark.parametrize("field", ["threads", "chunk_size", "progress", "executor", "rows"])
def test_an_old_keyword_reaches_the_function_as_run(field: str, pool: ThreadPoolExecutor) -> None:
    """The fold itself: the value of an old keyword arrives in ``run`` (the result tables
    above cannot show it, since no run field changes the games)."""
    from ketharmad.run.options import fold_run_options

    seen: list[RunOptions] = []

    @fold_run_options("threads", "chunk_size", "progress", "executor", "rows")
    def entry(x: int, *, run: Any = None) -> int:
        seen.append(run)
        return x

    value: Any = {"threads": 1, "chunk_size": 7, "progress": True, "rows": False}.get(field, pool)
    with pytest.warns(DeprecationWarning, match=rf"entry\({field}=\.\.\.\)"):
        assert entry(5, **{field: value}) == 5
    assert isinstance(seen[0], RunOptions)
    assert getattr(seen[0], field) is value or getattr(seen[0], field) == value
    others = [f for f in ("threads", "chunk_size", "executor", "rows") if f != field]
    assert all(getattr(seen[0], f) is None for f in others)


def test_several_old_keywords_and_run_fold_together() -> None:
    ref = _simulate(run=RunOptions(threads=2, chunk_size=9, progress=False))
    with pytest.warns(DeprecationWarning, match=r"simulate\(threads=\.\.\., chunk_size=\.\.\.\)"):
        got = _simulate(threads=2, chunk_size=9)
    assert_frame_equal(got, ref)
    with pytest.warns(DeprecationWarning, match=r"run=RunOptions\(threads=\.\.\.\)"):
        got = _simulate(threads=2, run={"chunk_size": 9})  # different fields: folded
    assert_frame_equal(got, ref)


@pytest.mark.parametrize("run", [RunOptions(threads=3), {"threads": 3}, {"threads": None}])
def test_an_old_keyword_and_the_same_field_in_run_is_an_error(run: Any) -> None:
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(
            ValueError,
            match=r"simulate\(\): threads given twice, as a keyword \(deprecated\) and in run=",
        ),
    ):
        _simulate(threads=2, run=run)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="rows given twice"):
        _matchups(rows=True, run={**(run if isinstance(run, dict) else {}), "rows": False})


def test_without_old_keywords_nothing_warns() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _simulate(run={"threads": 1})
        _simulate()


def test_balance_on_a_cluster_keeps_every_argument(client: Any) -> None:
    """balance(run={"cluster": ...}) plays the run on one client by calling itself with the
    executor: the call's own arguments all reach it (robustness_search was once dropped
    there and replaced by "auto", which for random bots means no search sample)."""
    kw = dict(bots="random", budget=6_000, seed=5, settings={"robustness_bots": None,
              "robustness_search": "heuristic"})  # fmt: skip
    here = ketharmad.balance(SMALL_TARGETS, **kw)
    there = ketharmad.balance(SMALL_TARGETS, **kw, run={"cluster": client})
    # the settings that reached the run (best may be the start, with no sample to compare)
    assert here.settings == there.settings == ketharmad.BalanceSettings.of(kw["settings"])
    assert here.settings.robustness_search == "heuristic"
    assert_frame_equal(here.history, there.history)
    assert (here.robustness_search is None) == (there.robustness_search is None)
    if here.robustness_search is not None:
        assert_frame_equal(here.robustness_search, there.robustness_search)
    assert here.notes == there.notes


# -- no public function takes more than about 10 parameters -------------------------------------
#: The exported callables above 10 parameters today, with their count (a ceiling: none may
#: grow, and one that gets down to 10 must leave this table):
#: * simulate_game: deprecated (removed in 0.3.0), kept as it was;
#: * SimResult, GameStats: result classes the package builds (their fields), not calls a
#:   user makes;
#: * matchups: 12 (11 and ``**setup``): two layouts' own knobs, Kétharmad's ``players`` and
#:   ``games_per_side`` (factions against factions) and the bot field's ``field`` and
#:   ``games_for`` (the harness games), besides the common ones; every other entry point
#:   takes its setup keywords as ``**setup`` (``SetupKeywords``) and is at 10 or fewer.
OVER_TEN = {
    "simulate_game": 15,
    "SimResult": 14,
    "GameStats": 14,
    "matchups": 12,
    # issue 25 names its four test parameters (elo0, elo1, alpha, beta), as Fishtest's SPRT has them
    "ab_test": 12,
}


def _public_callables() -> Iterator[tuple[str, Any]]:
    for name in ketharmad.__all__:
        obj = getattr(ketharmad, name)
        if inspect.isclass(obj):
            yield name, obj
            for attr, f in vars(obj).items():
                if not attr.startswith("_") and inspect.isfunction(f):
                    yield f"{name}.{attr}", getattr(obj, attr)
        elif callable(obj) and not inspect.ismodule(obj):
            yield name, obj


def _n_params(f: Any) -> int:
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):  # a builtin without a signature
        return 0
    return sum(1 for p in sig.parameters.values() if p.name not in ("self", "cls"))


def test_no_public_function_takes_more_than_ten_parameters() -> None:
    counts = {name: _n_params(f) for name, f in _public_callables()}
    over = {name: n for name, n in counts.items() if n > 10}
    assert set(over) <= set(OVER_TEN), f"new callables above 10 parameters: {over}"
    for name, n in over.items():
        assert n <= OVER_TEN[name], f"{name} grew to {n} parameters (was {OVER_TEN[name]})"
    shrunk = set(OVER_TEN) - set(over)
    assert not shrunk, f"{sorted(shrunk)} take 10 parameters or fewer now: drop them from OVER_TEN"
    # the run keywords are gone from every public signature
    for name, f in _public_callables():
        if name in (
            "simulate_game",
            "game_matchups",
            "SimResult",
            "RunOptions",
        ):  # deprecated, a result, the value
            continue
        try:
            params = set(inspect.signature(f).parameters)
        except (TypeError, ValueError):
            continue
        assert not params & {"threads", "chunk_size", "executor", "cluster"}, name


def test_the_old_positional_run_arguments_are_an_error_not_rebound() -> None:
    """Everything after ``seed`` (``params`` for matchups) is keyword-only, so an old
    positional call that passed ``threads`` (or, for sweep, ``baseline`` further on) fails
    loudly instead of binding the value to the parameter that moved into its place."""
    with pytest.raises(TypeError, match="positional"):
        ketharmad.simulate(TWO_P, "random", 10, 0, 2)  # type: ignore[misc]  # the old threads=2
    grid = {"ner_orban_viktor.influence": [4, 6]}
    with pytest.raises(TypeError, match="positional"):
        ketharmad.sweep(grid, TWO_P, "random", 40, 0, None, None, None, 1)  # type: ignore[misc]
    with pytest.raises(TypeError, match="positional"):
        ketharmad.matchups(None, 4, "random", 1, None, 2)  # type: ignore[misc]
    with pytest.raises(TypeError, match="positional"):
        ketharmad.tournament(["random"], None, 8, 0, 2)  # type: ignore[misc]


def test_balance_on_a_cluster_keeps_every_keyword(client: Any, tmp_path: Any) -> None:
    """Every keyword of balance reaches its run on a cluster (issue 24 item 4: a keyword
    dropped on the way, as robustness_search once was, would change the result): params,
    format, card_data, settings (every field), journal, budget, bots and seed, local and on
    the client, give the same run."""
    import inspect

    kw: dict[str, Any] = dict(
        bots="random", budget=2_500, seed=3, params={"rules.hand_limit": 8}, format="quick",
        card_data="balanced",
        settings={"games_2p": 6, "games_4p": 1, "robustness_bots": "aggro", "robustness_search": None,
                  "strategy": "cards"},
    )  # fmt: skip
    here = ketharmad.balance(SMALL_TARGETS, journal=str(tmp_path / "a.jsonl"), **kw)
    there = ketharmad.balance(SMALL_TARGETS, journal=str(tmp_path / "b.jsonl"), **kw,
                              run={"cluster": client})  # fmt: skip
    # the call above names every keyword of balance's signature (so a new one must be added here)
    named = {"targets", "journal", "run", "setup", *kw, "game", "card_data", "format"}
    assert set(inspect.signature(ketharmad.balance).parameters) <= named | {"settings"}
    assert_frame_equal(here.history, there.history)
    assert_frame_equal(here.before, there.before)
    # every settings field reached the run on the client
    assert here.settings == there.settings == ketharmad.BalanceSettings.of(kw["settings"])
    assert (here.robustness is None) == (there.robustness is None)
    if here.robustness is not None:
        assert_frame_equal(here.robustness, there.robustness)
    assert here.overrides == there.overrides and here.notes == there.notes
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert here.params["rules.format"] == "quick" and here.card_data == there.card_data
