"""Atomic file writes: a file is written in full under a temporary name in its folder and
renamed into place, so no reader ever sees half a file (Parquet tables, reports, plots)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["temp_name", "write_atomic", "write_text_atomic", "discard"]


def temp_name(path: Path) -> Path:
    """The temporary name a file is written under before it is renamed to ``path``: in the
    same folder (so the rename is atomic), dot-prefixed and ending in ``.tmp``, so no
    ``*.parquet`` / ``*.png`` / ``*.html`` glob and no reader of the final name ever sees it."""
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")


def discard(path: Path) -> None:
    """Remove ``path`` if it exists."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def write_atomic(path: Path, write: Callable[[Path], Any]) -> Path:
    """Call ``write(tmp)`` to write the file under a temporary name, then rename it to
    ``path`` (atomic on POSIX). On any error the temporary file is removed and ``path`` is
    left as it was."""
    tmp = temp_name(path)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise
    return path


def write_text_atomic(path: Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically (:func:`write_atomic`)."""
    return write_atomic(Path(path), lambda tmp: tmp.write_text(text, encoding="utf-8"))
