"""Schotten Totten 2's learned bot against `greedy` in both roles (issue 26; docs/learning.md).

    python benches/learned_st2.py [MODEL] [--games 4000] [--seed 78]
    python benches/learned_st2.py --bot "search:value=models/value.khnn" --against search --games 400 --seed 31
    python benches/learned_st2.py --bot "search:value=shipped,value_seats=1" --against search --roles attacker --games 2000 --seed 43

MODEL defaults to the shipped python/ketharmad/data/models/st2-policy.khnn. The learned bot
(or ``--bot``, any bot spec of the game) plays GAMES games as Attacker against the
``--against`` bot (default ``greedy``) as Defender and GAMES as Defender against it as
Attacker; the ``--against`` bot plays the same deals against itself (common seeds), and the
paired difference of the win rates is printed with ±1.96 standard errors.
"""

from __future__ import annotations

import argparse
import math
import os
import time

from ketharmad.run.harness import simulate_game

HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(HERE, "..", "python", "ketharmad", "data", "models", "st2-policy.khnn")


def winners(bots: list[str], games: int, seed: int):  # type: ignore[no-untyped-def]
    r = simulate_game("schotten_totten_2", bots=bots, games=games, seed=seed)
    return r.games["winner"].to_numpy()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model", nargs="?", default=SHIPPED)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=78)
    ap.add_argument("--bot", default=None, help="the bot to measure (default: learned with MODEL)")
    ap.add_argument("--against", default="greedy", help="the opponent and baseline bot")
    ap.add_argument(
        "--roles", default="Attacker,Defender", help="the roles to measure (comma-separated)"
    )
    a = ap.parse_args()
    me = a.bot or f"learned:model={a.model}"
    opp = a.against
    t = time.perf_counter()
    base = winners([opp, opp], a.games, a.seed)
    roles = {r.strip().capitalize() for r in a.roles.split(",")}
    if not roles <= {"Attacker", "Defender"}:
        ap.error(f"--roles: Attacker and/or Defender, got {a.roles!r}")
    for role, bots, seat in (("Attacker", [me, opp], 0), ("Defender", [opp, me], 1)):
        if role not in roles:
            continue
        x = winners(bots, a.games, a.seed)
        mine, theirs, n = x == seat, base == seat, len(x)
        d = (int(mine.sum()) - int(theirs.sum())) / n
        disc = int((mine != theirs).sum())
        se = math.sqrt(max(disc - n * d * d, 0.0)) / n
        print(f"{me} as {role}: {mine.mean():.2%} against {opp}; {opp} in that role {theirs.mean():.2%} on the same "
              f"{n:,} deals; paired difference {d:+.2%} ± {1.96 * se:.2%}", flush=True)  # fmt: skip
    print(f"({time.perf_counter() - t:.1f} s)")


if __name__ == "__main__":
    main()
