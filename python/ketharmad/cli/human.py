"""``ketharmad play --human SEAT``: play one seat of a game in the terminal against the built-in
bots (docs/replay.md). At each of your decisions it prints what your seat sees (never the
hidden cards of the others), what happened since, and the legal actions numbered; answer with a
number, ``u`` to undo your last decision, ``q`` to quit. The log is printed at the end."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, Optional, TextIO

from ..game.session import PlaySession

__all__ = ["play_human", "PROMPT"]

#: What the terminal shows when it waits for an answer.
PROMPT = "choice> "


def _zone_line(z: Mapping[str, Any], seat: int) -> str:
    if seat in z["seen_by"]:
        items = ", ".join(z["items"]) if z["items"] else "-"
        return f"    {z['name']}: {items}"
    return f"    {z['name']}: {z['count']} hidden"


def render(s: PlaySession) -> str:
    """What the person's seat sees now, and the numbered legal actions."""
    v = s.view()
    lines = ["", f"== decision {s.decisions + 1}: {s.seat_label(s.human)} to decide"
             + (f" ({s.decision_kind()})" if s.decision_kind() else "") + f", turn {s.turn} =="]  # fmt: skip
    if v["facts"]:
        lines.append("  " + " | ".join(f"{k}: {val}" for k, val in v["facts"]))
    table = s.zones_of(v, None)
    if table:
        lines.append("  table")
        lines += [_zone_line(z, s.human) for z in table]
    for seat in range(len(s.seat_names)):
        scores = ", ".join(f"{name} {val:g}" for q, name, val in v["scores"] if q == seat)
        lines.append(f"  {s.seat_label(seat)}" + (f": {scores}" if scores else ""))
        lines += [_zone_line(z, s.human) for z in s.zones_of(v, seat) if z["items"] or z["count"]]
    lines.append("  legal actions:")
    lines += [f"    {i + 1:>3}. {label}" for i, (_, label) in enumerate(s.options())]
    lines.append(f"  answer 1-{len(s.options())}, u = undo your last decision, q = quit")
    return "\n".join(lines)


def play_human(
    session: PlaySession,
    read: Optional[Callable[[str], str]] = None,
    out: Optional[TextIO] = None,
) -> PlaySession:
    """Play ``session`` with answers read by ``read(prompt)`` (default: :func:`input`),
    writing to ``out`` (default: stdout); returns the session (over, or quit)."""
    out = out or sys.stdout
    read = read or input

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    say(f"{session.spec.name}: game {session.index} of the batch with seed {session.seed}; you play "
        f"{session.seat_label(session.human)}; " + ", ".join(session.seat_label(q) for q in range(len(session.seat_names))
                                                             if q != session.human))  # fmt: skip
    shown = 0
    quit_ = False
    while not session.over:
        log = session.log
        if shown < len(log):
            say("\n".join("  | " + line for line in log[shown:]))
            shown = len(log)
        say(render(session))
        while True:
            try:
                answer = read(PROMPT).strip().lower()
            except EOFError:
                answer = "q"
            if answer in ("q", "quit"):
                quit_ = True
                break
            if answer in ("u", "undo"):
                if session.undo():
                    say("undone: back to your previous decision")
                    shown = len(session.log)  # shown before that decision
                    break
                say("nothing to undo: this is your first decision")
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(session.options()):
                session.choose(int(answer) - 1)
                break
            say(
                f"answer with a number 1-{len(session.options())}, u (undo) or q (quit); got {answer!r}"
            )
        if quit_:
            break
    say("")
    say("== quit: the game is left unfinished ==" if quit_ else "== game over ==")
    say("\n".join(session.log))
    say(session.outcome())
    return session
