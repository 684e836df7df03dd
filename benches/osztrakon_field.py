"""One bot alone against a field of another in Osztrakon, its seat rotating, paired with the
field bot on the same deals (issue 25; docs/bots.md).

    python benches/osztrakon_field.py [--games 60000] [--bot search] [--field b1] [--seats 5] [--seed 2026]

Seat ``s`` plays the ``s``-th share of the games (game indices as in ``examples/osztrakon_field``
and ``matchups(game="osztrakon", layout="field")``), first with ``--bot`` on that seat, then
with the field bot there on the same deals. Prints:

- the bot's win share with its Wilson 95 % interval (against the even share 1/n);
- the paired difference: games only the bot won minus games only the field bot won on its seat,
  over the games, ±1.96 standard errors;
- the bot's share estimated on the same deals: 1/n + that difference, with the paired interval
  (when the games are a multiple of the seats, so every seat plays the same number). A game
  has exactly one winner (R11.1) and the seat rotates through every seat equally, so the
  field bot on the rotating seat wins exactly 1/n of the games in expectation; the deals'
  luck, which the raw share carries, cancels in the difference (a control variate).
"""

from __future__ import annotations

import argparse
import time

from ketharmad.results.compare_stats import paired_diff
from ketharmad.run.harness import simulate_game
from ketharmad.stats import Z95, wilson_interval


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60_000)
    ap.add_argument("--bot", default="search")
    ap.add_argument("--field", default="b1")
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    n_seats, games = a.seats, a.games
    t = time.perf_counter()
    wins = only_bot = only_field = 0
    per_seat = []
    for s in range(n_seats):
        share = games // n_seats + (s < games % n_seats)
        first = s * (games // n_seats) + min(s, games % n_seats)
        lineup = [a.field] * n_seats
        lineup[s] = a.bot
        run = dict(game="osztrakon", games=share, seed=a.seed, threads=a.threads, first_game=first)
        mine = simulate_game(bots=lineup, **run).games["winner"].to_numpy() == s  # type: ignore[arg-type]
        theirs = simulate_game(bots=[a.field] * n_seats, **run).games["winner"].to_numpy() == s  # type: ignore[arg-type]
        per_seat.append(int(mine.sum()))
        wins += int(mine.sum())
        only_bot += int((mine & ~theirs).sum())
        only_field += int((theirs & ~mine).sum())
    even = 1 / n_seats
    lo, hi = wilson_interval(wins, games)
    d, low, _ = paired_diff(games, only_field, only_bot, Z95)
    half = d - low
    print(f"{a.bot} alone against {n_seats - 1} {a.field}, seed {a.seed}: {games:,} games, won {wins:,} "
          f"(per seat {per_seat}): share {wins / games:.2%} [{lo:.2%}, {hi:.2%}], even share {even:.2%}")  # fmt: skip
    print(f"paired with {a.field} on its seat on the same deals: {a.bot} alone won {only_bot:,} games, "
          f"{a.field} alone {only_field:,}: difference {d:+.2%} ± {half:.2%}")  # fmt: skip
    if games % n_seats == 0:
        print(f"share on the same deals (1/n + difference): {even + d:.2%} [{even + d - half:.2%}, {even + d + half:.2%}]"
              f" — {'above' if even + d - half > even else 'not above'} 1/n")  # fmt: skip
    else:
        print(
            "(games not a multiple of the seats: the seats play unequal shares, so 1/n + difference is not printed)"
        )
    print(f"({time.perf_counter() - t:.1f} s)")


if __name__ == "__main__":
    main()
