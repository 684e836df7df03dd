"""The balance progress line's time left covers every stage (issue 28 item 5): the stages of
the run's own bots at their rate, the search-bot sample at its own rate once it runs, and,
before it runs, the line names it as not yet timed instead of leaving it out."""

from __future__ import annotations

import io

import pytest
from ketharmad.lab.balance import search


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(search.time, "perf_counter", c)
    return c


def test_time_left_names_the_search_sample_until_it_runs(clock: Clock) -> None:
    out = io.StringIO()
    m = search._Meter(True, 100_000, out)
    m.slow = 2_000  # the search-bot sample's planned games
    m.stage = "screen"
    clock.t += 10.0
    m.update(49_000, 10, force=True)  # 49,000 games of the run's own bots in 10 s
    line = out.getvalue().splitlines()[-1]
    # 100,000 - 2,000 - 49,000 = 49,000 games left at 4,900 a second: ~10 s, plus the sample
    assert "~10 s left + the search-bot sample (2,000 games, timed when it starts)" in line


def test_time_left_times_the_search_sample_at_its_own_rate(clock: Clock) -> None:
    out = io.StringIO()
    m = search._Meter(True, 100_000, out)
    m.slow = 2_000
    m.stage = "confirm"
    clock.t += 20.0
    m.update(98_000, 10, force=True)  # every fast game done: 4,900 a second
    m.stage = "search sample"
    clock.t += 50.0
    m.tick(500)  # 500 search games in 50 s (shards of the evaluation in flight)
    m.update(98_000, 10, force=True)
    line = out.getvalue().splitlines()[-1]
    assert "98,500/100,000 games" in line
    # 1,500 sample games left at 10 a second: 150 s (the fast stages are done)
    assert line.endswith("~150 s left"), line


def test_a_finished_sample_leaves_the_rest_at_the_fast_rate(clock: Clock) -> None:
    out = io.StringIO()
    m = search._Meter(True, 10_000, out)
    m.slow = 1_000
    m.stage = "search sample"
    clock.t += 100.0
    m.update(1_000, 2, force=True)  # the sample first, 10 a second
    m.stage = "other"
    clock.t += 1.0
    m.update(2_000, 3, force=True)  # 1,000 fast games in 1 s
    line = out.getvalue().splitlines()[-1]
    # 10,000 - 1,000 (sample) - 1,000 (fast done) = 8,000 fast games at 1,000 a second
    assert line.endswith("~8 s left"), line
