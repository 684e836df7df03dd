"""Loading card-data TOML text: the packaged default or a user's file."""

from __future__ import annotations

import functools
import importlib.resources
import os
import unicodedata
from collections.abc import Mapping
from typing import Any, Optional, Union

__all__ = [
    "CardDataSource",
    "CARD_SETS",
    "CARD_DATA_HELP",
    "card_set_name",
    "load_card_data",
    "describe_card_data",
    "read_capped",
    "read_toml_file",
    "toml_depth",
    "flatten_table",
    "load_params_file",
    "MAX_CARD_DATA_BYTES",
    "MAX_TOML_FILE_BYTES",
    "MAX_TOML_DEPTH",
]

CardDataSource = Optional[Union[str, "os.PathLike[str]"]]

#: Largest card-data file read (the packaged one is about 100 KiB).
MAX_CARD_DATA_BYTES = 16 << 20

#: Largest sweep or params file read, and the deepest nesting of its tables and arrays.
MAX_TOML_FILE_BYTES = 1 << 20
MAX_TOML_DEPTH = 32


def read_capped(path: Union[str, os.PathLike[str]], limit: int, what: str) -> bytes:
    """The bytes of ``path``, reading at most ``limit + 1`` of them, so a huge file or an
    endless device (``/dev/zero``) fails fast: ``ValueError`` when larger than ``limit``."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        size = f"{limit / (1 << 20):g} MiB" if limit >= 1 << 20 else f"{limit:,} bytes"
        raise ValueError(f"{what} {os.fspath(path)} is larger than {size}")
    return data


#: The card sets shipped with the package, by name: ``card_data="balanced"`` (CLI
#: ``--card-data balanced``) selects one; ``None`` or ``"draft"`` is the default set.
CARD_SETS = {"draft": "cards.toml", "balanced": "cards_balanced.toml"}
CARD_DATA_HELP = "card-data TOML file, or a packaged set: draft (the default) or balanced"


@functools.lru_cache(maxsize=len(CARD_SETS))
def _packaged_text(name: str = "draft") -> str:
    file = CARD_SETS[name]
    resource = importlib.resources.files("ketharmad") / "data" / file
    try:
        return resource.read_text(encoding="utf-8")
    except FileNotFoundError:  # a broken install, not a user error
        raise RuntimeError(
            f"the packaged card data (ketharmad/data/{file}) is missing; reinstall ketharmad"
        ) from None


def card_set_name(card_data: object) -> Optional[str]:
    """The packaged set ``card_data`` names ("draft", "balanced"), or None for a path. A
    bare name wins over a file of that name in the working directory (pass ``./balanced``
    for the file)."""
    if card_data is None:
        return "draft"
    if isinstance(card_data, str) and card_data in CARD_SETS:
        return card_data
    return None


# The last text read from each of a few paths, with its bytes: when a file is read again with
# the same bytes, the same str object is returned. The core caches the parsed card data by the
# text, and CPython keeps a str's UTF-8 form, so a repeated call with the same file (a balance
# run's thousands of evaluations) skips the decoding, the re-encoding and the text compare
# (about 0.1-0.2 ms a call). Keyed by content, never by modification time: an edited file is
# always read afresh.
_TEXTS: dict[Union[str, bytes], tuple[bytes, str]] = {}
_TEXTS_KEPT = 8


def _same_text(path: Union[str, bytes], data: bytes) -> Optional[str]:
    hit = _TEXTS.get(path)
    return hit[1] if hit is not None and hit[0] == data else None


def _remember_text(path: Union[str, bytes], data: bytes, text: str) -> str:
    _TEXTS.pop(path, None)
    while len(_TEXTS) >= _TEXTS_KEPT:
        try:
            _TEXTS.pop(next(iter(_TEXTS)), None)  # the least recently stored
        except (StopIteration, RuntimeError):  # another thread changed it meanwhile
            break
    _TEXTS[path] = (data, text)
    return text


def load_card_data(card_data: CardDataSource = None) -> str:
    """Return the text of the card-data TOML file to hand to the Rust core.

    ``None`` (or ``"draft"``) means the reconstructed card set shipped inside the package,
    ``"balanced"`` the packaged balanced set (docs/balanced_set.md); otherwise ``card_data``
    is the path (``str`` or ``os.PathLike``) of a user's TOML file of at most 16 MiB. Raises
    ``ValueError`` naming the path when it cannot be read or is larger. The text itself is
    validated by the core.
    """
    name = card_set_name(card_data)
    if name is not None:
        return _packaged_text(name)
    if isinstance(card_data, bytes) or not isinstance(card_data, (str, os.PathLike)):
        raise ValueError(
            f"card_data must be None or a path to a TOML file, got {type(card_data).__name__}"
        )
    path = os.fspath(card_data)
    if isinstance(path, str) and "\n" in path:
        raise ValueError(
            "card_data must be a path to a TOML file, not the TOML text itself; "
            "write the text to a file and pass its path"
        )
    try:
        data = read_capped(path, MAX_CARD_DATA_BYTES, "card data file")
        return _same_text(path, data) or _remember_text(path, data, data.decode("utf-8"))
    except FileNotFoundError:
        raise ValueError(f"card data file not found: {path}") from None
    except IsADirectoryError:
        raise ValueError(f"card data path is a directory, not a file: {path}") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"card data file {path} is not valid UTF-8: {e}") from None
    except OSError as e:
        raise ValueError(f"cannot read card data file {path}: {e.strerror or e}") from None


def describe_card_data(card_data: CardDataSource = None) -> str:
    """Human-readable name of a card-data source (for reprs and reports)."""
    if card_data is None:
        return "packaged"
    name = card_set_name(card_data)
    return f"packaged:{name}" if name is not None else os.fspath(card_data)


def toml_depth(value: Any, limit: int = MAX_TOML_DEPTH) -> int:
    """How deeply tables and arrays nest in a parsed TOML document (without recursion;
    stops looking below ``limit + 1`` levels)."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        if depth + 1 <= limit:  # deeper is refused anyway
            stack.extend((child, depth + 1) for child in children)
    return deepest


def flatten_table(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"ner_orban_viktor": {"influence": [4, 5]}}`` -> ``{"ner_orban_viktor.influence":
    [4, 5]}``: TOML reads an unquoted dotted key (or a ``[table]`` header) as nested tables."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten_table(value, name + "."))
        else:
            out[name] = value
    return out


def read_toml_file(path: Union[str, os.PathLike[str]], what: str) -> dict[str, Any]:
    """Parse a small TOML file (at most 1 MiB, tables and arrays nested at most 32 deep);
    ``ValueError`` naming ``what`` and the path otherwise."""
    import tomllib

    path = os.fspath(path)
    try:
        text = read_capped(path, MAX_TOML_FILE_BYTES, what).decode("utf-8")
    except FileNotFoundError:
        raise ValueError(f"{what} not found: {path}") from None
    except IsADirectoryError:
        raise ValueError(f"{what} {path} is a directory") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{what} {path} is not valid UTF-8: {e}") from None
    except OSError as e:
        raise ValueError(f"cannot read {what} {path}: {e.strerror or e}") from None
    too_deep = f"{what} {path} is nested deeper than {MAX_TOML_DEPTH} levels"
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{what} {path} is not valid TOML: {e}") from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise ValueError(too_deep) from None
    if toml_depth(doc) > MAX_TOML_DEPTH:
        raise ValueError(too_deep)
    return doc


def load_params_file(path: Union[str, os.PathLike[str]]) -> dict[str, Union[int, bool, str]]:
    """Read a params file: a TOML table of parameter overrides ``name = value``.

    Names may be quoted (``"ner_orban_viktor.influence" = 6``), bare dotted keys
    (``ner_orban_viktor.influence = 6``) or keys under a table header (``[ner_orban_viktor]``
    then ``influence = 6``; ``[rules]`` then ``starting_support = 25``): all give the same
    dotted names. Values are integers, booleans or strings (cost strings such as
    ``"{1}{M}"``). ``ValueError`` naming the file and the key for anything else; the names
    themselves are checked against the card data where the overrides are used.
    """
    doc = read_toml_file(path, "params file")
    where = os.fspath(path)
    out: dict[str, Union[int, bool, str]] = {}
    for name, value in flatten_table(doc).items():
        if isinstance(value, (bool, int, str)):
            out[name] = value
        else:
            kind = "array" if isinstance(value, list) else type(value).__name__
            raise ValueError(
                f"params file {where}: key {name!r}: expected an integer, true/false or a "
                f"string, got {kind} {value!r}"
            )
    return out


def fold_text(text: str) -> str:
    """Lower-case, accents removed, ``_`` read as a space: ``"Orbán Viktor"``,
    ``"orban_viktor"`` and ``"ORBAN VIKTOR"`` all fold to ``"orban viktor"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().replace("_", " ").split())


#: The model files shipped in the package (``scripts/train_models.py`` for Kétharmad's, the
#: same pipeline run once for Schotten Totten 2's policy; docs/learning.md). Kétharmad's are
#: also built into the library: ``"learned"`` and ``value="shipped"`` / ``prior="shipped"``.
SHIPPED_MODELS: dict[str, str] = {
    name: os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        "data",
        "models",
        f"{name}.khnn",
    )
    for name in ("ketharmad-policy", "ketharmad-value", "st2-policy", "st2-value")
}
