"""Seat fairness of the circle (V3) and war of the gods (V4), and their throughput against the
free-for-all (docs/formats.md).

    python benches/circle_seats.py                   # the circle table, 2,000 games per cell
    python benches/circle_seats.py --gods            # and gods with 5 and 9 seats
    python benches/circle_seats.py --throughput      # and games/s of each format
    python benches/circle_seats.py --games 500       # fewer games per cell

Circle: win rate (Wilson 95 % interval) and mean victory points by seat, for 3 and 4 seats,
with seat 0 always starting and with a random start player. Each cell rotates the decks over
the seats (4 seatings with 4 seats; the 4 three-faction sets in 3 rotations each with 3
seats) so that every faction sits in every seat equally often. Gods: win rate by seat, the
deck list rotated over the seats likewise (mirrored decks). Heuristic bots everywhere.
"""

from __future__ import annotations

import argparse
import itertools
import time

import ketharmad as k
import polars as pl
from ketharmad.stats import wilson_interval

FACTIONS = ["ner", "osszefogas", "tisza", "radikalisok"]


def seatings(n: int) -> list[list[str]]:
    if n == 4:
        return [FACTIONS[i:] + FACTIONS[:i] for i in range(4)]
    out = []
    for combo in itertools.combinations(FACTIONS, n):
        c = list(combo)
        out += [c[i:] + c[:i] for i in range(n)]
    return out


def rotations(decks: list[str]) -> list[list[str]]:
    return [decks[i:] + decks[:i] for i in range(len(decks))]


def run_cells(
    layouts: list[list[str]],
    games: int,
    fmt: str,
    start: int | None,
    seed: int,
    threads: int,
    params=None,
):
    """Play `games` games spread evenly over the seatings; the players frames concatenated."""
    per = -(-games // len(layouts))
    frames = []
    for i, decks in enumerate(layouts):
        r = k.simulate(
            decks,
            bots="heuristic",
            games=per,
            seed=seed + i,
            format=fmt,
            start_player=start,
            params=params or {},
            run=dict(threads=threads),
        )
        frames.append(r.players.with_columns(pl.lit(i).alias("layout")))
    return pl.concat(frames), per * len(layouts)


def seat_table(players: pl.DataFrame, games: int, points: bool) -> list[str]:
    rows = []
    for s in sorted(players["seat"].unique().to_list()):
        p = players.filter(pl.col("seat") == s)
        w = int(p["won"].sum())
        lo, hi = wilson_interval(w, games)
        line = f"| {s} | {w / games:.3f} | {lo:.3f}–{hi:.3f} |"
        if points:
            line += f" {p['points'].mean():.2f} |"
        rows.append(line)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=2000, help="games per cell (default 2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--gods", action="store_true", help="also war of the gods with 5 and 9 seats")
    ap.add_argument(
        "--throughput", action="store_true", help="also games/s of ffa, circle and gods"
    )
    a = ap.parse_args()

    print(f"circle (V3), heuristic bots, {a.games} games per cell, seed {a.seed}")
    for n in (3, 4):
        for start, label in ((0, "seat 0 starts"), (None, "random start")):
            players, games = run_cells(seatings(n), a.games, "circle", start, a.seed, a.threads)
            shared = (
                players.filter(pl.col("won"))
                .group_by("layout", "game")
                .len()
                .filter(pl.col("len") > 1)
                .height
            )
            print(f"\n{n} seats, {label} ({games} games; {shared} shared wins):\n")
            print("| seat | win rate | 95 % interval | mean victory points |")
            print("|---|---|---|---|")
            print("\n".join(seat_table(players, games, True)))

    if a.gods:
        mirror = {"rules.allow_mirror": True}
        for decks in (FACTIONS + ["ner"], FACTIONS * 2 + ["ner"]):
            players, games = run_cells(
                rotations(decks), a.games, "gods", None, a.seed, a.threads, mirror
            )
            print(
                f"\ngods (V4, symmetric graph), {len(decks)} seats, random start ({games} games; decks {decks} rotated):\n"
            )
            print("| seat | win rate | 95 % interval |")
            print("|---|---|---|")
            print("\n".join(seat_table(players, games, False)))

    if a.throughput:
        n_games = a.games * 2
        cells = [
            ("ffa", FACTIONS[:3], {}),
            ("circle", FACTIONS[:3], {}),
            ("ffa", FACTIONS, {}),
            ("circle", FACTIONS, {}),
            ("gods", FACTIONS + ["ner"], {"rules.allow_mirror": True}),
            ("gods", FACTIONS * 2 + ["ner"], {"rules.allow_mirror": True}),
        ]
        print(f"\nthroughput, heuristic bots, {n_games} games each, {a.threads} threads:\n")
        print("| format | seats | games/s | mean turns |")
        print("|---|---|---|---|")
        for fmt, decks, params in cells:
            t = time.perf_counter()
            r = k.simulate(
                decks,
                bots="heuristic",
                games=n_games,
                seed=a.seed,
                format=fmt,
                params=params,
                run=dict(threads=a.threads),
            )
            dt = time.perf_counter() - t
            print(f"| {fmt} | {len(decks)} | {n_games / dt:,.0f} | {r.games['turns'].mean():.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
