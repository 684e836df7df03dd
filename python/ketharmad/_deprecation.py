"""Deprecations: how an old form of the API keeps working for one release and says what
replaces it (modelled on polars' ``_utils/deprecation.py``).

Every deprecated form issues a :class:`DeprecationWarning` that names its replacement and the
release it goes in::

    simulate_game is deprecated in 0.2.0, removed in 0.3.0: use simulate(game=...) instead

:func:`deprecate_function` wraps a whole function, :func:`deprecate_renamed_parameter` a
keyword that got a new name, :func:`fold_keywords` keywords that became the fields of one
value (``threads=`` ... into ``run=RunOptions(...)``), and :func:`issue_deprecation_warning` is the one place a warning
is raised (for an old *meaning* of an argument, e.g. an int ``game=`` that is a batch index).
The warning points at the caller's line outside this package (``find_stacklevel``), so
``python -W error::DeprecationWarning`` and pytest's ``filterwarnings = error`` name the
user's code.
"""

from __future__ import annotations

import functools
import inspect
import os
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "DEPRECATED_IN",
    "REMOVED_IN",
    "deprecate_function",
    "deprecate_renamed_parameter",
    "fold_keywords",
    "deprecation_message",
    "find_stacklevel",
    "issue_deprecation_warning",
]

#: The release that deprecates the forms below, and the one that removes them.
DEPRECATED_IN = "0.2.0"
REMOVED_IN = "0.3.0"

F = TypeVar("F", bound=Callable[..., Any])

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def find_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside the ketharmad package (so the warning
    names the user's line, however deep inside the package it is raised)."""
    frame = inspect.currentframe()
    level = 0
    try:
        while frame is not None:
            path = os.path.abspath(frame.f_code.co_filename)
            if not path.startswith(_PACKAGE_DIR + os.sep):
                break
            frame = frame.f_back
            level += 1
    finally:
        del frame
    return max(level, 1)


def deprecation_message(
    old: str, replacement: str, version: str = DEPRECATED_IN, removed: str = REMOVED_IN
) -> str:
    """``"<old> is deprecated in <version>, removed in <removed>: use <replacement> instead"``."""
    return f"{old} is deprecated in {version}, removed in {removed}: use {replacement} instead"


def issue_deprecation_warning(
    old: str, replacement: str, *, version: str = DEPRECATED_IN, removed: str = REMOVED_IN
) -> None:
    """Warn (``DeprecationWarning``) that ``old`` goes in ``removed``, naming ``replacement``."""
    warnings.warn(deprecation_message(old, replacement, version, removed), DeprecationWarning,
                  stacklevel=find_stacklevel())  # fmt: skip


def deprecate_function(
    replacement: str,
    *,
    name: str | None = None,
    version: str = DEPRECATED_IN,
    removed: str = REMOVED_IN,
) -> Callable[[F], F]:
    """Decorator: calling the function warns that it is deprecated in favour of
    ``replacement`` (a text such as ``"simulate(game=...)"``), then runs it unchanged."""

    def decorate(fn: F) -> F:
        old = name or fn.__name__

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            issue_deprecation_warning(old, replacement, version=version, removed=removed)
            return fn(*args, **kwargs)

        wrapper.__doc__ = (
            f"Deprecated in {version}, removed in {removed}: use {replacement} instead.\n\n"
            + (fn.__doc__ or "")
        )
        return wrapper  # type: ignore[return-value]

    return decorate


def deprecate_renamed_parameter(
    old_name: str, new_name: str, *, version: str = DEPRECATED_IN, removed: str = REMOVED_IN
) -> Callable[[F], F]:
    """Decorator: the keyword ``old_name`` still works (it is passed on as ``new_name``) and
    warns; giving both is a TypeError."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if old_name in kwargs:
                if new_name in kwargs:
                    raise TypeError(
                        f"{fn.__name__}() got both {old_name}= (deprecated) and {new_name}=; give {new_name}= only"
                    )
                issue_deprecation_warning(f"the {old_name}= keyword of {fn.__name__}()", f"{new_name}=",
                                          version=version, removed=removed)  # fmt: skip
                kwargs[new_name] = kwargs.pop(old_name)
            return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def fold_keywords(
    target: str,
    names: tuple[str, ...],
    fold: Callable[[str, tuple[str, ...], Any, dict[str, Any]], Any],
    *,
    example: str,
    version: str = DEPRECATED_IN,
    removed: str = REMOVED_IN,
) -> Callable[[F], F]:
    """Decorator: the keywords ``names`` became fields of the one keyword ``target`` (e.g.
    ``threads=`` and ``chunk_size=`` of ``run=RunOptions(...)``). An old keyword still works:
    it is popped, warns (naming ``example`` with its ``{fields}`` filled in, e.g.
    ``run=RunOptions(threads=...)``, and the version it goes in) and is folded in.

    ``fold(call, names, value of target or None, {old name: value})`` gives the value the
    function receives as ``target``; it is called on every call (also without an old
    keyword), so it is where the value is checked once, and it raises the ValueError of a
    field given both ways."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            old = {k: kwargs.pop(k) for k in names if k in kwargs}
            if old:
                fields = ", ".join(f"{k}=..." for k in old)
                issue_deprecation_warning(
                    f"{fn.__name__}({fields})", f"{fn.__name__}({example.format(fields=fields)})",
                    version=version, removed=removed,
                )  # fmt: skip
            kwargs[target] = fold(fn.__name__, names, kwargs.get(target), old)
            return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
