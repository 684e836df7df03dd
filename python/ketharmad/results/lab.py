"""The base class of the lab's results: named tables, provenance, a text summary, Markdown,
plots and Parquet, written once for every feature (matchups, sweep, tournament, card_stats,
balance).

A feature's result class sets ``kind`` and provides its tables (:meth:`LabResult.tables`),
its text (:meth:`LabResult.text`), its Markdown body (:meth:`LabResult._markdown`) and,
optionally, its plots (:meth:`LabResult.plots`); it keeps the card-data text it ran with as
``_card_text`` and its ``seed``, ``bots``, ``params``, ``card_data`` and ``elapsed``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar, Optional, Union

import polars as pl

from .. import _core
from .._version import __version__
from .files import _json, provenance, write_atomic, write_run
from .lab_report import require_matplotlib

__all__ = ["LabResult", "write_report", "harness_provenance", "harness_parquet_provenance"]


class LabResult:
    """Tables, provenance, text, Markdown, plots and Parquet of one lab run."""

    #: The run kind in provenance and run ids (``matchups``, ``sweep``, ...).
    kind: ClassVar[str] = "lab"
    #: The card-data text of the run (set by every feature's result; "" for the harness games).
    _card_text: str

    # ------------------------------------------------------------ what a feature provides

    def tables(self) -> dict[str, pl.DataFrame]:
        """The result's tables by name (the Parquet files :meth:`write_parquet` writes)."""
        raise NotImplementedError

    def text(self) -> str:
        """The plain-text summary (``str(result)``, ``repr(result)``, the CLI output)."""
        raise NotImplementedError

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        """The lines of ``report.md``; with ``plots`` the PNGs are drawn into ``folder``."""
        raise NotImplementedError

    def plots(self, folder: Union[str, os.PathLike[str]]) -> list[Path]:
        """Draw the result's plots (PNG, matplotlib) into ``folder``; returns their paths."""
        return []

    def html_views(self) -> list[Any]:
        """The heatmaps and charts of the result's ``report.html`` (:mod:`ketharmad.lab.html_views`),
        in page order; none by default."""
        return []

    def _decks(self) -> Any:
        """The decks / deck pairings the run played (provenance)."""
        return getattr(self, "decks", None)

    def _games_played(self) -> int:
        return int(getattr(self, "n_games", 0))

    #: The plan the run played (one dict per cell, :meth:`ketharmad.run.plan.Plan.describe`),
    #: or None when the run kept no plan.
    plan: Optional[list[dict[str, Any]]] = None

    # ------------------------------------------------------------ shared behaviour

    def provenance(self) -> dict[str, Any]:
        """Where the numbers come from: ``kind``, ``version``, ``card_data`` (name) and
        ``card_data_hash``, ``seed``, ``bots``, ``params``, ``decks``, ``games`` and ``plan``
        (the cells, when kept)."""
        return {
            "kind": self.kind,
            "version": __version__,
            "card_data": str(getattr(self, "card_data", "")),
            "card_data_hash": _core.card_data_hash(self._card_text),
            "seed": getattr(self, "seed", None),
            "bots": getattr(self, "bots", None),
            "params": dict(getattr(self, "params", None) or {}),
            "decks": self._decks(),
            "games": self._games_played(),
            "plan": self.plan,
        }

    def _provenance(self) -> dict[str, Any]:
        """The provenance columns of the Parquet files (:data:`ketharmad.results.files.PROVENANCE_COLUMNS`)."""
        p = self.provenance()
        return provenance(
            p["kind"],
            self._card_text,
            p["params"],
            p["bots"],
            p["decks"],
            p["seed"] or 0,
            p["games"],
        )

    def _parquet_tables(self) -> dict[str, pl.DataFrame]:
        return self.tables()

    def to_markdown(
        self, folder: Union[None, str, os.PathLike[str]] = None, plots: bool = False
    ) -> str:
        """The Markdown report (what ``report.md`` holds); ``plots=True`` also draws the
        plots into ``folder`` and links them."""
        if plots and folder is None:
            raise ValueError("to_markdown(plots=True) needs the folder to draw the plots into")
        root = None if folder is None else Path(folder)
        return "\n".join(self._markdown(root, plots)) + "\n"

    def write_parquet(
        self, folder: Any, run_id: Optional[str] = None, overwrite: bool = False
    ) -> dict[str, Path]:
        """Write the tables as ``folder/<table>/<run_id>.parquet`` with provenance columns;
        see :func:`ketharmad.write_run`. Returns ``{table: path}``."""
        return write_run(self, folder, run_id=run_id, overwrite=overwrite)

    def write_report(
        self, folder: Union[str, os.PathLike[str]], plots: bool = True, run_id: Optional[str] = None
    ) -> Path:
        """Write ``folder/report.md`` and its plots; see :func:`ketharmad.write_report`."""
        return write_report(self, folder, plots=plots, run_id=run_id)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text()


def write_report(
    result: Any,
    folder: Union[str, os.PathLike[str]],
    plots: bool = True,
    run_id: Optional[str] = None,
) -> Path:
    """Write ``report.md`` (Markdown tables) and its PNG plots into ``folder``.

    ``result``: a :class:`ketharmad.MatchupResult` (win-rate heatmap or faction bars),
    :class:`ketharmad.CardStatsResult` (IWD bar chart), :class:`ketharmad.SweepResult`
    (win rate against each swept parameter with error bars), :class:`ketharmad.TournamentResult`
    or :class:`ketharmad.BalanceResult` (any :class:`~ketharmad.results.lab.LabResult`; its
    ``to_markdown()`` is the text). ``plots=False`` writes the Markdown only (no matplotlib
    needed). Returns the path of ``report.md``.
    """
    if not isinstance(result, LabResult):
        raise ValueError(
            "write_report needs the result of matchups, card_stats, sweep, tournament or balance, "
            f"got {type(result).__name__}"
        )
    if plots:
        require_matplotlib()
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    lines = result._markdown(root, plots)
    if run_id:
        lines += ["", f"Parquet tables of this run: `*/{run_id}.parquet` in this folder "
                      "(read with `pl.scan_parquet(folder / '<table>' / '*.parquet')`)."]  # fmt: skip

    text = "\n".join(lines) + "\n"
    return write_atomic(root / "report.md", lambda tmp: tmp.write_text(text, encoding="utf-8"))


# -- provenance of the runs of a game on the generic harness (sweep, balance) -------------------


def harness_provenance(result: Any, kind: str) -> dict[str, Any]:
    """The provenance of a harness-game run: the game instead of card data."""
    return {"kind": kind, "version": __version__, "game": result.game, "card_data": result.game,
            "card_data_hash": "", "seed": result.seed, "bots": result.bots, "params": dict(result.params),
            "decks": {"game": result.game, "sides": result.sides}, "games": result._games_played(),
            "plan": None}  # fmt: skip


def harness_parquet_provenance(result: Any, kind: str) -> dict[str, Any]:
    """The Parquet provenance columns (:data:`ketharmad.results.files.PROVENANCE_COLUMNS`); the card
    data hash column holds ``game:<name>``, ``run_decks`` the game and its sides."""
    p = harness_provenance(result, kind)
    return {"run_kind": kind, "run_version": __version__, "run_card_data_hash": f"game:{result.game}",
            "run_params": _json(p["params"]), "run_bots": _json(p["bots"]), "run_decks": _json(p["decks"]),
            "run_seed": int(p["seed"]), "run_games": int(p["games"])}  # fmt: skip
