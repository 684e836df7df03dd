"""Which card is off? Per-card evidence from played games, ranked per faction, without a
balance run (issue 24 item 1; docs/diagnose.md).

:func:`diagnose` plays every 2-player pairing of each diagnosed faction against every other
faction and reads, for each of the faction's own cards, the evidence the lab already computes
(:func:`ketharmad.card_stats`' counts, merged over the pairings) plus a restricted-play delta
(:func:`ketharmad.sweep` with the card made unplayable for its faction's seat), each with an
interval; it turns each into a z-score against the faction's typical card and combines them
into one suspicion score, ranked per faction (``.suspects``).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional, Union, Unpack

import polars as pl

from .. import _core
from ..api import parameters
from ..game.driver import driver_for
from ..game.spec import GameSpec, SetupKeywords, setup_of, take_setup
from ..game.validate import check_int
from ..results.export import edit_history
from ..results.lab import LabResult
from ..results.lab_report import _provenance_md, md_table
from ..results.report import format_table, pct, signed_pct
from ..run.options import RunArg, RunOptions
from ..run.reduce import CardCounts
from ..stats import Z95, wilson_bounds
from .card_stats import NO_CARD_STATS, card_stats, card_table
from .html_views import card_views
from .sweep import sweep

__all__ = ["diagnose", "DiagnoseResult", "WEIGHTS", "DEFAULT_GAMES", "SUSPECT_COLUMNS"]

#: Games per pairing for the card-record evidence when ``games`` is not given.
DEFAULT_GAMES = 10_000
#: The weight of each evidence's z-score in the suspicion score: the three outcome evidences
#: 1, the two play-pattern evidences (how often and how early the card is played, which say
#: nothing about winning by themselves) 0.5.
WEIGHTS = {"iwd": 1.0, "played": 1.0, "restricted": 1.0, "play_rate": 0.5, "timing": 0.5}
#: The parameter a restricted-play point raises to its registry maximum to make a card
#: unplayable (Bases have no cost: no restricted-play evidence for them).
BAN_PARAM = "cost_generic"
#: 1.4826 x MAD estimates a standard deviation (normal data).
MAD_SCALE = 1.4826

#: The columns of ``.suspects``, in order.
SUSPECT_COLUMNS = (
    "faction", "rank", "card", "name", "type", "copies", "suspicion", "strength", "direction",
    "faction_win_rate", "deck_games", "in_hand_games",
    "iwd", "iwd_ci_low", "iwd_ci_high", "z_iwd",
    "played_win_rate", "not_played_win_rate", "played_delta", "played_delta_ci_low",
    "played_delta_ci_high", "z_played",
    "play_rate", "play_rate_ci_low", "play_rate_ci_high", "z_play_rate",
    "mean_turn_played", "z_timing",
    "restricted_delta", "restricted_ci_low", "restricted_ci_high", "restricted_games", "z_restricted",
    "changed_recently",
)  # fmt: skip


def _refuse_game(name: str) -> None:
    """``diagnose(game=...)`` for a game whose driver has no card records."""
    why = NO_CARD_STATS.get(name, "it records no per-card plays")
    raise ValueError(
        f"diagnose ranks cards from per-card records; game={name!r} has none: {why}. "
        f"Use ketharmad.matchups(game={name!r}, bots=[...]) or ketharmad.sweep(..., game={name!r}) "
        "to measure its win rates and parameters"
    )


def _factions(decks: Any) -> list[str]:
    if decks is None:
        return list(_core.FACTIONS)
    if isinstance(decks, str):
        decks = [decks]
    if not isinstance(decks, (list, tuple)) or not decks:
        raise ValueError(
            f"decks must be a list of factions ({', '.join(_core.FACTIONS)}), got {decks!r}"
        )
    out: list[str] = []
    for d in decks:
        if d not in _core.FACTIONS:
            raise ValueError(
                f"diagnose takes factions (each is played against every other faction), got {d!r}; "
                f"valid: {', '.join(_core.FACTIONS)}"
            )
        if d in out:
            raise ValueError(f"decks names {d!r} twice")
        out.append(d)
    return out


def _pairings(factions: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pair of different factions with at least one diagnosed faction (a
    pair of two diagnosed factions is played once and counts for both)."""
    out: list[tuple[str, str]] = []
    for f in factions:
        for o in _core.FACTIONS:
            if o != f and (o, f) not in out:
                out.append((f, o))
    return out


def diagnose(
    decks: Optional[Sequence[str]] = None,
    *,
    bots: Any = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    game: Union[str, GameSpec] = "ketharmad",
    run: RunArg = None,
    restricted: Optional[int] = None,
    **setup: Unpack[SetupKeywords],
) -> DiagnoseResult:
    """Rank each faction's cards by how much the evidence says the card is off.

    ``decks``: the factions to diagnose (default: all four); each plays every other faction,
    2 players, ``games`` games per pairing (default 10,000; seed ``seed``, default 0; games
    ``0 .. games - 1`` of ``card_stats(decks=[a, b], ...)``). ``bots`` (default
    ``"heuristic"``), ``params``, ``card_data``, ``format``, ``start_player`` (setup keywords)
    and ``run`` (a :class:`ketharmad.RunOptions`: ``threads``, ``progress``, ``executor``,
    ``cluster``, ``chunk_size``) as for :func:`ketharmad.card_stats`.

    ``restricted``: games per pairing at each restricted-play point (default ``games // 4``;
    0 leaves the evidence out): for every card of the faction with a generic cost, the same
    games are played with that card's ``cost_generic`` at its registry maximum (20: never
    payable, so the faction's seat holds it but cannot play it; its opponents' decks do not
    hold it), and the faction's win-rate change against the unrestricted games is measured
    with a paired interval (:func:`ketharmad.sweep`).

    Returns a :class:`DiagnoseResult`; ``.suspects`` has one row per (faction, card) of the
    faction's own cards (:data:`SUSPECT_COLUMNS`): the evidence with its 95 % intervals, a
    z-score per evidence against the faction's median card, ``strength`` (their weighted
    Stouffer combination, :data:`WEIGHTS`; positive = stronger than the faction's typical
    card), ``suspicion`` (``strength`` in the direction the faction is off: times +1 when
    its win rate is above 1/2, -1 below, ``|strength|`` when 1/2 is inside its interval)
    and ``rank`` (1 = most suspect in its faction). docs/diagnose.md.

    ``game``: a game whose driver has card records (Kétharmad); another game is a ValueError
    naming the game and why.
    """
    card_data, format, start_player = take_setup(
        "diagnose", setup, ("card_data", "format", "start_player")
    )
    if isinstance(game, GameSpec):
        spec, decks, card_data, params, start_player, format = setup_of(
            game, "diagnose", decks=decks, card_data=card_data, params=params,
            start_player=start_player, format=format)  # fmt: skip
        game = spec.name
    driver = driver_for(game)
    if not driver.is_ketharmad:
        _refuse_game(driver.name)
    opts = RunOptions.of(run)
    if opts.rows:
        raise ValueError("diagnose keeps counts only: run.rows=True is not taken")
    factions = _factions(decks)
    games_ = check_int("games", DEFAULT_GAMES if games is None else games, 1)
    restricted_ = check_int(
        "restricted", max(1, games_ // 4) if restricted is None else restricted, 0
    )
    seed_ = 0 if seed is None else seed
    sub_run = dataclasses.replace(opts, rows=False)
    setup_kw: dict[str, Any] = dict(card_data=card_data, format=format, start_player=start_player)
    start = time.perf_counter()

    # 1. card records of every pairing, merged into one count per faction
    merged: Optional[CardCounts] = None
    first: Any = None
    for a, b in _pairings(factions):
        res = card_stats(decks=[a, b], bots=bots, games=games_, seed=seed_, params=params,
                         run=sub_run, **setup_kw)  # fmt: skip
        assert res.counts is not None  # the run form always counts
        counts = dataclasses.replace(res.counts, decks=("diagnose",))
        merged = counts if merged is None else merged.merge(counts)
        first = first or res
    assert merged is not None and first is not None
    text, run_params = first._card_text, first.params
    cards = card_table(merged, text, run_params)
    cards = cards.filter(pl.col("faction").is_in(factions))
    n_games = len(_pairings(factions)) * games_

    # 2. restricted play: the card unplayable for its faction's seat, the same games
    restricted_rows: list[dict[str, Any]] = []
    if restricted_:
        ptable = parameters(card_data)
        bound = dict(zip(ptable["name"].to_list(), ptable["max"].to_list(), strict=True))
        for f in factions:
            own = cards.filter((pl.col("card_faction") == f) & (pl.col("faction") == f))
            names = [
                f"{c}.{BAN_PARAM}" for c in own["card"].to_list() if f"{c}.{BAN_PARAM}" in bound
            ]
            if not names:
                continue
            points: list[dict[str, Any]] = [{}] + [{n: int(bound[n])} for n in names]
            sw = sweep(points, decks=[[f, o] for o in _core.FACTIONS if o != f], bots=bots,
                       games=restricted_, seed=seed_, params=params, baseline=0, run=sub_run,
                       **setup_kw)  # fmt: skip
            for name, r in zip(names, sw.summary.sort("point").rows(named=True)[1:], strict=True):
                restricted_rows.append({"faction": f, "card": name.rsplit(".", 1)[0],
                                        "restricted_delta": r["diff"], "restricted_ci_low": r["diff_ci_low"],
                                        "restricted_ci_high": r["diff_ci_high"],
                                        "restricted_games": r["games"]})  # fmt: skip
            n_games += len(points) * (len(_core.FACTIONS) - 1) * restricted_
    elapsed = time.perf_counter() - start
    suspects = suspect_table(cards, restricted_rows, edit_history(text))
    return DiagnoseResult(
        suspects, cards, text,
        run=dict(decks=factions, pairings=[list(p) for p in _pairings(factions)], bots=first.bots,
                 seed=seed_, params=run_params, n_games=n_games, games=games_, restricted=restricted_,
                 card_data=first.card_data, elapsed=elapsed),
    )  # fmt: skip


def _median_dev(x: str) -> pl.Expr:
    return pl.col(x) - pl.col(x).median().over("faction")


def _mad(x: str) -> pl.Expr:
    """The faction's spread of ``x`` across its cards: 1.4826 x the median absolute deviation."""
    return MAD_SCALE * _median_dev(x).abs().median().over("faction")


def suspect_table(
    cards: pl.DataFrame,
    restricted_rows: Sequence[Mapping[str, Any]],
    history: Optional[Mapping[str, Sequence[str]]] = None,
) -> pl.DataFrame:
    """``.suspects`` from the merged card-stats table (one faction's own cards), the
    restricted-play rows (``faction, card, restricted_delta, restricted_ci_low,
    restricted_ci_high, restricted_games``) and the card file's edit history (card id ->
    numbers changed: ``changed_recently``)."""
    t = cards.filter(pl.col("card_faction") == pl.col("faction"))
    r_schema = {"faction": pl.String, "card": pl.String, "restricted_delta": pl.Float64,
                "restricted_ci_low": pl.Float64, "restricted_ci_high": pl.Float64,
                "restricted_games": pl.Int64}  # fmt: skip
    r = pl.DataFrame(list(restricted_rows), schema=r_schema)
    t = t.join(r, on=["faction", "card"], how="left")
    # played vs not played (the seat-games of the deck where the card was never played)
    np_games = pl.col("deck_games") - pl.col("played_games")
    np_wins = pl.col("deck_wins_all") - pl.col("played_wins")
    t = t.with_columns(deck_wins_all=(pl.col("faction_win_rate") * pl.col("deck_games")).round(0))
    t = t.with_columns(
        not_played_win_rate=pl.when(np_games > 0).then(np_wins / np_games),
        play_rate=pl.when(pl.col("in_hand_games") > 0).then(
            pl.col("played_games") / pl.col("in_hand_games")
        ),
    )
    p1, n1 = pl.col("played_win_rate"), pl.col("played_games")
    p0, n0 = pl.col("not_played_win_rate"), np_games
    se_played = (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0).sqrt()
    rate_low, rate_high = wilson_bounds("played_games", "in_hand_games")
    se_iwd = (pl.col("iwd_ci_high") - pl.col("iwd_ci_low")) / (2 * Z95)
    se_restricted = (pl.col("restricted_ci_high") - pl.col("restricted_ci_low")) / (2 * Z95)
    t = t.with_columns(
        played_delta=p1 - p0,
        played_delta_ci_low=p1 - p0 - Z95 * se_played,
        played_delta_ci_high=p1 - p0 + Z95 * se_played,
        play_rate_ci_low=rate_low,
        play_rate_ci_high=rate_high,
        se_played=se_played,
        se_iwd=se_iwd,
        se_restricted=se_restricted,
        contribution=-pl.col("restricted_delta"),
    )
    t = t.with_columns(turn_scale=_mad("mean_turn_played"), rate_scale=_mad("play_rate"))

    def z(dev: pl.Expr, se: pl.Expr) -> pl.Expr:
        return pl.when(se > 0).then(dev / se).fill_nan(None)

    t = t.with_columns(
        z_iwd=z(_median_dev("iwd"), pl.col("se_iwd")),
        z_played=z(_median_dev("played_delta"), pl.col("se_played")),
        z_play_rate=z(_median_dev("play_rate"), pl.col("rate_scale")),
        z_timing=z(-_median_dev("mean_turn_played"), pl.col("turn_scale")),
        z_restricted=z(_median_dev("contribution"), pl.col("se_restricted")),
    )
    num = pl.sum_horizontal(*[(pl.col(f"z_{k}") * w).fill_null(0.0) for k, w in WEIGHTS.items()])
    den = pl.sum_horizontal(
        *[
            pl.when(pl.col(f"z_{k}").is_not_null()).then(w * w).otherwise(0.0)
            for k, w in WEIGHTS.items()
        ]
    ).sqrt()
    t = t.with_columns(strength=pl.when(den > 0).then(num / den))
    # the faction's direction: above or below an even win rate, beyond its 95 % interval
    fwr, dg = pl.col("faction_win_rate"), pl.col("deck_games")
    half = Z95 * (fwr * (1 - fwr) / dg).sqrt()
    sign = pl.when(fwr - half > 0.5).then(1.0).when(fwr + half < 0.5).then(-1.0).otherwise(0.0)
    t = t.with_columns(
        direction=pl.when(sign > 0).then(pl.lit("too strong")).when(sign < 0)
        .then(pl.lit("too weak")).otherwise(pl.lit("either")),
        suspicion=pl.when(sign == 0).then(pl.col("strength").abs()).otherwise(pl.col("strength") * sign),
    )  # fmt: skip
    t = t.with_columns(
        rank=pl.col("suspicion").fill_null(-math.inf).rank("ordinal", descending=True).over("faction")
        .cast(pl.Int64),
        changed_recently=pl.col("card").is_in(list(history or {})),
    )  # fmt: skip
    order = pl.col("faction").replace_strict(
        list(_core.FACTIONS), list(range(len(_core.FACTIONS))), default=len(_core.FACTIONS)
    )
    return t.sort(order, "rank").select(SUSPECT_COLUMNS)


class DiagnoseResult(LabResult):
    """The result of :func:`ketharmad.diagnose`.

    Attributes:
        suspects: one row per (faction, card), ranked per faction (:data:`SUSPECT_COLUMNS`).
        cards: the card-stats table of the diagnosed factions, merged over their pairings.
        decks: the diagnosed factions; ``pairings`` the 2-player pairings played.
        bots, seed, params, card_data, elapsed: the games' arguments and the wall time.
        games: games per pairing (card records); ``restricted``: games per pairing at each
            restricted-play point (0: none); ``n_games``: every game played.
    """

    kind = "diagnose"

    def __init__(self, suspects: pl.DataFrame, cards: pl.DataFrame, card_text: str, *,
                 run: Mapping[str, Any]) -> None:  # fmt: skip
        self.suspects = suspects
        self.cards = cards
        self._card_text = card_text
        self.decks: list[str] = list(run["decks"])
        self.pairings: list[list[str]] = [list(p) for p in run["pairings"]]
        self.bots: Any = run["bots"]
        self.seed: int = int(run["seed"])
        self.params: dict[str, Any] = dict(run["params"] or {})
        self.n_games: int = int(run["n_games"])
        self.games: int = int(run["games"])
        self.restricted: int = int(run["restricted"])
        self.card_data: str = str(run["card_data"])
        self.elapsed: float = float(run["elapsed"])

    def _decks(self) -> Any:
        return self.pairings

    def top(self, faction: str, n: int = 5) -> pl.DataFrame:
        """The ``n`` most suspect cards of ``faction``."""
        if faction not in self.decks:
            raise ValueError(
                f"faction {faction!r} was not diagnosed; diagnosed: {', '.join(self.decks)}"
            )
        return self.suspects.filter(pl.col("faction") == faction).head(n)

    def rank_of(self, card: str) -> int:
        """The rank of ``card`` (a card id) in its faction."""
        hit = self.suspects.filter(pl.col("card") == card)
        if hit.height == 0:
            raise ValueError(
                f"card {card!r} is not among the suspects (its faction was not diagnosed?)"
            )
        return int(hit["rank"][0])

    def tables(self) -> dict[str, pl.DataFrame]:
        return {"diagnose_suspects": self.suspects, "diagnose_cards": self.cards}

    def text(self) -> str:
        return _text(self)

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        return _markdown(self)

    def html_views(self) -> list[Any]:
        """The report's IWD bars per faction (the cards' evidence), with intervals."""
        return card_views(self.cards)


def _ci(lo: Any, hi: Any) -> str:
    return "-" if lo is None or hi is None else f"[{signed_pct(lo)}, {signed_pct(hi)}]"


def _z(v: Any) -> str:
    return "-" if v is None else f"{v:+.1f}"


def _rows(part: pl.DataFrame) -> list[list[str]]:
    return [
        [str(r["rank"]), r["name"], r["card"], _z(r["suspicion"]), signed_pct(r["iwd"]) if r["iwd"] is not None else "-",
         _z(r["z_iwd"]), signed_pct(r["played_delta"]) if r["played_delta"] is not None else "-", _z(r["z_played"]),
         pct(r["play_rate"]) if r["play_rate"] is not None else "-",
         "-" if r["mean_turn_played"] is None else f"{r['mean_turn_played']:.1f}",
         signed_pct(r["restricted_delta"]) if r["restricted_delta"] is not None else "-", _z(r["z_restricted"]),
         "yes" if r["changed_recently"] else ""]
        for r in part.iter_rows(named=True)
    ]  # fmt: skip


_HEAD = ["rank", "card", "id", "suspicion", "IWD", "z", "played-not", "z", "play rate", "turn",
         "restricted", "z", "changed"]  # fmt: skip
_RIGHT = [True, False, False] + [True] * 9 + [False]


def _text(result: DiagnoseResult, per_faction: int = 5) -> str:
    lines = [
        f"DiagnoseResult({len(result.decks)} faction(s), {len(result.pairings)} pairings x "
        f"{result.games:,} games, restricted play {result.restricted:,} games per card and pairing; "
        f"{result.n_games:,} games in {result.elapsed:.1f} s)"
    ]
    for f in result.decks:
        part = result.suspects.filter(pl.col("faction") == f)
        if part.height == 0:
            continue
        r0 = part.row(0, named=True)
        lines.append(
            f"{f} (win rate {pct(r0['faction_win_rate'])}, {r0['direction']}): most suspect"
        )
        lines += ["  " + s for s in format_table(_HEAD, _rows(part.head(per_faction)), _RIGHT)]
    lines.append(
        "see .suspects (every card, the evidence with 95% intervals), .top(faction), .rank_of(card)"
    )
    return "\n".join(lines)


def _markdown(result: DiagnoseResult) -> list[str]:
    out = [f"# Diagnosis: which card is off? ({', '.join(result.decks)})", ""]
    out += _provenance_md(result, None)
    out += [
        "",
        f"Every diagnosed faction played each other faction ({result.games:,} games per pairing); "
        f"restricted play: {result.restricted:,} games per pairing with the card unplayable. "
        "IWD = in-hand minus not-seen win rate; played-not = win rate in games where the card was "
        "played minus where it was not; play rate = played / in hand; turn = mean turn played; "
        "restricted = the faction's win-rate change when it may not play the card. Each z is the "
        "card's evidence minus the faction's median card, over its standard error (timing: over "
        "1.4826 x the faction's MAD); suspicion = their weighted Stouffer sum in the direction "
        "the faction is off (docs/diagnose.md). changed = the card file's header names the card "
        "among its last edits (an exported file's `# with overrides:` line).",
        "",
    ]
    for f in result.decks:
        part = result.suspects.filter(pl.col("faction") == f)
        if part.height == 0:
            continue
        r0 = part.row(0, named=True)
        out += [f"## {f} (win rate {pct(r0['faction_win_rate'])}, {r0['direction']})", "",
                md_table(_HEAD, _rows(part), _RIGHT), ""]  # fmt: skip
    return out
