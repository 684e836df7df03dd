"""``ketharmad diff`` (issue 28): the same seeds under two setups, the flipped winners checked
against independent batches, the first decision where a flipped game parts, both replays side
by side, and the refusals."""

from __future__ import annotations

import json
import re

import ketharmad
import polars as pl
import pytest
from conftest import run_error
from ketharmad.cli import main
from ketharmad.lab.diff import first_split


@pytest.fixture(scope="module")
def card_sets() -> ketharmad.DiffResult:
    """The draft card set against the balanced one, heuristic bots, 40 games."""
    return ketharmad.diff({}, {"card_data": "balanced"}, bots="heuristic", games=40, seed=1)


def test_two_card_sets_flip_the_winners_an_independent_batch_says(card_sets) -> None:
    d = card_sets
    a = ketharmad.simulate(["ner", "tisza"], "heuristic", games=40, seed=1).games
    b = ketharmad.simulate(
        ["ner", "tisza"], "heuristic", games=40, seed=1, card_data="balanced"
    ).games
    want = [
        int(g) for g, wa, wb in zip(a["game"], a["winner"], b["winner"], strict=True) if wa != wb
    ]
    assert d.flips["game"].to_list() == want
    assert 0 < len(want) < 40  # the balanced set changes some games, not all
    assert d.games.height == 40 and d.games.columns == ["game", "winner_a", "winner_b", "turns_a", "turns_b",
                                                        "flipped"]  # fmt: skip
    g = want[0]
    wa = ketharmad.play(["ner", "tisza"], "heuristic", seed=1, index=g).winner
    wb = ketharmad.play(["ner", "tisza"], "heuristic", seed=1, index=g, card_data="balanced").winner
    row = d.flips.row(0, named=True)
    assert (row["winner_a"], row["winner_b"]) == (wa, wb) and wa != wb
    text = d.text()
    assert f"winner flipped in {len(want)} of 40 games" in text and "B: card_data balanced" in text


def test_the_split_is_the_first_decision_that_differs(card_sets) -> None:
    ra, rb = card_sets.records()
    s = card_sets.split()
    k = s["decision"]
    assert k < min(len(ra.decisions), len(rb.decisions))
    for da, db in zip(ra.decisions[:k], rb.decisions[:k], strict=True):
        assert (da.seat, da.options, da.chosen) == (db.seat, db.options, db.chosen)
    da, db = ra.decisions[k], rb.decisions[k]
    assert (da.seat, [o[1] for o in da.options], da.chosen_label) != (db.seat, [o[1] for o in db.options],
                                                                        db.chosen_label)  # fmt: skip
    assert f"decision {k + 1}" in s["text"]
    assert first_split(ra, ra) == {"decision": len(ra.decisions), "log_line": None,
                                   "text": f"the two games take the same {len(ra.decisions)} decisions"}  # fmt: skip


def test_the_diff_page_shows_both_replays_side_by_side(card_sets, tmp_path) -> None:
    path = card_sets.write_html(tmp_path / "d.html")
    text = path.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', text, re.S).group(1))
    ra, rb = card_sets.records()
    assert [len(g["decisions"]) for g in data["games"]] == [len(ra.decisions), len(rb.decisions)]
    assert data["split"]["decision"] == card_sets.split()["decision"]
    assert 'id="panel-0"' in text and 'id="panel-1"' in text and 'id="jump-split"' in text
    assert data["games"][1]["title"] == "B: card_data balanced"


def test_bots_and_parameters_of_the_other_games(tmp_path) -> None:
    d = ketharmad.diff({"bots": ["greedy", "random"]}, {"bots": ["greedy", "greedy"]}, game="schotten_totten_2",
                       games=20, seed=0)  # fmt: skip
    a = ketharmad.simulate(game="schotten_totten_2", bots=["greedy", "random"], games=20).games
    b = ketharmad.simulate(game="schotten_totten_2", bots=["greedy", "greedy"], games=20).games
    assert d.games["winner_a"].to_list() == a["winner"].cast(pl.Int64).to_list()
    assert d.games["winner_b"].to_list() == b["winner"].cast(pl.Int64).to_list()
    assert d.flips.height > 0
    o = ketharmad.diff(
        {"params": {"rules.days.n5": 3}}, {}, game="osztrakon", bots="greedy", games=10
    )
    assert o.games.height == 10 and o.seats == [f"seat {s}" for s in range(5)]
    assert o.games["turns_a"].sum() < o.games["turns_b"].sum()  # fewer days, fewer turns


def test_diff_cli_prints_the_flips_and_writes_the_page(tmp_path, capsys) -> None:
    html, out = tmp_path / "d.html", tmp_path / "d.csv"
    assert main(["diff", "--card-data", "draft", "--card-data", "balanced", "--bots", "heuristic", "--games", "40",
                 "--seed", "1", "--html", str(html), "--out", str(out)]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    d = ketharmad.diff({}, {"card_data": "balanced"}, bots="heuristic", games=40, seed=1)
    assert f"winner flipped in {d.flips.height} of 40 games" in printed
    assert d.split()["text"] in printed
    assert pl.read_csv(out).equals(d.games.with_columns(pl.col("flipped")))
    assert html.exists()
    # --param-a / --param-b and --bots-b
    assert main(["diff", "--game", "osztrakon", "--bots", "greedy", "--param-a", "rules.days.n5=3",
                 "--games", "6"]) == 0  # fmt: skip
    assert "A: params {rules.days.n5=3}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "10"], "nothing differs"),
        (
            ["--params", "a.toml", "--params", "b.toml", "--params", "c.toml"],
            "--params is given 3 times",
        ),
        (["--card-data", "/no/such.toml", "--card-data", "balanced"], "--card-data /no/such.toml"),
        (
            ["--game", "osztrakon", "--card-data", "a", "--card-data", "b"],
            "--card-data: Kétharmad only",
        ),
        (["--game", "backgammon", "--param-a", "x=1"], "unknown game 'backgammon'"),
        (["--param-a", "rules.bogus=1"], "setup A: unknown parameter"),
        (["--bots-b", "heuristic", "random", "random"], "setup B: bots must be one spec"),
        (["--param-a", "x=1", "--html", "d.txt"], "--html must end in .html"),
    ],
)
def test_diff_cli_refuses_bad_input(tmp_path, capsys, monkeypatch, argv, message) -> None:
    monkeypatch.chdir(tmp_path)
    assert message in run_error(["diff", *argv], capsys)
    assert list(tmp_path.iterdir()) == []


def test_diff_refuses_equal_setups_and_bad_sides() -> None:
    with pytest.raises(ValueError, match="the two setups are the same"):
        ketharmad.diff({"bots": "random"}, {}, games=4)
    with pytest.raises(ValueError, match="a: unknown key 'cards'"):
        ketharmad.diff({"cards": 1}, {}, games=4)
    with pytest.raises(ValueError, match="b must be a dict"):
        ketharmad.diff({}, "balanced", games=4)  # type: ignore[arg-type]
    d = ketharmad.diff({}, {"params": {"rules.starting_support": 30}}, games=4)
    with pytest.raises(ValueError, match="game 99 was not played"):
        d.split(99)
