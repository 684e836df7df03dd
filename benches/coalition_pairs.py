"""The Coalition team-pair table (rules.md R16.2-R16.3; docs/formats.md): which two factions make
the strongest coalition.

    python benches/coalition_pairs.py --games 500            # per seating (4 per split)
    python benches/coalition_pairs.py --games 2000 --bots heuristic --threads 2
    python benches/coalition_pairs.py --games 500 --format pairs   # pairs play (V2)

The four factions split into two teams in three ways; each split is played in the 4 rotations
of the seating ``[a, c, b, d]`` (partners opposite, E81), so every team holds seats 0 + 2 and
1 + 3 and every faction every seat. Prints each team's win rate over its split with a 95 %
Wilson interval, best first (unfinished games count as losses for both teams; their number is
printed), the seat and start-player fairness (the team of seats 0 + 2, the start player's team,
over all games) and the games per second. ``--format`` plays another team format of four seats
(``pairs``; default ``coalition``).
"""

from __future__ import annotations

import argparse
import math
import time

import polars as pl

import ketharmad as k


def wilson(w: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = w / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="games per seating (4 seatings per split)")
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--format", default="coalition", help="a team format of four seats (coalition, pairs)")
    a = ap.parse_args()
    seat02 = start_team = finished = 0
    f = list(k.FACTIONS)
    splits = [((f[0], f[1]), (f[2], f[3])), ((f[0], f[2]), (f[1], f[3])), ((f[0], f[3]), (f[1], f[2]))]
    rows = []
    total, t0 = 0, time.perf_counter()
    for si, ((a1, a2), (b1, b2)) in enumerate(splits):
        cycle = [a1, b1, a2, b2]
        wins = {(a1, a2): 0, (b1, b2): 0}
        n = unfinished = 0
        for r in range(4):
            decks = cycle[r:] + cycle[:r]
            res = k.simulate(decks, bots=a.bots, games=a.games, seed=a.seed + 10 * si + r, threads=a.threads, format=a.format)
            total += a.games
            g = res.games.filter(res.games["winner"].is_not_null())
            finished += g.height
            seat02 += int((g["winner"] == 0).sum())
            start_team += int((g["winner"] == g["start_player"] % 2).sum())
            w = res.games["winner"]
            unfinished += w.null_count()
            n += a.games
            team_of_seat0 = tuple(sorted((decks[0], decks[2]), key=f.index))
            team_of_seat1 = tuple(sorted((decks[1], decks[3]), key=f.index))
            for team, seat in ((team_of_seat0, 0), (team_of_seat1, 1)):
                key = (a1, a2) if set(team) == {a1, a2} else (b1, b2)
                wins[key] += int((w == seat).sum())
        for team, wn in wins.items():
            lo, hi = wilson(wn, n)
            rows.append({"team": " + ".join(team), "against": " + ".join(next(t for t in wins if t != team)),
                         "games": n, "wins": wn, "win_rate": wn / n, "ci_low": lo, "ci_high": hi, "unfinished": unfinished})
    el = time.perf_counter() - t0
    table = pl.DataFrame(rows).sort("win_rate", descending=True)
    with pl.Config(tbl_rows=20, float_precision=3, tbl_width_chars=120):
        print(table)
    for what, w in (("the team of seats 0 + 2", seat02), ("the start player's team", start_team)):
        lo, hi = wilson(w, finished)
        print(f"{what} won {w / max(finished, 1):.3f} ({lo:.3f}-{hi:.3f}) of {finished} finished games")
    print(f"{total} {a.format} games ({a.bots}) in {el:.1f} s: {total / el:.0f} games/s")


if __name__ == "__main__":
    main()
