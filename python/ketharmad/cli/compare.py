"""``ketharmad compare RUN_A RUN_B``: the cells whose results changed beyond noise between
two runs written by ``--out`` or :func:`ketharmad.write_run` (:func:`ketharmad.compare_runs`,
docs/reports.md); printed, and as an HTML page (``--html FILE``) and a Parquet table with
the page (``--out FOLDER``)."""

from __future__ import annotations

import argparse
import os
from typing import Any

import polars as pl

from ..results.atomic import write_atomic
from ..results.compare import compare_runs
from ..results.files import check_out_file, check_out_folder

__all__ = ["add_command"]


def _cmd_compare(args: argparse.Namespace) -> None:
    html = (
        check_out_file(args.html, (".html",), overwrite=args.overwrite, name="--html")
        if args.html
        else None
    )
    folder = None
    if args.out:
        folder = check_out_folder(args.out)
        for name in ("compare.html", "compare.parquet"):
            if (folder / name).exists() and not args.overwrite:
                raise ValueError(
                    f"--out {os.fspath(folder)!r} already holds {name}; choose another folder or pass --overwrite"
                )
    res = compare_runs(
        args.run_a_path, args.run_b_path, run_a=args.run_a, run_b=args.run_b, alpha=args.alpha
    )
    print(res.text())
    if args.all:
        with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200, fmt_str_lengths=40):
            print(res.table.drop("where"))
    if html is not None:
        print(f"wrote {res.write_html(html, overwrite=args.overwrite)}")
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        page = res.write_html(folder / "compare.html", overwrite=True)
        table = write_atomic(folder / "compare.parquet", res.table.write_parquet)
        print(f"wrote {page} and {table}")


def add_command(sub: Any) -> None:
    """Register ``ketharmad compare`` on the CLI's subparsers."""
    p = sub.add_parser(
        "compare", help="the cells whose results changed beyond noise between two runs"
    )
    p.add_argument(
        "run_a_path", metavar="RUN_A", help="a run folder (--out of a command, or write_run)"
    )
    p.add_argument(
        "run_b_path", metavar="RUN_B", help="the run it is compared with (B - A is reported)"
    )
    p.add_argument(
        "--run-a", metavar="ID", default=None, help="the run in RUN_A when it holds several"
    )
    p.add_argument(
        "--run-b", metavar="ID", default=None, help="the run in RUN_B when it holds several"
    )
    p.add_argument("--alpha", type=float, default=0.05,
                   help="chance of listing any cell when nothing changed (all intervals together; default 0.05)")  # fmt: skip
    p.add_argument("--all", action="store_true", help="also print every comparison, changed or not")
    p.add_argument("--html", metavar="FILE", help="write the comparison as an HTML page (.html)")
    p.add_argument("--out", metavar="FOLDER", help="write compare.html and compare.parquet here")
    p.add_argument(
        "--overwrite", action="store_true", help="replace an existing --html file or --out files"
    )
    p.set_defaults(func=_cmd_compare)
