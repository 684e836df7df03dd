"""The ``ketharmad`` command line, run in-process through ``main``."""

from __future__ import annotations

import subprocess
import sys

import ketharmad
import polars as pl
import pytest
from conftest import run_error
from ketharmad.cli import main, parse_param
from ketharmad.games import simulate_game  # the harness engine behind simulate(game=...)


def test_simulate_prints_summary(capsys):
    assert main(["simulate", "--decks", "ner", "tisza", "--games", "300", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "win" in out
    for word in (
        "ner",
        "tisza",
        "300",
        "games/s",
        "start player",
        "turns",
        "rounds",
        "unfinished",
        "last_player_standing",
    ):
        assert word in out, word


def test_simulate_numbers_match_api(capsys):
    main(
        [
            "simulate",
            "--decks",
            "tisza",
            "radikalisok",
            "--games",
            "200",
            "--seed",
            "3",
            "--threads",
            "1",
        ]
    )
    out = capsys.readouterr().out
    res = ketharmad.simulate(["tisza", "radikalisok"], games=200, seed=3)
    for wins in res.summary()["wins"]:
        assert f" {wins} " in out or f" {wins:,} " in out


def test_simulate_with_params_bots_and_out(tmp_path, capsys):
    out_file = tmp_path / "run.parquet"
    argv = ["simulate", "--decks", "ner", "osszefogas", "tisza", "--games", "100", "--seed", "2",
            "--bots", "random", "random", '{"kind": "random"}',
            "--param", "rules.starting_support=5", "--out", str(out_file)]  # fmt: skip
    assert main(argv) == 0
    assert "rules.starting_support=5" in capsys.readouterr().out
    df = pl.read_parquet(out_file)
    assert df.height == 300
    assert {"game", "seat", "faction", "won", "winner", "turns", "end_reason"} <= set(df.columns)
    res = ketharmad.simulate(
        ["ner", "osszefogas", "tisza"], games=100, seed=2, params={"rules.starting_support": 5}
    )
    assert df["turns"].equals(res.joined()["turns"])


def test_unknown_faction_exits_2(capsys):
    err = run_error(["simulate", "--decks", "ner", "fidesz", "--games", "10"], capsys)
    assert "fidesz" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "0"],
        ["simulate", "--games", "10", "--param", "no_such.parameter=3"],
        ["simulate", "--games", "10", "--param", "rules.starting_support"],
        ["simulate", "--games", "10", "--param", "rules.starting_support=abc"],
        ["simulate", "--games", "10", "--card-data", "/nonexistent/cards.toml"],
        ["simulate", "--games", "10", "--bots", "random", "random", "random"],
        ["simulate", "--games", "10", "--out", "result.xlsx"],
        ["play", "--decks", "ner"],
        ["cards", "--faction", "fidesz"],
    ],
)
def test_bad_input_exits_2(argv, capsys):
    run_error(argv, capsys)


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--games", "many"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2


def test_cards_command(capsys):
    assert main(["cards"]) == 0
    out = capsys.readouterr().out
    table = ketharmad.cards()
    orban = table.filter(pl.col("id") == "ner_orban_viktor")["name"][0]
    assert orban in out
    assert "5/6" in out
    for faction in ketharmad.FACTIONS:
        assert f"== {faction}" in out


def test_cards_one_faction(capsys):
    assert main(["cards", "--faction", "tisza"]) == 0
    out = capsys.readouterr().out
    assert "== tisza" in out
    assert "== ner" not in out


def test_params_command(capsys):
    assert main(["params"]) == 0
    out = capsys.readouterr().out
    assert "rules.starting_support" in out
    assert "ner_orban_viktor.influence" in out
    assert main(["params", "--match", "rules."]) == 0
    out = capsys.readouterr().out
    assert "rules.starting_support" in out
    assert "ner_orban_viktor" not in out


def test_play_command_prints_log(capsys):
    assert main(["play", "--decks", "ner", "tisza", "--seed", "0", "--index", "0"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == str(ketharmad.play(["ner", "tisza"], seed=0, index=0)).strip()


def test_parse_param():
    assert parse_param("rules.starting_support=12") == ("rules.starting_support", 12)
    assert parse_param("a.b=-3") == ("a.b", -3)
    assert parse_param("a.flag=true") == ("a.flag", True)
    assert parse_param("a.flag=False") == ("a.flag", False)
    assert parse_param("rules.expose_cost={1}{M}") == ("rules.expose_cost", "{1}{M}")
    with pytest.raises(ValueError):
        parse_param("no_equals_sign")


def test_python_dash_m():
    proc = subprocess.run(
        [sys.executable, "-m", "ketharmad", "params", "--match", "rules.starting_support"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "rules.starting_support" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "ketharmad", "play", "--decks", "ner", "nope"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error:")


def test_format_coalition_from_the_command_line(capsys):
    """--format coalition (R16.2, E87): partners win together; the numbers equal the API's."""
    import ketharmad

    argv = [
        "simulate",
        "--decks",
        "ner",
        "tisza",
        "osszefogas",
        "radikalisok",
        "--format",
        "coalition",
        "--games",
        "200",
        "--seed",
        "3",
        "--bots",
        "heuristic",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "rules.format=coalition" in out
    r = ketharmad.simulate(
        ["ner", "tisza", "osszefogas", "radikalisok"],
        bots="heuristic",
        games=200,
        seed=3,
        format="coalition",
    )
    import polars as pl

    wins = r.players.group_by("seat").agg(pl.col("won").sum()).sort("seat")["won"].to_list()
    assert wins[0] == wins[2] and wins[1] == wins[3] and wins[0] + wins[1] == 200
    for w in wins:
        assert f"{w:5d}" in out or f" {w} " in out
    assert (
        main(
            [
                "play",
                "--decks",
                "ner",
                "tisza",
                "osszefogas",
                "radikalisok",
                "--format",
                "coalition",
                "--seed",
                "3",
            ]
        )
        == 0
    )
    assert "The team of P" in capsys.readouterr().out
    # the circle is played (tests/test_circle_gods.py): two decks are the wrong count
    assert "the circle format needs 3 to 4 decks, got 2" in run_error(
        ["simulate", "--format", "circle"], capsys
    )


# ---- simulate --game (issue 14): the games on the generic harness -----------------------------


def _seat_rows(out: str) -> dict[int, list[str]]:
    """The seat lines of a `simulate --game` summary: seat -> its fields."""
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if f and f[0].isdigit() and "[" in line:
            rows[int(f[0])] = f
    return rows


def test_simulate_game_schotten_totten_2(capsys, tmp_path):
    out_file = tmp_path / "st2.csv"
    argv = [
        "simulate",
        "--game",
        "schotten_totten_2",
        "--bots",
        "greedy",
        "random",
        "--games",
        "400",
        "--seed",
        "5",
        "--threads",
        "1",
        "--param",
        "rules.damages_to_win=3",
        "--out",
        str(out_file),
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "schotten_totten_2: 400 games, 2 seats, seed 5" in out and "games/s" in out
    r = simulate_game(
        "schotten_totten_2",
        bots=["greedy", "random"],
        games=400,
        seed=5,
        params={"rules.damages_to_win": 3},
    )
    s = r.summary()
    rows = _seat_rows(out)
    assert [rows[i][1:3] for i in (0, 1)] == [["attacker", "greedy"], ["defender", "random"]]
    for i in (0, 1):
        assert int(rows[i][3].replace(",", "")) == s["wins"][i]
        assert rows[i][4] == f"{s['win_rate'][i]:.1%}"
        assert rows[i][5] == f"[{s['ci_low'][i]:.1%},"
    assert pl.read_csv(out_file).height == 800
    # Kétharmad-only options are refused by name
    err = run_error(["simulate", "--game", "schotten_totten_2", "--decks", "ner", "tisza"], capsys)
    assert "--decks: Kétharmad only; `ketharmad simulate --game schotten_totten_2` takes" in err
    err = run_error(
        ["simulate", "--game", "schotten_totten_2", "--param", "rules.hand_sise=5"], capsys
    )
    assert "rules.hand_sise" in err


def test_simulate_game_osztrakon(capsys):
    bots = ["b1", "random", "greedy", "safe", "race", "b1", "b1"]
    argv = [
        "simulate",
        "--game",
        "osztrakon",
        "--bots",
        *bots,
        "--games",
        "300",
        "--seed",
        "2",
        "--param",
        "model.read_noise=0.25",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "osztrakon: 300 games, 7 seats, seed 2" in out
    r = simulate_game("osztrakon", bots=bots, games=300, seed=2, params={"model.read_noise": 0.25})
    wins = r.summary()["wins"].to_list()
    rows = _seat_rows(out)
    assert sorted(rows) == list(range(7))
    assert [int(rows[i][3].replace(",", "")) for i in range(7)] == wins
    assert [rows[i][2] for i in range(7)] == bots
    assert (
        run_error(["simulate", "--game", "osztrakon", "--bots", "b1", "b1", "b1"], capsys).count(
            "5 to 12 seats"
        )
        == 1
    )
    # without --game, simulate is Kétharmad as before
    assert main(["simulate", "--games", "50", "--seed", "1"]) == 0
    assert "ner" in capsys.readouterr().out
