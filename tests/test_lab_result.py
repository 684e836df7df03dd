"""LabResult, the base of every lab result: tables, provenance (with the plan), text, Markdown,
plots and Parquet behave the same way for matchups, sweep, card_stats, tournament and balance."""

from __future__ import annotations

from pathlib import Path

import ketharmad
import polars as pl
import pytest
from conftest import packaged_card_text
from ketharmad import _core
from ketharmad.results.lab import LabResult

SMALL = Path(__file__).parent / "test_balance_small.toml"


@pytest.fixture(scope="module")
def results() -> dict[str, LabResult]:
    batch = ketharmad.simulate(["ner", "tisza"], "random", 300, seed=1, record_plays=True)
    return {
        "matchups": ketharmad.matchups(games_per_side=5, bots="random", seed=4),
        "sweep": ketharmad.sweep(
            {"rules.starting_support": [18, 20]}, games=20, bots="random", seed=2
        ),
        "card_stats": ketharmad.card_stats(batch),
        "tournament": ketharmad.tournament(
            ["random", "heuristic"], decks=["ner", "tisza"], games=20, seed=3
        ),
        "balance": ketharmad.balance(
            str(SMALL), bots="random", budget=3000, seed=1, settings={"robustness_bots": None}
        ),
    }


def _without_created(md: str) -> str:
    return "\n".join(line for line in md.splitlines() if not line.startswith("* created:"))


def test_every_result_is_a_lab_result_with_its_kind(results: dict[str, LabResult]) -> None:
    for kind, res in results.items():
        assert isinstance(res, LabResult), kind
        assert res.kind == kind
        assert str(res) == repr(res) == res.text() and res.text(), kind
        tables = res.tables()
        assert tables and all(isinstance(t, pl.DataFrame) for t in tables.values()), kind
        again = res._parquet_tables()  # what write_run writes
        assert again.keys() == tables.keys() and all(again[k].equals(tables[k]) for k in tables)


def test_provenance(results: dict[str, LabResult]) -> None:
    h = _core.card_data_hash(packaged_card_text())
    for kind, res in results.items():
        p = res.provenance()
        assert (p["kind"], p["version"], p["card_data_hash"]) == (kind, ketharmad.__version__, h), (
            kind
        )
        assert p["games"] > 0 and p["seed"] == res.seed, kind
        cols = res._provenance()  # the Parquet columns say the same
        assert (cols["run_kind"], cols["run_card_data_hash"], cols["run_games"]) == (
            kind,
            h,
            p["games"],
        )
    m = results["matchups"]
    plan = m.provenance()["plan"]
    assert len(plan) == 20 and sum(c["games"] for c in plan) == m.n_games
    # cell 2k + side of the 2-player table plays games (2k + side) * games_per_side ..
    assert [c["first_game"] for c in plan] == [5 * i for i in range(20)]
    assert [c["start_player"] for c in plan[:4]] == [0, 1, 0, 1]
    t = results["tournament"].provenance()
    assert t["decks"] == [["ner", "tisza"]] and t["games"] == 20
    assert [c["first_game"] for c in t["plan"]] == [0, 0]  # both seatings: the same games


def test_markdown_is_the_report(results: dict[str, LabResult], tmp_path: Path) -> None:
    for kind, res in results.items():
        folder = tmp_path / kind
        if kind == "balance":
            path = res.write_report(folder, plots=False)
            assert (folder / "cards_balanced.toml").exists()
        else:
            path = ketharmad.write_report(res, folder, plots=False)
        assert _without_created(path.read_text(encoding="utf-8")) == _without_created(
            res.to_markdown(folder)
        ), kind
    md = results["tournament"].to_markdown()
    assert "## Ratings" in md and "| random | heuristic | 20 |" in md
    with pytest.raises(ValueError, match="folder"):
        results["matchups"].to_markdown(plots=True)
    with pytest.raises(ValueError, match="write_report needs"):
        ketharmad.write_report(ketharmad.simulate(games=5), tmp_path / "x", plots=False)


def test_parquet_of_the_tournament(results: dict[str, LabResult], tmp_path: Path) -> None:
    res = results["tournament"]
    written = res.write_parquet(tmp_path, run_id="t1")
    assert set(written) == {"tournament_pairs", "tournament_ratings", "runs"}
    back = pl.read_parquet(written["tournament_pairs"])
    assert back.drop([c for c in back.columns if c.startswith("run_")]).equals(res.pairs)
    assert back["run_kind"][0] == "tournament" and back["run_seed"][0] == 3


def test_plots_hook(results: dict[str, LabResult], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    for kind, names in (("matchups", ["matchups_heatmap.png"]), ("card_stats", ["card_iwd.png"]),
                        ("sweep", ["sweep_rules_starting_support.png"]), ("tournament", [])):  # fmt: skip
        paths = results[kind].plots(tmp_path / kind)
        assert [p.name for p in paths] == names, kind
        assert all(p.stat().st_size > 5_000 for p in paths), kind
