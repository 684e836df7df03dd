"""The lab understands formats and decks (issue 13 item 5, docs/formats.md, docs/balance_lab.md):
format= in every call that plays games (one code path, user formats included, through
executors), matchups(decks=...), the team-pair table, by-seat and by-deck tables."""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import ketharmad
import polars as pl
import pytest
from ketharmad.cli import main
from ketharmad.lab.card_stats import card_stats
from ketharmad.lab.standings import deck_table, seat_table
from polars.testing import assert_frame_equal

FOUR = list(ketharmad.FACTIONS)  # ner, osszefogas, tisza, radikalisok
#: A user format: Quick with 25 starting Support (docs/formats.md "Your own format").
LONG = {"name": "long_quick", "base": "quick", "support": 25}
SMALL_TARGETS = Path(__file__).with_name("test_balance_small.toml")


def _winners(res):
    return res.games["winner"].to_list()


# ---------------------------------------------------------------- format= everywhere


def test_formats_lists_what_the_core_plays():
    t = ketharmad.formats()
    rows = {r["format"]: r for r in t.iter_rows(named=True)}
    assert t["format"][0] == "ffa"
    assert rows["ffa"]["played"] and rows["quick"]["played"] and rows["coalition"]["played"]
    assert (rows["coalition"]["seats_min"], rows["coalition"]["seats_max"]) == (4, 4)
    assert rows["coalition"]["scoring"] == "team"
    for name in ("pairs", "circle", "gods", "diplomacy"):  # refused by the core, with its reason
        if not rows[name]["played"]:
            assert rows[name]["reason"]
    user = ketharmad.formats(format=LONG)
    assert user.filter(pl.col("format") == "long_quick")["played"].to_list() == [True]


def test_card_stats_plays_the_format_of_simulate():
    """card_stats(decks=..., format=F) plays the games of simulate(..., format=F): a user
    format (its table in the card text) and a shipped one; not those of the free-for-all."""
    for fmt in ("quick", LONG):
        played = card_stats(decks=["ner", "tisza"], games=60, seed=2, bots="random", format=fmt)
        batch = ketharmad.simulate(
            ["ner", "tisza"], "random", games=60, seed=2, record_plays=True, format=fmt
        )
        assert_frame_equal(played.table, card_stats(batch).table)
        assert played.batch.params["rules.format"] == (
            fmt if isinstance(fmt, str) else "long_quick"
        )
    ffa = ketharmad.simulate(["ner", "tisza"], "random", games=60, seed=2)
    assert _winners(
        card_stats(decks=["ner", "tisza"], games=60, seed=2, bots="random", format=LONG).batch
    ) != _winners(ffa)


def test_card_stats_without_rows_keeps_the_format():
    a = card_stats(
        decks=["ner", "tisza"], games=40, seed=1, bots="random", format=LONG, run=dict(rows=False)
    )
    b = card_stats(
        decks=["ner", "tisza"], games=40, seed=1, bots="random", format=LONG, run=dict(rows=True)
    )
    assert_frame_equal(a.table, b.table)


def test_sweep_takes_a_format():
    grid = {"rules.opening_hand": [5, 7]}
    s = ketharmad.sweep(grid, decks=["ner", "tisza"], bots="random", games=40, seed=3, format=LONG)
    assert s.params["rules.format"] == "long_quick"
    base = ketharmad.simulate(
        ["ner", "tisza"], "random", games=40, seed=3, params={"rules.opening_hand": 7}, format=LONG
    )
    row = s.table.filter(pl.col("rules.opening_hand") == 7).row(0, named=True)
    assert row["wins"] == int((base.games["winner"] == 0).sum())


def test_tournament_takes_a_format_and_plays_teams_in_coalition():
    q = ketharmad.tournament(
        ["random", "heuristic"], decks=["ner", "tisza"], games=20, seed=1, format="quick"
    )
    assert q.params == {"rules.format": "quick"}
    t = ketharmad.tournament(["random", "heuristic"], games=12, seed=1, format="coalition")
    # the three splits of the factions, partners opposite: [a1, b1, a2, b2]
    assert t.decks == [["ner", "tisza", "osszefogas", "radikalisok"], ["ner", "osszefogas", "tisza", "radikalisok"],
                       ["ner", "osszefogas", "radikalisok", "tisza"]]  # fmt: skip
    r = t.pairs.row(0, named=True)
    assert r["games"] == 12 and r["wins_a"] + r["wins_b"] + r["unfinished"] == 12
    # the same games as simulate: bot A (random) on seats 0 + 2, then on 1 + 3
    wins_a = 0
    for d, deck in enumerate(t.decks):
        for a_seat in (0, 1):
            bots = ["random", "heuristic"] if a_seat == 0 else ["heuristic", "random"]
            sim = ketharmad.simulate(
                deck, bots * 2, games=2, seed=1, first_game=2 * d, format="coalition"
            )
            wins_a += int((sim.games["winner"] == a_seat).sum())
    assert r["wins_a"] == wins_a
    with pytest.raises(ValueError, match="lineups of 4 decks"):
        ketharmad.tournament(
            ["random", "heuristic"], decks=["ner", "tisza"], games=12, format="coalition"
        )


def test_balance_takes_a_format_from_the_call_or_the_targets():
    kw = dict(
        bots="random",
        budget=3_000,
        seed=1,
        settings={"robustness_bots": None, "robustness_search": None},
    )
    a = ketharmad.balance(SMALL_TARGETS, format="quick", **kw)
    assert a.params["rules.format"] == "quick"
    doc = {"two_player": {"others": False, "pairs": {"ner-tisza": 0.2}}, "format": "quick",
           "change": {"allow": ["ner_rogan_antal.influence"], "max_edits": 1}}  # fmt: skip
    b = ketharmad.balance(doc, **kw)
    assert b.params["rules.format"] == "quick"
    with pytest.raises(ValueError, match="disagrees with the targets' format"):
        ketharmad.balance(doc, format="ffa", **kw)
    # format.* numbers join the search space only when named
    from ketharmad.lab.balance.targets import _allowed

    assert not _allowed("format.quick.support", ["*"])
    assert _allowed("format.quick.support", ["format.quick.*"])


def test_a_user_format_reaches_process_pool_workers():
    """The user format's table travels in the shards' card text: a spawned worker plays the
    same games as here."""
    ctx = multiprocessing.get_context("spawn")
    here = ketharmad.matchups(
        games_per_side=4, bots="random", seed=5, format=LONG, decks=["ner", "tisza"]
    )
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as ex:
        there = ketharmad.matchups(games_per_side=4, bots="random", seed=5, format=LONG, decks=["ner", "tisza"], run=dict(executor=ex))  # fmt: skip
    assert_frame_equal(here.table, there.table)
    assert_frame_equal(here.games, there.games)
    ffa = ketharmad.matchups(games_per_side=4, bots="random", seed=5, decks=["ner", "tisza"])
    assert not here.games["turns"].equals(ffa.games["turns"])


# ---------------------------------------------------------------- matchups(decks=...)


def test_matchups_with_mixed_decks_and_a_deck_list():
    deck = {"name": "tz", "cards": dict(ketharmad.cards().filter(pl.col("faction") == "tisza")
                                        .select("id", "copies").iter_rows())}  # fmt: skip
    r = ketharmad.matchups(
        decks=["ner+osszefogas", deck, "radikalisok"], games_per_side=5, bots="random", seed=4
    )
    assert r.sides == ["ner+osszefogas", "tz", "radikalisok"]
    assert set(r.table["faction"]) == {"ner+osszefogas", "tz", "radikalisok"}
    assert r.matrix().columns == ["faction", "ner+osszefogas", "tz", "radikalisok"]
    # the cell (ner+osszefogas, tz) with seat 1 starting is simulate's batch at its game range
    c = next(
        c
        for c in r.plan
        if c["decks"][0] == "ner+osszefogas"
        and c["start_player"] == 1
        and c["decks"][1] != "ner+osszefogas"
    )
    sim = ketharmad.simulate(c["decks"], "random", games=5, seed=4, first_game=c["first_game"], start_player=1,
                             params=c["params"])  # fmt: skip
    cell = r.games.filter(pl.col("game") >= c["first_game"], pl.col("game") < c["first_game"] + 5)
    assert cell["winner"].to_list() == sim.games["winner"].to_list()
    # the custom list may share a faction deck with anything: the cell allows mirrors
    assert c["params"].get("rules.allow_mirror") is True
    assert r.by_deck["deck"].to_list() == r.sides
    red = ketharmad.matchups(decks=["ner+osszefogas", deck, "radikalisok"], games_per_side=5, bots="random", seed=4, run=dict(rows=False))  # fmt: skip
    for name in ("table", "positions", "lengths", "start_player", "by_seat", "by_deck"):
        assert_frame_equal(getattr(red, name), getattr(r, name))


def test_matchups_decks_errors():
    with pytest.raises(ValueError, match="more than once"):
        ketharmad.matchups(decks=["ner", "ner"], games_per_side=1)
    with pytest.raises(ValueError, match="unknown faction 'nerr'"):
        ketharmad.matchups(decks=["nerr", "tisza"], games_per_side=1)
    with pytest.raises(ValueError, match="plays 4-4 seats, got players=2"):
        ketharmad.matchups(players=2, format="coalition", games=4)


# ---------------------------------------------------------------- the team-pair table


def test_coalition_team_pair_table_counts_the_games_of_simulate():
    r = ketharmad.matchups(format="coalition", games=8, bots="heuristic", seed=7)
    assert r.teams and r.n_players == 4 and r.table.height == 6
    assert r.n_games == 3 * 8
    wins: dict[str, int] = {}
    # every cell replayed with simulate: team of seats 0 + 2 wins when winner == 0
    for c in r.plan:
        d = c["decks"]
        sim = ketharmad.simulate(d, "heuristic", games=c["games"], seed=7, first_game=c["first_game"],
                                 start_player=0, format="coalition")  # fmt: skip
        for seat in (0, 1):
            team = " + ".join(sorted((d[seat], d[seat + 2]), key=FOUR.index))
            wins[team] = wins.get(team, 0) + int((sim.games["winner"] == seat).sum())
    for row in r.table.iter_rows(named=True):
        team = " + ".join(sorted(row["team"].split(" + "), key=FOUR.index))
        assert row["wins"] == wins[team]
        assert row["games"] == 8 and row["on_play_games"] == 4
    # the two rows of a split add up to its decided games
    t = r.table
    for row in t.iter_rows(named=True):
        other = t.filter(pl.col("team") == row["against"]).row(0, named=True)
        assert row["wins"] + other["wins"] + row["no_winner"] == 8
    assert t["win_rate"].to_list() == sorted(t["win_rate"].to_list(), reverse=True)
    sp = r.start_player.row(0, named=True)
    assert sp["even_share"] == 0.5 and sp["games"] == 24
    # partners win together: seats 0 and 2 (1 and 3) have the same wins
    bs = r.by_seat
    assert bs["wins"][0] == bs["wins"][2] and bs["wins"][1] == bs["wins"][3]
    assert bs["wins"][0] == sp["start_wins"]
    red = ketharmad.matchups(
        format="coalition", games=8, bots="heuristic", seed=7, run=dict(rows=False)
    )
    for name in ("table", "start_player", "by_seat", "by_deck", "positions", "lengths"):
        assert_frame_equal(getattr(red, name), getattr(r, name))
    assert "tisza + radikalisok" in r.text() or "ner + tisza" in r.text()


def test_team_pair_table_of_more_decks():
    r = ketharmad.matchups(
        format="coalition", decks=[*FOUR, "ner+tisza"], games=4, bots="random", seed=1
    )
    # 5 decks: 5 choices of four, 3 splits each
    assert r.table.height == 2 * 15
    assert r.sides == [*FOUR, "ner+tisza"]


def test_the_bench_uses_the_library():
    text = (Path(__file__).parents[1] / "benches" / "coalition_pairs.py").read_text()
    assert "matchups(" in text and "simulate(" not in text


# ---------------------------------------------------------------- by seat, by deck


@pytest.mark.parametrize("fmt,decks", [("ffa", FOUR[:3]), ("quick", FOUR[:2]), ("coalition", FOUR)])
def test_seat_and_deck_tables_for_any_format(fmt, decks):
    res = ketharmad.simulate(decks, "heuristic", games=40, seed=3, format=fmt)
    st = seat_table(res)
    won = res.players.filter(pl.col("won"))
    assert st["seat"].to_list() == list(range(len(decks)))
    assert st["games"].to_list() == [40] * len(decks)
    assert st["wins"].to_list() == [
        won.filter(pl.col("seat") == s).height for s in range(len(decks))
    ]
    assert "points_mean" not in st.columns  # these formats score no victory points
    dt = deck_table(res)
    assert dt["deck"].to_list() == decks and dt["wins"].to_list() == st["wins"].to_list()
    if fmt == "coalition":
        assert (
            st["wins"][0] == st["wins"][2]
            and st["wins"][0] + st["wins"][1] == 40 - res.games["winner"].null_count()
        )
    else:
        assert st["wins"].sum() == 40 - res.games["winner"].null_count()
    # with a victory-point column (as the circle format will give) the mean points appear
    pts = res.players.with_columns(
        points=(pl.col("seat").cast(pl.Int32) * 10 + pl.col("won").cast(pl.Int32))
    )
    st2 = seat_table(pts)
    assert st2["points_mean"].to_list() == [10 * s + st["wins"][s] / 40 for s in range(len(decks))]


def test_matchups_by_seat_in_a_free_for_all():
    r = ketharmad.matchups(players=3, games=24, bots="random", seed=2, format="quick")
    assert r.params["rules.format"] == "quick"
    assert r.by_seat["games"].to_list() == [24, 24, 24]
    assert r.by_seat["wins"].sum() == 24 - r.games["winner"].null_count()
    assert r.by_deck["deck"].to_list() == FOUR


# ---------------------------------------------------------------- the CLI


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "4"],
        ["play"],
        ["matchups", "--games", "2"],
        ["card-stats", "--games", "4"],
        ["bots", "random", "heuristic", "--decks", "ner", "tisza", "--games", "2"],
        ["balance", str(SMALL_TARGETS), "--budget", "10"],
    ],
)
def test_every_playing_cli_command_takes_format(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main([*argv, "--format", "nosuch"])
    assert e.value.code == 2
    assert "nosuch" in capsys.readouterr().err


def test_cli_format_runs(tmp_path, capsys):
    assert (
        main(
            [
                "matchups",
                "--format",
                "coalition",
                "--games",
                "4",
                "--bots",
                "random",
                "--threads",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "format coalition" in out and "team" in out and "even share 50.0%" in out
    assert main(["card-stats", "--format", "quick", "--games", "10", "--bots", "random"]) == 0
    assert "format quick, ner vs tisza" in capsys.readouterr().out
    grid = tmp_path / "g.toml"
    grid.write_text('[grid]\n"rules.opening_hand" = [6, 7]\n')
    assert main(["sweep", str(grid), "--format", "quick", "--games", "4", "--bots", "random"]) == 0
    assert "SweepResult(format quick" in capsys.readouterr().out
    fmt = tmp_path / "mine.toml"
    fmt.write_text('[formats.mine]\nbase = "quick"\nsupport = 20\n')
    assert (
        main(
            [
                "bots",
                "random",
                "heuristic",
                "--decks",
                "ner",
                "tisza",
                "--games",
                "2",
                "--format",
                str(fmt),
            ]
        )
        == 0
    )
    assert main(["matchups", "--decks", "ner+tisza", "osszefogas", "--games", "2", "--bots", "random",
                 "--format", str(fmt)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "ner+tisza" in out and "rules.format=mine" in out


# ---------------------------------------------------------------- the text report


def test_report_compares_the_start_team_with_a_teams_share():
    from ketharmad.results.sim import sim_report

    res = ketharmad.simulate(FOUR, "heuristic", games=60, seed=4, format="coalition")
    text = sim_report(res)
    start = res.players.join(res.games.select("game", "start_player"), on="game")
    wins = int(start.filter(pl.col("seat") == pl.col("start_player"))["won"].sum())
    assert f"start player's team wins: {wins:,} of 60" in text
    assert "even share would be 50.0%" in text
    # the winner column names the team's lower seat: a start seat 2 or 3 never equals it
    assert wins > int((res.games["winner"] == res.games["start_player"]).sum())
    ffa = sim_report(ketharmad.simulate(FOUR, "heuristic", games=20, seed=4))
    assert "start player wins:" in ffa and "even share would be 25.0%" in ffa


def test_cli_formats_lists_the_core_formats(capsys):
    assert main(["formats"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("ffa")
    line = next(x for x in out.splitlines() if x.startswith("coalition"))
    assert "4-4" in line and "team" in line and "yes" in line
    for row in ketharmad.formats().iter_rows(named=True):
        assert any(x.startswith(row["format"]) for x in out.splitlines())


def test_sweep_and_targets_files_name_a_format(tmp_path):
    from ketharmad.lab.balance.targets import load_targets
    from ketharmad.lab.sweep import load_sweep_file

    (tmp_path / "mine.toml").write_text('[formats.mine]\nbase = "quick"\nsupport = 20\n')
    (tmp_path / "g.toml").write_text(
        'format = "mine.toml"\n[grid]\n"rules.opening_hand" = [6, 7]\n'
    )
    kw = load_sweep_file(str(tmp_path / "g.toml"))
    assert kw["format"] == str(tmp_path / "mine.toml")
    s = ketharmad.sweep(**kw, games=4, bots="random")
    assert s.params["rules.format"] == "mine"
    (tmp_path / "t.toml").write_text(
        'format = "mine.toml"\n[two_player]\nothers = false\npairs = { "ner-tisza" = 0.5 }\n'
    )
    assert load_targets(str(tmp_path / "t.toml")).format == str(tmp_path / "mine.toml")
    with pytest.raises(ValueError, match="targets.format"):
        load_targets({"format": 3})


def test_team_pair_result_writes_its_tables_and_report(tmp_path):
    pytest.importorskip("matplotlib")
    r = ketharmad.matchups(format="coalition", games=4, bots="random", seed=2)
    written = r.write_parquet(tmp_path / "pq")
    assert {"matchups_coalition", "matchup_by_seat_coalition", "matchup_by_deck_coalition"} <= set(
        written
    )
    assert_frame_equal(
        pl.read_parquet(written["matchups_coalition"]).select(r.table.columns), r.table
    )
    report = r.write_report(tmp_path / "rep")
    text = report.read_text()
    assert "## Team pairs" in text and "## By deck" in text and "start player's team won" in text
    assert (tmp_path / "rep" / "matchups_coalition_teams.png").exists()
