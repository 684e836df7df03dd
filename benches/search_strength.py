"""The harness search (`ismcts`, rust/harness/search.rs) against Kétharmad's `search` at 100
iterations, and its cost (issue 25 item 1; docs/bots.md).

    python benches/search_strength.py [GAMES_PER_CELL] [--seed S] [CANDIDATE ...]

Every candidate plays `search:iterations=100` on all 12 ordered 2-player faction pairs, in
both seats, GAMES_PER_CELL games per (pair, seat) (default 84: 2,016 games a comparison), on
the driven path (`simulate_game("ketharmad", ...)`, all cores), seed 11 (`--seed`: another
set of games, e.g. to screen candidates on games other than the ones that confirm them). Prints the
candidate's win rate with a Wilson 95 % interval (a game without a winner counts as half).
Then each bot's decisions per second on one core: both seats of ner vs tisza, seed 0 (an
action is one decision of either seat, as in benches/bot_cost.py). Default candidates:
`ismcts` (Kétharmad's defaults: 100 iterations) and `ismcts:iterations=20`.
"""

from __future__ import annotations

import math
import sys
import time

from ketharmad.run.harness import simulate_game

FACTIONS = ["ner", "osszefogas", "tisza", "radikalisok"]
BASE = "search:iterations=100"


def wilson(k: float, n: int) -> tuple[float, float]:
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def strength(bot: str, per_cell: int, seed: int = 11) -> None:
    t = time.perf_counter()
    points = 0.0
    games = 0
    for a in FACTIONS:
        for b in FACTIONS:
            if a == b:
                continue
            for seat in (0, 1):
                bots = [bot, BASE] if seat == 0 else [BASE, bot]
                r = simulate_game("ketharmad", bots, decks=[a, b], games=per_cell, seed=seed)
                s = r.summary()
                wins = s["wins"].to_list()
                draws = per_cell - sum(wins)
                points += wins[seat] + draws / 2
                games += per_cell
    lo, hi = wilson(points, games)
    print(f"{bot:40s} vs {BASE}: {points / games:6.1%} [{lo:.1%}, {hi:.1%}] of {games:,} games "
          f"({time.perf_counter() - t:.0f} s)", flush=True)  # fmt: skip


def cost(bot: str, games: int) -> None:
    t = time.perf_counter()
    r = simulate_game(
        "ketharmad", [bot, bot], decks=["ner", "tisza"], games=games, seed=0, threads=1
    )
    dt = time.perf_counter() - t
    decisions = int(r.games["actions"].sum())
    print(
        f"{bot:40s} {games:4d} games {dt:7.2f} s {decisions / dt:10,.0f} decisions/s on one core",
        flush=True,
    )


def main() -> None:
    args = sys.argv[1:]
    seed = 11
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i : i + 2]
    per_cell = int(args[0]) if args else 84
    bots = args[1:] or ["ismcts", "ismcts:iterations=20"]
    for b in bots:
        strength(b, per_cell, seed)
    for b in [BASE, *bots]:
        cost(b, 8)


if __name__ == "__main__":
    main()
