"""Bot and deck strengths from game results: Luce (Bradley-Terry) ratings fitted by the
minorization-maximization iteration; used by the tournament of every game."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Optional

__all__ = ["luce_ratings"]


def luce_ratings(
    n_bots: int,
    groups: Sequence[tuple[Mapping[int, int], Mapping[int, float], float]],
    iters: int = 20_000,
) -> list[float]:
    """Strengths of a Luce choice model by the MM algorithm (Hunter 2004): the winner of a
    game is seat ``s`` with probability ``p(bot of s) / (sum of p over the game's seats)``;
    with two seats of different bots this is Bradley–Terry. ``groups``: one entry per group
    of identical games, ``(seats per bot index, wins per bot index, number of games)`` (a
    game without winner may be credited in shares). A weak prior keeps every strength
    finite (a bot that never or always won included): each bot also played one virtual game
    against a reference bot of strength 1 and won half of it. Iterates until no relative
    strength changes by more than 1e-9 or ``iters`` rounds; geometric mean 1."""
    wins = [0.0] * n_bots
    for _, w, _ in groups:
        for i, x in w.items():
            wins[i] += x
    p = [1.0] * n_bots
    last: Optional[list[float]] = None
    for _ in range(iters):
        new = []
        for i in range(n_bots):
            denom = 1.0 / (p[i] + 1.0)  # the virtual game against the reference
            for counts, _, n in groups:
                if i in counts:
                    denom += n * counts[i] / sum(c * p[j] for j, c in counts.items())
            new.append((wins[i] + 0.5) / denom)
        p = new
        shown = _geo_normalized(p)
        if last is not None and all(
            abs(a / b - 1.0) < 1e-9 for a, b in zip(shown, last, strict=False)
        ):
            break
        last = shown
    return _geo_normalized(p)


def _geo_normalized(p: Sequence[float]) -> list[float]:
    g = math.exp(sum(math.log(x) for x in p) / len(p))
    return [x / g for x in p]


def _bradley_terry(names: list[str], wins: dict[tuple[int, int], float]) -> list[float]:
    """Bradley–Terry strengths (:func:`luce_ratings` with two seats), geometric mean 1:
    ``wins[(i, j)]`` = games bot i won against bot j."""
    groups = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            n = wins.get((i, j), 0.0) + wins.get((j, i), 0.0)
            if n > 0:
                groups.append(
                    ({i: 1, j: 1}, {i: wins.get((i, j), 0.0), j: wins.get((j, i), 0.0)}, n)
                )
    return luce_ratings(len(names), groups)
