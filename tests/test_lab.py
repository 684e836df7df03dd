"""The balance lab: simulate's card records / plays / chunks, matchups, card_stats, sweep,
Parquet files with provenance, reports and the lab CLI commands. Small game counts only."""

from __future__ import annotations

import json
import sys

import ketharmad
import numpy as np
import polars as pl
import pytest
from conftest import TWO_P, packaged_card_text
from ketharmad import _core
from ketharmad.cli import main
from ketharmad.stats import wilson_interval

GPS = 50  # games per side in the 2-player matchup fixture
FFA_GAMES = 48  # 2 per seating


@pytest.fixture(scope="module")
def m2() -> ketharmad.MatchupResult:
    return ketharmad.matchups(games_per_side=GPS, seed=3)


@pytest.fixture(scope="module")
def m4() -> ketharmad.MatchupResult:
    return ketharmad.matchups(players=4, games=FFA_GAMES, seed=4)


@pytest.fixture(scope="module")
def batch() -> ketharmad.SimResult:
    return ketharmad.simulate(["tisza", "ner"], "heuristic", games=1500, seed=5, record_plays=True)


@pytest.fixture(scope="module")
def cs(batch) -> ketharmad.CardStatsResult:
    return ketharmad.card_stats(batch)


GRID = {"ner_orban_viktor.influence": [4, 6], "rules.starting_support": [18, 20]}


@pytest.fixture(scope="module")
def sw() -> ketharmad.SweepResult:
    return ketharmad.sweep(GRID, decks=[["ner", "tisza"], ["tisza", "ner"]], games=200, seed=6)


def _contains_estimate(df: pl.DataFrame, rate: str, low: str, high: str) -> bool:
    rows = df.filter(pl.col(rate).is_not_null())
    return bool(((rows[low] <= rows[rate] + 1e-12) & (rows[rate] <= rows[high] + 1e-12)).all())


# ---------------------------------------------------------------- simulate additions


def test_players_keep_bitsets_out_and_card_records_hold_them(batch):
    assert {"turns_taken", "main_decisions"} <= set(batch.players.columns)
    assert not any(c.endswith(("_lo", "_hi")) for c in batch.players.columns)
    rec = batch.card_records
    assert rec.columns == ["game", "seat", "faction", "won", "opening_lo", "opening_hi",
                           "drawn_lo", "drawn_hi", "played_lo", "played_hi"]  # fmt: skip
    assert all(rec.schema[c] == pl.UInt64 for c in rec.columns[4:])
    assert rec.select("game", "seat", "faction", "won").equals(
        batch.players.select("game", "seat", "faction", "won")
    )


def test_plays_frame(batch):
    plays = batch.plays
    assert plays is not None and plays.height > batch.n_games
    assert plays.columns == ["game", "seat", "faction", "card", "turn"]
    ids = set(ketharmad.cards()["id"].to_list())
    assert set(plays["card"].unique().to_list()) <= ids
    assert (
        plays["faction"] == pl.Series(["tisza", "ner"]).gather(plays["seat"].cast(pl.Int64))
    ).all()
    assert plays["turn"].min() >= 1
    # every recorded play is in the seat's played set
    cards = ketharmad.cards().with_row_index("k").select("id", pl.col("k").cast(pl.Int64))
    j = plays.join(cards, left_on="card", right_on="id").join(
        batch.card_records, on=["game", "seat"]
    )
    k = j["k"].to_numpy().astype(np.uint64)
    lo, hi = j["played_lo"].to_numpy(), j["played_hi"].to_numpy()
    bit = np.where(
        k < 64,
        (lo >> (k % np.uint64(64))) & np.uint64(1),
        (hi >> (k % np.uint64(64))) & np.uint64(1),
    )
    assert bit.all()


def test_no_plays_unless_recorded():
    res = ketharmad.simulate(TWO_P, games=20, seed=1)
    assert res.plays is None
    assert res.card_records.height == 40


def test_fixed_start_player():
    for sp in (0, 1):
        res = ketharmad.simulate(TWO_P, games=30, seed=2, start_player=sp)
        assert (res.games["start_player"] == sp).all()
    with pytest.raises(ValueError, match="start_player"):
        ketharmad.simulate(TWO_P, games=3, start_player=2)


def test_chunked_simulate_is_identical():
    kw = dict(decks=["ner", "osszefogas", "tisza"], bots="heuristic", games=257, seed=8,
              record_plays=True)  # fmt: skip
    one = ketharmad.simulate(**kw)
    chunked = ketharmad.simulate(**kw, run=dict(chunk_size=60))
    for name in ("games", "players", "card_records", "plays"):
        assert getattr(one, name).equals(getattr(chunked, name)), name


def test_progress_line_on_stderr(capsys):
    one = ketharmad.simulate(TWO_P, games=300, seed=9)
    res = ketharmad.simulate(
        TWO_P,
        games=300,
        seed=9,
        run=dict(chunk_size=100, progress=True),
    )
    err = capsys.readouterr().err
    assert "300/300 games" in err and "games/s" in err
    assert res.games.equals(one.games)


def test_play_replays_a_fixed_start_game(m2):
    row = m2.games.filter(pl.col("faction_0") != pl.col("faction_1")).row(7, named=True)
    log = ketharmad.play([row["faction_0"], row["faction_1"]], "heuristic", seed=row["batch_seed"],
                         index=row["game"], start_player=row["start_player"])  # fmt: skip
    assert log.winner == row["winner"]
    assert log.turns == row["turns"]
    assert log.start_player == row["start_player"]


# ---------------------------------------------------------------- matchups, 2 players


def test_matchups_table_shape(m2):
    t = m2.table
    assert t.height == 16
    assert set(zip(t["faction"], t["opponent"], strict=True)) == {
        (a, b) for a in ketharmad.FACTIONS for b in ketharmad.FACTIONS
    }
    for col in ("faction", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high",
                "unfinished", "start_win_rate", "start_ci_low", "start_ci_high"):  # fmt: skip
        assert col in t.columns
    assert (t["games"] == 2 * GPS).all()
    assert m2.games.height == 10 * 2 * GPS
    assert m2.games["game"].n_unique() == m2.games.height
    assert (m2.games["batch_seed"] == 3).all()
    assert m2.matrix().shape == (4, 5)


def test_matchup_intervals_contain_estimates(m2):
    assert _contains_estimate(m2.table, "win_rate", "ci_low", "ci_high")
    assert _contains_estimate(m2.table, "start_win_rate", "start_ci_low", "start_ci_high")
    assert _contains_estimate(m2.start_player, "win_rate", "ci_low", "ci_high")
    assert _contains_estimate(m2.positions, "win_rate", "ci_low", "ci_high")


def test_matchup_cells_are_symmetric(m2):
    t = m2.table
    cells = {(r["faction"], r["opponent"]): r for r in t.iter_rows(named=True)}
    for (a, b), r in cells.items():
        other = cells[(b, a)]
        if a != b:
            # the same games seen from both sides
            assert r["wins"] + other["wins"] + r["no_winner"] == r["games"]
            assert r["start_wins"] == other["start_wins"]
        else:
            # a mirror is fair when the start player is balanced: half the decided games,
            # up to noise (a 99.9% Wilson interval, four mirror cells)
            decided_half = (r["games"] - r["no_winner"]) / 2 / r["games"]
            low, high = wilson_interval(r["wins"], r["games"], z=3.29)
            assert low <= decided_half <= high, (a, r)
            assert r["on_play_games"] * 2 == r["games"]


def test_each_faction_starts_half_its_games(m2):
    g = m2.games
    per_pair = g.group_by("faction_0", "faction_1").agg(
        n=pl.len(), starts0=(pl.col("start_player") == 0).sum()
    )
    assert per_pair.height == 10
    assert (per_pair["n"] == 2 * GPS).all()
    assert (per_pair["starts0"] == GPS).all()
    # every ordered cell: the row faction was the start player in exactly half of its games
    assert (m2.table["on_play_games"] * 2 == m2.table["games"]).all()
    started = g.filter(~pl.col("mirror")).group_by("start_faction", "faction_0", "faction_1").len()
    assert (started["len"] == GPS).all()


def test_matchup_lengths(m2):
    lengths = m2.lengths
    assert lengths.height == 16
    assert (lengths["turns_p10"] <= lengths["turns_p50"]).all()
    assert (lengths["turns_p50"] <= lengths["turns_p90"]).all()
    assert (lengths["rounds_p90"] <= lengths["rounds_max"]).all()


def test_mirror_params_and_errors():
    with pytest.raises(ValueError, match="one bot spec"):
        ketharmad.matchups(games_per_side=1, bots=["random", "random"])
    with pytest.raises(ValueError, match="unknown parameter"):
        ketharmad.matchups(games_per_side=1, params={"no_such.param": 1})
    with pytest.raises(ValueError, match="even"):
        ketharmad.matchups(games=3)
    with pytest.raises(ValueError, match="multiple of 24"):
        ketharmad.matchups(players=4, games=50)


# ---------------------------------------------------------------- matchups, 4 players


def test_free_for_all(m4):
    t = m4.table
    assert t["faction"].to_list() == list(ketharmad.FACTIONS)
    assert (t["games"] == FFA_GAMES).all()
    assert int(t["wins"].sum()) + int(m4.games["winner"].null_count()) == FFA_GAMES
    assert (t["on_play_games"] == FFA_GAMES // 4).all()
    assert m4.games["seating"].n_unique() == 24
    assert m4.games.select([f"faction_{i}" for i in range(4)]).n_unique() == 24
    assert _contains_estimate(t, "win_rate", "ci_low", "ci_high")
    assert m4.lengths.height == 1 and m4.start_player.height == 1
    assert m4.players.group_by("faction", "position").len()["len"].unique().to_list() == [
        FFA_GAMES // 4
    ]


# ---------------------------------------------------------------- card_stats


def test_card_stats_rows(cs, batch):
    t = cs.table
    cards = ketharmad.cards()
    faction_of = dict(zip(cards["id"], cards["faction"], strict=True))
    for r in t.select("faction", "card", "card_faction").iter_rows(named=True):
        assert faction_of[r["card"]] == r["card_faction"]
        assert r["card_faction"] in (r["faction"], "newsfeed")
    own = t.filter(pl.col("card_faction") == pl.col("faction"))
    for f in ("tisza", "ner"):
        expected = cards.filter((pl.col("faction") == f) & (pl.col("copies") > 0)).height
        assert own.filter(pl.col("faction") == f).height == expected
    assert (own["in_hand_games"] + own["not_seen_games"] == own["deck_games"]).all()
    assert (own["deck_games"] == batch.n_games).all()
    news = t.filter(pl.col("card_faction") == "newsfeed")
    assert news.height > 0 and news["in_hand_games"].is_null().all()


def test_card_stats_iwd_is_in_hand_minus_not_seen(cs):
    t = cs.table.filter(pl.col("iwd").is_not_null())
    assert t.height > 20
    diff = (t["in_hand_win_rate"] - t["not_seen_win_rate"] - t["iwd"]).abs()
    assert diff.max() < 1e-12
    assert _contains_estimate(t, "iwd", "iwd_ci_low", "iwd_ci_high")
    for prefix in ("in_hand", "opening", "drawn", "not_seen", "played"):
        assert _contains_estimate(
            cs.table, f"{prefix}_win_rate", f"{prefix}_ci_low", f"{prefix}_ci_high"
        )


def test_card_stats_counts_match_the_bits(cs, batch):
    """Brute-force one card per set: bit k of the halves is card row k."""
    rec = batch.card_records.filter(pl.col("faction") == "ner")
    k = int(
        ketharmad.cards().with_row_index("k").filter(pl.col("id") == "ner_orban_viktor")["k"][0]
    )
    half, shift = ("lo", k) if k < 64 else ("hi", k - 64)
    opening = [(v >> shift) & 1 for v in rec[f"opening_{half}"].to_list()]
    drawn = [(v >> shift) & 1 for v in rec[f"drawn_{half}"].to_list()]
    won = rec["won"].to_list()
    in_hand = [o | d for o, d in zip(opening, drawn, strict=True)]
    row = cs.table.filter(
        (pl.col("faction") == "ner") & (pl.col("card") == "ner_orban_viktor")
    ).row(0, named=True)
    assert row["opening_games"] == sum(opening)
    assert row["in_hand_games"] == sum(in_hand)
    assert row["in_hand_wins"] == sum(h and w for h, w in zip(in_hand, won, strict=True))
    assert row["not_seen_wins"] == sum((not h) and w for h, w in zip(in_hand, won, strict=True))


def test_card_stats_plays(cs, batch):
    per = batch.plays.group_by("faction", "card").agg(
        n=pl.len(), turn=pl.col("turn").cast(pl.Float64).mean()
    )
    j = cs.table.join(per, on=["faction", "card"], how="inner")
    assert j.height > 0
    assert (j["play_count"] == j["n"]).all()
    assert ((j["mean_turn_played"] - j["turn"]).abs() < 1e-9).all()
    # a card played at least once per game is never counted more games than its plays
    assert (j["played_games"] <= j["play_count"]).all()


def test_card_stats_without_plays_and_with_copies_override():
    swap = {"ner_orban_viktor.copies": 0, "ner_bunbak.copies": 3}  # the deck stays 31 cards
    res = ketharmad.simulate(TWO_P, "random", games=200, seed=1, params=swap)
    t = ketharmad.card_stats(res).table
    assert t["play_count"].is_null().all() and t["mean_turn_played"].is_null().all()
    assert "ner_orban_viktor" not in t["card"].to_list()
    assert t.filter(pl.col("card") == "ner_bunbak")["copies"].to_list() == [3]
    with pytest.raises(ValueError, match="SimResult"):
        ketharmad.card_stats(res.games)


# ---------------------------------------------------------------- sweep


def test_sweep_shape(sw):
    t = sw.table
    assert t.height == 4 * 2
    assert sw.parameters == list(GRID)
    assert set(GRID) <= set(t.columns)
    assert set(t.select(*GRID).unique().rows()) == {(4, 18), (4, 20), (6, 18), (6, 20)}
    assert (t["games"] == 200).all()
    assert _contains_estimate(t, "win_rate", "ci_low", "ci_high")
    assert t.filter(pl.col("baseline"))["point"].unique().to_list() == [0]


def test_sweep_points_share_game_seeds(sw):
    g = sw.games
    for matchup in g["matchup"].unique().to_list():
        seeds = [g.filter((pl.col("point") == p) & (pl.col("matchup") == matchup)).sort("game")["seed"]
                 for p in range(4)]  # fmt: skip
        for s in seeds[1:]:
            assert s.equals(seeds[0])
    # the start player is drawn from the game's seed, so it is shared as well
    starts = g.group_by("matchup", "game").agg(pl.col("start_player").n_unique().alias("k"))
    assert (starts["k"] == 1).all()


def test_sweep_paired_differences(sw):
    t = sw.table
    base = t.filter(pl.col("baseline")).select("matchup", p0="win_rate")
    j = t.join(base, on="matchup")
    assert ((j["diff"] - (j["win_rate"] - j["p0"])).abs() < 1e-12).all()
    b = t.filter(pl.col("baseline"))
    assert (b["diff"] == 0).all() and (b["paired_half_width"] == 0).all()
    others = t.filter(~pl.col("baseline"))
    assert _contains_estimate(others, "diff", "diff_ci_low", "diff_ci_high")
    assert (others["unpaired_half_width"] > 0).all()
    # common random numbers: pairing narrows the interval
    assert (others["paired_half_width"] < others["unpaired_half_width"]).all()


def test_sweep_rejects_bad_names_before_running(monkeypatch):
    calls = []
    import ketharmad.lab.sweep as sweep_mod

    monkeypatch.setattr(sweep_mod, "run_plan", lambda *a, **k: calls.append(a))
    bad = {"rules.starting_support": [18, 20], "ner_orban_viktor.influenze": [4]}
    with pytest.raises(ValueError, match="influenze"):
        ketharmad.sweep(bad, games=10)
    with pytest.raises(ValueError, match="rules.starting_support"):
        ketharmad.sweep([{"rules.starting_support": 20}, {"rules.starting_support": 0}], games=10)
    with pytest.raises(ValueError, match="empty"):
        ketharmad.sweep({"rules.starting_support": []}, games=10)
    with pytest.raises(ValueError, match="repeats"):
        ketharmad.sweep([{"rules.starting_support": 20}, {"rules.starting_support": 20}], games=10)
    with pytest.raises(ValueError, match="baseline"):
        ketharmad.sweep(
            {"rules.starting_support": [18, 20]}, games=10, baseline={"rules.starting_support": 5}
        )
    with pytest.raises(ValueError, match="decks"):
        ketharmad.sweep({"rules.starting_support": [18]}, decks="everything", games=10)
    assert calls == []


def test_sweep_all_decks_and_baseline_choice():
    res = ketharmad.sweep([{}, {"rules.starting_support": 15}], decks="all", games=4, seed=1,
                          bots="random", baseline={"rules.starting_support": 15})  # fmt: skip
    assert res.table["matchup"].n_unique() == 12
    assert res.baseline == 1
    assert res.table.height == 24
    assert res.table.filter(pl.col("point") == 0)["rules.starting_support"].is_null().all()


# ---------------------------------------------------------------- Parquet and provenance


def _check_provenance(df: pl.DataFrame, kind: str, params: dict, seed: int, games: int) -> None:
    from ketharmad.results.files import PROVENANCE_COLUMNS

    assert list(df.columns[-len(PROVENANCE_COLUMNS) :]) == list(PROVENANCE_COLUMNS)
    row = df.select(PROVENANCE_COLUMNS).unique()
    assert row.height == 1
    r = row.row(0, named=True)
    assert r["run_kind"] == kind
    assert r["run_version"] == ketharmad.__version__
    assert r["run_card_data_hash"] == _core.card_data_hash(packaged_card_text())
    assert json.loads(r["run_params"]) == params
    assert r["run_seed"] == seed and r["run_games"] == games
    assert r["run_id"].startswith(kind)
    assert df.schema["run_created"] == pl.Datetime("us", "UTC")


def _strip(df: pl.DataFrame) -> pl.DataFrame:
    return df.select([c for c in df.columns if not c.startswith("run_")])


def test_parquet_round_trip_simulate(tmp_path, batch):
    written = batch.write_parquet(tmp_path)
    assert set(written) == {"games", "players", "card_records", "plays", "summary", "runs"}
    for name, original in [("games", batch.games), ("players", batch.players),
                           ("card_records", batch.card_records), ("plays", batch.plays)]:  # fmt: skip
        back = pl.read_parquet(written[name])
        assert _strip(back).equals(original), name
        _check_provenance(back, "simulate", {}, 5, 1500)
    assert json.loads(pl.read_parquet(written["games"])["run_bots"][0]) == [
        "heuristic",
        "heuristic",
    ]


def test_parquet_folder_of_runs(tmp_path):
    a = ketharmad.simulate(TWO_P, games=30, seed=1)
    b = ketharmad.simulate(TWO_P, games=40, seed=2, params={"rules.starting_support": 15})
    ketharmad.write_run(a, tmp_path)
    ketharmad.write_run(b, tmp_path)
    games = pl.scan_parquet(tmp_path / "games" / "*.parquet").collect()
    assert games.height == 70
    assert games["run_id"].n_unique() == 2
    per_run = (
        games.group_by("run_seed").agg(pl.len(), pl.col("run_params").first()).sort("run_seed")
    )
    assert per_run["len"].to_list() == [30, 40]
    assert json.loads(per_run["run_params"][1]) == {"rules.starting_support": 15}
    runs = pl.scan_parquet(tmp_path / "runs" / "*.parquet").collect()
    assert runs.height == 2


def test_parquet_round_trip_lab_results(tmp_path, m2, m4, cs, sw):
    w = ketharmad.write_run(m2, tmp_path / "m2")
    assert _strip(pl.read_parquet(w["matchups"])).equals(m2.table)
    assert _strip(pl.read_parquet(w["matchup_games"])).equals(m2.games)
    _check_provenance(pl.read_parquet(w["matchups"]), "matchups", {}, 3, m2.n_games)
    w = m4.write_parquet(tmp_path / "m4")
    assert _strip(pl.read_parquet(w["matchups_4p"])).equals(m4.table)
    w = cs.write_parquet(tmp_path / "cs")
    assert _strip(pl.read_parquet(w["card_stats"])).equals(cs.table)
    assert _strip(pl.read_parquet(w["card_records"])).equals(cs.batch.card_records)
    _check_provenance(pl.read_parquet(w["card_stats"]), "card_stats", {}, 5, 1500)
    w = sw.write_parquet(tmp_path / "sw")
    assert _strip(pl.read_parquet(w["sweep"])).equals(sw.table)
    _check_provenance(pl.read_parquet(w["sweep_games"]), "sweep", {}, 6, sw.n_games)
    with pytest.raises(ValueError, match="write_run"):
        ketharmad.write_run(m2.table, tmp_path)


# ---------------------------------------------------------------- reports


def test_reports_and_plots(tmp_path, m2, m4, cs, sw):
    pytest.importorskip("matplotlib")
    for name, res, png in [("m2", m2, "matchups_heatmap.png"), ("m4", m4, "matchups_4p_bars.png"),
                           ("cs", cs, "card_iwd.png"),
                           ("sw", sw, "sweep_ner_orban_viktor_influence.png")]:  # fmt: skip
        report = ketharmad.write_report(res, tmp_path / name)
        text = report.read_text(encoding="utf-8")
        assert png in text
        assert (tmp_path / name / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "sweep_rules_starting_support.png" in (tmp_path / "sw" / "report.md").read_text(
        encoding="utf-8"
    )


def test_missing_matplotlib_is_a_clear_error(tmp_path, m2, monkeypatch):
    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"ketharmad\[report\]"):
        ketharmad.write_report(m2, tmp_path)
    # the Markdown alone needs no matplotlib
    assert ketharmad.write_report(m2, tmp_path, plots=False).exists()


# ---------------------------------------------------------------- CLI


def _parquet_tables(folder) -> set[str]:
    return {p.parent.name for p in folder.glob("*/*.parquet")}


def test_cli_matchups(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "m"
    assert main(["matchups", "--games-per-side", "10", "--seed", "2", "--threads", "2",
                 "--out", str(out)]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "start player" in text and "radikalisok" in text
    assert {
        "matchups",
        "matchup_games",
        "start_player",
        "matchup_lengths",
        "runs",
    } <= _parquet_tables(out)
    assert (out / "report.md").exists() and (out / "matchups_heatmap.png").exists()
    t = pl.read_parquet(next((out / "matchups").glob("*.parquet")))
    assert t.height == 16 and (t["games"] == 20).all()
    assert main(["matchups", "--players", "4", "--games", "24", "--out", str(tmp_path / "m4"),
                 "--bots", "random", "--no-plots"]) == 0  # fmt: skip
    assert "matchups_4p" in _parquet_tables(tmp_path / "m4")


def test_cli_card_stats(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "cs"
    assert main(["card-stats", "--decks", "ner", "tisza", "--games", "200", "--seed", "1",
                 "--progress", "--out", str(out)]) == 0  # fmt: skip
    captured = capsys.readouterr()
    assert "IWD" in captured.out
    assert "200/200 games" in captured.err
    assert {
        "card_stats",
        "games",
        "players",
        "card_records",
        "plays",
        "summary",
    } <= _parquet_tables(out)
    assert (out / "card_iwd.png").exists()
    t = pl.read_parquet(next((out / "card_stats").glob("*.parquet")))
    assert t["play_count"].is_not_null().any()


def test_cli_sweep(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'decks = [["ner", "tisza"]]\nbots = "random"\ngames = 30\nseed = 4\n\n'
        '[grid]\nner_orban_viktor.influence = [4, 6]\n"rules.starting_support" = [18, 20]\n',
        encoding="utf-8",
    )
    out = tmp_path / "sw"
    assert main(["sweep", str(grid), "--games", "20", "--out", str(out)]) == 0
    assert "paired" in capsys.readouterr().out
    t = pl.read_parquet(next((out / "sweep").glob("*.parquet")))
    assert t.height == 4 and (t["games"] == 20).all()
    assert {"ner_orban_viktor.influence", "rules.starting_support"} <= set(t.columns)
    assert (out / "sweep_ner_orban_viktor_influence.png").exists()
    assert (out / "report.md").exists()


def test_cli_sweep_errors(tmp_path, capsys):
    grid = tmp_path / "bad.toml"
    grid.write_text('[grid]\n"rules.no_such_rule" = [1, 2]\n', encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["sweep", str(grid), "--out", str(tmp_path / "o"), "--no-plots"])
    assert info.value.code == 2
    assert "no_such_rule" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
    grid.write_text("games = 10\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["sweep", str(grid)])
    assert "[grid]" in capsys.readouterr().err
