"""report.html, the live report and the compare page in a real browser (headless Chromium,
tests/browser.py; issue 28 item 7): heatmap cells show the result's values, the charts draw,
tables sort and filter, and no page logs a console error (the fixture fails the test on one
and saves a screenshot of each page to test-artifacts/screenshots/)."""

from __future__ import annotations

from pathlib import Path

import ketharmad
import polars as pl
import pytest
from ketharmad.results import html_charts
from ketharmad.results.html_report import write_html_report
from ketharmad.results.live_report import LiveReport
from ketharmad.run.live import watching

DECKS3 = ["ner", "tisza", "osszefogas"]


@pytest.fixture(scope="module")
def m3() -> ketharmad.MatchupResult:
    return ketharmad.matchups(games_per_side=60, seed=3, decks=DECKS3)


@pytest.fixture(scope="module")
def report(m3, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    ketharmad.write_run(m3, folder, run_id="m3")
    return folder / "report.html"


def test_matchup_report_heatmap_and_charts(browser, m3, report):
    browser.open(report, wait_for="#heatmap-matchups")
    r = m3.table.filter(pl.col("faction") == "ner", pl.col("opponent") == "tisza").row(
        0, named=True
    )
    cell = '#heatmap-matchups td[data-cell="ner-tisza"]'
    assert browser.text(f"{cell} .v") == f"{100 * r['win_rate']:.1f}%"
    assert browser.text(f"{cell} .ci") == f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
    assert float(browser.attr(cell, "data-value")) == r["win_rate"]
    # the cell is coloured (not the page's background), and a darker red below 50 %
    colour = browser.js(
        f"return getComputedStyle(document.querySelector('{cell}')).backgroundColor;"
    )
    assert colour.startswith("rgb(") and colour != "rgb(255, 255, 255)"
    if html_charts.chart_library() is not None:
        browser.wait_for('#chart-by-deck[data-rendered="1"]', timeout=15)
        marks = browser.count("#chart-by-deck svg .mark-rect path")
        assert marks == len(DECKS3)  # one bar per deck
    assert browser.title.startswith("Matchups")


def test_report_table_sorts_and_filters(browser, m3, report):
    browser.open(report, wait_for="#table-matchups")
    header = '#table-matchups th[data-col="win_rate"]'
    browser.click(header)
    assert browser.attr(header, "aria-sort") == "ascending"
    shown = [float(v) for v in browser.js(
        "return Array.from(document.querySelectorAll('#table-matchups tbody tr td[data-col=\"win_rate\"]'))"
        ".map(td => td.getAttribute('data-value'));")]  # fmt: skip
    assert shown == sorted(m3.table["win_rate"].to_list())
    browser.click(header)
    assert browser.attr(header, "aria-sort") == "descending"
    first = browser.attr("#table-matchups tbody tr", "data-row")
    best = m3.table.sort("win_rate", descending=True).row(0, named=True)
    assert first == f"{best['faction']}-{best['opponent']}"
    browser.js("const i = document.querySelector('input[data-filter-for=\"table-matchups\"]');"
               "i.value = 'radikalisok'; i.dispatchEvent(new Event('input', {bubbles: true}));")  # fmt: skip
    assert browser.text('[data-count-for="table-matchups"]') == "0"
    browser.js("const i = document.querySelector('input[data-filter-for=\"table-matchups\"]');"
               "i.value = 'tisza'; i.dispatchEvent(new Event('input', {bubbles: true}));")  # fmt: skip
    n = m3.table.filter((pl.col("faction") == "tisza") | (pl.col("opponent") == "tisza")).height
    assert browser.text('[data-count-for="table-matchups"]') == str(n)


def test_balance_report_no_data_cells_and_pareto(browser, tmp_path):
    res = ketharmad.balance(Path(__file__).with_name("test_balance_small.toml"), bots="random",
                            budget=4000, seed=1)  # fmt: skip
    page = write_html_report(res, tmp_path)
    browser.open(page, wait_for="#heatmap-balance-before")
    assert browser.texts("#heatmap-balance-before td.nodata").count("no data") == 12
    hatched = browser.js("return getComputedStyle(document.querySelector("
                         "'#heatmap-balance-before td.nodata')).backgroundImage;")  # fmt: skip
    assert "repeating-linear-gradient" in hatched
    if html_charts.chart_library() is not None:
        browser.wait_for('#chart-pareto[data-rendered="1"]', timeout=15)
        ticks = browser.texts("#chart-pareto svg .role-axis-label text")
        assert ticks and all(t.lstrip("-").isdigit() for t in ticks if t)


def test_report_without_chart_library(browser, m3, tmp_path, monkeypatch):
    monkeypatch.setattr(html_charts, "chart_library", lambda: None)
    page = write_html_report(m3, tmp_path)
    browser.open(page, wait_for="#table-chart-by-deck")
    assert "ketharmad[report]" in browser.text("#views")


def test_live_report_page(browser, tmp_path):
    live = LiveReport(tmp_path / "report.html", "matchups", "ketharmad matchups", interval=0)
    with watching(live):
        ketharmad.matchups(games_per_side=20, seed=1, decks=DECKS3, run={"chunk_size": 10})
    browser.open(tmp_path / "report.html", wait_for="#live-status")
    assert browser.attr("#live-status", "data-state") == "running"
    assert browser.attr("#live-progress", "value") == str(live.done)
    assert browser.count("#heatmap-live td[data-cell]") == 9


def test_compare_page(browser, tmp_path):
    kw = dict(games_per_side=100, seed=5, decks=DECKS3)
    ketharmad.write_run(ketharmad.matchups(**kw), tmp_path / "a", report=False)
    ketharmad.write_run(ketharmad.matchups(**kw, params={"ner_orban_viktor.cost_generic": 1}), tmp_path / "b",
                        report=False)  # fmt: skip
    res = ketharmad.compare_runs(tmp_path / "a", tmp_path / "b")
    page = res.write_html(tmp_path / "cmp.html")
    browser.open(page, wait_for="#compare-summary")
    assert browser.attr("#compare-summary", "data-changed") == str(res.changed.height)
    r = res.table.filter(pl.col("table") == "matchups", pl.col("cell") == "tisza-osszefogas",
                         pl.col("measure") == "win_rate").row(0, named=True)  # fmt: skip
    assert (
        browser.text('#heatmap-compare td[data-cell="tisza-osszefogas"] .v')
        == f"{100 * r['diff']:.1f}%"
    )
