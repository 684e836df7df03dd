"""How much of a deck matchup matrix's imbalance is strength and how much is a cycle.

A matrix of pair win rates ``p[i, j]`` (deck ``i`` against deck ``j``, ``p[j, i] = 1 -
p[i, j]``) splits exactly into two parts (the combinatorial Hodge decomposition of the
antisymmetric payoff ``A = p - 1/2`` on the complete graph of decks; Balduzzi et al., "Re-
evaluating Evaluation", 2018, and "Open-ended Learning in Symmetric Zero-sum Games", 2019):

* the **transitive** part ``s_i - s_j``: every deck has a strength ``s_i`` (the least-squares
  one, ``s_i = mean_j A[i, j]``, here in win-rate points), and a stronger deck beats a weaker
  one by the difference;
* the **cyclic** part ``C = A - (s_i - s_j)``: what is left, rock-paper-scissors (NER beats
  Összefogás, Összefogás beats Tisza, Tisza beats NER), with every row summing to zero.

Each pair's deviation from 50 % is the sum of the two, exactly. An edit that only makes one
deck stronger or weaker moves the transitive part; the cyclic part is left for edits that
change how two decks meet. The **floor** is how close to 50 % changing the decks' strengths
alone can bring the worst pair: the smallest ``max |s'_i - s'_j + A[i, j]|`` over every choice of
strengths ``s'``. By the duality of difference constraints it is the largest mean of ``A``
around a cycle of decks (strengths add up to zero around any cycle), found by Karp's
maximum-mean-cycle algorithm. If the floor is outside a pair's band, no set of strength
edits brings every pair in: a balancer needs an edit that acts on one pairing more than on
the deck's others (docs/balance.md, docs/health.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, cast

import numpy as np

__all__ = ["Cycles", "split_cycles", "max_mean_cycle", "band_gap", "cycle_notes"]


@dataclass(frozen=True)
class Cycles:
    """The split of one matchup matrix (all in win-rate points, ×100)."""

    #: each deck's strength ``s_i`` (points; they sum to 0)
    strength: np.ndarray
    #: ``s_i - s_j``: the pairs' deviations that strength explains (points)
    transitive: np.ndarray
    #: the rest (points; antisymmetric, rows sum to 0)
    cyclic: np.ndarray
    #: the cyclic part's share of the squared deviations (0 when the matrix is even)
    cyclic_share: float
    #: the largest ``|cyclic[i, j]|`` (points): the worst pair with every strength made equal
    cyclic_gap: float
    #: the smallest worst pair deviation any change of strengths alone reaches (points)
    floor: float
    #: the decks (indices) of a cycle whose mean is the floor, the first beating the second
    #: and so on around (empty when the floor is 0; searched for up to 8 decks)
    cycle: tuple[int, ...]


def split_cycles(p: np.ndarray) -> Cycles:
    """Split the pair win rates ``p`` (k × k, ``p[i, j]`` deck ``i``'s win rate against
    ``j``; the diagonal is ignored) into strength and cycle. ``p`` is made antisymmetric
    first (``(p - p.T) / 2``), so a matrix of one seating's or of pooled rates both work."""
    p = np.asarray(p, dtype=float)
    if p.ndim != 2 or p.shape[0] != p.shape[1] or p.shape[0] < 2:
        raise ValueError(
            f"a square matchup matrix of at least 2 decks is needed, got shape {p.shape}"
        )
    if not np.all(np.isfinite(p)):
        raise ValueError("the matchup matrix has a missing (NaN) or infinite win rate")
    a = (p - p.T) / 2.0
    np.fill_diagonal(a, 0.0)
    k = a.shape[0]
    s = a.sum(axis=1) / k
    transitive = s[:, None] - s[None, :]
    cyclic = a - transitive
    total = float((a * a).sum())
    share = float((cyclic * cyclic).sum()) / total if total > 1e-18 else 0.0
    return Cycles(
        strength=100.0 * s,
        transitive=100.0 * transitive,
        cyclic=100.0 * cyclic,
        cyclic_share=min(max(share, 0.0), 1.0),
        cyclic_gap=100.0 * float(np.abs(cyclic).max()),
        floor=100.0 * max(max_mean_cycle(a), 0.0),
        cycle=_worst_cycle(a),
    )


def band_gap(pairs: Sequence[tuple[Any, ...]]) -> tuple[float, tuple[str, ...]]:
    """Whether changing the decks' strengths alone can put every pair inside its band.

    ``pairs``: ``(a, b, p, low, high)``, deck ``a``'s win rate ``p`` against ``b`` and its
    band (any target, not only 50 %); a pair may come more than once (one row per rung: the
    same change of strengths must then hold every rung's band). A change of strengths moves
    ``p`` by ``x_a - x_b``, so the bands are difference constraints ``x_a - x_b <= high - p``
    and ``x_b - x_a <= p - low``; they can all hold unless some cycle of them sums below zero.
    Returns the smallest widening of every band (win-rate points) with which they can, 0 when
    they can now, and the decks of the cycle that needs it (empty when the widening is 0)."""
    gap, arcs = band_cycle(pairs)
    return gap, tuple(a for a, _, _ in arcs)


def band_cycle(pairs: Sequence[tuple[Any, ...]]) -> tuple[float, list[tuple[str, str, Any]]]:
    """:func:`band_gap` with the cycle's arcs: ``(a, b, label)`` for each step of the cycle,
    the label being the sixth item of the pair whose band binds there (its rung), or None.
    An arc ``a -> b`` is a's win rate over b at its band's top, or b's at its band's bottom."""
    decks: list[str] = []
    for a, b, *_ in pairs:
        for d in (a, b):
            if d not in decks:
                decks.append(d)
    k = len(decks)
    if k < 2:
        return 0.0, []
    w = np.full((k, k), -np.inf)
    label: dict[tuple[int, int], Any] = {}
    for a, b, p, low, high, *rest in pairs:
        i, j = decks.index(a), decks.index(b)
        tag = rest[0] if rest else None
        if p - high > w[i, j]:
            w[i, j], label[i, j] = p - high, tag
        if low - p > w[j, i]:
            w[j, i], label[j, i] = low - p, tag
    gap = max(max_mean_cycle(w), 0.0)
    if gap <= 1e-12:
        return 0.0, []
    cyc = _worst_cycle(w, 2)
    n = len(cyc)
    return 100.0 * gap, [(decks[cyc[t]], decks[cyc[(t + 1) % n]], label.get((cyc[t], cyc[(t + 1) % n])))
                         for t in range(n)]  # fmt: skip


def _worst_cycle(a: np.ndarray, shortest: int = 3) -> tuple[int, ...]:
    """A simple directed cycle of ``shortest`` or more vertices with the largest mean of
    ``a`` (arc ``i -> j`` weighs ``a[i, j]``; a deck before the one it beats), the smallest
    vertex first; () when none is above 0 or there are more than 8 vertices."""
    k = a.shape[0]
    if k < shortest or k > 8:
        return ()
    best, arg = 1e-12, cast(tuple[int, ...], ())
    for n in range(shortest, k + 1):
        for rest in permutations(range(1, k), n - 1):
            for first in range(k):
                if first >= min(rest):  # the smallest vertex first: each cycle once
                    continue
                cyc = (first, *rest)
                m = sum(a[cyc[i], cyc[(i + 1) % n]] for i in range(n)) / n
                if m > best + 1e-12:
                    best, arg = m, cyc
    return arg


def max_mean_cycle(w: np.ndarray) -> float:
    """The largest mean weight of a directed cycle of the complete digraph with arc weights
    ``w[i, j]`` (no self-loops; Karp, 1978: O(k³))."""
    k = w.shape[0]
    arcs = np.where(np.eye(k, dtype=bool), -np.inf, w)
    d = np.full((k + 1, k), -np.inf)
    d[0, :] = 0.0  # a source joined to every vertex by a zero arc
    for m in range(1, k + 1):
        d[m] = (d[m - 1][:, None] + arcs).max(axis=0)
    best = -np.inf
    for v in range(k):
        if not np.isfinite(d[k, v]):
            continue
        worst = min((d[k, v] - d[m, v]) / (k - m) for m in range(k) if np.isfinite(d[m, v]))
        best = max(best, worst)
    return float(best)


def cycle_notes(table: Any, which: str) -> list[str]:
    """A balance run's notes on a metric table (``before`` or ``after``): for each rung whose
    2-player pairs no change of the factions' strengths alone can put in their bands, how far
    the bands would have to widen and the cycle; with two or more rungs, the same for one
    change of strengths that acts alike under every rung (the rungs' disagreement). Empty for
    games without faction pairs."""
    cols = set(getattr(table, "columns", ()))
    if not {"kind", "faction", "opponent", "value", "low", "high"} <= cols:
        return []
    notes = []
    rows = [
        r
        for r in table.iter_rows(named=True)
        if r["kind"] == "2p" and r["faction"] and r["opponent"]
    ]
    rungs = list(dict.fromkeys(r.get("rung") for r in rows))
    tail = "An edit must act on one of its pairings more than on the faction's other pairings (docs/balance.md, 'Cycles')"
    for rung in rungs:
        pairs = [(r["faction"], r["opponent"], r["value"], r["low"], r["high"])
                 for r in rows if r.get("rung") == rung]  # fmt: skip
        gap, cyc = band_gap(pairs)
        if gap > 0:
            where = f" under {rung}" if rung else ""
            loop = " > ".join((*cyc, cyc[0]))
            notes.append(f"cycle ({which}){where}: on these estimates no change of the factions' strengths alone "
                         f"puts every pair in its band; the cycle {loop} needs every band {gap:.1f} points wider. {tail}")  # fmt: skip
    if len(rungs) > 1 and not notes:
        gap, arcs = band_cycle([(r["faction"], r["opponent"], r["value"], r["low"], r["high"], r.get("rung"))
                                for r in rows])  # fmt: skip
        if gap > 0:
            loop = arcs[0][0] + "".join(f" > {b} ({tag})" for _, b, tag in arcs)
            notes.append(
                f"rungs ({which}): each rung's pairs could be put in band by a change of strengths, but on these "
                f"estimates no one change that acts alike under every rung does it; the cycle {loop} (each step "
                f"under the rung named) needs every band {gap:.1f} points wider. An edit must act differently "
                "under the rungs (docs/balance.md, 'Cycles')"
            )
    return notes
