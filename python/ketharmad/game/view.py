"""A readable picture of a game at one moment, the same for every game (issue 28): what the
replay viewer draws at each step and what terminal play shows the human's seat.

>>> from ketharmad.game.view import view_of, visible_to
>>> v = view_of(g)              # everything, hidden cards too (a replay of a finished game)
>>> v = view_of(g, seat=0)      # what seat 0 may see (terminal play)

A view is a plain dict (JSON-ready):

* ``scores``: ``[seat, name, value]`` rows to chart over a game (Kétharmad: each seat's
  Support and Scandal; Schotten Totten 2: the Attacker's damaged sections, the Defender's
  cauldrons left, both sides' cards on the wall; Osztrakon: every philosopher's position);
* ``facts``: ``[name, value]`` rows of public facts (round, phase, deck sizes …);
* ``zones``: one dict per zone on the table: ``name``, ``owner`` (a seat, or None for the
  table's), ``seen_by`` (the seats that may see its items; every seat: public), ``items``
  (labels, in the zone's order; empty where they are not known) and ``count`` (how many
  items it holds: a hidden hand's size).

Kétharmad's view is built from its observations (``Game.observation``: each seat's own
observation gives its hand and pool); the other games draw theirs in the core
(``HarnessGame.view``, ``rust/harness/view.rs``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from .. import _core

__all__ = ["view_of", "visible_to", "is_public", "Names"]

#: A card id -> card name look-up (Kétharmad); ids it does not know are shown as they are.
Names = Mapping[str, str]


def is_public(zone: Mapping[str, Any], seats: int) -> bool:
    """Does every seat of a game of ``seats`` seats see the zone's items?"""
    return len(zone["seen_by"]) >= seats


def visible_to(view: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """``view`` as ``seat`` may see it: the items of a zone the seat does not see are
    dropped (its ``count`` stays: a hidden hand's size is public)."""
    zones = [z if seat in z["seen_by"] else {**z, "items": []} for z in view["zones"]]
    return {**view, "zones": zones}


def view_of(game: Any, seat: Optional[int] = None, names: Optional[Names] = None) -> dict[str, Any]:
    """The view of a step object (a :class:`ketharmad.Game` or a
    :class:`ketharmad.HarnessGame`) now: everything with ``seat=None``, else only what
    ``seat`` may see. ``names``: Kétharmad's card names by id (:func:`card_names`)."""
    if isinstance(game, _core.HarnessGame):
        raw = game.view()
        view = {
            "scores": [[int(s), str(n), float(v)] for s, n, v in raw["scores"]],
            "facts": [[str(k), str(v)] for k, v in raw["facts"]],
            "zones": [{"name": z["name"], "owner": z["owner"], "seen_by": list(z["seen_by"]),
                       "items": list(z["items"]), "count": len(z["items"])} for z in raw["zones"]],
        }  # fmt: skip
        return view if seat is None else visible_to(view, seat)
    return _ketharmad_view(game, seat, names or {})


@functools.lru_cache(maxsize=8)
def _card_names(card_text: str) -> dict[str, str]:
    table = _core.card_table(card_text)
    return {str(i): str(n) for i, n in zip(table["id"], table["name"], strict=True)}


def card_names(card_text: str) -> dict[str, str]:
    """Kétharmad's card names by card id, from the card file's text."""
    return dict(_card_names(card_text))


def _name(names: Names, card: Optional[str]) -> str:
    if card is None:
        return "-"
    return names.get(card, card)


def _in_play(c: Mapping[str, Any]) -> str:
    bits = []
    if c.get("influence") is not None:
        bits.append(f"{c['influence']}/{c['credibility']}")
    if c.get("exhausted"):
        bits.append("exhausted")
    if c.get("fresh"):
        bits.append("fresh")
    if c.get("damage"):
        bits.append(f"{c['damage']} damage")
    if c.get("counters"):
        bits.append(f"{c['counters']} counter{'s' if c['counters'] != 1 else ''}")
    return f"{c['name']} ({', '.join(bits)})" if bits else str(c["name"])


def _ketharmad_view(game: Any, seat: Optional[int], names: Names) -> dict[str, Any]:
    n = int(game.num_players)
    seats = list(range(n)) if seat is None else [seat]
    obs = {s: game.observation(s) for s in seats}
    o = obs[seats[0]]
    everyone = list(range(n))
    players: Sequence[Mapping[str, Any]] = o["players"]
    scores: list[list[Any]] = []
    for p in players:
        scores.append([p["seat"], "Support", float(p["support"])])
        scores.append([p["seat"], "Scandal", float(p["scandal"])])
    facts: list[list[str]] = [["round", str(o["round"])], ["turn", str(o["turn"])],
                              ["active", f"P{o['active']}"], ["start player", f"P{o['start_player']}"]]  # fmt: skip
    if o.get("decision"):
        facts.append(["deciding", f"P{o['decision'][0]} ({o['decision'][1]})"])
    facts.append(["Event in force", _name(names, o.get("event_in_force"))])
    facts.append(["Newsfeed deck", f"{o['newsfeed_deck_size']} cards"])
    facts.append(["Event deck", f"{o['event_deck_size']} cards"])
    if o.get("round_mods"):
        facts.append(
            ["this round", ", ".join(f"{k} {v}" for k, v in dict(o["round_mods"]).items())]
        )
    zones: list[dict[str, Any]] = []

    def zone(name: str, owner: Optional[int], seen_by: list[int], items: list[str],
             count: Optional[int] = None) -> None:  # fmt: skip
        zones.append({"name": name, "owner": owner, "seen_by": seen_by, "items": items,
                      "count": len(items) if count is None else count})  # fmt: skip

    for p in players:
        s = int(p["seat"])
        status = [p["faction"], "in the game" if p["alive"] else "out"]
        zone("status", s, everyone, [*status, f"bases played {p['bases_played']}",
                                     f"recruits {p['recruits']}", f"exposés {p['exposes']}",
                                     f"campaigns {p['campaigns']}", f"mulligans {p['mulligans']}"])  # fmt: skip
        zone("in play", s, everyone, [_in_play(c) for c in p["in_play"]])
        own = obs.get(s)
        zone(
            "hand",
            s,
            [s],
            [_name(names, c) for c in own["hand"]] if own else [],
            int(p["hand_size"]),
        )
        pool = [f"{r} {x}" for r, x in zip("FMU", own["pool"], strict=True)] if own else []
        zone("pool", s, [s], pool)
        zone("deck", s, [], [], int(p["deck_size"]))
        zone("oblivion", s, everyone, [_name(names, c) for c in p["oblivion"]])
    zone("Newsfeed row", None, everyone, [_name(names, c) for c in o["newsfeed_row"]])
    zone(
        "chain (bottom first)",
        None,
        everyone,
        [f"{_name(names, c)} (P{ctrl})" for c, ctrl in o["chain"]],
    )
    camp = o.get("campaign")
    if camp:

        def fig(ref: Sequence[int]) -> str:
            ctrl, i = int(ref[0]), int(ref[1])
            return f"P{ctrl}'s {players[ctrl]['in_play'][i]['name']}"

        items = [f"{fig(a)} attacks P{t}" for a, t in camp["attackers"]]
        items += [f"{fig(b)} blocks attacker {k + 1}" for b, k in camp["blocks"]]
        zone("Campaign", None, everyone, items)
    zone("Event discard", None, everyone, [_name(names, c) for c in o["event_discard"]])
    return {"scores": scores, "facts": facts, "zones": zones}
