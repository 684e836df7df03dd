"""``ketharmad balance --game ...`` for the games on the generic harness: the targets from
the command line or a TOML file, then the one staged balancer (:func:`ketharmad.balance`)."""

from __future__ import annotations

from typing import Any

from ..game.data import read_toml_file
from ..lab.balance.search import balance
from ..results.lab import write_report
from ..run.options import RunOptions
from .lab import cli_refuse, cluster_for, live_for, progress_enabled
from .out import check_out, write_out
from .sweep import cli_bots, cli_params


def repair_from_arg(args: Any) -> Any:
    """``--repair-from NAME=VALUE ...`` as ``settings.repair_from`` (None when not given)."""
    return cli_params(args.repair_from) if args.repair_from else None


def _band_arg(flag: str, text: str) -> dict[str, float]:
    """``LOW:HIGH`` or ``TARGET`` (with the default tolerance) of a command-line band."""
    lo, sep, hi = text.partition(":")
    try:
        return {"low": float(lo), "high": float(hi)} if sep else {"target": float(lo)}
    except ValueError:
        raise ValueError(
            f"{flag} expects LOW:HIGH (e.g. 0.48:0.52) or a target, got {text!r}"
        ) from None


def cli_targets(args: Any) -> dict[str, Any]:
    """The targets of ``ketharmad balance --game``: a TARGETS.toml file, or ``--target
    SEAT=LOW:HIGH`` (a win rate with the ``--bots`` lineup; repeatable), ``--spread HIGH``,
    ``--allow PATTERN`` (repeatable), ``--range NAME=MIN:MAX[:STEP]`` and ``--max-edits``."""
    flags = (
        args.target
        or args.spread is not None
        or args.allow
        or args.range
        or args.max_edits is not None
    )
    if args.targets and flags:
        raise ValueError(
            "give the targets either as TARGETS.toml or as --target/--spread/--allow/--range/--max-edits"
        )
    if args.targets:
        return read_toml_file(args.targets, "targets file")
    doc: dict[str, Any] = {}
    metrics: list[dict[str, Any]] = []
    for item in args.target or []:
        seat, sep, band = item.partition("=")
        if not sep:
            raise ValueError(
                f"--target expects SEAT=LOW:HIGH (a seat index or side name), got {item!r}"
            )
        s: Any = int(seat) if seat.strip().isdigit() else seat.strip()
        metrics.append({"kind": "win_rate", "seat": s, **_band_arg("--target", band)})
    if args.spread is not None:
        metrics.append({"kind": "seat_spread", "high": args.spread})
    if metrics:
        doc["metrics"] = metrics
    change: dict[str, Any] = {}
    if args.allow:
        change["allow"] = list(args.allow)
    for item in args.range or []:
        name, sep, spec = item.partition("=")
        parts = spec.split(":")
        if not sep or len(parts) not in (2, 3):
            raise ValueError(f"--range expects NAME=MIN:MAX or NAME=MIN:MAX:STEP, got {item!r}")
        try:
            nums = [float(x) for x in parts]
        except ValueError:
            raise ValueError(
                f"--range expects numbers in NAME=MIN:MAX[:STEP], got {item!r}"
            ) from None
        change.setdefault("ranges", {})[name.strip()] = dict(
            zip(("min", "max", "step"), nums, strict=False)
        )  # STEP is optional
    if args.max_edits is not None:
        change["max_edits"] = args.max_edits
    if change:
        doc["change"] = change
    return doc


def cmd_game_balance(args: Any) -> None:
    """``ketharmad balance --game schotten_totten_2 --bots greedy greedy --target attacker=0.48:0.52``."""
    cli_refuse(args, "balance", [("--card-data", "card_data"), ("--format", "format")],
               "--bots, --target, --spread, --allow, --range, --max-edits, --games-per-block, --param, --seed, "
               "--budget, --journal, --threads, --progress, --out and the cluster options")  # fmt: skip
    doc = cli_targets(args)
    check_out(args, plots_required=False)

    progress = progress_enabled(args)

    with cluster_for(args) as cluster, live_for(args, f"ketharmad balance --game {args.game}"):
        res = balance(doc, game=args.game, bots=cli_bots(args.game, args.bots), seed=args.seed,
                      budget=args.budget, params=cli_params(args.param), settings={"games_per_block": args.games_per_block,
                                                                                "strategy": args.strategy,
                                                                                "repair_from": repair_from_arg(args)},
                      journal=args.journal,
                      run=RunOptions(threads=args.threads, progress=bool(progress), cluster=cluster))  # fmt: skip
    print(res.text())
    if args.out:
        run_id, md, html = write_out(
            res, args, lambda rid: write_report(res, args.out, plots=False, run_id=rid)
        )
        print(f"wrote run {run_id} to {args.out}: report {md}, HTML report {html}")
