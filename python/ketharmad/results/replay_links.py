"""The games a report lists for replay: for each, the command that replays it
(``ketharmad replay --html replays/<game>-<index>.html --game ... --index ...``) and, when
``ketharmad.results.replay_html.write_replay`` exists, its replay page written next to the
report (``replays/<game>-<index>.html``), linked from the report.

Which games: the first game of every cell of a run's plan (Kétharmad's matchups, card
statistics, sweeps, ...: decks, bots, parameters and start player from the plan), the first
games of a batch (``simulate``), the first game of every pairing of a harness game's
matchups (its ``games`` rows), at most :data:`MAX_GAMES`.

``write_replay`` is called with keywords only, those it accepts among ``game, index,
seed, bots, decks, params, card_data, format, start_player`` (docs/reports.md).
"""

from __future__ import annotations

import importlib
import inspect
import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

__all__ = [
    "GameRef",
    "MAX_GAMES",
    "listed_games",
    "replay_command",
    "replays_folder",
    "write_replays",
]

#: At most this many games are listed in a report.
MAX_GAMES = 24


@dataclass
class GameRef:
    """One game to replay: what the replay command and ``write_replay`` need."""

    label: str
    game: str
    index: int
    seed: int
    bots: list[str]
    decks: Optional[list[str]] = None
    params: dict[str, Any] = field(default_factory=dict)
    start_player: Optional[int] = None
    card_data: Optional[str] = None
    format: Optional[str] = None
    file: str = ""  # replays/<game>-<index>.html (set by listed_games)
    written: bool = False
    problem: str = ""

    def __post_init__(self) -> None:
        # a run describes its card data as "packaged", "packaged:<set>" or a path
        # (describe_card_data); the replay takes None, the set's name or the path
        cd = self.card_data
        if cd == "packaged" or cd == "":
            self.card_data = None
        elif cd is not None and cd.startswith("packaged:"):
            self.card_data = cd.split(":", 1)[1]

    def keywords(self) -> dict[str, Any]:
        return {"game": self.game, "index": self.index, "seed": self.seed, "bots": list(self.bots),
                "decks": self.decks, "params": dict(self.params), "card_data": self.card_data,
                "format": self.format, "start_player": self.start_player}  # fmt: skip


def _param_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def replay_command(g: GameRef) -> str:
    """The shell command that replays ``g`` into ``g.file``."""
    argv = ["ketharmad", "replay", "--html", g.file or f"replays/{g.game}-{g.index}.html",
            "--game", g.game, "--index", str(g.index), "--seed", str(g.seed)]  # fmt: skip
    if g.decks:
        argv += ["--decks", *g.decks]
    argv += ["--bots", *g.bots]
    if g.start_player is not None:
        argv += ["--start-player", str(g.start_player)]
    for k, v in sorted(g.params.items()):
        argv += ["--param", f"{k}={_param_text(v)}"]
    if g.card_data:
        argv += ["--card-data", g.card_data]
    if g.format and g.format != "ffa":
        argv += ["--format", g.format]
    return shlex.join(argv)


def _spec_text(spec: Any) -> Optional[str]:
    """A bot spec as a command-line argument: a name as it is, a dict as JSON."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, dict):
        return json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return None


def _bots_for(result: Any, cell: dict[str, Any]) -> Optional[list[str]]:
    """The cell's bots as command-line specs: the run's own spec(s) when it gave one for
    every seat or one per seat, else the plan's labels when they are plain names."""
    n = len(cell["decks"])
    spec = getattr(result, "bots", None)
    if isinstance(spec, (str, dict)):
        text = _spec_text(spec)
        return None if text is None else [text] * n
    labels = [str(b) for b in cell.get("bots", [])]
    if labels and all(b.replace("_", "").replace("-", "").isalnum() for b in labels):
        return labels
    return None


def _from_plan(result: Any) -> list[GameRef]:
    out = []
    for c in result.plan or []:
        bots = _bots_for(result, c)
        if bots is None or not c.get("games"):
            continue
        decks = [str(d) for d in c["decks"]]
        sp = c.get("start_player")
        label = " vs ".join(decks) + ("" if sp is None else f", seat {sp} starts")
        out.append(GameRef(label, "ketharmad", int(c["first_game"]), int(result.seed or 0), bots, decks,
                           dict(c.get("params") or {}), sp, str(getattr(result, "card_data", "") or "") or None,
                           getattr(result, "format", None)))  # fmt: skip
    return out


def _from_sim(result: Any) -> list[GameRef]:
    games = result.games
    if games is None or not games.height:
        return []
    game = getattr(result, "game", "ketharmad") or "ketharmad"
    bots = [t for t in (_spec_text(b) for b in _as_list(result.bots)) if t is not None]
    ketharmad = game == "ketharmad"
    decks = [str(d) for d in result.decks] if ketharmad and result.decks else None
    fmt = getattr(result, "format", None)
    sp = getattr(result, "start_player", None)
    picks = list(range(min(5, games.height)))
    if "unfinished" in games.columns:
        unfinished = games.filter(games["unfinished"]).head(3)["game"].to_list()
        picks += [i for i in unfinished if i not in picks]
    out = []
    for i in picks:
        idx = int(games["game"][i]) if i < games.height else int(i)
        out.append(GameRef(f"game {idx}", game, idx, int(result.seed), bots, decks, dict(result.params or {}),
                           sp, str(result.card_data) if ketharmad else None, fmt if ketharmad else None))  # fmt: skip
    return out


def _as_list(bots: Any) -> list[Any]:
    return list(bots) if isinstance(bots, (list, tuple)) else [bots]


def _from_harness_matchups(result: Any) -> list[GameRef]:
    g = result.games
    if g is None or not g.height:
        return []
    out = []
    if {"seat0_bot", "seat1_bot"} <= set(g.columns):
        first = g.group_by("seat0_bot", "seat1_bot", maintain_order=True).first()
        for r in first.iter_rows(named=True):
            out.append(GameRef(f"{r['seat0_bot']} vs {r['seat1_bot']}", result.game, int(r["game"]),
                               int(r["batch_seed"]), [r["seat0_bot"], r["seat1_bot"]],
                               params=dict(result.params or {})))  # fmt: skip
    elif {"bot", "field", "bot_seat"} <= set(g.columns):
        first = g.group_by("bot", "field", maintain_order=True).first()
        for r in first.iter_rows(named=True):
            bots = [r["field"]] * result.seats
            bots[int(r["bot_seat"])] = r["bot"]
            out.append(GameRef(f"{r['bot']} against {r['field']} (seat {r['bot_seat']})", result.game,
                               int(r["game"]), int(r["batch_seed"]), bots, params=dict(result.params or {})))  # fmt: skip
    return out


def replays_folder(report: Path) -> str:
    """The folder, next to a report, of its replay pages: ``replays`` for a ``report.html``
    (a run folder holds one run), ``<name>.replays`` for any other page (``simulate --out
    r.parquet`` writes ``r.report.html``: two such files in one folder keep their own pages)."""
    return "replays" if report.name == "report.html" else f"{report.stem}.replays"


def listed_games(result: Any, folder: str = "replays") -> list[GameRef]:
    """The games a report of ``result`` lists (at most :data:`MAX_GAMES`), each with its
    ``file`` (``<folder>/<game>-<index>.html``, unique within the report)."""
    refs: list[GameRef]
    if getattr(result, "plan", None) and getattr(result, "game", "ketharmad") in (
        "ketharmad",
        None,
        "",
    ):
        refs = _from_plan(result)
    elif (
        hasattr(result, "_parquet_tables")
        and not hasattr(result, "tables")
        and hasattr(result, "games")
    ):
        refs = _from_sim(result)
    elif getattr(result, "kind", "") == "matchups" and getattr(result, "_info", None) is not None:
        refs = _from_harness_matchups(result)
    else:
        refs = []
    refs = refs[:MAX_GAMES]
    seen: dict[str, int] = {}
    for g in refs:
        base = f"{folder}/{g.game}-{g.index}"
        k = seen.get(base, 0)
        seen[base] = k + 1
        g.file = f"{base}.html" if k == 0 else f"{base}-{k}.html"
    return refs


def replay_writer() -> Optional[Callable[..., Any]]:
    """``ketharmad.results.replay_html.write_replay`` if that module exists, else None."""
    try:
        module = importlib.import_module("ketharmad.results.replay_html")
    except ImportError:
        return None
    fn = getattr(module, "write_replay", None)
    return fn if callable(fn) else None


def write_replays(games: Sequence[GameRef], folder: Path) -> Optional[str]:
    """Write the replay page of each game into ``folder`` (its ``file``) with ``write_replay``
    when it exists; returns None, or why no page was written (the report then shows the
    commands only). A game whose replay fails keeps its command and says why (``problem``)."""
    writer = replay_writer()
    if writer is None:
        return "replay pages are not available in this version: copy a command to replay a game"
    sig: Mapping[str, inspect.Parameter]
    try:
        sig = inspect.signature(writer).parameters
    except (TypeError, ValueError):
        sig = {}
    accepted = set(sig)
    # a writer with **setup takes every keyword (the game's setup: decks, params, start player)
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.values())
    for g in games:
        path = folder / g.file
        # the report owns its replay pages: a rewritten report rewrites them
        extra = {"overwrite": True} if "overwrite" in accepted else {}
        kwargs = extra | {
            k: v for k, v in g.keywords().items()
            if (k in accepted or takes_all) and v is not None and v != {}
        }  # fmt: skip
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            writer(path, **kwargs)
            g.written = path.exists()
        except (ValueError, TypeError, OSError) as e:
            g.problem = f"{type(e).__name__}: {e}"
    return None
