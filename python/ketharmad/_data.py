"""Loading card-data TOML text: the packaged default or a user's file."""

from __future__ import annotations

import functools
import importlib.resources
import os
from typing import Optional, Union

__all__ = [
    "CardDataSource",
    "load_card_data",
    "describe_card_data",
    "read_capped",
    "MAX_CARD_DATA_BYTES",
]

CardDataSource = Optional[Union[str, "os.PathLike[str]"]]

#: Largest card-data file read (the packaged one is about 100 KiB).
MAX_CARD_DATA_BYTES = 16 << 20


def read_capped(path: Union[str, "os.PathLike[str]"], limit: int, what: str) -> bytes:
    """The bytes of ``path``, reading at most ``limit + 1`` of them, so a huge file or an
    endless device (``/dev/zero``) fails fast: ``ValueError`` when larger than ``limit``."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        size = f"{limit / (1 << 20):g} MiB" if limit >= 1 << 20 else f"{limit:,} bytes"
        raise ValueError(f"{what} {os.fspath(path)} is larger than {size}")
    return data


@functools.lru_cache(maxsize=1)
def _packaged_text() -> str:
    resource = importlib.resources.files("ketharmad") / "data" / "cards.toml"
    try:
        return resource.read_text(encoding="utf-8")
    except FileNotFoundError:  # a broken install, not a user error
        raise RuntimeError(
            "the packaged card data (ketharmad/data/cards.toml) is missing; reinstall ketharmad"
        ) from None


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

    ``None`` means the file shipped inside the package; otherwise ``card_data`` is the path
    (``str`` or ``os.PathLike``) of a user's TOML file of at most 16 MiB. Raises
    ``ValueError`` naming the path when it cannot be read or is larger. The text itself is
    validated by the core.
    """
    if card_data is None:
        return _packaged_text()
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
    return "packaged" if card_data is None else os.fspath(card_data)
