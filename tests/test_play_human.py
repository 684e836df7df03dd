"""Terminal play (issue 28): ``ketharmad play --human SEAT`` through a pseudo-terminal, for every
game: numbers answer, ``u`` undoes, ``q`` quits; the bots answer for the other seats with the
batch's streams; the seat sees its own hidden cards and never the others'."""

from __future__ import annotations

import os
import re
import sys

import ketharmad
import pytest
from conftest import run_error
from ketharmad.cli.human import PROMPT, play_human, render
from ketharmad.game.session import PlaySession

pexpect = pytest.importorskip("pexpect")

GAMES = [
    ("schotten_totten_2", ["greedy"], 0, 1),
    ("osztrakon", ["greedy"], 2, 4),
    ("ketharmad", ["heuristic"], 1, 2),
]


def answer(j: int, n: int) -> int:
    """The answer (an index) to the person's ``j``-th decision of ``n`` options."""
    return (3 * j + 1) % n


def reference(game: str, bots: list[str], human: int, seed: int) -> PlaySession:
    """The game the terminal session below should end with, played in-process."""
    s = PlaySession(game, bots[0], human=human, seed=seed)
    j = 0
    while not s.over:
        s.choose(answer(j, len(s.options())))
        j += 1
    return s


@pytest.mark.parametrize(("game", "bots", "human", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_play_a_game_to_its_end_in_a_terminal_with_one_undo(game, bots, human, seed) -> None:
    argv = [
        "-m",
        "ketharmad",
        "play",
        "--human",
        str(human),
        "--game",
        game,
        "--bots",
        *bots,
        "--seed",
        str(seed),
    ]
    child = pexpect.spawn(sys.executable, argv, encoding="utf-8", timeout=60, env=dict(os.environ),
                          dimensions=(50, 200))  # fmt: skip
    child.delaybeforesend = None  # pexpect's default waits 50 ms before every line sent
    j = 0
    undone = False
    try:
        while True:
            i = child.expect([re.escape(PROMPT), "== game over =="])
            if i == 1:
                break
            n = int(re.findall(r"answer 1-(\d+), u = undo", child.before)[-1])
            if j == 2 and not undone:
                # answer something else first, then take it back
                child.sendline(str((answer(j, n) + 1) % n + 1))
                child.expect(re.escape(PROMPT))
                child.sendline("u")
                child.expect("undone: back to your previous decision")
                undone = True
                continue
            child.sendline(str(answer(j, n) + 1))
            j += 1
        child.expect(pexpect.EOF)
        tail = child.before
    finally:
        child.close()
    assert child.exitstatus == 0 and undone
    ref = reference(game, bots, human, seed)
    lines = [line.rstrip("\r") for line in tail.splitlines()]
    while lines and not lines[0]:
        del lines[0]
    assert ref.over and lines[-1] == ref.outcome()
    assert lines[:-1] == ref.log


def test_a_person_who_answers_as_the_bot_plays_the_batch_game() -> None:
    for game, bots, human, seed in GAMES:
        s = PlaySession(game, bots[0], human=human, seed=seed, index=1)
        while not s.over:
            a = s.game.clone().bot_action(s.bots[human])  # the bot's answer, its stream untouched
            s.choose([i for i, _ in s.options()].index(a))
        log = ketharmad.play(game=game, bots=bots[0], seed=seed, index=1)
        assert (s.winner, s.turn) == (log.winner, log.turns)
        if game == "ketharmad":
            assert s.log == log.log


def test_the_seat_sees_its_hidden_cards_and_not_the_others() -> None:
    s = PlaySession("ketharmad", "heuristic", human=1, seed=4)
    text = render(s)
    own = s.game.observation(1)["hand"]
    other = s.game.observation(0)["hand"]
    names = ketharmad.cards().select("id", "name").rows()
    name = dict(names)
    assert f"hand: {', '.join(name[c] for c in own)}" in text
    assert f"hand: {len(other)} hidden" in text
    st2 = PlaySession("schotten_totten_2", "greedy", human=0, seed=1)
    text = render(st2)
    assert "deck (top first): " in text and " hidden" in text
    assert re.search(r"hand: (\w+ \d+, ){5}\w+ \d+", text) and "hand: 6 hidden" in text


def test_quit_and_bad_answers() -> None:
    out = []
    answers = iter(["x", "0", "u", "q"])
    s = play_human(PlaySession("schotten_totten_2", "greedy", human=1, seed=2), read=lambda _p: next(answers),
                   out=_Lines(out))  # fmt: skip
    text = "".join(out)
    assert "answer with a number 1-" in text and "got 'x'" in text and "got '0'" in text
    assert "nothing to undo" in text
    assert "== quit: the game is left unfinished ==" in text and not s.over
    assert text.rstrip().endswith(s.outcome()) and s.outcome().startswith("not over")


class _Lines:
    def __init__(self, out: list[str]) -> None:
        self.out = out

    def write(self, text: str) -> int:
        self.out.append(text)
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--human", "2"], "human seat 2 does not exist: this ketharmad game has seats 0..1"),
        (["--human", "-1", "--game", "schotten_totten_2"], "seats 0..1"),
        (
            ["--human", "0", "--game", "osztrakon", "--decks", "ner", "tisza"],
            "--decks: Kétharmad only",
        ),
        (["--human", "0", "--game", "mahjong"], "unknown game 'mahjong'"),
        (["--human", "0", "--bots", "heuristic", "random", "random"], "exactly one spec per seat"),
    ],
)
def test_play_human_refuses_bad_input(capsys, argv, message) -> None:
    assert message in run_error(["play", *argv], capsys)
