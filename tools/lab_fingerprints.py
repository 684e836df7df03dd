"""Fingerprints of the balance lab's results, to prove a refactoring changes no number.

    python tools/lab_fingerprints.py --record before.json   # with the old code
    python tools/lab_fingerprints.py --check before.json    # with the new code: exit 1 on a difference

Each fingerprint is the SHA-256 of one result table written as CSV (columns, dtypes and every
value; wall times are left out), for a few small runs of matchups (2, 3 and 4 players, with
and without chunking), sweep (one pairing, all pairings), balance (its tables and its journal
file) and tournament. ``--only`` limits the check to some kinds (the tournament's numbers
changed on purpose when it moved to the plan runner's seeding, docs/balance_lab.md).
``--drop COLUMN ...`` hashes every table without the named columns, so a change that only
adds a column (the sweep table's ``mean_turns``, issue 23) is checked against the tables
recorded before it: every other column bit-identical.

    python tools/lab_fingerprints.py --check before.json --only sweep --drop mean_turns
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ketharmad
import polars as pl

HERE = Path(__file__).resolve().parent
SMALL_TARGETS = HERE.parent / "tests" / "test_balance_small.toml"


def frame_hash(df: pl.DataFrame) -> str:
    h = hashlib.sha256()
    h.update(json.dumps([[c, str(t)] for c, t in df.schema.items()]).encode())
    h.update(df.write_csv().encode())
    return h.hexdigest()[:20]


#: Columns left out of every table before it is hashed (``--drop``).
DROP: list[str] = []


def _tables(res: Any, names: list[str]) -> dict[str, str]:
    return {n: frame_hash(getattr(res, n).drop(DROP, strict=False)) for n in names
            if getattr(res, n, None) is not None}  # fmt: skip


def _matchups() -> dict[str, dict[str, str]]:
    names = ["table", "start_player", "positions", "lengths", "games", "players"]
    runs = {
        "matchups_2p_heuristic": dict(games_per_side=30, bots="heuristic", seed=3),
        "matchups_2p_random_params_chunked": dict(
            games=40, bots="random", seed=7, params={"rules.starting_support": 18}, chunk_size=9
        ),
        "matchups_3p": dict(players=3, games=48, bots="random", seed=1),
        "matchups_4p_chunked": dict(players=4, games=72, bots="heuristic", seed=2, chunk_size=2),
    }
    more = {
        "matchups_coalition_teams": dict(format="coalition", games=8, bots="random", seed=4),
        "matchups_coalition_teams_reduced": dict(
            format="coalition", games=8, bots="random", seed=4, rows=False
        ),
        "matchups_2p_decks_reduced": dict(
            decks=["ner", "tisza+radikalisok", "osszefogas"],
            games=10,
            bots="random",
            seed=5,
            rows=False,
        ),
        "matchups_3p_reduced": dict(players=3, games=48, bots="random", seed=1, rows=False),
    }
    names += ["by_seat", "by_deck"]
    out = {k: _tables(ketharmad.matchups(**kw), names) for k, kw in runs.items()}
    out.update({k: _tables(ketharmad.matchups(**kw), names) for k, kw in more.items()})
    return out


#: The harness games' matchup columns renamed when matchups became one function for every
#: game (old name -> new name; a no-op on the new code), so their values are compared.
HARNESS_RENAMES = {
    "attacker_bot": "bot",
    "defender_bot": "opponent",
    "attacker_wins": "wins",
    "defender_wins": "opponent_wins",
    "attacker_win_rate": "win_rate",
}
#: Wall-time columns, left out of a fingerprint.
TIMING_COLUMNS = ("games_per_second",)


def _harness_tables(res: Any) -> dict[str, str]:
    out = {}
    for n in ("table", "by_side", "games"):
        df = getattr(res, n, None)
        if df is None:
            continue
        df = df.rename({k: v for k, v in HARNESS_RENAMES.items() if k in df.columns})
        out[n] = frame_hash(df.drop([c for c in TIMING_COLUMNS if c in df.columns]))
    return out


def _harness_matchups() -> dict[str, dict[str, str]]:
    st2, osz = "schotten_totten_2", "osztrakon"
    runs = {
        "game_matchups_st2": dict(game=st2, bots=["random", "greedy"], games=30, seed=5),
        "game_matchups_st2_reduced": dict(
            game=st2, bots=["random", "greedy"], games=30, seed=5, rows=False
        ),
        "game_matchups_osz_field": dict(game=osz, bots=["b1", "random"], games=23, seed=3, seats=6),
        "game_matchups_osz_reduced_capped": dict(
            game=osz,
            bots=["b1", "greedy"],
            field="random",
            games=20,
            seed=1,
            games_for={"greedy": 7},
            rows=False,
        ),
        "game_matchups_st2_chunked": dict(
            game=st2, bots=["random", "greedy"], games=25, seed=2, chunk_size=7
        ),
    }
    return {k: _harness_tables(ketharmad.matchups(**kw)) for k, kw in runs.items()}


def _sweep() -> dict[str, dict[str, str]]:
    names = ["table", "summary", "points", "games"]
    runs = {
        "sweep_one_pairing": dict(grid={"rules.starting_support": [18, 20, 22]}, games=50, seed=4),
        "sweep_all_pairings_chunked": dict(
            grid={"ner_orban_viktor.influence": [4, 5]},
            decks="all",
            bots="random",
            games=20,
            seed=5,
            chunk_size=7,
        ),
        "sweep_4p_start_player": dict(
            grid=[{"tis_magyar_peter.influence": 1}, {"tis_magyar_peter.influence": 3}],
            decks=[["ner", "tisza", "osszefogas", "radikalisok"]],
            bots="random",
            games=30,
            start_player=1,
        ),
    }
    return {k: _tables(ketharmad.sweep(**kw), names) for k, kw in runs.items()}


def _balance() -> dict[str, dict[str, str]]:
    names = ["best", "proposals", "edits", "before", "after", "robustness", "history", "screen"]
    out = {}
    for key, kw in {
        "balance_small_random": dict(bots="random", budget=8000, seed=1),
        "balance_small_heuristic": dict(bots="heuristic", budget=6000, seed=2, games_2p=100),
    }.items():
        with tempfile.TemporaryDirectory() as d:
            journal = os.path.join(d, "j.jsonl")
            res = ketharmad.balance(str(SMALL_TARGETS), journal=journal, **kw)
            fp = _tables(res, names)
            fp["overrides"] = hashlib.sha256(
                json.dumps(res.overrides, sort_keys=True).encode()
            ).hexdigest()[:20]
            with open(journal, "rb") as f:
                fp["journal"] = hashlib.sha256(f.read()).hexdigest()[:20]
        out[key] = fp
    return out


def _tournament() -> dict[str, dict[str, str]]:
    runs = {
        "tournament_one_pairing": dict(
            bots=["random", "heuristic", "aggro"], decks=["ner", "tisza"], games=40, seed=3
        ),
        "tournament_all_pairings": dict(bots=["random", "heuristic"], games=48, seed=1),
    }
    return {k: _tables(ketharmad.tournament(**kw), ["pairs", "ratings"]) for k, kw in runs.items()}


KINDS: dict[str, Callable[[], dict[str, dict[str, str]]]] = {
    "matchups": _matchups,
    "game_matchups": _harness_matchups,
    "sweep": _sweep,
    "balance": _balance,
    "tournament": _tournament,
}


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--record", metavar="FILE")
    g.add_argument("--check", metavar="FILE")
    ap.add_argument("--only", nargs="+", choices=sorted(KINDS), default=sorted(KINDS))
    ap.add_argument("--drop", nargs="+", metavar="COLUMN", default=[],
                    help="hash every table without these columns (a change that only adds them)")  # fmt: skip
    args = ap.parse_args()
    DROP[:] = args.drop
    now: dict[str, dict[str, str]] = {}
    for kind in args.only:
        now.update(KINDS[kind]())
    if args.record:
        Path(args.record).write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(
            f"recorded {sum(len(v) for v in now.values())} fingerprints of {len(now)} runs to {args.record}"
        )
        return 0
    old = json.loads(Path(args.check).read_text())
    bad = 0
    for run, tables in sorted(now.items()):
        for name, h in sorted(tables.items()):
            was = old.get(run, {}).get(name)
            status = "same" if was == h else ("NEW" if was is None else "DIFFERENT")
            bad += status != "same"
            print(f"{status:9} {run}.{name} {was} -> {h}")
    print(f"{bad} difference(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
