"""``__version__``, from the compiled core (no import of the package root, so every layer may
import it)."""

from __future__ import annotations

from . import _core

__version__: str = _core.version()
