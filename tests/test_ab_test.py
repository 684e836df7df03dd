"""A/B tests like Fishtest (issue 25 item 4): ``ketharmad.ab_test`` and ``ketharmad ab``, a
generalized SPRT over pairs of games on the same seed with the seats swapped (pentanomial)."""

from __future__ import annotations

import itertools
import math

import ketharmad
import numpy as np
import pytest
from ketharmad.cli.main import main as cli_main
from ketharmad.lab.ab_test import _batch_sizes
from ketharmad.lab.sprt import (
    PAIR_SCORES,
    elo_of_score,
    llr_pentanomial,
    pair_estimate,
    score_of_elo,
    wald_bounds,
)

STRONG = "heuristic"
WEAK = "random"


# -- the statistics -------------------------------------------------------------------------


def test_elo_and_score_are_inverse_and_logistic():
    for elo in (-300.0, -10.0, 0.0, 7.5, 400.0):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo)
    assert score_of_elo(0.0) == 0.5
    assert score_of_elo(400.0) == pytest.approx(10 / 11)  # 10:1 odds at 400 Elo
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


def test_wald_bounds_are_the_textbook_ones():
    lo, hi = wald_bounds(0.05, 0.05)
    assert lo == pytest.approx(math.log(0.05 / 0.95)) and hi == pytest.approx(math.log(0.95 / 0.05))


def test_llr_sign_follows_the_observed_score():
    even = [100, 100, 600, 100, 100]  # mean score 0.5
    better = [80, 100, 600, 100, 120]  # A scores more: toward H1
    assert llr_pentanomial(even, 0.0, 10.0) < 0  # 0.5 is elo0 exactly: H0 is likelier
    assert llr_pentanomial(better, 0.0, 10.0) > 0
    assert llr_pentanomial(better, 0.0, 10.0) == pytest.approx(-llr_pentanomial(better, 10.0, 0.0))


def test_llr_matches_the_normal_approximation_for_small_differences():
    counts = [300, 400, 3000, 450, 350]
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PAIR_SCORES, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES, strict=True)) / n
    s0, s1 = score_of_elo(0.0), score_of_elo(5.0)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert llr_pentanomial(counts, 0.0, 5.0) == pytest.approx(approx, rel=0.02)


def test_pair_estimate_uses_the_pairs_variance():
    s, lo, hi = pair_estimate([0, 0, 100, 0, 0])
    assert (s, lo, hi) == (0.5, 0.5, 0.5)  # every pair split: no variance
    s, lo, hi = pair_estimate([25, 0, 50, 0, 25])
    assert s == 0.5 and hi - lo == pytest.approx(2 * 1.959964 * math.sqrt(0.125 / 100), rel=1e-5)


def _sprt(rng: np.random.Generator, probs: np.ndarray, elo0: float, elo1: float) -> tuple[str, int]:
    lo, hi = wald_bounds(0.05, 0.05)
    counts = np.zeros(5, dtype=np.int64)
    while counts.sum() < 200_000:
        counts += rng.multinomial(200, probs)
        llr = llr_pentanomial(counts.tolist(), elo0, elo1)
        if llr >= hi:
            return "H1", int(counts.sum())
        if llr <= lo:
            return "H0", int(counts.sum())
    return "inconclusive", int(counts.sum())


def _with_score(s: float) -> np.ndarray:
    """A pentanomial distribution (the shape of Kétharmad's: most pairs split) with mean score s."""
    p = np.array([0.08, 0.0, 0.84, 0.0, 0.08])
    d = (s - 0.5) / 0.5  # move mass from cell 0 to cell 4: the mean moves by d/2 per unit
    p[0] -= d / 2
    p[4] += d / 2
    assert p.min() >= 0 and abs(float(p @ np.array(PAIR_SCORES)) - s) < 1e-12
    return p


def test_the_sequential_test_keeps_its_error_rates_on_simulated_pairs():
    """The GSPRT on synthetic pentanomial draws: at elo0 it accepts H0, at elo1 H1, each at
    least 90 of 100 times (alpha = beta = 0.05; the Wald bounds are conservative)."""
    rng = np.random.default_rng(7)
    at0 = [_sprt(rng, _with_score(score_of_elo(0.0)), 0.0, 10.0)[0] for _ in range(100)]
    at1 = [_sprt(rng, _with_score(score_of_elo(10.0)), 0.0, 10.0)[0] for _ in range(100)]
    assert at0.count("H0") >= 90
    assert at1.count("H1") >= 90


# -- the games ------------------------------------------------------------------------------


def test_a_stronger_bot_is_accepted_and_a_weaker_one_rejected():
    up = ketharmad.ab_test(STRONG, WEAK, seed=1)
    assert up.decision == "H1" and up.llr >= up.bounds[1]
    assert up.score > 0.6 and up.elo_low > 0
    down = ketharmad.ab_test(WEAK, STRONG, seed=1)
    assert down.decision == "H0" and down.llr <= down.bounds[0]
    assert down.score < 0.4
    assert up.trace["games"].to_list()[-1] == up.n_games == 2 * sum(up.pentanomial)


def test_identical_bots_play_mirrored_pairs_and_accept_h0():
    """Same bot, same deal, seats swapped: the same game twice, each pair split 1 point."""
    res = ketharmad.ab_test("heuristic", "heuristic", seed=5)
    assert res.decision == "H0"
    assert res.pentanomial[0] == res.pentanomial[4] == 0 and res.score == 0.5


def test_the_pentanomial_counts_the_games_simulate_plays():
    """One batch of 20 pairs on ner vs tisza: the counts are those of the two seatings played
    with ``simulate`` (games 0..19 of seed 9, A on seat 0, then on seat 1)."""
    a, b = {"kind": "heuristic", "aggression": 0.9}, "heuristic"
    one = ketharmad.load_game(decks=["ner", "tisza"])
    res = ketharmad.ab_test(a, b, game=one, max_games=40, seed=9, elo1=1000 - 1)
    first = ketharmad.simulate(["ner", "tisza"], [a, b], games=20, seed=9).games.sort("game")[
        "winner"
    ]
    second = ketharmad.simulate(["ner", "tisza"], [b, a], games=20, seed=9).games.sort("game")[
        "winner"
    ]
    pts = lambda w, seat: np.where(w == seat, 1.0, np.where(w < 0, 0.5, 0.0))  # noqa: E731
    total = pts(first.to_numpy(), 0) + pts(second.to_numpy(), 1)
    expected = np.bincount(np.rint(2 * total).astype(int), minlength=5).tolist()
    assert res.pentanomial == expected and res.n_games == 40
    assert res.decision in ("H0", "inconclusive")


def test_same_result_on_any_number_of_threads():
    a = {"kind": "heuristic", "expose_priority": 0.5}
    one = ketharmad.ab_test(a, "heuristic", seed=2, run={"threads": 1})
    two = ketharmad.ab_test(a, "heuristic", seed=2, run={"threads": 2})
    assert one.pentanomial == two.pentanomial and one.decision == two.decision
    assert one.trace.equals(two.trace)


def test_batches_follow_the_schedule_and_stop_at_the_budget():
    sched = list(_batch_sizes(240, 12, 1500))
    assert sched[0] == 240 and all(n % 12 == 0 for n in sched) and sum(sched) == 1500
    assert all(b >= a for a, b in itertools.pairwise(sched[:-1]))  # growing, the last one cut
    assert max(_batch_sizes(12, 12, 10_000)) == 8 * 12  # at most 8 x the first
    near = {"kind": "heuristic", "reaction_patience": 0.1}  # within 0.2 points of the default
    res = ketharmad.ab_test(
        near, "heuristic", elo0=-1.0, elo1=1.0, seed=1, max_games=3_000
    )  # first batch 240
    assert res.trace["pairs"].to_list() == list(itertools.accumulate(sched))[: res.trace.height]
    assert res.decision != "inconclusive" or res.n_games == 3_000


def test_schotten_totten_2_sides_swapped():
    res = ketharmad.ab_test("greedy", "random", game="schotten_totten_2", seed=1)
    assert res.decision == "H1" and res.score > 0.9
    back = ketharmad.ab_test("random", "greedy", game="schotten_totten_2", seed=1)
    assert back.decision == "H0"


def test_osztrakon_substitutes_the_bot_of_one_seat():
    res = ketharmad.ab_test("b1", "random", game="osztrakon", seed=1)
    assert res.decision == "H1" and res.field == "random" and res.seats == 5  # the field is B
    # the pair's points are 1 + A's win - B's win: never a half point
    assert res.pentanomial[1] == res.pentanomial[3] == 0


def test_a_python_agent_can_be_tested():
    def first_legal(observation, legal_actions, rng):
        return legal_actions[0].id

    res = ketharmad.ab_test(first_legal, "heuristic", game=ketharmad.load_game(decks=["ner", "tisza"]),
                            max_games=80, seed=1)  # fmt: skip
    assert res.a == "python:first_legal" and res.n_games in (40, 80)
    assert res.score < 0.5


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"elo0": 5.0, "elo1": 5.0}, "elo0 must be below elo1"),
        ({"elo0": 10.0, "elo1": 0.0}, "elo0 must be below elo1"),
        ({"alpha": 0.6}, "alpha must be between 0 and 0.5"),
        ({"beta": 0.0}, "beta must be between 0 and 0.5"),
        ({"a": "grandmaster"}, "grandmaster"),
        ({"a": {"kind": "heuristic", "agression": 0.5}}, "agression"),
        ({"a": {"kind": "heuristic", "aggression": 2.0}}, "aggression"),
        ({"a": "greedy"}, "greedy"),
        ({"max_games": 100}, "max_games=100 is less than one batch"),
        ({"seats": 5}, "seats"),
        ({"format": "coalition"}, "2-player"),
    ],
)
def test_bad_input_is_refused_by_name_before_a_game(kw, message):
    args = {"a": "heuristic", "b": "random"}
    args.update(kw)
    a, b = args.pop("a"), args.pop("b")
    with pytest.raises(ValueError, match=message):
        ketharmad.ab_test(a, b, **args)


def test_an_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError, match="batch"):
        ketharmad.ab_test("heuristic", "random", batch=25)


def test_harness_refusals():
    with pytest.raises(ValueError, match="format"):
        ketharmad.ab_test("greedy", "random", game="schotten_totten_2", format="quick")
    with pytest.raises(ValueError, match="heuristic"):
        ketharmad.ab_test("heuristic", "random", game="schotten_totten_2")


def test_write_run_and_report(tmp_path):
    res = ketharmad.ab_test(STRONG, WEAK, seed=1)
    written = ketharmad.write_run(res, tmp_path)
    assert {"ab_summary", "ab_pentanomial", "ab_trace"} <= set(written)
    report = ketharmad.write_report(res, tmp_path, plots=True)
    text = report.read_text()
    assert "H1 accepted" in text and "ab_test_llr.png" in text
    assert (tmp_path / "ab_test_llr.png").stat().st_size > 1000


def test_cli_ab(capsys, tmp_path):
    cli_main(["ab", "heuristic", "random", "--seed", "1", "--out", str(tmp_path), "--no-plots"])
    out = capsys.readouterr().out
    assert "H1 accepted" in out and "wrote run" in out
    cli_main(["ab", "greedy", "random", "--game", "schotten_totten_2", "--max-games", "2000"])
    assert "H1 accepted" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        cli_main(
            ["ab", "greedy", "random", "--game", "schotten_totten_2", "--decks", "ner", "tisza"]
        )
    assert stop.value.code == 2 and "--decks: Kétharmad only" in capsys.readouterr().err


def test_same_result_on_an_executor_and_from_a_game_spec():
    from concurrent.futures import ThreadPoolExecutor

    a = {"kind": "heuristic", "expose_priority": 0.5}
    here = ketharmad.ab_test(a, "heuristic", seed=6)
    with ThreadPoolExecutor(2) as ex:
        there = ketharmad.ab_test(a, "heuristic", seed=6, run={"executor": ex})
    assert here.pentanomial == there.pentanomial and here.trace.equals(there.trace)
    st2 = ketharmad.load_game("schotten_totten_2", params={"rules.hand_size": 5})
    spec = ketharmad.ab_test("greedy", "random", game=st2, seed=1)
    named = ketharmad.ab_test(
        "greedy", "random", game="schotten_totten_2", params={"rules.hand_size": 5}, seed=1
    )
    assert spec.pentanomial == named.pentanomial and spec.params == {"rules.hand_size": 5}
