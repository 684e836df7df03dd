"""The live report.html of a long run (issue 28 item 2): rewritten atomically as shards
finish, with the share done and the intervals so far; throttled; a page that cannot be
written never stops the run; the last page's cells equal the finished run's table."""

from __future__ import annotations

import os
from pathlib import Path

import ketharmad
import pytest
from html_doc import heat_cells, parse
from ketharmad.results import atomic
from ketharmad.results.live_report import LiveReport
from ketharmad.run.live import current, watching

DECKS3 = ["ner", "tisza", "osszefogas"]


def test_rewritten_atomically_as_shards_finish(tmp_path, monkeypatch):
    path = tmp_path / "report.html"
    pages: list[str] = []
    real = os.replace

    def spy(src, dst):  # every rewrite: a whole page, renamed into place
        if os.fspath(dst) == os.fspath(path):
            pages.append(Path(src).read_text(encoding="utf-8"))
        real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", spy)
    live = LiveReport(path, "matchups", "ketharmad matchups ...", interval=0)
    with watching(live):
        m = ketharmad.matchups(games_per_side=60, seed=2, decks=DECKS3, run={"chunk_size": 30})
    assert current() is None
    shards = 12 * 2  # 6 pairs x 2 start players, 60 games each, shards of 30
    assert live.writes == len(pages) == shards
    done = []
    for text in pages:
        assert text.endswith("</html>\n")
        doc = parse(text)
        assert doc.find("body").get("data-page") == "live-report"
        status = doc.by_id("live-status")
        assert status.get("data-state") == "running" and status.get("data-total") == str(m.n_games)
        done.append(int(status.get("data-done")))
        assert doc.find("meta", http_equiv="refresh") is not None
    assert done == sorted(done) and done[0] == 30 and done[-1] == m.n_games
    # the first page: one shard in, the cells not started yet have no data
    first = heat_cells(parse(pages[0]), "live")
    assert sum(1 for td in first.values() if td.text == "no data") == 9 - 1
    # the last page: every pair, both start players pooled = the finished table
    last = heat_cells(parse(pages[-1]), "live")
    for r in m.table.iter_rows(named=True):
        td = last[f"{r['faction']}-{r['opponent']}"]
        assert float(td.get("data-value")) == pytest.approx(r["win_rate"])
        assert int(td.get("data-games")) == r["games"]
        assert float(td.get("data-ci-low")) == pytest.approx(r["ci_low"])


def test_throttled(tmp_path):
    live = LiveReport(tmp_path / "report.html", "m", interval=3600)
    with watching(live):
        ketharmad.matchups(games_per_side=20, seed=1, decks=DECKS3, run={"chunk_size": 10})
    assert live.writes == 0 and not (tmp_path / "report.html").exists()
    assert live.done_all == 6 * 2 * 20


def test_a_page_that_cannot_be_written_does_not_stop_the_run(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    live = LiveReport(blocker / "sub" / "report.html", "m", interval=0)
    with watching(live):
        m = ketharmad.matchups(games_per_side=20, seed=1, decks=DECKS3, run={"chunk_size": 10})
    assert m.n_games == 240
    assert live.writes == 0 and "could not be written" in live.problem


def test_interrupted_page_stops_reloading(tmp_path):
    live = LiveReport(tmp_path / "report.html", "m", interval=0)
    with watching(live):
        ketharmad.matchups(
            games_per_side=10, seed=1, decks=["ner", "tisza"], run={"chunk_size": 10}
        )
    live.close("interrupted", "Ctrl-C")
    doc = parse(tmp_path / "report.html")
    assert doc.by_id("live-status").get("data-state") == "interrupted"
    assert doc.find("meta", http_equiv="refresh") is None


def test_cli_out_writes_the_live_page_then_the_report(tmp_path, monkeypatch, capsys):
    from ketharmad.cli import main
    from ketharmad.cli import out as cli_out

    seen: list[str] = []
    real = LiveReport.write

    def spy(self, state="running", message=""):
        got = real(self, state, message)
        seen.append(parse(self.path).find("body").get("data-page"))
        return got

    monkeypatch.setattr(LiveReport, "write", spy)
    monkeypatch.setattr(cli_out, "DEFAULT_INTERVAL", 0.0)
    out = tmp_path / "m"
    assert main(["matchups", "--games-per-side", "2000", "--decks", "ner", "tisza", "--bots", "random",
                 "--no-plots", "--out", str(out)]) == 0  # fmt: skip
    capsys.readouterr()
    assert seen and set(seen) == {"live-report"}  # shards of 2,000 games: live pages while it ran
    assert parse(out / "report.html").find("body").get("data-page") == "report"  # then the report
