"""Strength and cycle in a deck matchup matrix (``ketharmad.lab.cycles``; issue 27): the split
is exact, the floor is the optimum of the strength-only balancing problem, and a balance run
says when its pairs cannot all be put in band by strength alone."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from ketharmad.lab.cycles import band_gap, cycle_notes, max_mean_cycle, split_cycles


def matrix(upper: dict[tuple[int, int], float], k: int) -> np.ndarray:
    p = np.full((k, k), 0.5)
    for (i, j), v in upper.items():
        p[i, j], p[j, i] = v, 1 - v
    return p


def test_a_matrix_of_strengths_alone_has_no_cycle_and_a_floor_of_zero() -> None:
    s = np.array([0.10, 0.02, -0.05, -0.07])  # every pair is s_i - s_j from 50 %
    p = 0.5 + s[:, None] - s[None, :]
    c = split_cycles(p)
    assert np.allclose(c.strength, 100 * (s - s.mean()))
    assert c.cyclic_share == pytest.approx(0, abs=1e-12) and c.floor == pytest.approx(0, abs=1e-9)
    assert c.cycle == () and np.allclose(c.cyclic, 0)


def test_rock_paper_scissors_is_all_cycle_and_its_floor_is_the_cycle_s_edge() -> None:
    # deck 0 beats 1, 1 beats 2, 2 beats 0, each 60 %: equal strengths, nothing to move
    p = matrix({(0, 1): 0.6, (1, 2): 0.6, (0, 2): 0.4}, 3)
    c = split_cycles(p)
    assert np.allclose(c.strength, 0) and c.cyclic_share == pytest.approx(1)
    assert c.floor == pytest.approx(10) and c.cyclic_gap == pytest.approx(10)
    assert c.cycle == (0, 1, 2)


def test_the_split_is_exact_and_the_cycle_part_sums_to_zero_for_every_deck() -> None:
    rng = np.random.default_rng(5)
    for k in range(2, 7):
        p = matrix({(i, j): rng.uniform(0.1, 0.9) for i in range(k) for j in range(i + 1, k)}, k)
        c = split_cycles(p)
        off = ~np.eye(k, dtype=bool)
        assert np.allclose((c.transitive + c.cyclic)[off], 100 * (p - 0.5)[off])
        assert np.allclose(c.cyclic.sum(axis=1), 0) and abs(c.strength.sum()) < 1e-9


def test_the_floor_is_the_best_any_change_of_strengths_can_do() -> None:
    """Against a linear program: min z with |s_i - s_j + A_ij| <= z for every pair."""
    linprog = pytest.importorskip("scipy.optimize").linprog
    rng = np.random.default_rng(11)
    for _ in range(60):
        k = int(rng.integers(2, 7))
        p = matrix({(i, j): rng.uniform(0.2, 0.8) for i in range(k) for j in range(i + 1, k)}, k)
        a = (p - p.T) / 2
        rows, rhs = [], []
        for i in range(k):
            for j in range(k):
                if i != j:
                    r = np.zeros(k + 1)
                    r[i], r[j], r[k] = 1, -1, -1
                    rows.append(r)
                    rhs.append(-a[i, j])
        lp = linprog(np.r_[np.zeros(k), 1.0], A_ub=rows, b_ub=rhs, bounds=[(None, None)] * (k + 1))
        assert lp.status == 0
        assert split_cycles(p).floor == pytest.approx(100 * lp.x[-1], abs=1e-6)


def test_band_gap_holds_bands_of_any_target() -> None:
    # strengths can put these in: a 3-point-wide band around 60 % for 0-1, the rest loose
    assert band_gap([("a", "b", 0.50, 0.585, 0.615), ("b", "c", 0.5, 0.3, 0.7)]) == (0.0, ())
    # a > b > c > a at 55 % each, bands 50 +- 3: the cycle needs 2 points more
    gap, cyc = band_gap(
        [("a", "b", 0.55, 0.47, 0.53), ("b", "c", 0.55, 0.47, 0.53), ("a", "c", 0.45, 0.47, 0.53)]
    )
    assert gap == pytest.approx(2.0) and cyc == ("a", "b", "c")
    # with symmetric bands the widening is the floor less the half-width
    p = matrix(
        {(0, 1): 0.535, (0, 2): 0.468, (0, 3): 0.49, (1, 2): 0.525, (1, 3): 0.521, (2, 3): 0.486}, 4
    )
    pairs = [(str(i), str(j), p[i, j], 0.47, 0.53) for i in range(4) for j in range(i + 1, 4)]
    assert band_gap(pairs)[0] == pytest.approx(split_cycles(p).floor - 3.0)
    assert max_mean_cycle(np.array([[0.0, 1.0], [-3.0, 0.0]])) == pytest.approx(-1.0)


def test_a_balance_table_s_pairs_that_strength_cannot_fix_get_a_note_per_rung() -> None:
    rows = []
    for rung, v in (("heuristic", 0.55), ("tuned", 0.51)):
        for a, b, x in (
            ("ner", "osszefogas", v),
            ("osszefogas", "tisza", v),
            ("ner", "tisza", 1 - v),
        ):
            rows.append({"metric": f"{rung}: 2p {a}-{b}", "kind": "2p", "rung": rung, "faction": a,
                         "opponent": b, "low": 0.47, "high": 0.53, "value": x})  # fmt: skip
    rows.append({"metric": "heuristic: 4p ner", "kind": "4p", "rung": "heuristic", "faction": "ner",
                 "opponent": None, "low": 0.21, "high": 0.29, "value": 0.5})  # fmt: skip
    notes = cycle_notes(pl.DataFrame(rows), "best")
    assert len(notes) == 1 and "under heuristic" in notes[0]
    assert "ner > osszefogas > tisza > ner needs every band 2.0 points wider" in notes[0]
    # a harness game's table (no factions) has nothing to say
    assert cycle_notes(pl.DataFrame({"metric": ["x"], "bots": ["a b"]}), "best") == []


def test_bad_matrices_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="square matchup matrix"):
        split_cycles(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="NaN"):
        split_cycles(np.array([[0.5, np.nan], [0.5, 0.5]]))


def test_rungs_that_disagree_get_a_note_even_when_each_alone_could_be_fixed() -> None:
    """NER beats Összefogás 55 % under the heuristic and 45 % under tuned: either rung alone is
    one strength shift from its band, but no shift that acts alike under both rungs helps."""
    rows = []
    for rung, v in (("heuristic", 0.55), ("tuned", 0.45)):
        rows.append({"metric": f"{rung}: 2p ner-osszefogas", "kind": "2p", "rung": rung, "faction": "ner",
                     "opponent": "osszefogas", "low": 0.47, "high": 0.53, "value": v})  # fmt: skip
    notes = cycle_notes(pl.DataFrame(rows), "start")
    assert len(notes) == 1 and notes[0].startswith("rungs (start):")
    assert (
        "the cycle ner > osszefogas (heuristic) > ner (tuned) (each step under the rung named) needs every band 2.0 points wider"
        in notes[0]
    )
    # 52 % against 48 %: one shift puts both in band (the gap is 0), so nothing to say
    rows[0]["value"], rows[1]["value"] = 0.52, 0.48
    assert cycle_notes(pl.DataFrame(rows), "start") == []


def test_matchups_split_their_matrix_into_strength_and_cycle() -> None:
    import ketharmad

    m = ketharmad.matchups(games_per_side=60, seed=2)
    c = m.cycles()
    mat = m.matrix().select(c["deck"].to_list()).to_numpy()
    expect = split_cycles(mat)
    assert c["deck"].to_list() == list(ketharmad.FACTIONS)
    assert (
        np.allclose(c["strength"].to_numpy(), expect.strength) and abs(c["strength"].sum()) < 1e-9
    )
    # a deck's strength is its mean win rate against the others, from 50 %, times (k - 1) / k
    off = ~np.eye(4, dtype=bool)
    mean = np.array([mat[i][off[i]].mean() for i in range(4)])
    assert np.allclose(c["strength"].to_numpy(), 100 * (mean - 0.5) * 3 / 4)
    assert c["floor"][0] == pytest.approx(expect.floor) and 0 <= c["cyclic_share"][0] <= 1
    loop = c["cycle"][0].split(" > ") if c["cycle"][0] else []
    assert loop == [] or (loop[0] == loop[-1] and len(loop) >= 4 and set(loop) <= set(c["deck"]))
    with pytest.raises(ValueError, match="2-player matchups"):
        ketharmad.matchups(players=4, games=24, seed=1).cycles()


def test_a_balance_run_on_the_draft_says_its_pairs_have_a_cycle(tmp_path: Path) -> None:
    """End to end: the draft's pairs have a cycle of about 3.4 points under the heuristic
    (docs/balance.md, "Cycles"); with 2-player bands of 50 +- 1 % no change of strengths can
    put them in, and the run's notes say so, naming the cycle."""
    import ketharmad

    t = tmp_path / "t.toml"
    t.write_text('[two_player]\ntarget = 0.5\ntolerance = 0.01\n[four_player]\ntarget = 0.25\n'
                 'tolerance = 0.3\n[change]\nallow = ["ner_kozmedia.*"]\nmax_edits = 1\nmax_change = 2\n',
                 encoding="utf-8")  # fmt: skip
    r = ketharmad.balance(str(t), seed=1, budget=40_000)
    notes = [n for n in r.notes if n.startswith("cycle (start)")]
    assert len(notes) == 1, r.notes
    m = re.search(r"the cycle ((?:\w+ > )+\w+) needs every band (\d+\.\d) points wider", notes[0])
    assert m is not None, notes[0]
    loop = m.group(1).split(" > ")
    assert loop[0] == loop[-1] and len(set(loop)) >= 3 and set(loop) <= set(ketharmad.FACTIONS)
    # the widening is the cycle's mean over the +-1 band: the start's pairs have it
    b = r.before.filter(pl.col("kind") == "2p")
    pairs = [
        (x["faction"], x["opponent"], x["value"], x["low"], x["high"])
        for x in b.iter_rows(named=True)
    ]
    assert band_gap(pairs)[0] == pytest.approx(float(m.group(2)), abs=0.051)
