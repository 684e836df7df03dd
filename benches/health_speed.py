"""How fast is the game-health report? 100,000 Kétharmad games of the rule-based bot
(``heuristic`` in both seats, the 12 ordered faction pairings) through the trajectory
recorder (``_core.trajectories``: a sample per turn), and the metrics computed from them;
then the whole ``ketharmad.health`` call for 100,000 games per batch (main, skill and
control batches; restricted play left out). Goal (issue 27): 100,000 games in <= 60 s on 2
cores. ``python benches/health_speed.py [GAMES] [THREADS]``."""

from __future__ import annotations

import sys
import time

import ketharmad
from ketharmad import _core
from ketharmad.lab.health import _concat, _trajectory_stats


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    pairs = [[a, b] for a in _core.FACTIONS for b in _core.FACTIONS if a != b]
    per = games // len(pairs)
    t0 = time.perf_counter()
    parts = [
        _core.trajectories("ketharmad", ["heuristic"] * 2, per, 0, threads=threads, decks=p)
        for p in pairs
    ]
    t1 = time.perf_counter()
    stats = _trajectory_stats(_concat(parts))
    t2 = time.perf_counter()
    n = per * len(pairs)
    samples = sum(len(p["samples"]["clock"]) for p in parts)
    print(
        f"recorder: {n:,} Kétharmad games (heuristic, 12 pairings), {samples:,} samples, "
        f"{t1 - t0:.1f} s on {threads} threads = {n / (t1 - t0):,.0f} games/s; metrics from them {t2 - t1:.1f} s"
    )
    assert stats["decided"].sum() > 0
    t3 = time.perf_counter()
    r = ketharmad.health(
        game="ketharmad", games=games, seed=0, restricted=0, run={"threads": threads}
    )
    t4 = time.perf_counter()
    print(
        f"health(game='ketharmad', games={games:,}, restricted=0): {r.n_games:,} games in all "
        f"(main, skill, control), {t4 - t3:.1f} s on {threads} threads"
    )
    print(
        f"goal: {n:,} games of the rule-based bots in <= 60 s: recorder {t1 - t0:.1f} s, "
        f"recorder + metrics {t2 - t0:.1f} s -> {'met' if t2 - t0 <= 60 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
