"""The designer's loop around the card file: find parameters by card name
(:func:`match_parameters`) and write a card-data file with overrides applied
(:func:`export_card_data`)."""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Union

import polars as pl

from .. import _core
from .._version import __version__
from ..game.data import CardDataSource, describe_card_data, flatten_table, fold_text, load_card_data
from ..game.validate import check_flag, check_params
from .files import check_out_file, write_atomic
from .frames import parameter_frame

__all__ = ["export_card_data", "render_card_data", "match_parameters", "fold_text"]

ParamValue = Union[int, bool, str]

_STATS = ("copies", "influence", "credibility")
_COSTS = {"cost_generic": "generic", "cost_f": "f", "cost_m": "m", "cost_u": "u"}
#: Keywords whose N is a parameter (the loader refuses N = 0 on them, except Exposé).
_NUMBERED = ("scandal", "expose", "movement", "sympathy", "defector", "lone")


# ---------------------------------------------------------------- finding parameters


def match_parameters(table: pl.DataFrame, cards: pl.DataFrame, match: str) -> pl.DataFrame:
    """The rows of a parameter table whose name, card id or card name contains ``match``,
    ignoring case and accents (see :func:`fold_text`); adds ``card_name``."""
    if not isinstance(match, str):
        raise ValueError(f"match must be a str, got {type(match).__name__}")
    needle = fold_text(match)
    names = dict(zip(cards["id"].to_list(), cards["name"].to_list(), strict=True))
    card_names = [names.get(c, "") for c in table["card"].to_list()]
    keep = [
        needle in fold_text(n) or needle in fold_text(c) or needle in fold_text(cn)
        for n, c, cn in zip(
            table["name"].to_list(), table["card"].to_list(), card_names, strict=True
        )
    ]
    out = table.with_columns(card_name=pl.Series(card_names, dtype=pl.String))
    return out.filter(pl.Series(keep, dtype=pl.Boolean))


# ---------------------------------------------------------------- TOML writing

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _string(k)


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (_dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise ValueError(f"cannot write a {type(v).__name__} to TOML")


def _table_lines(table: Mapping[str, Any]) -> list[str]:
    lines = []
    for k, v in table.items():
        if (
            isinstance(v, list)
            and v
            and all(isinstance(x, Mapping) for x in v)
            and k == "abilities"
        ):
            lines.append(f"{_key(k)} = [")
            lines += [f"  {_value(x)}," for x in v]
            lines.append("]")
        else:
            lines.append(f"{_key(k)} = {_value(v)}")
    return lines


def _dump(doc: Mapping[str, Any], header: list[str]) -> str:
    lines = [f"# {h}" if h else "#" for h in header]
    for name in ("meta", "params"):
        if name in doc:
            lines += ["", f"[{name}]", *_table_lines(doc[name])]
    for name in ("keyword", "card"):
        for item in doc.get(name, []):
            lines += ["", f"[[{name}]]", *_table_lines(item)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- applying overrides


def _apply(doc: dict[str, Any], params: Mapping[str, ParamValue], info: pl.DataFrame) -> None:
    by_name = {r["name"]: r for r in info.iter_rows(named=True)}
    cards = {c["id"]: c for c in doc["card"]}
    for name, value in params.items():
        row = by_name[name]  # checked by _core.validate before
        card_id = row["card"]
        if card_id == "rules":  # rules.* and keyword.*: the file's top-level [params] table
            doc["params"][name] = value
            continue
        card = cards[card_id]
        field = name[len(card_id) + 1 :]
        if field in _STATS:
            card[field] = value
        elif field in _COSTS:
            card["cost"][_COSTS[field]] = value
        elif field in _NUMBERED and any(
            k["name"] == field and k["n"] > 0 for k in card["keywords"]
        ):
            if value == 0 and field != "expose":
                # a numbered keyword with N = 0 is refused by the loader and plays as no
                # keyword at all: drop it
                card["keywords"] = [k for k in card["keywords"] if k["name"] != field]
            else:
                for k in card["keywords"]:
                    if k["name"] == field:
                        k["n"] = value
            if value == 0 and (
                field == "expose"
                or any(field in (a.get("n"), a.get("m")) for a in card.get("abilities", []))
            ):
                # a keyword at N = 0 is no parameter of the card, but an ability that reads
                # its N (Szél Bernadett's "↷: Exposé N", Márki-Zay Péter's die roll) needs
                # one: the card's params hold it (Exposé keeps its keyword at 0)
                card.setdefault("params", {})[field] = 0
        else:
            card.setdefault("params", {})[field] = value


def _normal(row: Mapping[str, Any]) -> Any:
    """A parameter's default as one comparable value."""
    kind = row["kind"]
    if kind in ("cost", "choice"):
        return row.get("default_str")
    if kind == "bool":
        return bool(row["default"])
    return row["default"]


def render_card_data(
    params: Union[None, Mapping[str, ParamValue], str, os.PathLike[str]] = None,
    card_data: CardDataSource = None,
) -> str:
    """The text of a card-data file equal to ``card_data`` with ``params`` applied (see
    :func:`export_card_data`)."""
    return render_card_text(
        load_card_data(card_data), check_params(params), describe_card_data(card_data)
    )


def render_card_text(text: str, params_: Mapping[str, ParamValue], source: str) -> str:
    """:func:`render_card_data` for card-data text already loaded and overrides already
    checked by ``check_params``; ``source`` names the text's origin in the file header."""
    import tomllib

    # the same checks (names, kinds, ranges, deck composition) as simulate(params=...)
    _core.validate(text, ["ner", "tisza"], ["random", "random"], dict(params_))

    info = parameter_frame(_core.parameter_table(text))
    doc = tomllib.loads(text)

    doc["params"] = flatten_table(doc.get("params", {}))
    _apply(doc, params_, info)
    if not doc["params"]:
        del doc["params"]
    shown = ", ".join(f"{k} = {v!r}" for k, v in params_.items()) or "none"
    header = [
        f"Kétharmad card data exported by ketharmad {_version()} from {source}",
        f"with overrides: {shown}",
        "(load it with card_data=PATH or --card-data PATH; docs/card_data.md has the schema)",
    ]
    out = _dump(doc, header)
    # the exported file must load and hold exactly the overridden values as its defaults
    new = parameter_frame(_core.parameter_table(out))
    want = {r["name"]: _normal(r) for r in info.iter_rows(named=True)}
    for name, value in params_.items():
        want[name] = value
    got = {r["name"]: _normal(r) for r in new.iter_rows(named=True)}
    for name, value in want.items():
        dropped = name not in got and value == 0 and name.rsplit(".", 1)[-1] in _NUMBERED
        if not dropped and got.get(name) != value:
            raise RuntimeError(  # a bug in this module, not a user error
                f"export_card_data: parameter {name!r} is {got.get(name)!r} in the exported "
                f"file, expected {value!r}"
            )
    extra = set(got) - set(want)
    if extra:
        raise RuntimeError(f"export_card_data: unexpected parameters {sorted(extra)}")
    return out


def export_card_data(
    path: Union[str, os.PathLike[str]],
    params: Union[None, Mapping[str, ParamValue], str, os.PathLike[str]] = None,
    card_data: CardDataSource = None,
    overwrite: bool = False,
) -> Path:
    """Write a card-data TOML file: ``card_data`` (default: the packaged set) with the
    parameter overrides ``params`` (a dict or a params file) applied.

    ``simulate(..., card_data=path)`` then plays exactly the games of
    ``simulate(..., card_data=card_data, params=params)``. A card's numbers go into its own
    fields (``copies``, ``cost``, ``influence``/``credibility``, a keyword's N, its
    ``params`` table); ``rules.*`` and ``keyword.*`` values go into the file's top-level
    ``[params]`` table. A numbered keyword set to 0 is removed from the card (the loader
    refuses ``n = 0``; it plays the same). Comments of the source file are not kept.

    Overrides are checked as ``simulate`` checks them (``ValueError`` naming the parameter);
    an existing file is refused unless ``overwrite``. Returns the path written.
    """
    out = check_out_file(path, (".toml",), overwrite=check_flag("overwrite", overwrite),
                         name="card-data export path")  # fmt: skip
    text = render_card_data(params, card_data)
    return write_atomic(out, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _version() -> str:
    return __version__


#: The header line of an exported card file that lists its overrides (:func:`render_card_text`).
OVERRIDES_HEADER = "# with overrides: "


def edit_history(text: str) -> dict[str, list[str]]:
    """The edits a card file says it carries: per card id, the numbers changed, read from
    the exporter's header line ``# with overrides: a.b = 1, ...`` (an empty dict for a file
    without one, e.g. a hand-written file or one whose comments were stripped)."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines()[:8]:
        if not line.startswith(OVERRIDES_HEADER):
            continue
        for item in line[len(OVERRIDES_HEADER) :].split(", "):
            name = item.split(" = ", 1)[0].strip()
            if "." in name and not name.startswith(("rules.", "keyword.", "format.")):
                card, number = name.rsplit(".", 1)
                out.setdefault(card, []).append(number)
    return out
