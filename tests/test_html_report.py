"""report.html (issue 28): what the page of a run holds (heatmap cells equal to the result
tables, no-data cells, charts or their tables without the chart library, sortable tables,
replay commands and pages, provenance), that it is self-contained and written atomically,
the fixed plots of report.md, and the --out reuse rule."""

from __future__ import annotations

import json
import math
import os
import sys
import types
from pathlib import Path

import ketharmad
import polars as pl
import pytest
from html_doc import heat_cells, parse
from ketharmad.results import html_charts, html_report
from ketharmad.results.html_report import write_html_report
from ketharmad.results.keys import key_columns

DECKS3 = ["ner", "tisza", "osszefogas"]


@pytest.fixture(scope="module")
def m3() -> ketharmad.MatchupResult:
    return ketharmad.matchups(games_per_side=60, seed=3, decks=DECKS3)


@pytest.fixture(scope="module")
def m3_report(m3, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("m3")
    ketharmad.write_run(m3, folder, run_id="m3")
    return folder / "report.html"


def _self_contained(text: str) -> None:
    doc = parse(text)
    assert doc.attrs["doctype"].lower() == "doctype html"
    assert not doc.find_all("link"), "no stylesheet link: the style is inline"
    for s in doc.find_all("script"):
        assert s.get("src") is None, "no script is loaded from elsewhere"
    for img in doc.find_all("img"):
        assert not (img.get("src") or "").startswith("http")


def test_matchup_heatmap_cells_are_the_result_table(m3, m3_report):
    text = m3_report.read_text(encoding="utf-8")
    _self_contained(text)
    doc = parse(text)
    body = doc.find("body")
    assert body.get("data-page") == "report" and body.get("data-kind") == "matchups"
    assert body.get("data-run-id") == "m3"
    cells = heat_cells(doc, "matchups")
    assert len(cells) == 9  # 3 x 3, mirrors included
    for r in m3.table.iter_rows(named=True):
        td = cells[f"{r['faction']}-{r['opponent']}"]
        assert float(td.get("data-value")) == r["win_rate"]
        assert float(td.get("data-ci-low")) == r["ci_low"]
        assert float(td.get("data-ci-high")) == r["ci_high"]
        assert int(td.get("data-games")) == r["games"] == 120
        shown = td.find("span", **{"class": "v"}).text
        assert shown == f"{100 * r['win_rate']:.1f}%"
        ci = td.find("span", **{"class": "ci"}).text
        assert ci == f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
    assert not [td for td in cells.values() if "nodata" in (td.get("class") or "")]
    # the result's own table, sortable, each cell's exact value in data-value
    t = doc.by_id("table-matchups")
    assert t is not None and t.get("data-rows") == "9"
    row = t.find("tr", data_row="ner-tisza")
    rate = row.find("td", data_col="win_rate")
    want = m3.table.filter(pl.col("faction") == "ner", pl.col("opponent") == "tisza")["win_rate"][0]
    assert float(rate.get("data-value")) == want
    assert doc.find("input", data_filter_for="table-matchups") is not None


def test_report_provenance_and_sections(m3, m3_report):
    doc = parse(m3_report)
    for sid in ("summary", "views", "report", "games", "tables", "provenance"):
        assert doc.by_id(sid) is not None, sid
    prov = {dd.get("data-prov"): dd.text for dd in doc.find_all("dd") if dd.get("data-prov")}
    assert prov["run-id"] == "m3"
    assert prov["kind"] == "matchups"
    assert prov["version"] == ketharmad.__version__
    assert prov["seed"] == "3"
    assert prov["games"] == f"{m3.n_games:,}"
    assert prov["card-data-hash"] == m3.provenance()["card_data_hash"]
    assert doc.by_id("summary-text").text == m3.text()
    # the Markdown report's tables are tables again, a number cell sorts by its value
    md_tables = [
        t for t in doc.find_all("table") if (t.get("id") or "").startswith("table-report-")
    ]
    assert md_tables
    cell = md_tables[1].find("tbody").find("td", data_value=None)
    assert cell is not None


def test_games_to_replay_commands(m3, m3_report):
    doc = parse(m3_report)
    rows = doc.by_id("table-games-to-replay").find("tbody").find_all("tr")
    assert len(rows) == len(m3.plan) == 12  # 6 pairs, each side starting
    first = m3.plan[3]
    row = doc.find("tr", data_game=f"ketharmad-{first['first_game']}")
    cmd = row.find("button").get("data-copy")
    assert cmd.startswith("ketharmad replay --html replays/ketharmad-")
    assert f"--index {first['first_game']}" in cmd and "--seed 3" in cmd
    assert f"--decks {' '.join(first['decks'])}" in cmd
    assert f"--start-player {first['start_player']}" in cmd and "--bots heuristic heuristic" in cmd
    # no replay writer in this version: commands only, and the page says so
    if "ketharmad.results.replay_html" not in sys.modules:
        assert "replay pages are not available" in doc.by_id("games").text
        assert doc.find("a", data_replay_link=None) is None


def test_replay_pages_written_when_the_writer_exists(m3, tmp_path, monkeypatch):
    calls = []

    def write_replay(path, *, game, index, seed, bots, decks=None, start_player=None):
        calls.append((game, index, seed, tuple(bots), tuple(decks), start_player))
        Path(path).write_text(f"<html>{game} {index}</html>", encoding="utf-8")

    module = types.ModuleType("ketharmad.results.replay_html")
    module.write_replay = write_replay  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ketharmad.results.replay_html", module)
    path = write_html_report(m3, tmp_path, run_id="r")
    doc = parse(path)
    links = doc.find_all("a", data_replay_link=None)
    assert len(links) == len(calls) == 12
    for a in links:
        assert (tmp_path / a.get("href")).read_text(encoding="utf-8").startswith("<html>ketharmad")
    c = m3.plan[5]
    assert ("ketharmad", c["first_game"], 3, ("heuristic", "heuristic"), tuple(c["decks"]),
            c["start_player"]) in calls  # fmt: skip


def test_without_the_chart_library_tables_and_a_note(m3, tmp_path, monkeypatch):
    monkeypatch.setattr(html_charts, "chart_library", lambda: None)
    text = write_html_report(m3, tmp_path).read_text(encoding="utf-8")
    doc = parse(text)
    assert "vegaEmbed" not in text and doc.by_id("kh-chart-specs") is None
    assert "ketharmad[report]" in doc.by_id("views").text
    t = doc.by_id("table-chart-by-deck")  # the chart's data as a table instead
    assert t is not None and t.get("data-rows") == "3"
    assert len(heat_cells(doc, "matchups")) == 9  # the heatmap needs no library


def test_charts_embed_their_library_and_specs(m3, m3_report):
    pytest.importorskip("vl_convert")
    text = m3_report.read_text(encoding="utf-8")
    doc = parse(text)
    chart = doc.by_id("chart-by-deck")
    assert chart is not None and chart.get("data-chart") == "by-deck"
    specs = json.loads(doc.by_id("kh-chart-specs").text)
    values = specs["chart-by-deck"]["data"]["values"]
    by_deck = {r["deck"]: r for r in m3.by_deck.iter_rows(named=True)}
    assert {v["label"] for v in values} == set(DECKS3)
    for v in values:
        assert math.isclose(v["value"], 100 * by_deck[v["label"]]["win_rate"])
    assert "vegaEmbed" in text  # the library is inline
    assert len(text.encode()) < 2_500_000


def test_balance_heatmaps_say_no_data(tmp_path):
    res = ketharmad.balance(Path(__file__).with_name("test_balance_small.toml"), bots="random",
                            budget=4000, seed=1)  # fmt: skip
    path = write_html_report(res, tmp_path)
    doc = parse(path)
    for name, table in (("balance-before", res.before), ("balance-after", res.after)):
        cells = heat_cells(doc, name)
        assert len(cells) == 16
        measured = {}
        for r in table.filter(pl.col("kind") == "2p").iter_rows(named=True):
            measured[f"{r['faction']}-{r['opponent']}"] = r["value"]
            measured[f"{r['opponent']}-{r['faction']}"] = 1 - r["value"]
        for cid, td in cells.items():
            if cid in measured:
                assert math.isclose(float(td.get("data-value")), measured[cid])
                assert "nodata" not in (td.get("class") or "")
            else:  # hatched and labelled, never a blank that reads as 50 %
                assert (
                    td.get("class") == "nodata"
                    and td.text == "no data"
                    and td.get("data-value") == ""
                )
        assert sum(1 for td in cells.values() if td.text == "no data") == 16 - len(measured) == 12
    if html_charts.chart_library() is not None:
        spec = json.loads(doc.by_id("kh-chart-specs").text)["chart-pareto"]
        x = spec["encoding"]["x"]
        assert x["field"] == "edits" and x["axis"] == {"tickMinStep": 1, "format": "d"}


def test_report_written_atomically(m3, tmp_path, monkeypatch):
    good = write_html_report(m3, tmp_path, run_id="first")
    before = good.read_bytes()

    def broken(*args, **kwargs):
        raise RuntimeError("disk full halfway")

    monkeypatch.setattr(html_report, "report_html", broken)
    with pytest.raises(RuntimeError):
        write_html_report(m3, tmp_path, run_id="second")
    assert good.read_bytes() == before  # the earlier page, whole
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_simresult_report(tmp_path):
    res = ketharmad.simulate(["ner", "tisza"], games=40, seed=2)
    path = write_html_report(res, tmp_path / "sim.html")
    doc = parse(path)
    assert doc.find("body").get("data-kind") == "simulate"
    rows = doc.by_id("table-games-to-replay").find("tbody").find_all("tr")
    assert [r.get("data-game") for r in rows][:5] == [f"ketharmad-{i}" for i in range(5)]
    assert "--decks ner tisza" in rows[0].find("button").get("data-copy")
    summary = res.summary()
    t = doc.by_id("table-summary")
    for r in summary.iter_rows(named=True):
        row_name = "-".join(str(r[k]) for k in key_columns(summary.columns))  # e.g. ner-random-0
        td = t.find("tr", data_row=row_name).find("td", data_col="win_rate")
        assert float(td.get("data-value")) == r["win_rate"]


# -- report.md's plots ----------------------------------------------------------------------


def test_team_pair_bar_labels_do_not_overlap(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from ketharmad.lab import matchups as mod

    m = ketharmad.matchups(format="coalition", games=48, bots="random", seed=1)
    figs = []
    monkeypatch.setattr(mod, "_save", lambda fig, path: figs.append(fig) or path)
    mod.plot_faction_bars(m, tmp_path / "teams.png")
    fig = figs[0]
    fig.canvas.draw()
    ax = fig.axes[0]
    labels = [t for t in ax.get_yticklabels() if t.get_text()]
    assert len(labels) == m.table.height == 6
    boxes = sorted((t.get_window_extent() for t in labels), key=lambda b: b.y0)
    for lower, upper in zip(boxes, boxes[1:], strict=False):
        assert lower.y1 <= upper.y0, "two team-pair labels overlap"


def test_pareto_plot_has_whole_edit_ticks(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from ketharmad.lab.balance import report as mod

    res = ketharmad.balance(Path(__file__).with_name("test_balance_small.toml"), bots="random",
                            budget=4000, seed=1)  # fmt: skip
    figs = []
    monkeypatch.setattr(mod, "_save", lambda fig, path: figs.append(fig) or path)
    assert mod._pareto_plot(res, tmp_path / "p.png") is not None
    ticks = list(figs[0].axes[0].get_xticks())
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert mod._heatmap(res, res.before, "before", tmp_path / "h.png") is not None
    texts = [t.get_text() for t in figs[1].axes[0].texts]
    assert texts.count("no data") == 12  # the 16 cells less the 2 targeted pairs, both ways


def test_bad_report_targets_refused_by_name(m3, tmp_path):
    with pytest.raises(ValueError, match="a folder or an .html file path, got int"):
        write_html_report(m3, 42)
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    with pytest.raises(ValueError, match="is a file"):
        write_html_report(m3, f)
    (tmp_path / "d.html").mkdir()
    with pytest.raises(ValueError, match="is a folder"):
        write_html_report(m3, tmp_path / "d.html")
    assert f.read_text() == "mine" and not list((tmp_path / "d.html").iterdir())


def test_chart_data_without_finite_values_is_null():
    """An infinite Elo or a NaN rate in a chart's data is written as null (valid JSON)."""
    d = pl.DataFrame(
        {"bot": ["a", "b"], "r": [1.0, math.inf], "lo": [0.5, -math.inf], "hi": [2.0, math.nan]}
    )
    c = html_charts.interval_bars("r", "ratings", d, label="bot", value="r", low="lo", high="hi",
                                  value_title="rating", percent=False)  # fmt: skip
    assert c.spec["data"]["values"][1] == {"label": "b", "value": None, "low": None, "high": None}
    text = html_charts.charts_html([c])
    if html_charts.chart_library() is not None:
        assert (
            json.loads(parse(text.tail_html).by_id("kh-chart-specs").text)["chart-r"]["data"][
                "values"
            ][1]["value"]
            is None
        )
