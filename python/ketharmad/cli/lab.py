"""What the balance-lab commands of the CLI share (``ketharmad matchups | card-stats |
sweep``; each feature module registers its own with ``add_command``).

Each prints a text summary; with ``--out FOLDER`` it also writes the run's Parquet tables
(``FOLDER/<table>/<run_id>.parquet``, with provenance columns), ``FOLDER/report.html`` (live
while the run goes) and ``FOLDER/report.md`` with PNG plots (matplotlib, the ``report``
extra; ``--no-plots`` writes the Markdown only); :mod:`ketharmad.cli.out`.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Optional

from ..game.data import CARD_DATA_HELP
from ..game.driver import HarnessDriver, KetharmadDriver, driver_for
from ..run.cluster import _close, local_client
from ..run.progress import auto_chunk_size
from .args import PARAMS_FILE_HELP
from .out import check_out, finish, live_for

__all__ = [
    "lab_args", "run_args", "format_arg", "check_out", "finish", "live_for", "progress_enabled", "chunk_for",
    "cluster_args", "cluster_for", "out_args",
]  # fmt: skip


def progress_enabled(args: argparse.Namespace) -> bool:
    if args.progress is not None:
        return bool(args.progress)
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def chunk_for(args: argparse.Namespace, per_call: int) -> Optional[int]:
    """The chunk size of a progress meter or of the live report of ``--out`` here (the
    results do not depend on it); None on a cluster (its shards, as they finish, advance the
    meter and the report)."""
    if getattr(args, "scheduler", None) or getattr(args, "workers", None) is not None:
        return None
    live = bool(getattr(args, "out", None))
    return auto_chunk_size(per_call) if progress_enabled(args) or live else None


def cluster_args(p: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS`` or ``--workers N``: run the games on Dask (docs/scale_out.md)."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the games on the Dask cluster of this scheduler (tcp://host:8786; "
                        "pip install 'ketharmad[dask]')")  # fmt: skip
    g.add_argument("--workers", type=int, metavar="N",
                   help="run the games on a local Dask cluster of N single-threaded worker processes")  # fmt: skip


@contextlib.contextmanager
def cluster_for(args: argparse.Namespace) -> Iterator[Any]:
    """The ``cluster=`` of a command: None, the ``--scheduler`` address, or a client of a
    local cluster of ``--workers`` processes (closed when the block ends)."""
    scheduler = getattr(args, "scheduler", None)
    workers = getattr(args, "workers", None)
    if scheduler:
        yield scheduler
        return
    if workers is None:
        yield None
        return
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")

    client = local_client(workers)
    try:
        yield client
    finally:
        _close(client)


FORMAT_HELP = (
    "the game format: a name (ffa, quick, coalition, ...; `ketharmad formats` lists them, "
    "docs/formats.md) or the path of a TOML file with one [formats.NAME] table (default: ffa)"
)


def format_arg(p: argparse.ArgumentParser) -> None:
    """``--format NAME|FILE`` (every command that plays games)."""
    p.add_argument("--format", default=None, metavar="FORMAT", help=FORMAT_HELP)


GAME_HELP = (
    "the game: ketharmad (default), schotten_totten_2 or osztrakon "
    "(`ketharmad games` lists them, with their bots, seats and parameters)"
)


def game_arg(p: argparse.ArgumentParser) -> None:
    """``--game NAME`` (every command that plays games; default Kétharmad). Adding it twice
    to one parser is harmless (a command and a shared helper may both call it)."""
    if any("--game" in a.option_strings for a in p._actions):
        return
    p.add_argument("--game", default="ketharmad", metavar="GAME", help=GAME_HELP)


def lab_args(p: argparse.ArgumentParser, games_help: str, games_default: Optional[int]) -> None:
    p.add_argument("--games", type=int, default=games_default, help=games_help)
    p.add_argument("--bots", nargs="+", default=None, metavar="BOT",
                   help="bot spec (name or JSON; default: heuristic)")  # fmt: skip
    run_args(p)


def run_args(p: argparse.ArgumentParser) -> None:
    """What every lab command takes besides its games and bots: seed, threads, parameters,
    card data, format, ``--out`` and its options, progress and the cluster."""
    p.add_argument("--seed", type=int, default=None, help="batch seed (default: 0)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="parameter override, repeatable (see `ketharmad params`)")  # fmt: skip

    p.add_argument("--params", metavar="FILE", help=PARAMS_FILE_HELP)
    p.add_argument("--card-data", metavar="PATH|SET", help=CARD_DATA_HELP)
    format_arg(p)
    out_args(p)
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")  # fmt: skip
    cluster_args(p)


def out_args(p: argparse.ArgumentParser) -> None:
    """``--out FOLDER``, ``--run-id``, ``--overwrite`` and ``--no-plots`` (docs/reports.md)."""
    p.add_argument("--out", metavar="FOLDER",
                   help="write the run here: Parquet tables (with provenance), report.html (live while "
                        "the run goes), report.md and PNG plots; refused if it holds an earlier run")  # fmt: skip
    p.add_argument("--run-id", metavar="ID",
                   help="name of the run's files in --out (default: <command>-<UTC time>-<random>)")  # fmt: skip
    p.add_argument("--overwrite", action="store_true",
                   help="replace the earlier run in --out (its tables, reports, plots and replay pages)")  # fmt: skip
    p.add_argument(
        "--no-plots", action="store_true", help="report.md without PNG plots (no matplotlib)"
    )


def driver_of(args: Any) -> KetharmadDriver | HarnessDriver:
    """The driver of ``--game`` (an unknown game: a ValueError listing the known ones)."""
    return driver_for(args.game)


def cli_refuse(args: Any, command: str, flags: Sequence[tuple[str, str]], takes: str) -> None:
    """Refuse the flags ``--game``'s game does not take (``flags``: (flag, attribute) pairs;
    a flag counts as given unless None, False or empty), through the game's driver:
    "--decks: Kétharmad only; `ketharmad sweep --game osztrakon` takes ..."."""
    given = {flag: getattr(args, attr, None) not in (None, False, []) for flag, attr in flags}
    driver_of(args).refuse(f"ketharmad {command}", given, takes)
