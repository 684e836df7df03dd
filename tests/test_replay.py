"""The replay viewer (issue 28): a recorded game is exactly the batch game, the HTML holds
every step with its options and choice, hidden cards are behind the switch, search bots show
their root statistics, and bad input is refused before any file is touched."""

from __future__ import annotations

import json
import re
from pathlib import Path

import ketharmad
import polars as pl
import pytest
from conftest import run_error
from ketharmad.cli import main
from ketharmad.game.replay import record_game
from ketharmad.game.view import is_public, view_of, visible_to
from ketharmad.results import replay_html
from ketharmad.results.replay_html import DATA_FORMAT, write_replay

# (game, bots, setup): one small game of each, a search bot where it is cheap
CASES = [
    ("ketharmad", ["heuristic", "random"], {}),
    ("ketharmad", [{"kind": "search", "iterations": 12}, "heuristic"], {"decks": ["tisza", "ner"]}),
    ("ketharmad", [{"kind": "ismcts", "iterations": 12}, "heuristic"], {}),
    ("schotten_totten_2", ["greedy", "search:iterations=40"], {}),
    ("osztrakon", ["search:iterations=20", "greedy", "greedy", "greedy", "greedy", "greedy"], {}),
]


def page_data(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    assert m is not None
    return json.loads(m.group(1))


@pytest.mark.parametrize(("game", "bots", "setup"), CASES, ids=lambda c: str(c)[:40])
def test_a_recorded_game_is_the_batch_game(game, bots, setup) -> None:
    seed, index = 3, 2
    rec = record_game(game, bots, seed, index, **setup)
    log = ketharmad.play(game=game, bots=bots, seed=seed, index=index, **setup)
    assert rec.winner == log.winner
    assert rec.turns == log.turns
    assert rec.log == log.log and len(rec.log) > 10
    row = ketharmad.simulate(game=game, bots=bots, games=index + 1, seed=seed, **setup).games.row(
        index, named=True
    )
    assert (row["winner"], row["turns"]) == (-1 if rec.winner is None else rec.winner, rec.turns)
    for d in rec.decisions:
        ids = [i for i, _ in d.options]
        assert d.chosen in ids and len(ids) >= 2
        assert d.log or game == "ketharmad"


@pytest.mark.parametrize("halving", [0, 1])
def test_search_bots_report_their_root_statistics(halving) -> None:
    # the harness search: with UCB1 at the root the visits sum to the iterations and the choice
    # is the most visited; with sequential halving (this game's default) the budget is split
    # evenly over the rounds (at most the iterations) and the choice is the best of the last
    # round's candidates, the most visited
    spec = f"search:iterations=40,halving={halving}"
    rec = record_game("schotten_totten_2", ["greedy", spec], 3, 2)
    searched = [d for d in rec.decisions if d.scores is not None]
    assert searched and all(d.seat == 1 for d in searched)
    for d in searched:
        visits = sum(v for _, v, _ in d.scores)
        assert visits == 40 if halving == 0 else 0 < visits <= 40
        top = max(v for _, v, _ in d.scores)
        chosen = next((v, m) for a, v, m in d.scores if a == d.chosen)
        assert chosen == (top, max(m for _, v, m in d.scores if v == top))  # ties: the better mean
        assert all(-1 <= m <= 1 for _, _, m in d.scores)
        assert {a for a, _, _ in d.scores} <= {i for i, _ in d.options}
    assert all(d.scores is None for d in rec.decisions if d.seat == 0)  # greedy does not search
    # Kétharmad's search: its candidates' rollouts and 2 x win rate - 1; it keeps the best mean
    rec = record_game("ketharmad", [{"kind": "search", "iterations": 12}, "heuristic"], 3, 2,
                      decks=["tisza", "ner"])  # fmt: skip
    searched = [d for d in rec.decisions if d.scores is not None]
    assert searched and all(d.seat == 0 and d.kind == "main" for d in searched)
    for d in searched:
        means = {a: m for a, _, m in d.scores}
        assert means[d.chosen] == max(means.values())
        assert sum(v for _, v, _ in d.scores) >= 12
    # ismcts: the harness search in Kétharmad's batch, most visited first
    rec = record_game("ketharmad", [{"kind": "ismcts", "iterations": 12}, "heuristic"], 3, 2)
    searched = [d for d in rec.decisions if d.scores is not None]
    assert searched
    for d in searched:
        assert sum(v for _, v, _ in d.scores) == 12
        assert [v for _, v, _ in d.scores] == sorted((v for _, v, _ in d.scores), reverse=True)
        top = d.scores[0][1]
        chosen = next((v, m) for a, v, m in d.scores if a == d.chosen)
        assert chosen == (top, max(m for _, v, m in d.scores if v == top))
        assert d.scores[0][0] == d.chosen  # listed first: most visits, then mean reward


@pytest.mark.parametrize(("game", "bots", "setup"), CASES[::2], ids=lambda c: str(c)[:40])
def test_the_page_holds_every_step_with_its_options_and_choice(tmp_path, game, bots, setup) -> None:
    path = write_replay(tmp_path / "r.html", game, bots, 3, 2, **setup)
    rec = record_game(game, bots, 3, 2, **setup)
    text = path.read_text(encoding="utf-8")
    data = page_data(path)
    assert data["format"] == DATA_FORMAT and len(data["games"]) == 1
    g = data["games"][0]
    assert len(g["decisions"]) == len(rec.decisions) and len(g["frames"]) == len(rec.decisions) + 1
    for d, r in zip(g["decisions"], rec.decisions, strict=True):
        labels = dict((i, label) for i, label in d["options"])
        assert labels[d["chosen"]] == r.chosen_label
    # every log line is on the page once, in order (hidden parts split off)
    lines = [
        "".join(item) if len(item) == 1 else f"{item[0]}({item[1]})"
        for f in g["frames"]
        for item in f["log"]
    ]
    assert lines == rec.log
    # each frame's zones are indices into the game's zone table
    assert all(0 <= z < len(g["zones"]) for f in g["frames"] for z in f["view"]["zones"])
    # self-contained: no resource from anywhere else
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', text) and "<link" not in text
    for element in ("step-counter", "step-slider", "show-hidden", "prev", "next", "chart-0", "table-0",
                    "options-0", "log-0"):  # fmt: skip
        assert f'id="{element}"' in text
    assert rec.outcome() in text or rec.outcome() == g["outcome"]


def test_hidden_cards_are_behind_the_switch_off_by_default(tmp_path) -> None:
    path = write_replay(tmp_path / "k.html", "ketharmad", "heuristic", 1, 0)
    text = path.read_text(encoding="utf-8")
    assert re.search(r'<input id="show-hidden" type="checkbox">', text)  # not checked
    assert ".secret{display:none}" in text and "body.show-hidden .secret{display:inline" in text
    g = page_data(path)["games"][0]
    hands = [z for z in g["zones"] if z["name"] == "hand"]
    assert hands and all(len(z["seen_by"]) == 1 and z["seen_by"][0] == z["owner"] for z in hands)
    assert any(z["items"] for z in hands)  # the replay knows them: they are behind the switch
    # the draws the log names are hidden parts too
    draws = [item for f in g["frames"] for item in f["log"] if " draws " in item[0]]
    assert draws and all(len(item) == 2 and item[1] for item in draws)
    # Schotten Totten 2: the hands private, the deck's order seen by nobody
    st2 = page_data(write_replay(tmp_path / "s.html", "schotten_totten_2", "greedy"))["games"][0]
    deck = [z for z in st2["zones"] if z["name"].startswith("deck")]
    assert deck and all(z["seen_by"] == [] for z in deck)


def test_a_seat_sees_only_its_own_hidden_cards() -> None:
    for game in (
        ketharmad.Game(["ner", "tisza"], seed=2),
        ketharmad.Game(game="schotten_totten_2", seed=2),
    ):
        full = view_of(game)
        seen = view_of(game, seat=1)
        hands = {z["owner"]: z for z in seen["zones"] if z["name"] == "hand"}
        assert hands[1]["items"] and hands[0]["items"] == [] and hands[0]["count"] > 0
        assert [(z["name"], z["owner"]) for z in seen["zones"]] == [
            (z["name"], z["owner"]) for z in full["zones"]
        ]
        assert hands[0]["count"] == next(
            z["count"] for z in full["zones"] if z["name"] == "hand" and z["owner"] == 0
        )
        # what seat 1 sees is the full view with the items of the zones it does not see dropped
        # (Kétharmad's is built from its own observation: the others' pools are unknown there)
        mine = [z for z in visible_to(full, 1)["zones"] if z["name"] != "pool"]
        assert mine == [z for z in seen["zones"] if z["name"] != "pool"]
        assert any(not is_public(z, 2) for z in full["zones"])
        assert all(is_public(z, 2) or z["seen_by"] in ([], [z["owner"]]) for z in full["zones"])


def test_replay_cli_writes_the_page(tmp_path, capsys) -> None:
    out = tmp_path / "sub" / "o.html"
    assert main(["replay", "--html", str(out), "--game", "osztrakon", "--bots", "greedy", "--seats", "6",
                 "--seed", "4", "--index", "1"]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    g = page_data(out)["games"][0]
    rec = record_game("osztrakon", "greedy", 4, 1, seats=6)
    assert g["seats"] == 6 and len(g["decisions"]) == len(rec.decisions)
    assert f"{len(rec.decisions)} decisions" in printed and rec.outcome() in printed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "osztrakon", "--decks", "ner", "tisza"], "--decks: Kétharmad only"),
        (["--game", "schotten_totten_2", "--bots", "greedy", "nobody"], "nobody"),
        (["--bots", "heuristic", "random", "random"], "exactly one spec per seat"),
        (["--seats", "3"], "--seats is for the games on the generic harness"),
        (["--game", "osztrakon", "--seats", "4"], "osztrakon takes 5 to 12 seats"),
        (["--param", "rules.no_such_rule=3"], "no_such_rule"),
    ],
)
def test_replay_cli_refuses_bad_input_by_name(tmp_path, capsys, argv, message) -> None:
    out = tmp_path / "r.html"
    err = run_error(["replay", "--html", str(out), *argv], capsys)
    assert message in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_replay_refuses_corrupted_and_foreign_files(tmp_path, capsys) -> None:
    bad = tmp_path / "cards.toml"
    bad.write_text("[[card]]\nid = \n", encoding="utf-8")
    err = run_error(["replay", "--html", str(tmp_path / "a.html"), "--card-data", str(bad)], capsys)
    assert "card data" in err
    png = tmp_path / "params.toml"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    err = run_error(["replay", "--html", str(tmp_path / "a.html"), "--params", str(png)], capsys)
    assert str(png) in err
    err = run_error(["replay", "--html", str(tmp_path / "a.txt")], capsys)
    assert "--html must end in .html" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.toml", "params.toml"]


def test_an_existing_file_is_kept_unless_overwrite_and_never_half_written(
    tmp_path, capsys, monkeypatch
) -> None:
    out = tmp_path / "r.html"
    out.write_text("keep me", encoding="utf-8")
    err = run_error(["replay", "--html", str(out)], capsys)
    assert "already exists" in err and out.read_text(encoding="utf-8") == "keep me"
    with pytest.raises(ValueError, match="already exists"):
        write_replay(out)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    # a failure while the page is written leaves the old file and no temporary file
    monkeypatch.setattr(replay_html.Path, "write_text", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        write_replay(out, overwrite=True)
    assert out.read_text(encoding="utf-8") == "keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]
    monkeypatch.undo()
    assert main(["replay", "--html", str(out), "--overwrite"]) == 0
    assert page_data(out)["games"][0]["game"] == "ketharmad"


def test_the_public_names() -> None:
    assert ketharmad.replay_html is not None and ketharmad.record_game is record_game
    rec = ketharmad.record_game("schotten_totten_2", "greedy", 1, 0)
    assert isinstance(rec, ketharmad.GameRecord) and rec.decisions
    with pytest.raises(ValueError, match="unknown game"):
        ketharmad.replay_html("x.html", game="go")
    assert isinstance(pl.DataFrame(), pl.DataFrame)
